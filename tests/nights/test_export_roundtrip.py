"""Export then import gives the same night: event, boards, results, rulings, standings."""

import datetime
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tests.nights.conftest import DEALS, load_example
from tournaments.models import Result
from tournaments.nightfile import night_export
from tournaments.services import (
    Actor,
    boards_set,
    event_create,
    pair_set,
    result_correct,
    result_record,
    result_void,
    ruling_award,
    teams_set,
)
from tournaments.standings import standings

STORED = ("ruling", "offending", "level", "denomination", "declarer", "doubled", "tricks",
          "passed_out", "details", "ns_trick", "ns_honour", "ew_trick", "ew_honour", "ns_score",
          "ew_score")


def _rows(event) -> list[tuple]:
    """The live results as stored, by board and pairs (ids and times aside)."""
    rows = Result.objects.filter(event=event, voided=False).values_list(
        "board__number", "ns_pair__number", "ew_pair__number", *STORED)
    return sorted(rows, key=lambda row: row[:3])


def _standings(event) -> dict:
    data = standings(event)
    data.pop("seq")  # the change counter of each event, not part of the standings
    return data


def _order(night: dict) -> dict:
    night = dict(night)
    night["results"] = sorted(night["results"], key=lambda r: (r["board"], r["ns"], r["ew"]))
    return night


@pytest.mark.parametrize("name", ["night-mitchell", "night-teams"])
def test_export_of_an_example_is_the_example(import_dict, name):
    data = load_example(f"{name}.json")
    event = import_dict(data)
    # The same night, results in board and pair order.
    assert night_export(event) == _order(data)


@pytest.mark.parametrize("name", ["night-mitchell", "night-teams"])
def test_export_then_import_keeps_results_rulings_and_standings(import_dict, name):
    first = import_dict(load_example(f"{name}.json"))
    exported = night_export(first)
    second = import_dict(json.loads(json.dumps(exported)))
    assert second.pk != first.pk
    assert _rows(second) == _rows(first)
    assert _standings(second) == _standings(first)
    assert night_export(second) == exported


@pytest.fixture
def played_event(db):
    """An English-rule night built through the services, with every kind of row."""
    director = Actor.director(get_user_model().objects.create_user(
        username="hattie", password="x", is_staff=True))
    table = Actor.system("import")
    event = event_create(name="Thursday at the Union Club", date=datetime.date(2026, 11, 19),
                         rules="english", method="matchpoints", actor=director)
    for number, names in enumerate([("Hattie Beekman", "Walter Ludlow"),
                                    ("Clara Schermerhorn", "Amos Pell"),
                                    ("Edith Rhinelander", "Jasper Goelet"),
                                    ("Lavinia Stuyvesant", "Horace Brevoort")], start=1):
        pair_set(event=event, number=number, players=names, actor=director)
    boards_set(event=event, count=3, deals={1: DEALS[0], 3: DEALS[2]}, actor=director)
    record = {
        (1, 1, 3): {"contract": {"level": 2, "denomination": "H", "declarer": "N",
                                 "doubled": "X"}, "tricks": 9,
                    "revokes": {"declaring": 0, "defending": 1, "first_penalty": "tricks"}},
        (1, 2, 4): {"contract": {"level": 1, "denomination": "NT", "declarer": "E"},
                    "tricks": 6, "penalties": [{"law": "90", "by": "S"}]},
        (2, 1, 4): {"contract": None, "tricks": 0},
        (2, 2, 3): {"contract": {"level": 3, "denomination": "S", "declarer": "W"},
                    "tricks": 8, "honours": {"W": 3, "E": 1}},
        (3, 1, 3): {"contract": {"level": 1, "denomination": "D", "declarer": "S"},
                    "tricks": 7},
    }
    results = {}
    for (board, ns, ew), data in record.items():
        results[board, ns, ew], _ = result_record(event=event, board=board, ns=ns, ew=ew,
                                                  data=data, actor=table)
    result_correct(result=results[3, 1, 3], actor=director, reason="tricks miscounted",
                   data={"contract": {"level": 1, "denomination": "D", "declarer": "S"},
                         "tricks": 8})
    ruling_award(event=event, board=3, ns=2, ew=4, kind="fouled", offending="ns",
                 actor=director, reason="South held 14 cards")
    extra, _ = result_record(event=event, board=2, ns=3, ew=4,
                             data={"contract": {"level": 1, "denomination": "C",
                                                "declarer": "N"}, "tricks": 7}, actor=table)
    result_void(result=extra, actor=director, reason="pairs 3 and 4 did not meet")
    return event


def test_export_import_export_is_the_same_file(played_event, import_dict):
    exported = night_export(played_event)
    again = import_dict(json.loads(json.dumps(exported)))
    assert night_export(again) == exported
    assert _rows(again) == _rows(played_event)
    assert _standings(again) == _standings(played_event)


CORE = ("board", "ns", "ew", "result", "ruling")  # a result's fields in interfaces.md §2


def _core(item: dict) -> dict:
    return {key: item[key] for key in CORE if key in item}


def test_export_writes_what_the_night_file_names(played_event):
    night = night_export(played_event)
    # interfaces.md's lists, and the removed result in its own list (docs/night-file.md).
    assert list(night) == ["format", "event", "boards", "pairs", "results", "removed"]
    assert night["event"] == {"name": "Thursday at the Union Club", "date": "2026-11-19",
                              "rules": "english", "kind": "pairs", "method": "matchpoints",
                              "status": "setting-up"}
    # A deal only where it is known; no teams in a pairs event.
    assert [sorted(board) for board in night["boards"]] == [
        ["deal", "number"], ["number"], ["deal", "number"]]
    assert all(set(pair) == {"number", "players"} for pair in night["pairs"])
    by_place = {(r["board"], r["ns"], r["ew"]): _core(r) for r in night["results"]}
    assert (2, 3, 4) not in by_place  # removed by the director
    assert [_core(r) for r in night["removed"]] == [
        {"board": 2, "ns": 3, "ew": 4, "result": {
            "contract": {"level": 1, "denomination": "C", "declarer": "N", "doubled": ""},
            "tricks": 7}}]
    assert by_place[2, 1, 4] == {"board": 2, "ns": 1, "ew": 4,
                                 "result": {"contract": None, "tricks": 0}}
    assert by_place[3, 1, 3]["result"]["tricks"] == 8  # as corrected
    assert by_place[3, 2, 4] == {"board": 3, "ns": 2, "ew": 4,
                                 "ruling": {"kind": "fouled", "offending": "ns"}}
    assert by_place[1, 1, 3]["result"]["revokes"] == {"declaring": 0, "defending": 1,
                                                      "first_penalty": "tricks"}
    assert by_place[1, 2, 4]["result"]["penalties"] == [{"law": "90", "by": "S"}]
    assert all(set(r) in ({"board", "ns", "ew", "result"}, {"board", "ns", "ew", "ruling"})
               for r in by_place.values())


def test_duplicate_whist_round_trip(db, import_dict):
    actor = Actor.system("import")
    event = event_create(name="Whist drive", date=datetime.date(2026, 12, 1),
                         rules="duplicate-whist", actor=actor)
    for number in (1, 2, 3, 4):
        pair_set(event=event, number=number, players=[f"Rose Tilden {number}",
                                                      f"Otis Kip {number}"], actor=actor)
    boards_set(event=event, count=2, actor=actor)
    result_record(event=event, board=1, ns=1, ew=2, data={"tricks_ns": 8}, actor=actor)
    result_record(event=event, board=1, ns=3, ew=4, data={"tricks_ns": 6,
                                                          "revokes": {"NS": 0, "EW": 1}},
                  actor=actor)
    exported = night_export(event)
    assert exported["results"][1]["result"] == {"tricks_ns": 6, "revokes": {"NS": 0, "EW": 1}}
    again = import_dict(json.loads(json.dumps(exported)))
    assert night_export(again) == exported
    assert _standings(again) == _standings(event)


def test_teams_event_without_pairs_round_trips(db, import_dict):
    actor = Actor.system("import")
    event = event_create(name="Cup match", date=datetime.date(2026, 12, 3), kind="teams",
                         actor=actor)
    teams_set(event=event, names=["Gramercy", "Murray Hill"], actor=actor)
    exported = night_export(event)
    assert exported["teams"] == [{"name": "Gramercy"}, {"name": "Murray Hill"}]
    assert night_export(import_dict(exported)) == exported


def test_export_command_writes_the_file(import_dict):
    event = import_dict(load_example("night-teams.json"))
    out = io.StringIO()
    call_command("export_night", str(event.pk), stdout=out)
    assert json.loads(out.getvalue()) == night_export(event)


def test_export_command_names_a_missing_event(db):
    with pytest.raises(CommandError, match="there is no event with id 999"):
        call_command("export_night", "999")


def test_the_correction_period_goes_with_the_night(import_dict):
    """The event's correction period (minutes) is kept; the default 30 is not written."""
    from tournaments.nightfile import NightFileError

    data = load_example("night-mitchell.json")
    assert "correction_minutes" not in night_export(import_dict(data))["event"]
    data["event"]["correction_minutes"] = 10
    event = import_dict(data)
    assert event.correction_minutes == 10
    assert night_export(event)["event"]["correction_minutes"] == 10
    data["event"]["correction_minutes"] = 2000
    with pytest.raises(NightFileError, match="between 0 and 1440"):
        import_dict(data)
