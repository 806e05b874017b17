"""The score cards and standings PDFs show a pair's substitute beside its players."""

from tournaments import services, standings
from tournaments.reports.documents import ScorecardsRenderer, StandingsRenderer
from tournaments.reports.services import report_data

from .night import PLAYERS
from .pdf import pdf_text
from .test_renderers import render


def test_the_score_card_and_standings_show_the_substitute(night, director):
    services.substitute_set(event=night.event, number=1, seat=2, player="Carl Day",
                            from_round=2, actor=services.Actor.director(director),
                            reason="ill")
    names = f"{PLAYERS[1][0]} & {PLAYERS[1][1]} (Carl Day for {PLAYERS[1][1]} from round 2)"
    cards = pdf_text(render(ScorecardsRenderer, report_data(night.event, "scorecards"))[1])
    assert f"Pair 1: {names}" in " ".join(cards.split())
    table = pdf_text(render(StandingsRenderer, standings.standings(night.event))[1])
    assert "Carl Day for" in " ".join(table.split())


def test_the_public_event_page_names_the_substitute_too(night, director, client):
    services.substitute_set(event=night.event, number=1, seat=2, player="Carl Day",
                            from_round=2, actor=services.Actor.director(director),
                            reason="ill")
    page = client.get(f"/events/{night.event.pk}/").content.decode()
    assert (f"{PLAYERS[1][0]} &amp; {PLAYERS[1][1]} (Carl Day for {PLAYERS[1][1]} from "
            "round 2)") in page
