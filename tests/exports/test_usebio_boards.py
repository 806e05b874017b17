"""USEBIO's boards are the boards played: BOARDS_PLAYED counts the boards with a result,
and a night without any result is refused (the command, and the director's page, say
why) rather than sent out as a file of empty boards."""

from io import StringIO
from xml.etree import ElementTree as ET

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from tests.api.helpers import build_night

from .test_formats import dtd_errors

pytestmark = pytest.mark.django_db
NO_RESULTS = "no board of this event has a result yet"


def usebio(event) -> str:
    out = StringIO()
    call_command("export_results", str(event.pk), "--format", "usebio", stdout=out)
    return out.getvalue()


def test_boards_played_counts_only_boards_with_a_result(director):
    """Table 1 has played round 1 (boards 1 and 2) of six boards."""
    night = build_night(director)
    for board in night.meeting(1, 1).boards:
        night.enter(1, 1, board)
    text = usebio(night.event)
    assert dtd_errors(text) == []
    event = ET.fromstring(text).find("EVENT")
    assert event.findtext("BOARDS_PLAYED") == "2"
    assert [b.findtext("BOARD_NUMBER") for b in event.findall("BOARD")] == ["1", "2"]


def test_a_night_without_results_is_refused_by_the_command(director):
    night = build_night(director)
    with pytest.raises(CommandError, match=NO_RESULTS):
        usebio(night.event)


def test_the_directors_page_says_why(director):
    night = build_night(director)
    client = Client()
    client.force_login(director)
    response = client.get(f"/director/events/{night.event.pk}/exports/usebio/", follow=True)
    assert response.redirect_chain[-1][0] == f"/events/{night.event.pk}/reports/"
    assert NO_RESULTS in response.content.decode()


def test_pbn_results_of_a_night_without_results_are_refused_too(director):
    """A results file with no game in it is not sent as if it were one: the command and
    the director's page say why, and where the boards' hand record is."""
    night = build_night(director)
    with pytest.raises(CommandError, match=NO_RESULTS + r" \(the hand record is on the "
                                           r"Boards page\)"):
        call_command("export_results", str(night.event.pk), "--format", "pbn",
                     stdout=StringIO())
    client = Client()
    client.force_login(director)
    response = client.get(f"/director/events/{night.event.pk}/exports/pbn/", follow=True)
    assert "PBN results need results" in response.content.decode()
    night.enter(1, 1, night.meeting(1, 1).boards[0])
    out = StringIO()
    call_command("export_results", str(night.event.pk), "--format", "pbn", stdout=out)
    assert out.getvalue().count("[Board ") == 1
