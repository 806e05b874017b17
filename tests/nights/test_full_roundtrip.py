"""A closed, published night survives export then import whole (docs/night-file.md).

The night is built through the services as a club plays it: two sections (A: a
4-table skip Mitchell, B: a 3-table Mitchell on the same boards), results entered at
the tables and confirmed by the opponents, a correction with a reason, a fouled board,
a removed result entered again, a removal undone, every round agreed, the event
closed and published final. After export and import every stored field is compared
(ids, change numbers, row versions, table codes and the importer's own set-up log
aside: docs/night-file.md says why), and export → import → export is the same file.
"""

import datetime
import json

import pytest
from django.contrib.auth import get_user_model

from boards.movements import mitchell
from tests.nights.conftest import DEALS
from tournaments.models import AuditEntry, Board, Event, Meeting, Pair, Result, Section
from tournaments.nightfile import night_export
from tournaments.services import (
    Actor,
    audit_undo,
    boards_set,
    event_close,
    event_create,
    event_publish,
    event_set_status,
    movement_and_boards_set,
    pair_set,
    result_confirm,
    result_correct,
    result_record,
    result_void,
    round_agree,
    ruling_award,
)
from tournaments.standings import standings
from tournaments.tablecodes import new_code

STORED = ("ruling", "offending", "level", "denomination", "declarer", "doubled", "tricks",
          "passed_out", "details", "ns_trick", "ns_honour", "ew_trick", "ew_honour", "ns_score",
          "ew_score", "status", "entered_by", "confirmed_by", "voided")
CONTRACTS = [("NT", "N"), ("H", "S"), ("S", "E"), ("D", "W"), ("C", "N"), ("RS", "E")]


def _play(board: int, table: int) -> dict:
    denomination, declarer = CONTRACTS[(board + table) % len(CONTRACTS)]
    play = {"contract": {"level": 1 + (board * table) % 3, "denomination": denomination,
                         "declarer": declarer},
            "tricks": 6 + (board + 2 * table) % 5}
    if board > len(DEALS):
        # No hand record: live entry gives every honour (the aces at no trump).
        play["honours"] = ({"N": 1, "E": 1, "S": 1, "W": 1} if denomination == "NT"
                           else {"N": 2, "E": 1, "S": 1, "W": 1})
    return play


@pytest.fixture
def closed_night(db) -> Event:
    director = Actor.director(get_user_model().objects.create_user(
        username="hattie", password="x", is_staff=True))
    event = event_create(name="Tuesday duplicate", date=datetime.date(2026, 11, 17),
                         actor=director)
    for number in range(1, 15):
        pair_set(event=event, number=number,
                 players=[f"Ada Vance {number}", f"Ben Wolcott {number}"], actor=director)
    boards_set(event=event, count=8, deals=dict(enumerate(DEALS, start=1)), actor=director)
    section_a = event.sections.get()
    movement_and_boards_set(section=section_a, movement=mitchell(4, 2, variant="skip"),
                            actor=director)
    # A second section: the console sets up section A only, the models hold several.
    # Pairs 9-14 play a 3-table Mitchell on boards 1-6, compared within their section.
    section_b = Section.objects.create(event=event, name="B", movement="mitchell", tables=3,
                                       boards_per_round=2)
    pairs = {p.number: p for p in Pair.objects.filter(event=event)}
    for rnd in mitchell(3, 2).rounds:
        for t in rnd.tables:
            Meeting.objects.create(section=section_b, round=rnd.number, table=t.table,
                                   ns_pair=pairs[t.ns + 8], ew_pair=pairs[t.ew + 8],
                                   boards=list(t.boards))
    for table in (1, 2, 3):
        section_b.table_codes.create(table=table, code=new_code())
    Pair.objects.filter(number__gt=8, event=event).update(section=section_b)
    Event.objects.filter(pk=event.pk).update(compare_by_section=True)
    event_set_status(event=event, status=Event.Status.RUNNING, actor=director)

    stored = {}
    for meeting in Meeting.objects.filter(section__event=event).select_related(
            "section", "ns_pair", "ew_pair").order_by("section__name", "round", "table"):
        table = Actor.at_table(meeting.section, meeting.table)
        if meeting.round > 1:  # the table moves on once its last round is agreed
            round_agree(section=meeting.section, round_number=meeting.round - 1,
                        actor=director, tables=[meeting.table])
        for board in meeting.boards:
            if (meeting.section.name, board, meeting.table) == ("A", 3, 2):
                continue  # the fouled board, below
            result, _ = result_record(event=event, board=board, ns=meeting.ns_pair.number,
                                      ew=meeting.ew_pair.number, actor=table, meeting=meeting,
                                      data=_play(board, meeting.table))
            if board % 2:
                result = result_confirm(result=result, actor=table, by="E-W pair")
            stored[meeting.section.name, board, meeting.table] = result
    fouled = next(m for m in Meeting.objects.filter(section=section_a, table=2)
                  if 3 in m.boards)
    ruling_award(event=event, board=3, ns=fouled.ns_pair.number, ew=fouled.ew_pair.number,
                 kind="fouled", offending="ew", meeting=fouled, actor=director,
                 reason="East held 14 cards, West 12")
    first = stored["A", 1, 1]
    result_correct(result=first, actor=director, reason="nine tricks, not eight: the "
                                                        "last trick was miscounted",
                   data={**_play(1, 1), "tricks": 9})
    # Removed, then entered again by the director: both rows are kept.
    wrong = stored["B", 2, 1]
    result_void(result=wrong, actor=director, reason="entered for the wrong pairs")
    result_record(event=event, board=2, ns=wrong.ns_pair.number, ew=wrong.ew_pair.number,
                  data=_play(2, 3), actor=director, meeting=wrong.meeting)
    # Removed by mistake and put back: an undone change.
    back = stored["B", 4, 2]
    result_void(result=back, actor=director, reason="thought it a duplicate")
    audit_undo(entry=AuditEntry.objects.get(result=back, action="void"), actor=director,
               reason="it was not a duplicate")
    for section in (section_a, section_b):
        for rnd in sorted(set(section.meetings.values_list("round", flat=True))):
            round_agree(section=section, round_number=rnd, actor=director)
    event = event_close(event=event, actor=director)
    return event_publish(event=event, level=Event.Published.FINAL, actor=director)


def _event(event: Event) -> tuple:
    event.refresh_from_db()
    return (event.name, event.date, event.rules, event.kind, event.method, event.status,
            event.published, event.compare_by_section)


def _sections(event: Event) -> list:
    return [(s.name, s.movement, s.variant, s.tables, s.boards_per_round,
             s.table_codes.count())
            for s in Section.objects.filter(event=event).order_by("name")]


def _meetings(event: Event) -> list:
    return [(m.section.name, m.round, m.table, m.ns_pair.number, m.ew_pair.number, m.boards,
             m.agreed_at)
            for m in Meeting.objects.filter(section__event=event).select_related(
                "section", "ns_pair", "ew_pair").order_by("section__name", "round", "table")]


def _pairs(event: Event) -> list:
    return [(p.number, p.names, p.team and p.team.name, p.section and p.section.name)
            for p in Pair.objects.filter(event=event).select_related(
                "player_1", "player_2", "team", "section")]


def _boards(event: Event) -> list:
    return list(Board.objects.filter(event=event).order_by("number")
                .values_list("number", "deal"))


def _results(event: Event) -> list:
    """Every result, removed ones too, with its meeting and its audit history."""
    rows = []
    for r in Result.objects.filter(event=event).select_related(
            "board", "ns_pair", "ew_pair", "meeting__section").order_by(
            "board__number", "ns_pair__number", "ew_pair__number", "voided"):
        meeting = r.meeting and (r.meeting.section.name, r.meeting.round, r.meeting.table)
        history = [(a.action, a.actor_label, a.at, a.reason, a.before, a.after,
                    a.undone_by is not None and a.undone_by.action)
                   for a in r.audit.select_related("undone_by").order_by("at", "id")]
        rows.append((r.board.number, r.ns_pair.number, r.ew_pair.number, meeting,
                     *(getattr(r, name) for name in STORED), history))
    return rows


def _standings(event: Event) -> dict:
    data = standings(event)
    data.pop("seq")
    return data


def test_a_closed_published_night_comes_back_whole(closed_night, import_dict):
    exported = night_export(closed_night)
    again = import_dict(json.loads(json.dumps(exported)))
    assert again.pk != closed_night.pk
    assert _event(again) == _event(closed_night) == (
        "Tuesday duplicate", datetime.date(2026, 11, 17), "american-1913", "pairs",
        "plus-minus", "closed", "final", True)
    assert _sections(again) == _sections(closed_night) == [
        ("A", "mitchell", "skip", 4, 2, 4), ("B", "mitchell", "", 3, 2, 3)]
    assert _meetings(again) == _meetings(closed_night)
    assert all(m[-1] is not None for m in _meetings(again))  # every round agreed
    assert _pairs(again) == _pairs(closed_night)
    assert _boards(again) == _boards(closed_night)
    assert _results(again) == _results(closed_night)
    assert _standings(again) == _standings(closed_night)
    assert night_export(again) == exported


def test_the_file_names_what_happened(closed_night):
    night = night_export(closed_night)
    assert list(night) == ["format", "event", "boards", "sections", "pairs", "results",
                           "removed"]
    assert night["event"] == {"name": "Tuesday duplicate", "date": "2026-11-17",
                              "rules": "american-1913", "kind": "pairs",
                              "method": "plus-minus", "status": "closed",
                              "published": "final", "compare_by_section": True}
    assert [(s["name"], s["movement"], s.get("variant"), len(s["meetings"]))
            for s in night["sections"]] == [("A", "mitchell", "skip", 12),
                                            ("B", "mitchell", None, 9)]
    assert {p["section"] for p in night["pairs"] if p["number"] > 8} == {"B"}
    fouled = [r for r in night["results"] if "ruling" in r]
    assert len(fouled) == 1
    assert fouled[0]["ruling"] == {"kind": "fouled", "offending": "ew"}
    assert (fouled[0]["meeting"]["section"], fouled[0]["meeting"]["table"]) == ("A", 2)
    assert [(h["action"], h["by"], h["reason"]) for h in fouled[0]["history"]] == [
        ("rule", "director hattie", "East held 14 cards, West 12")]
    corrected = next(r for r in night["results"]
                     if r.get("meeting") == {"section": "A", "round": 1, "table": 1}
                     and r["board"] == 1)
    assert corrected["result"]["tricks"] == 9
    assert "status" not in corrected  # the director's (the default): left out
    assert corrected["entered_by"] == "table 1"
    enter, confirm, correct = corrected["history"]
    assert (confirm["action"], confirm["before"]["status"], confirm["after"]["status"]) == (
        "confirm", "entered", "confirmed")
    assert (enter["action"], enter["by"], enter["after"]["result"]["tricks"]) == (
        "enter", "table 1", _play(1, 1)["tricks"])
    assert (correct["action"], correct["by"], correct["reason"]) == (
        "correct", "director hattie", "nine tricks, not eight: the last trick was miscounted")
    assert correct["before"]["result"]["tricks"] == _play(1, 1)["tricks"]
    assert correct["after"]["result"]["tricks"] == 9
    confirmed = [r for r in night["results"] if r.get("status") == "confirmed"]
    assert confirmed and all(r["confirmed_by"] == "E-W pair" for r in confirmed)
    [removed] = night["removed"]
    assert removed["meeting"]["section"] == "B" and removed["board"] == 2
    assert removed["history"][-1]["action"] == "void"
    assert removed["history"][-1]["reason"] == "entered for the wrong pairs"
    undone = next(r for r in night["results"] if any(h["action"] == "undo"
                                                     for h in r.get("history", [])))
    actions = [h["action"] for h in undone["history"]]
    assert actions == ["enter", "void", "undo"]
    assert undone["history"][1]["undone_by"] == 2
    # Times are written in UTC, to the microsecond.
    assert undone["history"][0]["at"].endswith("+00:00")


def test_an_old_reader_still_finds_interfaces_fields(closed_night):
    """What interfaces.md §2 names is all there, shaped as before; removed results
    are not among `results`, so a reader that knows only §2 counts none of them."""
    night = night_export(closed_night)
    live = Result.objects.filter(event=closed_night, voided=False).count()
    assert len(night["results"]) == live
    for item in night["results"]:
        assert {"board", "ns", "ew"} <= set(item)
        assert ("result" in item) != ("ruling" in item)
