"""The audit page writes a round agreed (Duplicate Law E) as a director reads it, "Round 1
agreed at table 1", never its data ("section: A, tables: 1, round: 1"); and an event's
status and its boards not in, in words ("setting up", one board a clause)."""

import re

import pytest
from django.utils.html import strip_tags

from tournaments import prepared, presenters, services
from tournaments.models import AuditEntry, Event, Meeting
from tournaments.services import Actor

from .conftest import make_event

PLAY = {"contract": {"level": 2, "denomination": "H", "declarer": "S", "doubled": ""},
        "tricks": 8, "honours": {"N": 2, "E": 1, "S": 1, "W": 1}}

pytestmark = pytest.mark.django_db


def play(event, meeting: Meeting, boards=None) -> None:
    """The table enters and confirms its boards (all of the meeting's, or `boards`)."""
    actor = Actor.at_table(meeting.section, meeting.table)
    for board in boards if boards is not None else meeting.boards:
        result, _ = services.result_record(event=event, board=board, ns=meeting.ns_pair.number,
                                           ew=meeting.ew_pair.number, data=PLAY, actor=actor,
                                           meeting=meeting)
        services.result_confirm(result=result, actor=actor,
                                by=f"E-W pair {meeting.ew_pair.number}")


def audit_row(director_client, event, entry: AuditEntry) -> str:
    """The text of the entry's row on the audit page, its cells apart by " | "."""
    html = director_client.get(f"/director/events/{event.pk}/audit/").content.decode()
    row = re.search(rf'<tr id="audit-{entry.pk}".*?</tr>', html, re.S).group(0)
    return " | ".join(" ".join(strip_tags(c).split())
                      for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S))


def last(event, action: str) -> AuditEntry:
    return AuditEntry.objects.filter(event=event, action=action).latest("id")


def test_a_table_agreeing_its_round_reads_as_a_sentence(director, director_client):
    event = make_event(director)
    meeting = Meeting.objects.select_related("section", "ns_pair", "ew_pair").get(
        section__event=event, round=1, table=1)
    play(event, meeting)
    services.round_agree(section=meeting.section, round_number=1,
                         actor=Actor.at_table(meeting.section, 1))
    entry = last(event, "agree round")
    assert entry.after == {"section": "A", "round": 1, "tables": [1]}
    row = audit_row(director_client, event, entry)
    assert "Round 1 agreed at table 1" in row
    assert "tables:" not in row and "section:" not in row and "round:" not in row


def test_the_tables_one_statement_road_reads_the_same(director, director_client):
    """The table's hot path (PostgreSQL's tournaments_table_agree) writes the same entry."""
    event = make_event(director)
    meeting = Meeting.objects.select_related("section", "ns_pair", "ew_pair").get(
        section__event=event, round=1, table=2)
    play(event, meeting)
    agreed = services.round_agree_at_table(event=event, section=meeting.section,
                                           meeting=meeting,
                                           actor=Actor.at_table(meeting.section, 2))
    assert agreed == (1 if prepared.available() else None)
    if agreed is None:  # not PostgreSQL: round_agree, the same entry
        services.round_agree(section=meeting.section, round_number=1,
                             actor=Actor.at_table(meeting.section, 2))
    row = audit_row(director_client, event, last(event, "agree round"))
    assert "Round 1 agreed at table 2" in row
    assert "tables:" not in row


def test_the_director_agreeing_with_boards_not_in_says_which(director, director_client):
    event = make_event(director)
    meetings = {m.table: m for m in Meeting.objects.select_related(
        "section", "ns_pair", "ew_pair").filter(section__event=event, round=1)}
    play(event, meetings[1])
    play(event, meetings[2], boards=[3])
    services.round_agree(section=meetings[1].section, round_number=1,
                         actor=Actor.director(director))
    row = audit_row(director_client, event, last(event, "agree round"))
    assert ("Round 1 agreed at tables 1–2 with 1 board not in: table 2: board 4 not "
            "entered") in row
    assert "not in:" not in row.split("with 1 board")[0]


def test_several_sections_name_the_section():
    assert presenters.agree_round_words(
        {"section": "B", "round": 2, "tables": [1, 2, 3, 4]}, several=True) == \
        "Section B: round 2 agreed at tables 1–4"
    assert presenters.agree_round_words(
        {"section": "A", "round": 2, "tables": [3]}) == "Round 2 agreed at table 3"


def test_an_events_status_reads_in_words(director, director_client):
    event = make_event(director, status=Event.Status.SETTING_UP)
    services.event_set_status(event=event, status=Event.Status.RUNNING,
                              actor=Actor.director(director))
    row = audit_row(director_client, event, last(event, "status"))
    assert "status: setting up" in row and "setting-up" not in row
    meeting = Meeting.objects.select_related("section", "ns_pair", "ew_pair").get(
        section__event=event, round=1, table=1)
    play(event, meeting, boards=[1])
    services.event_set_status(event=event, status=Event.Status.AGREED,
                              actor=Actor.director(director), reason="the club is closing")
    row = audit_row(director_client, event, last(event, "status"))
    assert ("not in: Round 1, table 1: board 2 not entered; Round 1, table 2: board 3 not "
            "entered") in row
    assert " & Round" not in row
