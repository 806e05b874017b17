"""The benchmarks' code must not rot: run it on tiny sizes.

Benchmarks are not tests (they report, they do not fail), so nothing here checks
a figure against its goal; it checks that every figure is produced and reported.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench import report
from bench.__main__ import QUICK, Sizes, machine_bound, report_figures, standings_figures
from bench.data import (
    PREFIX,
    bench_director,
    build_api_event,
    build_pairs_event,
    delete_bench_events,
)
from tournaments.api.auth import table_scope, user_scope
from tournaments.models import Event, IdempotencyRecord, Result, TableCode

ROOT = Path(__file__).resolve().parents[2]
TINY = Sizes(club=(3, 4, 2), large=(6, 4), scaling=(2, 4), runs=1)
VERDICTS = {report.MET, report.MISSED}


@pytest.mark.django_db(transaction=True)
def test_layout_gives_every_ns_pair_every_board_once():
    built = build_pairs_event(name="layout", tables=5, boards=6, boards_per_round=2)
    rows = list(Result.objects.filter(event_id=built.event_id)
                .values_list("board__number", "ns_pair__number", "ew_pair__number"))
    assert built.results == len(rows) == 30
    assert {(b, ns) for b, ns, _ in rows} == {(b, t) for b in range(1, 7) for t in range(1, 6)}
    assert all(6 <= ew <= 10 for *_, ew in rows)
    # Both boards of a round are played against the same opponents.
    ew_of = {(b, ns): ew for b, ns, ew in rows}
    assert all(ew_of[1, t] == ew_of[2, t] for t in range(1, 6))
    assert Event.objects.get(pk=built.event_id).seq == 1
    assert delete_bench_events() == 1
    assert not Event.objects.filter(name__startswith=PREFIX).exists()


@pytest.mark.django_db(transaction=True)
def test_removing_the_bench_events_forgets_their_tables_keys():
    """A key's row has no tie to its event, so removing the events left them: each run's
    keys were added to the last one's, in an index a club's never grows to."""
    _built, plans = build_api_event(name="keys", tables=2, rounds=1, boards_per_round=1)
    tables = list(TableCode.objects.filter(code__in=[p.code for p in plans]))
    scopes = [table_scope(t.pk) for t in tables] + [user_scope(bench_director().pk)]
    club = "table:0"  # a scope no bench table has: a club's own key stays
    for n, scope in enumerate([*scopes, club]):
        IdempotencyRecord.objects.create(scope=scope, key=f"k{n}", request_hash="h")

    assert delete_bench_events() == 1
    assert list(IdempotencyRecord.objects.values_list("scope", flat=True)) == [club]


@pytest.mark.django_db(transaction=True)
def test_standings_and_pdf_figures_are_reported(tmp_path, database_url, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", database_url)  # the PDFs are made in a fresh process
    notes: list[str] = []
    figures, event = standings_figures(TINY, notes)
    figures.extend(report_figures(event, TINY))
    names = [f.name for f in figures]
    assert any("club night" in n for n in names)
    assert any("large event" in f.name and f.floor != "—" for f in figures)
    assert sum("recompute at" in n for n in names) == 3
    assert any("one new result" in n for n in names)
    gathering = next(f for f in figures if "gathering" in f.name and "travellers PDF" in f.name)
    assert "the recompute is included, " in gathering.notes  # its own seconds
    pdfs = [f for f in figures if f.name.endswith(("PDF, large event", "(every pair)"))]
    assert len(pdfs) == 2 and all("pages/s" in f.notes and f.floor != "—" for f in pdfs)
    assert any(n.startswith("peak memory, printing") for n in names)
    assert any(n.startswith("rl-accel") for n in names)
    assert all(f.verdict in VERDICTS | {""} for f in figures)
    # The probes of the new-result figure were voided: the event is as it was built.
    assert Result.objects.filter(event=event, voided=False).count() == 24

    text = report.markdown(figures, report.machine("n/a"), notes, quick=True)
    out = tmp_path / "benchmarks.md"
    report.write(out, text)
    table = [line for line in out.read_text().splitlines() if line.startswith("| ")]
    assert len(table) == 1 + len(figures)  # the header and one row per figure
    delete_bench_events()


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_quick_run_end_to_end(tmp_path, database_url):
    """`python -m bench --quick` on the test database: every row, gunicorn included."""
    out = tmp_path / "bench.md"
    env = {**os.environ, "BENCH_DATABASE_URL": database_url}
    proc = subprocess.run([sys.executable, "-m", "bench", "--quick", "--output", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=180,
                          check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    text = out.read_text()
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    # header, 2 engine, club, large, 3 growth, new, POST, the page's entry, 2 polls,
    # travellers gathering, travellers, score cards, printing's memory, rl-accel,
    # recompute's memory
    assert len(rows) == 1 + 18
    assert "not measured" not in text, text
    unchanged = next(r for r in rows if "unchanged poll (304)" in r)
    assert "req/s" in unchanged and "bare view answering 304" in unchanged, unchanged
    assert any("poll after a change" in r and "p99" in r for r in rows)
    post = next(r for r in rows if "POST throughput" in r)
    assert "req/s" in post and "were not 200/201" not in post, post
    assert "confirm the round's results and agrees the round" in post, post
    assert "where a POST's time goes" in post and "SQL" in post, post
    # Each run against its own floor, as many as the figure is the median of.
    by_run = post.split("run by run, against that run's floor: ")[1].split(";")[0]
    assert by_run.count(" req/s (") == QUICK.api_runs, post
    page = next(r for r in rows if "on the table page" in r)
    assert "req/s" in page and "not a redirect" not in page and "failed" not in page, page
    assert "run by run, against that run's floor: " in page, page
    assert "CPU:" in text and "PostgreSQL 1" in text
    assert not Event.objects.filter(name__startswith=PREFIX).exists()


def test_a_goal_in_seconds_missed_says_how_fast_the_machine_must_be():
    """The PDFs' goals are in seconds, which hang on the machine: a figure that misses one
    says, from the floor of the same run, where it would be met."""
    words = machine_bound(5.82, 13.34, 5.0, "the canvas alone")
    assert words == ("The machine's speed: the figure is 0.44× its floor (the canvas alone), "
                     "which took 13.34 s here; at that ratio the goal of 5.00 s is met on a "
                     "machine where the floor takes at most 11.46 s.")


def test_a_partial_run_keeps_the_other_figures_bounds():
    """What bounds a missed goal has its own section; a run of some parts replaces the bounds
    of the figures it measured (dropping one whose goal it met) and keeps the others'."""
    m = report.machine("n/a")
    F = report.Figure
    before = report.markdown([F("a", "1", bound="a's bound"), F("b", "2", bound="b's old"),
                              F("c", "3")], m, ["an old note"], quick=False)
    assert "## What bounds the goals missed\n\n- **a**: a's bound\n- **b**: b's old\n" in before

    met_now = report.merge(before, report.markdown([F("b", "2")], m, ["new"], quick=False))
    assert "- **a**: a's bound" in met_now and "b's old" not in met_now
    assert met_now.index("## What bounds") < met_now.index("## Notes\n\n- new")

    again = report.merge(before, report.markdown(
        [F("b", "2", bound="b's new"), F("d", "4", bound="d's")], m, [], quick=False))
    assert ("## What bounds the goals missed\n\n- **a**: a's bound\n- **b**: b's new\n"
            "- **d**: d's\n") in again
    assert again.count("## What bounds") == 1


def test_the_polls_part_runs_alone(tmp_path, database_url):
    """`python -m bench polls` on its own: its warm-up's bare requests have their table (it
    was the API part's: alone, every one failed, and the server's log of them filled its
    unread standard error until the whole server stopped), and a warm-up that fails stops
    the bench rather than measure a broken server."""
    out = tmp_path / "bench.md"
    env = {**os.environ, "BENCH_DATABASE_URL": database_url}
    proc = subprocess.run([sys.executable, "-m", "bench", "polls", "--quick", "--output",
                           str(out)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=180, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    rows = [line for line in out.read_text().splitlines() if line.startswith("| ")]
    assert any("unchanged poll (304)" in r and "req/s" in r for r in rows), rows
    assert any("poll after a change" in r and "p99" in r for r in rows), rows
