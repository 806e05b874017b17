"""USEBIO's places and rankings as the standings define them: a tie written once ("1="),
and sections ranked each on their own refused rather than written as one field."""

import datetime
from io import StringIO
from xml.etree import ElementTree as ET

import pytest
from django.core.management import CommandError, call_command

from tests.api.helpers import TWO_HEARTS, build_night
from tests.tournaments.test_sections import two_section_night
from tournaments import exports, services
from tournaments.models import Event, Meeting
from tournaments.services import Actor
from tournaments.standings import clear_cache, standings

from .test_formats import dtd_errors

pytestmark = pytest.mark.django_db


def usebio(event: Event) -> str:
    out = StringIO()
    call_command("export_results", str(event.pk), "--format", "usebio", stdout=out)
    return out.getvalue()


def test_a_tie_from_the_standings_is_written_once(director):
    """Every table plays the same contract: every pair is level, and the standings give
    each the place "1=". USEBIO writes that place as it is, never "1==" (the DTD: "2="
    for a tie)."""
    night = build_night(director)
    night.play_all()
    rankings = standings(night.event)["rankings"]
    assert {row["place"] for ranking in rankings for row in ranking["rows"]} == {"1="}
    text = usebio(night.event)
    assert dtd_errors(text) == []
    places = [p.findtext("PLACE") for p in ET.fromstring(text).findall("EVENT/PARTICIPANTS/PAIR")]
    assert places == ["1="] * 6


def two_sections(director, *, by_section: bool) -> Event:
    """12 pairs: 1-6 in section A, 7-12 in section B, a 3-table Mitchell in each; round 1
    at table 1 played in both sections."""
    actor = Actor.director(director)
    event = two_section_night(actor, by_section=by_section, tables=3, boards_per_round=2)
    event = services.event_set_status(event=event, status=Event.Status.RUNNING, actor=actor)
    for m in Meeting.objects.filter(section__event=event, round=1, table=1).select_related(
            "ns_pair", "ew_pair"):
        services.result_record(event=event, board=m.boards[0], ns=m.ns_pair.number,
                               ew=m.ew_pair.number, data=TWO_HEARTS, actor=actor, meeting=m)
    clear_cache()
    event.refresh_from_db()
    return event


def test_sections_ranked_each_on_its_own_are_refused(director):
    """Compared within the section, A's N-S pair and B's N-S pair are each first: a file
    of one field would show two N-S winners and nothing to tell the sections apart."""
    event = two_sections(director, by_section=True)
    assert [(r["section"], r["direction"]) for r in standings(event)["rankings"]] == [
        ("A", "NS"), ("A", "EW"), ("B", "NS"), ("B", "EW")]
    with pytest.raises(CommandError, match=r"each section \(A, B\) on its own.*sent as PBN"):
        usebio(event)


def test_a_howell_ranked_by_section_is_refused_too():
    """One ranking per section, no direction: it was written as WINNER_TYPE 2 with no
    DIRECTION."""
    rankings = [{"section": name, "direction": "ALL", "rows": [
        {"place": "1", "pair": pair, "score": 10, "exact": "10", "boards": 1}]}
        for name, pair in (("A", 1), ("B", 2))]
    data = exports.ExportData(
        event_id=1, name="Night", date=datetime.date(2026, 1, 2), club="Club", kind="pairs",
        method="plus-minus", rules="american-1913", is_whist=False, players={},
        rankings=rankings, travellers=[{"board": 1, "deal": "", "rows": [{"ns": 1}]}])
    with pytest.raises(exports.ExportError, match="each section"):
        exports.usebio_xml(data)


def test_sections_compared_across_the_field_are_one_field(director):
    """Compared across the field, the rankings are the field's (the sections' places are
    extra): the file is written, N-S and E-W ranked apart."""
    event = two_sections(director, by_section=False)
    text = usebio(event)
    assert dtd_errors(text) == []
    root = ET.fromstring(text)
    assert root.findtext("EVENT/WINNER_TYPE") == "2"
    ns = [p for p in root.findall("EVENT/PARTICIPANTS/PAIR") if p.findtext("DIRECTION") == "NS"]
    assert {p.findtext("PAIR_NUMBER") for p in ns} == {"1", "7"}
