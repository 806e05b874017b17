"""The standings PDF of a two-section night names each section's rankings."""

from tests.tournaments.test_sections import _play, two_section_night
from tournaments import standings
from tournaments.reports.documents import StandingsRenderer
from tournaments.services import Actor

from .pdf import pdf_text
from .test_renderers import render


def test_standings_pdf_across_the_field_adds_each_section(director):
    actor = Actor.director(director)
    event = two_section_night(actor)
    _play(event, actor)
    text = pdf_text(render(StandingsRenderer, standings.standings(event))[1])
    assert "Each section's places" in text
    assert "Section A, North–South" in text and "Section B, East–West" in text


def test_standings_pdf_within_each_section(director):
    actor = Actor.director(director)
    event = two_section_night(actor, by_section=True)
    _play(event, actor)
    text = pdf_text(render(StandingsRenderer, standings.standings(event))[1])
    assert "Each section's places" not in text
    assert "Section B, North–South" in text
