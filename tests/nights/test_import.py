"""Importing a night file: the shared examples, what the import stores, the command."""

import io
import json
import math
import sys

import pytest
from django.core.management import call_command
from django.db import connection

from tests.nights.conftest import EXAMPLE_DIRS, contains, example_path, load_example
from tournaments import services
from tournaments.models import AuditEntry, Board, Event, Pair, Result, Team
from tournaments.standings import standings


@pytest.mark.parametrize("name", ["night-mitchell", "night-teams"])
def test_example_night_gives_the_example_standings(import_dict, name):
    event = import_dict(load_example(f"{name}.json"))
    expected = load_example(f"{name}.standings.json")
    got = standings(event)
    # Key order and extra keys aside, the rankings (and a team match's scores) agree.
    assert contains(expected, got) == []
    assert got["rankings"]


def test_mitchell_example_is_stored_as_written(import_dict):
    data = load_example("night-mitchell.json")
    event = import_dict(data)
    assert (event.name, event.date.isoformat(), event.rules, event.kind, event.method) == (
        "Sample Mitchell (4 tables)", "2026-11-17", "american-1913", "pairs", "plus-minus")
    assert event.sections.get().movement == "none"
    assert Board.objects.filter(event=event).count() == 8
    assert Board.objects.get(event=event, number=1).deal == data["boards"][0]["deal"]
    pair = Pair.objects.get(event=event, number=2)
    assert pair.names == ["Eaton 2", "Frye 2"]
    results = Result.objects.filter(event=event)
    assert results.count() == 32
    assert results.filter(ruling="average").count() == 1
    fouled = results.get(ruling="fouled")
    assert (fouled.board.number, fouled.ns_pair.number, fouled.ew_pair.number,
            fouled.offending) == (6, 1, 7, "ew")
    # Scored on the way in: the first result is 1 club by West, 7 tricks, simple honours.
    first = results.get(board__number=1, ns_pair__number=1)
    assert (first.level, first.denomination, first.declarer, first.tricks) == (1, "C", "W", 7)
    assert first.ns_score == -first.ew_score
    assert first.ns_trick is not None


def test_imported_results_are_agreed_audited_once_and_share_one_change_number(import_dict):
    event = import_dict(load_example("night-mitchell.json"))
    event.refresh_from_db()
    assert event.status == Event.Status.AGREED
    results = Result.objects.filter(event=event)
    assert set(results.values_list("status", flat=True)) == {Result.Status.DIRECTOR}
    assert set(results.values_list("entered_by", flat=True)) == {"import"}
    assert not results.filter(meeting__isnull=False).exists()
    seqs = set(results.values_list("seq", flat=True))
    assert len(seqs) == 1 and 0 < seqs.pop() <= event.seq
    entry = AuditEntry.objects.get(event=event, action="import")
    assert entry.after == {"results": 30, "rulings": 2}
    assert entry.actor_label == "import"
    # One entry for the lot, not one per result.
    assert not AuditEntry.objects.filter(event=event, result__isnull=False).exists()


def test_teams_example_keeps_each_pair_in_its_team(import_dict):
    event = import_dict(load_example("night-teams.json"))
    assert list(Team.objects.filter(event=event).values_list("name", flat=True)) == [
        "Knickerbocker", "Manhattan"]
    data = load_example("night-teams.json")
    for item in data["pairs"]:
        pair = Pair.objects.get(event=event, number=item["number"])
        assert pair.team.name == item["team"]


def test_a_pair_may_meet_a_board_twice_against_different_opponents(import_dict, night):
    # An even-table Mitchell without a skip does this (the Mitchell example has it too).
    night["results"].append({"board": 1, "ns": 2, "ew": 3, "result": {
        "contract": {"level": 2, "denomination": "H", "declarer": "N"}, "tricks": 8}})
    event = import_dict(night)
    assert Result.objects.filter(event=event, board__number=1, ew_pair__number=3).count() == 2


def test_command_prints_only_the_new_events_id(db):
    out = io.StringIO()
    call_command("import_night", str(example_path("night-teams.json")), stdout=out)
    event = Event.objects.get()
    assert out.getvalue() == f"{event.pk}\n"


def test_command_reads_standard_input(db, monkeypatch):
    raw = example_path("night-teams.json").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    out = io.StringIO()
    call_command("import_night", "-", stdout=out)
    assert out.getvalue() == f"{Event.objects.get().pk}\n"


def _big_night(results_per_board: int, boards: int) -> dict:
    """A night of `boards` boards, each played at `results_per_board` tables."""
    tables = results_per_board
    data = {
        "format": "duplicate-night/1",
        "event": {"name": "Big night", "date": "2026-11-17", "rules": "american-1913",
                  "kind": "pairs", "method": "plus-minus"},
        "boards": [{"number": n} for n in range(1, boards + 1)],
        "pairs": [{"number": n, "players": [f"North {n}", f"South {n}"]}
                  for n in range(1, 2 * tables + 1)],
        "results": [],
    }
    for board in range(1, boards + 1):
        for table in range(1, tables + 1):
            ew = tables + 1 + (table + board) % tables
            data["results"].append({"board": board, "ns": table, "ew": ew, "result": {
                "contract": {"level": 1 + (board + table) % 4, "denomination": "NT",
                             "declarer": "NESW"[table % 4]},
                "tricks": 6 + (board * table) % 5,
                "honours": {"N": 1, "E": 1}}})
    return data


def test_results_are_stored_in_bulk(import_dict, django_assert_max_num_queries):
    full = _big_night(results_per_board=6, boards=200)
    few_results = dict(full, results=full["results"][:50])
    with django_assert_max_num_queries(1000) as few:
        import_dict(few_results)
    with django_assert_max_num_queries(1000) as many:
        import_dict(full)  # 24 times the results, the same boards and pairs
    # The queries grow by one insert per batch of results, not one (or more) per row.
    fields = [f for f in Result._meta.concrete_fields if not f.primary_key]
    batch = min(services.IMPORT_BATCH, connection.ops.bulk_batch_size(fields, [None] * 1200))
    extra = math.ceil(1200 / batch) - math.ceil(50 / batch)
    assert len(many.captured_queries) - len(few.captured_queries) <= extra
    assert Result.objects.count() == 50 + 1200


@pytest.mark.slow
def test_fifty_thousand_results_import(import_dict):
    data = _big_night(results_per_board=100, boards=500)
    assert len(data["results"]) == 50_000
    event = import_dict(json.loads(json.dumps(data)))
    assert Result.objects.filter(event=event).count() == 50_000
    assert AuditEntry.objects.get(event=event, action="import").after["results"] == 50_000


@pytest.mark.parametrize("name", ["night-mitchell.json", "night-mitchell.standings.json",
                                  "night-teams.json", "night-teams.standings.json"])
def test_copied_examples_match_the_shared_ones(name):
    shared = EXAMPLE_DIRS[1] / name
    if not shared.exists():
        pytest.skip("the shared examples folder is not in this checkout")
    copy = EXAMPLE_DIRS[0] / name
    assert json.loads(copy.read_text()) == json.loads(shared.read_text()), (
        f"tests/nights/data/{name} is out of date: copy it again from {shared}")
