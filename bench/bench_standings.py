"""How fast the standings are: full recompute, one new result, growth, peak memory.

A *full recompute* is ``tournaments.standings.standings(event)`` on a cold cache
(``clear_cache()`` first), run outside any transaction (inside one the cache is
bypassed). Its floor is one raw SQL query fetching the same rows the standings
read (the ORM's own SQL for them, run on a bare cursor). *One new result* is
``services.result_record`` followed by ``standings(event)`` on a warm cache: the
incremental path. Peak memory is measured in a fresh process (``python -m
bench.bench_standings memory EVENT_ID``), so nothing else the bench did counts.

Every function takes the event(s) it measures and returns plain numbers; nothing
here builds data (bench/data.py does) or prints (bench/report.py does).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Timing:
    """The median of several timed runs, in seconds, with every run kept."""

    median: float
    runs: list[float]

    @classmethod
    def of(cls, runs: list[float]) -> Timing:
        return cls(statistics.median(runs), runs)


def time_runs(fn: Callable[[], object], runs: int) -> Timing:
    return Timing.of([_timed(fn) for _ in range(runs)])


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _require_autocommit() -> None:
    from django.db import connection

    if connection.in_atomic_block:
        raise RuntimeError("the standings bench must run outside a transaction: "
                           "inside one the standings cache is bypassed")


def recompute(event) -> dict:
    """One full recompute on a cold cache: the standings JSON."""
    from tournaments import standings

    standings.clear_cache()
    return standings.standings(event)


def recompute_timing(event, runs: int) -> Timing:
    """Median time of a full recompute on a cold cache (after one unmeasured warm-up)."""
    _require_autocommit()
    recompute(event)
    return time_runs(lambda: recompute(event), runs)


def floor_query(event) -> int:
    """The floor: the rows a full recompute reads, fetched by one raw SQL query."""
    from django.db import connection

    from tournaments.models import Result
    from tournaments.standings import ROW_FIELDS

    sql, params = (Result.objects.filter(event_id=event.pk, voided=False)
                   .values_list(*ROW_FIELDS).query.sql_with_params())
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return len(cursor.fetchall())


def recompute_against_floor(event, runs: int) -> tuple[Timing, Timing]:
    """Recompute and floor, interleaved run by run so both see the same machine state."""
    _require_autocommit()
    recompute(event)
    floor_query(event)
    full, floor = [], []
    for _ in range(runs):
        floor.append(_timed(lambda: floor_query(event)))
        full.append(_timed(lambda: recompute(event)))
    return Timing.of(full), Timing.of(floor)


def new_result_timing(event, *, tables: int, boards: int, runs: int) -> Timing:
    """A new result stored by the service, then the standings brought up to date.

    Each run adds a result for a meeting the layout does not have (pair *t* against
    an E-W pair half the field away), times ``result_record`` + ``standings``, then
    voids it through the service and lets the standings catch up, unmeasured, so the
    event is as it was for the next run and for the other figures.
    """
    from tournaments import standings

    _require_autocommit()
    standings.clear_cache()
    standings.standings(event)  # warm: the incremental path is what is measured
    return Timing.of([NewResultProbe(event, tables, boards, run).measure() for run in range(runs)])


class NewResultProbe:
    """One new result: stored, standings updated (timed); then removed again (not timed)."""

    def __init__(self, event, tables: int, boards: int, run: int):
        from .data import bench_director, ew_pair

        self.director = bench_director()  # fetched before any clock starts
        self.event = event
        self.board = 1 + run % boards
        self.table = 1 + (run * 7) % tables
        self.ew = ew_pair(tables, self.table, (self.board - 1) + max(1, tables // 2))

    def store_and_stand(self):
        from tournaments import services, standings

        data = {"contract": {"level": 2, "denomination": "NT", "declarer": "N"}, "tricks": 8}
        result, created = services.result_record(
            event=self.event, board=self.board, ns=self.table, ew=self.ew, data=data,
            actor=services.Actor.director(self.director))
        standings.standings(self.event)
        if not created:
            raise RuntimeError(f"board {self.board}, {self.table} v {self.ew} had a result "
                               "already")
        return result

    def remove(self, result) -> None:
        from tournaments import services, standings
        from tournaments.models import Event

        services.result_void(result=result, actor=services.Actor.director(self.director),
                             reason="bench: remove the probe")
        standings.standings(Event.objects.get(pk=self.event.pk))

    def measure(self) -> float:
        start = time.perf_counter()
        result = self.store_and_stand()
        elapsed = time.perf_counter() - start
        self.remove(result)
        return elapsed


def profile(fn: Callable[[], object], top: int = 12) -> str:
    """Where the time of one call goes: cProfile's top functions by cumulative time."""
    import cProfile
    import io
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    fn()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(top)
    return out.getvalue()


# --- peak memory, in a fresh process ------------------------------------------------------


def memory_in_child(event_id: int, mode: str = "rss") -> dict:
    """Run one full recompute of the event in a fresh interpreter; its memory figures.

    mode "rss": the growth of the peak resident set (VmHWM) across the recompute;
    mode "tracemalloc": the peak of Python allocations traced during it (slower).
    """
    proc = subprocess.run(
        [sys.executable, "-m", "bench.bench_standings", "memory", str(event_id), mode],
        capture_output=True, text=True, cwd=ROOT, env=os.environ.copy(), check=False,
        timeout=600,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"the memory probe failed: {proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def peak_rss_kib() -> int:
    """This process's peak resident set so far, in KiB.

    VmHWM (/proc/self/status) belongs to this program alone. ru_maxrss does not: Linux
    carries it across exec, so a child forked from a big parent starts at the parent's
    size. ru_maxrss is the fallback where /proc is missing.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _memory_probe(event_id: int, mode: str) -> dict:
    import django

    django.setup()
    from django.db import connection

    from tournaments import standings
    from tournaments.models import Event

    event = Event.objects.get(pk=event_id)
    connection.ensure_connection()
    if mode == "tracemalloc":
        import tracemalloc

        tracemalloc.start()
        result = standings.standings(event)
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return {"mode": mode, "peak_bytes": peak, "rows": _ranked(result)}
    before = peak_rss_kib()
    result = standings.standings(event)
    after = peak_rss_kib()
    return {"mode": mode, "peak_rss_before_kib": before, "peak_rss_after_kib": after,
            "delta_bytes": (after - before) * 1024, "rows": _ranked(result)}


def _ranked(result: dict) -> int:
    return sum(len(r["rows"]) for r in result.get("rankings", []))


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "memory":
        sys.exit("usage: python -m bench.bench_standings memory EVENT_ID rss|tracemalloc")
    print(json.dumps(_memory_probe(int(sys.argv[2]), sys.argv[3])))
