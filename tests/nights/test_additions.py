"""The optional additions to duplicate-night/1 (docs/night-file.md): read when present,
refused by place when wrong, and a file without them imports exactly as before."""

import copy

import pytest

from tournaments.models import AuditEntry, Event, Meeting, Result, Section
from tournaments.nightfile import NightFileError, night_check, night_export
from tournaments.standings import standings

SECTIONS = [{"name": "A", "movement": "mitchell", "tables": 2, "boards_per_round": 2,
             "meetings": [
                 {"round": 1, "table": 1, "ns": 1, "ew": 3, "boards": [1, 2]},
                 {"round": 1, "table": 2, "ns": 2, "ew": 4, "boards": [1, 2]},
                 {"round": 2, "table": 1, "ns": 1, "ew": 4, "boards": [3, 4]},
                 {"round": 2, "table": 2, "ns": 2, "ew": 3, "boards": [3, 4]}]}]
AT = "2026-11-17T20:15:00+00:00"


def with_sections(night: dict) -> dict:
    night = copy.deepcopy(night)
    night["sections"] = copy.deepcopy(SECTIONS)
    night["results"][0]["meeting"] = {"section": "A", "round": 1, "table": 1}
    return night


def test_a_board_not_played_is_stored_and_credits_no_one(import_dict, night):
    # interfaces.md §2: "not-played" has no comparison; neither pair is credited. It is
    # stored as a ruling (own-average and team matches read it) and exported back.
    night["results"][-1] = {"board": 4, "ns": 2, "ew": 3, "ruling": {"kind": "not-played"}}
    event = import_dict(night)
    row = Result.objects.get(event=event, board__number=4, ns_pair__number=2)
    assert row.ruling == "not-played" and row.ns_score is None
    assert Result.objects.filter(event=event).count() == 8
    entry = AuditEntry.objects.get(event=event, action="import")
    assert entry.after == {"results": 7, "rulings": 0, "not_played": 1}
    assert night_export(event)["results"][-1] == night["results"][-1]
    rows = {r["pair"]: r for ranking in standings(event)["rankings"] for r in ranking["rows"]}
    assert rows[2]["not_played"] == 1 and rows[3]["not_played"] == 1


def test_not_played_scoring_is_read_and_written_back(import_dict, night):
    # docs/night-file.md: "not_played_scoring", neuberg when absent (and left out).
    assert import_dict(copy.deepcopy(night)).not_played_scoring == "neuberg"
    night["event"]["method"] = "matchpoints"
    night["event"]["not_played_scoring"] = "own-average"
    event = import_dict(night)
    assert event.not_played_scoring == "own-average"
    assert night_export(event)["event"]["not_played_scoring"] == "own-average"
    event.not_played_scoring = "neuberg"
    event.save()
    assert "not_played_scoring" not in night_export(event)["event"]


def test_a_seat_left_out_holds_no_honours(import_dict, night):
    # interfaces.md: in a file, a seat left out of "honours" holds none, even when no
    # hand record says otherwise (the live entry's stricter check is not the file's).
    for board in night["boards"]:
        board.pop("deal")
    played = {"contract": {"level": 4, "denomination": "H", "declarer": "S"}, "tricks": 10}
    scores = []
    for honours in ({}, {"S": 4}, None):
        data = copy.deepcopy(night)
        data["results"][0]["result"] = dict(played) if honours is None else {
            **played, "honours": honours}
        event = import_dict(data)
        row = Result.objects.get(event=event, board__number=1, ns_pair__number=1)
        scores.append((row.ns_honour, row.ew_honour))
    # No honours held scores as no honours given; four held by South score more.
    assert scores[0] == scores[2] != scores[1]


def test_meetings_and_result_places_are_stored(import_dict, night):
    event = import_dict(with_sections(night))
    assert Section.objects.get(event=event).movement == "mitchell"
    assert Meeting.objects.filter(section__event=event).count() == 4
    first = Result.objects.get(event=event, board__number=1, ns_pair__number=1)
    assert (first.meeting.round, first.meeting.table) == (1, 1)
    # Each table's code is made anew; the file never carries codes.
    assert Section.objects.get(event=event).table_codes.count() == 2


def test_state_and_publishing_are_read(import_dict, night):
    night["event"].update(status="closed", published="provisional")
    event = import_dict(night)
    assert (event.status, event.published) == (Event.Status.CLOSED,
                                               Event.Published.PROVISIONAL)
    assert night_export(event)["event"]["status"] == "closed"


def test_history_and_event_audit_come_back(import_dict, night):
    played = night["results"][0]["result"]
    night["results"][0]["history"] = [
        {"action": "enter", "by": "table 1", "at": AT,
         "after": {"result": {**played, "tricks": 7}, "status": "entered"}},
        {"action": "correct", "by": "director hattie", "at": "2026-11-17T20:40:00+00:00",
         "reason": "eight tricks, not seven",
         "before": {"result": {**played, "tricks": 7}, "status": "entered"},
         "after": {"result": played}},
    ]
    night["audit"] = [{"action": "status", "by": "director hattie", "at": AT,
                       "reason": "board 4 was not played at table 2: agreed without it",
                       "before": {"status": "running"}, "after": {"status": "agreed"}}]
    event = import_dict(night)
    result = Result.objects.get(event=event, board__number=1, ns_pair__number=1)
    enter, correct = result.audit.order_by("at")
    assert (enter.action, enter.actor_label, enter.after["tricks"], enter.after["status"]) == (
        "enter", "table 1", 7, "entered")
    assert (correct.reason, correct.before["tricks"], correct.after["tricks"]) == (
        "eight tricks, not seven", 7, 8)
    assert correct.at.isoformat() == "2026-11-17T20:40:00+00:00"
    decision = AuditEntry.objects.get(event=event, result=None, reason__startswith="board 4")
    assert decision.after == {"status": "agreed"}
    exported = night_export(event)
    assert exported["audit"] == night["audit"]
    assert exported["results"][0]["history"][1]["reason"] == "eight tricks, not seven"


BAD = [
    (lambda n: n["event"].update(status="finished"),
     "event.status: the event's state must be one of setting-up, running, agreed, closed, "
     "not 'finished'"),
    (lambda n: n["event"].update(published="yes"),
     "event.published: the publishing level must be one of none, provisional, final"),
    (lambda n: n["event"].update(compare_by_section="no"),
     "event.compare_by_section: compare_by_section is true or false, not text"),
    (lambda n: n["sections"][0]["meetings"][1].update(ns=9),
     "sections[0].meetings[1].ns: pair 9 is not in the pairs list"),
    (lambda n: n["sections"][0]["meetings"][2].update(boards=[3, 7]),
     "sections[0].meetings[2].boards[1]: board 7 is not in the boards list"),
    (lambda n: n["sections"][0]["meetings"][3].update(round=1, table=1),
     "sections[0].meetings[3]: table 1 in round 1 is listed twice"),
    (lambda n: n["sections"][0].update(movement="swiss"),
     "sections[0].movement: the movement must be one of mitchell, howell, "
     "three-quarter-howell, team-match, none, not 'swiss'"),
    (lambda n: n.update(sections=[]), "sections: an event has at least one section"),
    (lambda n: n["pairs"][2].update(section="B"),
     "pairs[2].section: section B is not in the sections list"),
    (lambda n: n["results"][0].update(meeting={"section": "A", "round": 2, "table": 1}),
     "results[0].meeting: board 1 between pairs 1 and 3 is not played at table 1 in round 2"),
    (lambda n: n["results"][1].update(status="checked"),
     "results[1].status: the result's state must be one of entered, confirmed, director"),
    (lambda n: n["results"][2].update(history=[{"action": "enter", "by": "table 2",
                                                "at": "20:15"}]),
     "results[2].history[0].at: the time of the change must be a time with its offset"),
    (lambda n: n["results"][2].update(history=[{"action": "enter", "by": "table 2", "at": AT,
                                                "after": {"result": {"tricks": 14}}}]),
     "results[2].history[0].after.result"),
    (lambda n: n["results"][2].update(history=[{"action": "void", "by": "director", "at": AT,
                                                "undone_by": 0}]),
     "results[2].history[0].undone_by: names a later entry"),
    (lambda n: n["results"][7].update(late_play="yes"),
     "results[7].late_play: late_play is true or false, not text"),
    (lambda n: n["results"][7].update(ruling={"kind": "not-played"}, late_play=True),
     "results[7].late_play: only a played board is played late, not a ruling"),
    (lambda n: n["event"].update(not_played_scoring="average"),
     "event.not_played_scoring: the scoring of a board not played must be one of neuberg, "
     "own-average, not 'average'"),
    (lambda n: n.update(audit=[{"action": "status", "by": "director", "at": AT,
                                "after": "agreed"}]),
     "audit[0].after: after must be an object, not text"),
]


@pytest.mark.parametrize(("change", "message"), BAD, ids=[m.split(":")[0] for _, m in BAD])
def test_a_wrong_addition_is_refused_by_place(night, change, message):
    night = with_sections(night)
    change(night)
    with pytest.raises(NightFileError) as caught:
        night_check(night)
    assert str(caught.value).startswith(message)


def test_a_closed_provisional_night_starts_a_fresh_correction_period(import_dict, night):
    # docs/decisions.md: the end of a running correction period is not carried; the
    # club that imports the file gets its own period (the event's length of it).
    import datetime

    from django.utils import timezone

    night["event"].update({"status": "closed", "published": "provisional",
                           "correction_minutes": 45})
    before = timezone.now()
    event = import_dict(night)
    assert (event.status, event.published, event.correction_minutes) == (
        "closed", "provisional", 45)
    assert event.in_correction_period
    assert (before + datetime.timedelta(minutes=45) <= event.final_after
            <= timezone.now() + datetime.timedelta(minutes=45))
    assert night_export(event)["event"]["correction_minutes"] == 45


def test_a_late_result_and_a_not_played_ruling_go_round_trip(import_dict, night):
    # docs/night-file.md: "late_play": true on a played result; "not-played" stored.
    night["results"][0]["late_play"] = True
    night["results"][-1] = {"board": 4, "ns": 2, "ew": 3, "ruling": {"kind": "not-played"},
                            "history": [
                                {"action": "rule", "by": "director hattie", "at": AT,
                                 "reason": "slow play",
                                 "after": {"ruling": {"kind": "not-played"}}}]}
    event = import_dict(night)
    assert Result.objects.get(event=event, late_play=True).board.number == \
        night["results"][0]["board"]
    out = night_export(event)
    assert out["results"][0]["late_play"] is True
    again = import_dict(out)
    assert night_export(again) == out


def test_a_late_result_in_place_of_not_played_keeps_its_history(import_dict):
    # A night where the director marked a board not played and the table then played it
    # late with leave: the file carries both steps, and undo still works after the import.
    from tests.api.helpers import TWO_HEARTS, build_night
    from tests.factories import DirectorFactory
    from tournaments import services
    from tournaments.services import Actor

    played = build_night(DirectorFactory(username="hattie"))
    meeting = played.meeting(2, 1)
    board = meeting.boards[0]
    services.boards_not_played(meeting=meeting, boards=[board], actor=played.actor,
                               reason="time")
    services.late_play_allow(meeting=meeting, boards=[board], actor=played.actor,
                             reason="played at the end")
    played.enter(2, 1, board, TWO_HEARTS)
    out = night_export(played.event)
    [item] = [r for r in out["results"] if r["board"] == board]
    assert item["late_play"] is True and item["status"] == "entered"
    assert [h["action"] for h in item["history"]] == ["rule", "late play"]
    assert item["history"][1]["before"] == {"ruling": {"kind": "not-played"},
                                            "status": "director"}
    assert item["history"][1]["after"]["late_play"] is True
    copied = import_dict(out)
    assert night_export(copied) == out
    entry = AuditEntry.objects.get(event=copied, action="late play")
    services.audit_undo(entry=entry, actor=Actor.director(played.director),
                        reason="not played after all")
    result = Result.objects.get(event=copied, board__number=board, voided=False)
    assert (result.ruling, result.late_play) == ("not-played", False)
