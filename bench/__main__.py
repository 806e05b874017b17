"""``python -m bench [PART ...] [--quick] [--output PATH] [--profile]``: run the benchmarks.

PART is any of engine, standings, api, polls, reports, memory (default: all of them), e.g.
``python -m bench standings reports``. A run of some parts rewrites their rows of
docs/benchmarks.md and keeps the others' rows as the last run that measured them wrote
them (the notes say which parts this run measured).

Prints one table of figures and writes it, with the machine it ran on, to
docs/benchmarks.md (a ``--quick`` run, with small sizes, writes only to
``--output``). Each figure is the median of several runs; where a floor exists it
is measured in the same run and the ratio given. Benchmarks report, they do not
fail: the exit code is 0 even when a goal is missed (marked MISSED).

The database: ``BENCH_DATABASE_URL`` if set, else ``DATABASE_URL`` if it names a
PostgreSQL database, else ``postgres://postgres@127.0.0.1:5432/duplicate_bench``. The
bench creates and migrates it itself, and never touches var/db.sqlite3. Bench
events are named "[bench] ..." and removed at the end. The figures are measured
with DEBUG off, as in production (the bench sets a throwaway SECRET_KEY if none).
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import os
import secrets
import socket
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from . import report
from .report import MET, Figure, verdict

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/duplicate_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/7"
DOCS = ROOT / "docs" / "benchmarks.md"


@dataclass(frozen=True)
class Sizes:
    """How big and how many: the full run, or the quick one the smoke test uses."""

    club: tuple[int, int, int] = (13, 26, 2)  # tables, boards, boards per round
    large: tuple[int, int] = (1000, 52)  # tables, boards
    scaling: tuple[int, ...] = (10, 100)  # tables (52 boards); the large event is the last
    runs: int = 5
    slow_runs: int = 1  # the score cards PDF
    travellers_runs: int = 3  # the travellers PDF
    accel_runs: int = 3  # the travellers laid out with and without rl-accel, each
    api_clients: int = 32
    api_rounds: int = 32
    api_boards_per_round: int = 3
    api_limit: int = 3000
    api_seconds: float = 20.0
    api_runs: int = 3
    tracemalloc: bool = True  # also trace the peak of Python allocations (a second process)
    engine: dict = field(default_factory=dict)
    # The live pages' polls (bench/bench_polls.py): the event, its viewers, the runs.
    poll_tables: int = 1000  # one phone each
    poll_pages: int = 500  # public pages
    poll_threads: int = 16  # client threads of the throughput runs
    poll_seconds: float = 8.0  # each throughput run (polls, then floor)
    poll_runs: int = 3
    poll_room_seconds: float = 20.0  # the open-loop run at the room's rate
    poll_posters: int = 8  # tables POSTing results meanwhile
    # ... at this many result POSTs a second, all together (each with its confirm, and an
    # agree a round): ten times a 1,000-table room's, whose tables each enter a board
    # about every seven minutes (some 2.4 results a second).
    poll_post_rate: float = 24.0


FULL = Sizes()
QUICK = Sizes(
    large=(20, 8), scaling=(5, 10), runs=2, accel_runs=1, travellers_runs=1, api_clients=4,
    api_rounds=4, api_boards_per_round=2, api_limit=32, api_seconds=3.0, api_runs=1,
    tracemalloc=False, poll_tables=20, poll_pages=10, poll_threads=4, poll_seconds=1.5,
    poll_runs=1, poll_room_seconds=3.0, poll_posters=2,
    engine={"n_cli": 2000, "n_rate": 2000, "runs": 2, "cli_runs": 1},
)

GOAL_RATE = "≥ 50,000/s"
GOAL_CLI = "≤ 3× floor and < 5 s"
GOAL_CLUB = "< 50 ms"
GOAL_LARGE = "< 2 s and ≤ 2× floor"
GOAL_NEW = "< 50 ms"
GOAL_POST = "≥ 0.5× floor; p99 < 150 ms"
GOAL_GATHER = "≤ 1 s"
GOAL_POLL = "≥ 0.8× floor"
GOAL_POLL_CHANGED = "p99 < 100 ms"
GOAL_TRAVELLERS = "≤ 5 s"
GOAL_SCORECARDS = "≤ 10 s"
GOAL_MEMORY = "< 500 MB"
GOAL_GROWTH = "per-result cost at most 1.25× the next size down"


@contextlib.contextmanager
def step(name: str) -> Iterator[None]:
    """Say on standard error how long a part of the bench took (a long run shows progress)."""
    start = time.perf_counter()
    yield
    print(f"  {name}: {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)


# --- environment ---------------------------------------------------------------------------


def choose_database(notes: list[str]) -> str:
    """The database URL to use, said in the notes."""
    if os.environ.get("BENCH_DATABASE_URL"):
        notes.append("Database: BENCH_DATABASE_URL.")
        return os.environ["BENCH_DATABASE_URL"]
    current = os.environ.get("DATABASE_URL", "")
    if current.startswith(("postgres://", "postgresql://", "pgsql://")):
        notes.append("Database: DATABASE_URL (PostgreSQL).")
        return current
    why = "DATABASE_URL is not set" if not current else "DATABASE_URL is not PostgreSQL"
    notes.append(f"Database: {why}, so the default {DEFAULT_DATABASE_URL} was used.")
    return DEFAULT_DATABASE_URL


def _port_open(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1",
                                       parsed.port or default_port), timeout=2):
            return True
    except OSError:
        return False


def configure_environment(database_url: str, notes: list[str]) -> None:
    """Settings come from the environment: set it before Django reads it (and for children)."""
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.settings"
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_urlsafe(32))
    os.environ.setdefault("SECURE_COOKIES", "0")
    if not os.environ.get("REDIS_URL") and _port_open(DEFAULT_REDIS_URL, 6379):
        os.environ["REDIS_URL"] = DEFAULT_REDIS_URL
    notes.append("Redis (cache of the served app): "
                 + (os.environ.get("REDIS_URL") or "none (local memory cache)") + ".")


def prepare_postgres(url: str) -> str | None:
    """Create the database if it is missing; None when ready, else why it cannot be used."""
    import environ
    import psycopg

    if not url.startswith(("postgres://", "postgresql://", "pgsql://")):
        return "the bench database is not PostgreSQL"
    config = environ.Env.db_url_config(url)
    params = {"host": config.get("HOST") or "127.0.0.1", "port": config.get("PORT") or 5432,
              "user": config.get("USER") or None, "password": config.get("PASSWORD") or None,
              "connect_timeout": 3}
    try:
        psycopg.connect(dbname=config["NAME"], **params).close()
        return None
    except psycopg.OperationalError as exc:
        if "does not exist" not in str(exc):
            return "PostgreSQL unreachable"
    try:
        with psycopg.connect(dbname="postgres", autocommit=True, **params) as conn:
            conn.execute(f'CREATE DATABASE "{config["NAME"]}"')
    except psycopg.Error as exc:
        return f"PostgreSQL: cannot create database {config['NAME']} ({exc})"
    return None


def setup_django() -> str:
    """Set Django up and migrate the bench database; the PostgreSQL version."""
    import django
    from django.core.management import call_command
    from django.db import connection

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        return f"PostgreSQL {cursor.fetchone()[0]}"


# --- the engine (bench/bench_engine.py, the engine engineer's) ---------------------------------


def engine_figures(sizes: Sizes, notes: list[str]) -> list[Figure]:
    try:
        from . import bench_engine
    except ImportError as exc:
        why = f"bench/bench_engine.py cannot be imported ({exc})"
        return [Figure.not_measured("deal results scored per second, in-process", GOAL_RATE, why),
                Figure.not_measured("`python -m scoring score`, 100,000 results", GOAL_CLI, why)]
    accepted = inspect.signature(bench_engine.run).parameters
    kwargs = {k: v for k, v in sizes.engine.items() if k in accepted}
    figures = bench_engine.run(**kwargs)
    cli_runs = kwargs.get("cli_runs", accepted["cli_runs"].default if "cli_runs" in accepted
                          else 3)
    return [_rate_figure(figures), _cli_figure(figures, cli_runs)]


def _rate_figure(f: dict) -> Figure:
    name = "deal results scored per second, in-process"
    rate = f.get("deals_per_second")
    if rate is None:
        return Figure.not_measured(name, GOAL_RATE, "bench_engine.run() gave no deals_per_second")
    runs = f.get("deals_per_second_runs") or []
    return Figure(name, f"{rate:,.0f}/s", goal=GOAL_RATE, verdict=verdict(rate >= 50_000),
                  notes=f"median of {len(runs) or '?'} runs (parse_result + score_result)")


def _cli_figure(f: dict, cli_runs: int) -> Figure:
    """The command against the stricter of bench_engine's two floors (the fastest way to
    read and write the same JSON without scoring), the other floor in the notes."""
    count = f.get("cli_results", 100_000)
    name = f"`python -m scoring score`, {count:,} results"
    cli = f.get("cli_seconds")
    floors = {"json.loads + json.dumps": f.get("floor_fast_seconds"),
              "json.load + json.dump": f.get("floor_seconds")}
    floors = {k: v for k, v in floors.items() if v}
    if cli is None or not floors:
        return Figure.not_measured(name, GOAL_CLI, "bench_engine.run() gave no cli/floor seconds")
    used = min(floors, key=floors.get)
    floor = floors[used]
    notes = (f"{runs_note(cli_runs)}; floor: a Python process doing {used} on the same file"
             + "".join(f"; other floor, {k}: {report.secs(v)} ({cli / v:.2f}×)"
                       for k, v in floors.items() if k != used))
    return Figure(name, report.secs(cli), report.secs(floor), report.ratio(cli / floor),
                  GOAL_CLI, verdict(cli <= 3 * floor and cli < 5), notes)


# --- the database figures ----------------------------------------------------------------------


def machine_bound(seconds: float, floor: float, limit: float, floor_words: str) -> str:
    """For a goal in seconds missed: how fast the machine must be for it, from the floor
    measured in the same run (the figure's ratio to its floor does not hang on the machine,
    its seconds do)."""
    ratio = seconds / floor
    return (f"The machine's speed: the figure is {report.ratio(ratio)} its floor ({floor_words}),"
            f" which took {report.secs(floor)} here; at that ratio the goal of "
            f"{report.secs(limit)} is met on a machine where the floor takes at most "
            f"{report.secs(limit / ratio)}.")


def runs_note(n: int, why: str = "") -> str:
    return f"median of {n} run{'s' if n != 1 else ''}" + (f" ({why})" if why else "")


def standings_figures(sizes: Sizes, notes: list[str], *,
                      profile: bool = False) -> tuple[list[Figure], object]:
    """Club night, large event against its floor, growth, one new result.

    Returns the figures and the large event (reused by the PDF and memory figures).
    """
    from . import bench_standings as bs
    from .data import build_pairs_event, settle

    figures: list[Figure] = []
    tables, boards, per_round = sizes.club
    club = build_pairs_event(name="club night", tables=tables, boards=boards,
                             boards_per_round=per_round)
    settle()
    t = bs.recompute_timing(club.event(), sizes.runs)
    figures.append(Figure(
        f"full standings recompute, club night ({tables} tables × {boards} boards, "
        f"{club.results} results)", report.ms(t.median), goal=GOAL_CLUB,
        verdict=verdict(t.median < 0.050), notes=runs_note(sizes.runs, "cold cache")))

    large_tables, large_boards = sizes.large
    start = time.perf_counter()
    large = build_pairs_event(name="large event", tables=large_tables, boards=large_boards)
    settle()
    notes.append(f"Building the large event ({large.results:,} results, each scored by "
                 f"tournaments.seam.result_fields, bulk_create) took "
                 f"{time.perf_counter() - start:.1f} s (not a figure).")
    event = large.event()
    full, floor = bs.recompute_against_floor(event, sizes.runs)
    ratio = full.median / floor.median
    figures.append(Figure(
        f"full standings recompute, large event ({large_tables:,} tables × {large_boards} "
        f"boards = {large.results:,} results), PostgreSQL",
        report.secs(full.median), report.ms(floor.median), report.ratio(ratio), GOAL_LARGE,
        verdict(full.median < 2 and ratio <= 2),
        runs_note(sizes.runs, "cold cache; floor: one raw SQL query fetching the same rows, "
                  "interleaved with the recomputes")))
    if profile:
        print("\n--- profile: full recompute, large event ---")
        print(bs.profile(lambda: bs.recompute(event)))

    figures.extend(_growth_figures(sizes, large, full.median))

    new = bs.new_result_timing(event, tables=large_tables, boards=large_boards,
                               runs=sizes.runs)
    figures.append(Figure(
        "one new result in the large event: result_record + standings", report.ms(new.median),
        goal=GOAL_NEW, verdict=verdict(new.median < 0.050),
        notes=runs_note(sizes.runs, "warm cache: the incremental path; runs "
                        + ", ".join(report.ms(x) for x in new.runs) + "")))
    if profile:
        print("\n--- profile: one new result (result_record + standings) ---")
        probe = bs.NewResultProbe(event, large_tables, large_boards, run=sizes.runs)
        stored = []
        print(bs.profile(lambda: stored.append(probe.store_and_stand()), top=30))
        probe.remove(stored[0])
    return figures, event


def _growth_figures(sizes: Sizes, large, large_seconds: float) -> list[Figure]:
    from . import bench_standings as bs
    from .data import build_pairs_event

    boards = sizes.large[1]
    measured = []
    for tables in sizes.scaling:
        built = build_pairs_event(name=f"{tables} tables", tables=tables, boards=boards)
        t = bs.recompute_timing(built.event(), sizes.runs)
        measured.append((tables, built.results, t.median))
    measured.append((large.tables, large.results, large_seconds))
    figures = []
    previous = None
    for tables, results, seconds in measured:
        per_result = seconds / results
        row = Figure(
            f"recompute at {tables:,} tables ({results:,} results)",
            f"{report.ms(seconds)}; {per_result * 1e6:.1f} µs per result",
            notes=runs_note(sizes.runs, "cold cache"))
        if previous is not None:
            growth = per_result / previous
            row.ratio = f"{growth:.2f}× the per-result cost below"
            row.goal = GOAL_GROWTH
            row.verdict = verdict(growth <= 1.25)
        previous = per_result
        figures.append(row)
    return figures


def memory_figure(event, sizes: Sizes) -> Figure:
    from . import bench_standings as bs

    rss = bs.memory_in_child(event.pk, "rss")
    delta = rss["delta_bytes"]
    notes = (f"fresh process; growth of its peak resident set (VmHWM) across one recompute "
             f"(the whole process's peak: {report.mib(rss['peak_rss_after_kib'] * 1024)}); "
             "1 run")
    if sizes.tracemalloc:
        traced = bs.memory_in_child(event.pk, "tracemalloc")
        notes += (f"; tracemalloc peak of Python allocations in another fresh process: "
                  f"{report.mib(traced['peak_bytes'])}")
    return Figure("peak memory, large event recompute", report.mib(delta), goal=GOAL_MEMORY,
                  verdict=verdict(delta < 500 * 1024 * 1024), notes=notes)


def poll_figures(sizes: Sizes, notes: list[str]) -> list[Figure]:
    """The live pages' polls at the room's size: unchanged polls (304) against a bare 304,
    and polls after a change at RATE polls a second while results are POSTed."""
    from tournaments import services
    from tournaments.polls import TTL

    from . import bench_api
    from . import bench_polls as bp
    from .data import bench_director, build_api_event, settle

    bench_api.ensure_bare_table()  # where the warm-up's bare requests insert

    tables, pages = sizes.poll_tables, sizes.poll_pages
    name_304 = (f"unchanged poll (304), {tables:,}-table event, {tables:,} phones and "
                f"{pages} public pages, gunicorn")
    rate = bp.RATE * (tables + pages) / 1500  # 1,500 viewers polling every 5 s: 300/s
    name_changed = f"poll after a change, {rate:,.0f} polls/s while results are POSTed"
    # 26 rounds of 2 boards: 52 boards, as the large event, and rounds enough for the posters.
    built, plans = build_api_event(name="live polls", tables=tables, rounds=26,
                                   boards_per_round=2)
    warm = build_api_event(name="live polls warm-up", tables=sizes.poll_posters, rounds=2,
                           boards_per_round=2)[1]
    services.event_publish(event=built.event(), level="provisional",
                           actor=services.Actor.director(bench_director()))
    viewers = bp.viewers(built.event_id, plans, pages)
    config = bench_api.default_server_config()
    runs = []
    settle()
    with bench_api.server(config, dict(os.environ)) as port:
        bench_api.warm_up(port, warm)
        settle()
        primed = bp.prime(port, viewers)
        assigned = bp.assign(viewers, sizes.poll_threads)
        floor_viewers = bp.bare_viewers(sizes.poll_threads, "/bench/bare-304/", '"bench"')
        bp.hammer(port, floor_viewers, 1.0)  # wakes every worker's threads
        bp.hammer(port, assigned, 1.0)
        for _ in range(sizes.poll_runs):
            floor = bp.hammer(port, floor_viewers, sizes.poll_seconds)
            polls = bp.hammer(port, assigned, sizes.poll_seconds)
            runs.append(bp.ThroughputRun(polls=polls, floor=floor))
        posting: dict = {}
        poster = threading.Thread(target=lambda: posting.update(result=bench_api.load(
            port, bench_api.API, plans[:sizes.poll_posters], limit=100_000,
            seconds=sizes.poll_room_seconds, per_second=sizes.poll_post_rate)), daemon=True)
        probed: list[float] = []
        prober = threading.Thread(target=lambda: probed.extend(bp.probe(
            port, "/bench/bare-304/", '"bench"', rate=10, seconds=sizes.poll_room_seconds)),
            daemon=True)
        load_before = _load_average()
        poster.start()
        prober.start()
        room = bp.room(port, viewers, rate=rate, seconds=sizes.poll_room_seconds)
        poster.join(timeout=sizes.poll_room_seconds + 120)
        prober.join(timeout=60)
        load_after = _load_average()
    posts = posting.get("result")
    med = bp.median
    per_second = med([r.polls.per_second for r in runs])
    floor_per_second = med([r.floor.per_second for r in runs])
    ratio = med([r.ratio for r in runs])
    statuses = bench_api._merge([r.polls.statuses for r in runs])
    floor_statuses = bench_api._merge([r.floor.statuses for r in runs])
    # A mark lives polls.TTL seconds unless a change renews it: the first poll after that
    # reads the event (a 200 with the same tag), once per event, process and TTL.
    total = sum(statuses.values())
    all_304 = (set(statuses) <= {200, 304} and statuses.get(304, 0) >= 0.99 * total
               and set(floor_statuses) == {304})
    note = (f"{runs_note(len(runs))} of {sizes.poll_seconds:.0f} s each, floor and polls "
            f"alternating; {sizes.poll_threads} client threads, keep-alive, each polling its "
            f"viewers in turn as fast as answered, every poll with the tag of its last answer "
            f"(two phones' state.json for one page's live JSON); {config.describe()}; the "
            f"304 is answered by a middleware ahead of the session, CSRF, auth, CSP and the "
            f"URL resolver, which the floor's view passes through; "
            f"polls p50 {report.ms(med([r.polls.percentile(50) for r in runs]))}, "
            f"p99 {report.ms(med([r.polls.percentile(99) for r in runs]))}; floor: a bare "
            f"view answering 304 from the If-None-Match header alone, same server, middleware "
            f"and clients, p50 {report.ms(med([r.floor.percentile(50) for r in runs]))}, "
            f"p99 {report.ms(med([r.floor.percentile(99) for r in runs]))}; statuses: polls "
            f"{statuses} (a 200: the first poll after a mark's {TTL} s lifetime, which "
            f"reads the event), floor {floor_statuses}; the first poll of each viewer (its tag, a "
            f"phone's session) {primed}, not counted; no database query on a 304 is held by "
            f"tests/web/test_live_polls.py")
    figures = [Figure(
        name_304, f"{per_second:,.0f} req/s", f"{floor_per_second:,.0f} req/s",
        report.ratio(ratio), GOAL_POLL, verdict(ratio >= 0.8 and all_304), note)]

    def pct(values: list[float], q: float) -> str:
        return report.ms(bp._percentile(values, q)) if values else "—"

    changed_p99 = bp._percentile(room.changed, 99)
    post_note = "no result POSTs (the posting clients did not report)"
    if posts is not None:
        post_note = (f"{posts.requests} result POSTs meanwhile from {sizes.poll_posters} tables "
                     f"paced at {sizes.poll_post_rate:.0f} a second, ten times a 1,000-table "
                     f"room's (a board every seven minutes a table) "
                     f"(each also confirming and agreeing its rounds: "
                     f"{len(posts.side_latencies)} requests), POST p50 "
                     f"{report.ms(posts.percentile(50))}, p99 {report.ms(posts.percentile(99))}"
                     + (f", {posts.bad} not 200/201: {posts.errors[:1]}" if posts.bad else ""))
    bad = {k: v for k, v in room.statuses.items() if k not in (200, 304)}
    note = (f"1 run of {sizes.poll_room_seconds:.0f} s, open loop: {room.sent:,} polls sent "
            f"({room.per_second:,.0f}/s; {room.late} sent over a second late) over "
            f"{tables:,} phones and {pages} pages in turn, each with the tag of its last "
            f"answer; {len(room.changed):,} polls after a change, p50 "
            f"{pct(room.changed, 50)}: {len(room.changed_pages):,} "
            f"pages' (a 200), p99 {pct(room.changed_pages, 99)}, "
            f"{len(room.changed_phones):,} phones' (a 200, or a 304 with a new tag when the "
            f"change was elsewhere), p99 {pct(room.changed_phones, 99)}; "
            f"{len(room.unchanged):,} unchanged "
            f"(304) p50 {pct(room.unchanged, 50)}, p99 "
            f"{pct(room.unchanged, 99)}; {post_note}; meanwhile the bare "
            f"304 view, probed 10 times a second, answered in p50 "
            f"{pct(probed, 50)}, p99 {pct(probed, 99)} "
            f"(what any answer cost on the machine then); "
            f"load average (1 min) {load_before} before, {load_after} after; latency from "
            f"sending to the end of the answer; a page's fetch of its table after a change "
            f"(?fragment=1) is not in this figure")
    if bad:
        note += f"; other statuses: {bad}"
    met = bool(room.changed) and changed_p99 < 0.100 and not bad
    bound = "" if met or not probed else (
        f"the machine's load, measured in this run: the bare 304 view, which reads nothing, "
        f"probed 10 times a second meanwhile, answered in p50 {pct(probed, 50)}, p99 "
        f"{pct(probed, 99)} (what any answer cost on the machine then), and the load "
        f"average (1 min) was {load_before} before and {load_after} after.")
    figures.append(Figure(
        name_changed, f"p99 {pct(room.changed, 99)} ({len(room.changed):,} polls)",
        goal=GOAL_POLL_CHANGED, verdict=verdict(met), notes=note, bound=bound))
    return figures


def report_figures(event, sizes: Sizes) -> list[Figure]:
    """The travellers and the score cards of the large event, each in a fresh process, with
    and without reportlab's C speed-ups (rl-accel) when they are installed."""
    from . import bench_reports as br

    names = {"travellers": "travellers PDF, large event",
             "scorecards": "score cards PDF, large event (every pair)"}
    goals = {"travellers": (GOAL_TRAVELLERS, 5.0), "scorecards": (GOAL_SCORECARDS, 10.0)}
    accel = br.accel_installed()
    pdf_runs = {"travellers": sizes.travellers_runs, "scorecards": sizes.slow_runs}
    figures: list[Figure] = []
    measured: dict[str, br.PdfFigure] = {}
    for kind in ("travellers", "scorecards"):
        try:
            runs = sorted((br.in_child(kind, event.pk) for _ in range(pdf_runs[kind])),
                          key=lambda r: r.total_seconds)
        except br.NotAvailable as exc:
            figures.append(Figure.not_measured(names[kind], goals[kind][0], str(exc)))
            continue
        measured[kind] = runs[len(runs) // 2]
    # rl-accel: the travellers laid out with and without it, the runs alternating so that
    # both see the same machine (one run each is at the mercy of the other work on it).
    with_accel: list[br.PdfFigure] = []
    without: list[br.PdfFigure] = []
    if accel and "travellers" in measured:
        for _ in range(sizes.accel_runs):
            without.append(br.in_child("travellers", event.pk, accel=False))
            with_accel.append(br.in_child("travellers", event.pk))
    if "travellers" in measured:
        r = measured["travellers"]
        figures.append(Figure(
            "travellers PDF, large event: gathering every board's results (report_data)",
            report.secs(r.gather_seconds), report.secs(r.gather_floor_seconds),
            report.ratio(r.gather_seconds / r.gather_floor_seconds), GOAL_GATHER,
            verdict(r.gather_seconds <= 1),
            f"{runs_note(sizes.travellers_runs)}; a fresh process each (cold standings cache: "
            f"the recompute is included, {report.secs(r.standings_seconds)}); {r.blocks} "
            f"travellers, {r.rows:,} rows; floor: one raw SQL query fetching the same "
            "results, same process",
            bound="" if r.gather_seconds <= 1 else (
                f"the standings recompute the travellers' plus/minus need (on a cold cache) "
                f"took {report.secs(r.standings_seconds)} of the "
                f"{report.secs(r.gather_seconds)}, the raw fetch alone takes "
                f"{report.secs(r.gather_floor_seconds)}, and the rest, "
                f"{report.secs(r.gather_seconds - r.standings_seconds)}, is the rows' own "
                f"fetch and a dict per result. " + machine_bound(
                    r.gather_seconds, r.gather_floor_seconds, 1.0,
                    "one raw SQL query fetching the same results"))))
    for kind, r in measured.items():
        goal, limit = goals[kind]
        notes = (f"{runs_note(pdf_runs[kind], 'slow' if pdf_runs[kind] == 1 else '')}; a fresh "
                 f"process each; {r.blocks:,} "
                 f"{'travellers' if kind == 'travellers' else 'cards'}, {r.rows:,} rows, "
                 f"{r.pages:,} pages, {r.size_bytes / 1024 / 1024:.1f} MiB; gathering "
                 f"{report.secs(r.gather_seconds)}, laying out {report.secs(r.render_seconds)} "
                 f"({r.pages_per_second:,.0f} pages/s); floor: the raw SQL fetch "
                 f"({report.secs(r.gather_floor_seconds)}) + reportlab's canvas alone writing "
                 f"the same cells, one drawString each ({report.secs(r.render_floor_seconds)}"
                 "; the grids write their text operators themselves, so they can beat it); "
                 + ("with rl-accel" if r.accel else "without rl-accel (not installed)")
                 + f"; of the laying out, writing the cells' text onto the pages "
                 f"{report.secs(r.draw_seconds)}, writing the file (page numbers, "
                 f"compression) {report.secs(r.save_seconds)}, the rest (rows made, pages "
                 f"flowed) {report.secs(r.render_seconds - r.draw_seconds - r.save_seconds)}")
        bound = ""
        if r.total_seconds > limit:
            bound = (f"the laying out, {report.secs(r.render_seconds)} of "
                     f"{report.secs(r.total_seconds)}, is Python writing each of the "
                     f"{r.rows:,} rows' cells as PDF text ({report.secs(r.draw_seconds)}), "
                     "making the rows and flowing the pages, and reportlab writing the file "
                     f"({report.secs(r.save_seconds)}); the gathering is "
                     f"{r.gather_seconds / r.total_seconds:.0%} of the whole. " + machine_bound(
                         r.total_seconds, r.floor_seconds, limit,
                         "the raw fetch and reportlab's canvas alone writing the same cells"))
        figures.append(Figure(
            names[kind], report.secs(r.total_seconds), report.secs(r.floor_seconds),
            report.ratio(r.total_seconds / r.floor_seconds), goal,
            verdict(r.total_seconds <= limit), notes, bound=bound))
    runs = [*measured.items(), *(("travellers without rl-accel", r) for r in without[:1])]
    if runs:
        worst = max(run.peak_rss_delta_bytes for _kind, run in runs)
        figures.append(Figure(
            "peak memory, printing the travellers and the score cards", report.mib(worst),
            goal=GOAL_MEMORY, verdict=verdict(worst < 500 * 1024 * 1024),
            notes="growth of a fresh process's peak resident set (VmHWM) across gathering and "
                  "laying out; " + "; ".join(
                      f"{kind}: {report.mib(run.peak_rss_delta_bytes)} (whole process "
                      f"{report.mib(run.peak_rss_bytes)})" for kind, run in runs)))
    name = "rl-accel (reportlab's C speed-ups): laying out the travellers without it and with it"
    if with_accel:
        plain = statistics.median(r.render_seconds for r in without)
        fast = statistics.median(r.render_seconds for r in with_accel)
        figures.append(Figure(
            name, f"{report.secs(plain)} without, {report.secs(fast)} with",
            ratio=f"{plain / fast:.2f}× (without / with)",
            notes=f"median of {len(with_accel)} runs each, alternating, fresh processes "
                  f"(without: {', '.join(report.secs(r.render_seconds) for r in without)}; "
                  f"with: {', '.join(report.secs(r.render_seconds) for r in with_accel)}); "
                  "without: the _rl_accel module hidden, so reportlab uses its Python "
                  "functions; above 1× is what rl-accel saves"))
    elif not accel:
        figures.append(Figure(name, "rl-accel is not installed here: laid out without it only"))
    return figures


def api_figure(sizes: Sizes, notes: list[str]) -> list[Figure]:
    from . import bench_api
    from .data import build_api_event, settle

    name = f"result POST throughput, {sizes.api_clients} concurrent clients, gunicorn"
    try:
        from tournaments.api import urls as _api_urls  # noqa: F401
    except ImportError as exc:
        return [Figure.not_measured(name, GOAL_POST, f"the REST API is not there ({exc})")]
    bench_api.ensure_bare_table()
    config = bench_api.default_server_config()

    def event_plans(label: str, rounds: int = sizes.api_rounds) -> list:
        return build_api_event(name=label, tables=sizes.api_clients, rounds=rounds,
                               boards_per_round=sizes.api_boards_per_round)[1]

    # Two rounds, so the warm-up also wakes the confirm and agree paths between rounds.
    warm = event_plans("API warm-up", rounds=2)
    warm_page = event_plans("page warm-up", rounds=2)
    events = [event_plans(f"API run {i + 1}") for i in range(sizes.api_runs)]
    page_events = [event_plans(f"page run {i + 1}") for i in range(sizes.api_runs)]
    # A diagnostic, not a figure: each client a table of an event of its own, so no two
    # requests wait for the same event's row lock.
    apart = [build_api_event(name=f"API apart {i + 1}", tables=1, rounds=sizes.api_rounds,
                             boards_per_round=sizes.api_boards_per_round)[1][0]
             for i in range(sizes.api_clients)]
    runs, page_runs = [], []
    settle()
    with bench_api.server(config, dict(os.environ)) as port:
        bench_api.warm_up(port, warm)
        bench_api.warm_up(port, warm_page, route=bench_api.PAGE)
        settle()
        for plans, page_plans in zip(events, page_events, strict=True):
            floor = bench_api.load(port, bench_api.BARE, plans, limit=sizes.api_limit,
                                   seconds=sizes.api_seconds)
            api = bench_api.load(port, bench_api.API, plans, limit=sizes.api_limit,
                                 seconds=sizes.api_seconds)
            page = bench_api.load(port, bench_api.PAGE, page_plans, limit=sizes.api_limit,
                                  seconds=sizes.api_seconds)
            runs.append(bench_api.ThroughputRun(api=api, floor=floor))
            page_runs.append(bench_api.ThroughputRun(api=page, floor=floor))
        separate = bench_api.load(port, bench_api.API, apart, limit=sizes.api_limit,
                                  seconds=sizes.api_seconds)
    breakdown_plans = event_plans("API breakdown", rounds=2)
    # Counted first, as the loads' events were before them: made after the loads, the
    # breakdown's rows were planned for on statistics from before the loads, and its
    # confirms cost PostgreSQL three times what they do once the tables are counted.
    settle()
    parts = bench_api.breakdown(breakdown_plans)
    s = bench_api.summary(runs)
    note = (f"{runs_note(s['runs'])}, each up to {sizes.api_limit:,} result POSTs or "
            f"{sizes.api_seconds:.0f} s (sent: {', '.join(map(str, s['requests']))}); "
            f"{_by_run(s)}; "
            f"{config.describe()}; Authorization: Table <code> + Idempotency-Key; "
            f"floor p50 {report.ms(s['floor_p50'])}, p99 {report.ms(s['floor_p99'])}; "
            f"floor: a bare view inserting one row with raw SQL, same server and clients; "
            f"between rounds each table has the opponents confirm the round's results and "
            f"agrees the round, as a real table must before its next round (not counted "
            f"here, but under the same load: sent {', '.join(map(str, s['side_requests']))}, "
            f"p50 {report.ms(s['side_p50'])}, p99 {report.ms(s['side_p99'])}); "
            f"the floor's clients pause alike, sending as many requests to the bare view "
            f"between rounds, so both runs carry the same traffic and differ only in what "
            f"each request does (subtracting the agree time instead would be unsound: it "
            f"overlaps the other tables' POSTs); "
            f"diagnostic, 1 run: the same clients each on an event of its own (no shared "
            f"event row lock): {separate.per_second:,.0f} req/s, "
            f"p50 {report.ms(separate.percentile(50))}, p99 {report.ms(separate.percentile(99))}")
    if s["unusual"]:
        note += (f"; {s['unusual']} unusual results (422) looked at again and resent with "
                 f"as_entered (both requests counted)")
    bad = s["bad"] + separate.bad
    if bad:
        errors = s["errors"] or separate.errors
        note += f"; {bad} result POST answers (API or floor) were not 200/201: {errors[:2]}"
    side_bad = s["side_bad"] + separate.side_bad
    if side_bad:
        errors = s["side_errors"] or separate.side_errors
        note += f"; {side_bad} confirm/agree answers were not 200/201: {errors[:2]}"
    last = runs[-1]
    cpu = [bench_api.cpu_note(last.api, "the API"), bench_api.cpu_note(last.floor, "the floor")]
    if all(cpu):
        note += (f"; what bounds it, measured: CPU per result POST with its share of the "
                 f"confirms and agrees, in the last run, {cpu[0]}, {cpu[1]}")
    note += "; " + _breakdown_note(parts)
    post_bound, page_bound = bounds(runs, page_runs, parts, sizes.api_clients)
    met = s["ratio"] >= 0.5 and s["api_p99"] < 0.150 and not bad and not side_bad
    return [Figure(
        name,
        f"{s['api_per_second']:,.0f} req/s; p50 {report.ms(s['api_p50'])}, "
        f"p99 {report.ms(s['api_p99'])}",
        f"{s['floor_per_second']:,.0f} req/s", report.ratio(s["ratio"]), GOAL_POST,
        verdict(met), note, bound="" if met else post_bound),
        _page_figure(sizes, page_runs, page_bound)]


def _by_run(s: dict) -> str:
    """Each run's rate against its own floor, in the order run: the machine's speed moves
    between runs, so the ratio is taken run by run, and their median is the figure."""
    return "run by run, against that run's floor: " + ", ".join(
        f"{rate:,.0f} vs {floor:,.0f} req/s ({report.ratio(ratio)})"
        for rate, floor, ratio in s["by_run"])


def _breakdown_note(parts: dict) -> str:
    """Where one POST's time goes, in-process and one at a time (no load)."""
    order = ["middleware and Django", "DRF dispatch", "authentication", "parsing", "validation",
             "scoring", "SQL", "cache", "serializing", "rendering"]
    shares = ", ".join(f"{part} {parts['parts'].get(part, 0.0) * 1000:.1f} ms"
                       for part in order)
    return (f"where a POST's time goes, in this process, one at a time through Django's test "
            f"client, each phone having opened its table (the hot path: tournaments/api/"
            f"hot.py; {parts['posts']} POSTs, each part without the parts it calls; "
            f"cache: the throttle's memory and the live pages' mark in Redis; DRF dispatch, "
            f"with the view and the service's own Python, and authentication are the full "
            f"road's, which the hot path passes over): "
            f"{parts['whole'] * 1000:.1f} ms = {shares}" + _side_note(parts))


def _side_note(parts: dict) -> str:
    """What bounds the POST rate: every write of an event holds its row lock, and the
    tables' confirms and agrees between rounds take that lock too."""
    side = parts.get("requests")
    if not side:
        return ""
    said = "; ".join(
        f"{kind} {side[kind]['seconds'] * 1000:.1f} ms and {side[kind]['statements']:.1f} "
        f"SQL statements, CPU {side[kind]['python'] * 1000:.2f} ms here and "
        f"{side[kind]['database'] * 1000:.2f} ms in PostgreSQL ({side[kind]['requests']} sent)"
        for kind in ("POST", "confirm", "agree", "bare") if kind in side)
    return (f"; the same way, each request whole, its statements besides BEGIN, COMMIT and "
            f"savepoints (a table's write holds the event's row lock for its one write "
            f"statement), and its CPU in this thread and in the database's process: {said} "
            f"(bare: the floor's request, the same body); a table sends one confirm per board "
            f"and one agree per round")


def in_process_cpu(parts: dict) -> dict[str, tuple[float, float]] | None:
    """From the breakdown: CPU seconds (Python, PostgreSQL) per result POST with its share
    of the confirms and agrees ("API"), and per as many bare requests ("floor"), in this
    process one request at a time; None without the figures."""
    side = parts.get("requests") or {}
    if not all(side.get(kind, {}).get("requests") for kind in ("POST", "confirm", "agree",
                                                                  "bare")):
        return None
    posts = side["POST"]["requests"]
    share = {kind: side[kind]["requests"] / posts for kind in ("POST", "confirm", "agree")}
    api = tuple(sum(side[kind][part] * share[kind] for kind in share)
                for part in ("python", "database"))
    floor = tuple(side["bare"][part] * sum(share.values()) for part in ("python", "database"))
    return {"API": api, "floor": floor}


def write_costs() -> str:
    """What a table's result adds to the database beyond the floor's row, read from the
    catalog: each table's indexes and foreign keys."""
    from django.db import connection

    tables = ("tournaments_result", "tournaments_auditentry", "tournaments_idempotencyrecord")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, (SELECT count(*) FROM pg_index i WHERE i.indrelid = c.oid), "
            "(SELECT count(*) FROM pg_constraint f WHERE f.conrelid = c.oid "
            "AND f.contype = 'f') FROM pg_class c WHERE c.relname = ANY(%s)", [list(tables)])
        found = {name: (indexes, keys) for name, indexes, keys in cursor.fetchall()}
    return ", ".join(f"{name.removeprefix('tournaments_')} ({found[name][0]} indexes, "
                     f"{found[name][1]} foreign keys)" for name in tables if name in found)


def wal_note(run) -> str:
    """What the database wrote to its log for a result, in the API's run and the floor's."""
    if run.api.wal is None or run.floor.wal is None:
        return ""

    def per_result(load) -> str:
        return f"{load.wal / load.requests / 1024:.1f} KiB"

    return (f" For each result with its share, the database wrote {per_result(run.api)} to its "
            f"log in the last run (the rows, their index entries and the rows updated), the "
            f"floor's requests {per_result(run.floor)}.")


def bounds(runs: list, page_runs: list, parts: dict, clients: int) -> tuple[str, str]:
    """What bounds the result POST and the table page's entry, from this run's figures:
    (the POST's, the page's); empty where the run has no CPU figures."""
    last, page = runs[-1], page_runs[-1]
    if not (last.api.cpu and last.floor.cpu and page.api.cpu):
        return "", ""
    cores = os.cpu_count() or 1

    def per_result(run) -> float:
        return sum(run.cpu.values()) / run.requests * 1000

    def busy(run) -> float:
        return sum(run.cpu.values()) / run.seconds

    def cpu_bound(run: object, label: str) -> str:
        own, floor = per_result(run.api), per_result(run.floor)
        most = cores / own * 1000  # results a second, were every core its own
        needed = cores / (0.5 * run.floor.per_second) * 1000  # ms of CPU a result, for 0.5×
        return (f"the CPU, measured in this run. The {label}'s run keeps the machine's {cores} "
                f"cores busy ({busy(run.api):.2f} in the last run), and a result with its "
                f"share of the confirms and agrees costs {own:.2f} ms of CPU, so it can answer "
                f"at most {most:,.0f} a second, {most / run.floor.per_second:.2f}× the floor's "
                f"{run.floor.per_second:,.0f} (measured {run.ratio:.2f}×; the floor's requests "
                f"cost {floor:.2f} ms of CPU a result, on {busy(run.floor):.2f} cores). 0.5× "
                f"needs a result to cost at most about {needed:.1f} ms of CPU. With the cores "
                f"full, a request also waits for the ones ahead of it, so the p99 at {clients} "
                f"clients follows the CPU per request: the floor's own p99 was "
                f"{report.ms(run.floor.percentile(99))}, the {label}'s "
                f"{report.ms(run.api.percentile(99))}.")

    post = cpu_bound(last, "API")
    cpu = in_process_cpu(parts)
    if cpu:
        (api_py, api_db), (floor_py, floor_db) = cpu["API"], cpu["floor"]
        post += (f" In one process, one request at a time, a result with its share costs "
                 f"{(api_py + api_db) * 1000:.2f} ms of CPU ({api_py * 1000:.2f} in Python, "
                 f"{api_db * 1000:.2f} in PostgreSQL) against as many bare requests' "
                 f"{(floor_py + floor_db) * 1000:.2f} ms ({floor_py * 1000:.2f} and "
                 f"{floor_db * 1000:.2f}); under load each request also costs gunicorn, the "
                 f"clients and the kernel's sockets, alike for both.")
    post += (f" What a table's requests do that the bare insert does not: read the code's "
             f"table, section, event, meeting, pairs and board (one prepared statement), check "
             f"and score the entry, and in one statement claim the key, lock the event, check "
             f"the meeting, the round and the board under the lock and write the result, its "
             f"audit entry and the stored answer, each row with its indexes and its foreign "
             f"keys checked at commit ({write_costs()}), then mark the live pages in Redis; "
             f"the confirm and the agree do the same for their rows. The floor writes one row "
             f"to a table with one index.{wal_note(last)}")
    form = cpu_bound(page, "page") + (
        " The page's entry does what the API's does, and more: it reads the phone's session "
        "(one prepared statement), checks the CSRF token, builds and checks the board's "
        "form, claims the form's token in Redis, keeps its message for the next page in a "
        "signed cookie and answers with a redirect (the next page is the phone's own "
        "request, not counted here).")
    return post, form


def _page_figure(sizes: Sizes, page_runs: list, bound: str) -> Figure:
    from . import bench_api

    name = (f"result entry on the table page (its form), {sizes.api_clients} concurrent "
            "clients, gunicorn")
    s = bench_api.summary(page_runs)
    note = (f"{runs_note(s['runs'])}, in the same runs as the POST figure, against the same "
            f"floor; sent: {', '.join(map(str, s['requests']))}; {_by_run(s)}; "
            f"each client a phone's "
            f"browser: its session and CSRF cookies from opening the table once, each board "
            f"the page's form answered by a redirect, the page it leads to (not sent: the "
            f"phone's own request) taking the message kept for it, so the next form goes "
            f"without it; between rounds E-W confirm each board "
            f"and the table agrees the round on the page (p50 {report.ms(s['side_p50'])}, "
            f"p99 {report.ms(s['side_p99'])})")
    if s["unusual"]:
        note += f"; {s['unusual']} unusual results looked at again and saved as entered"
    bad = sum(r.api.bad for r in page_runs)
    if bad:
        note += f"; {bad} answers were not a redirect: {s['errors'][:2]}"
    if s["side_bad"]:
        note += f"; {s['side_bad']} confirm/agree answers failed: {s['side_errors'][:2]}"
    cpu = bench_api.cpu_note(page_runs[-1].api, "the page")
    if cpu:
        note += (f"; what bounds it, measured: CPU per result entry with its share of the "
                 f"confirms and agrees, in the last run, {cpu} (the floor's as in the POST "
                 f"figure); each page request also reads its session")
    met = s["ratio"] >= 0.5 and s["api_p99"] < 0.150 and not bad and not s["side_bad"]
    return Figure(
        name, f"{s['api_per_second']:,.0f} req/s; p50 {report.ms(s['api_p50'])}, "
              f"p99 {report.ms(s['api_p99'])}",
        f"{s['floor_per_second']:,.0f} req/s", report.ratio(s["ratio"]), GOAL_POST,
        verdict(met), note, bound="" if met else bound)


PG_ROWS = (
    ("full standings recompute, club night", GOAL_CLUB),
    ("full standings recompute, large event, PostgreSQL", GOAL_LARGE),
    ("recompute at 10, 100 and 1,000 tables", GOAL_GROWTH),
    ("one new result in the large event", GOAL_NEW),
    ("peak memory, large event recompute", GOAL_MEMORY),
    ("travellers PDF, large event: gathering every board's results (report_data)",
     GOAL_GATHER),
    ("travellers PDF, large event", GOAL_TRAVELLERS),
    ("score cards PDF, large event (every pair)", GOAL_SCORECARDS),
    ("peak memory, printing the travellers and the score cards", GOAL_MEMORY),
    ("result POST throughput, 32 concurrent clients, gunicorn", GOAL_POST),
    ("result entry on the table page (its form), 32 concurrent clients, gunicorn", GOAL_POST),
)


POLL_ROWS = (
    ("unchanged poll (304), 1,000-table event, gunicorn", GOAL_POLL),
    ("poll after a change, 300 polls/s while results are POSTed", GOAL_POLL_CHANGED),
)
PARTS = ("engine", "standings", "api", "polls", "reports", "memory")


def database_figures(sizes: Sizes, notes: list[str], *, parts: tuple[str, ...] = PARTS,
                     profile: bool = False) -> list[Figure]:
    from . import bench_api
    from .data import build_pairs_event, delete_bench_events, settle

    with step("removing leftovers"):
        leftovers = delete_bench_events()
        settle()
    notes.append("The bench database is VACUUMed and ANALYZEd once each figure's data is "
                 "made, as autovacuum keeps a live database (bench/data.py, settle).")
    if leftovers:
        notes.append(f"Removed {leftovers} bench event(s) left by an earlier run.")
    figures: list[Figure] = []
    try:
        event = None
        if "standings" in parts:
            with step("standings"):
                figures, event = standings_figures(sizes, notes, profile=profile)
        elif "reports" in parts or "memory" in parts:
            tables, boards = sizes.large
            with step("building the large event"):
                event = build_pairs_event(name="large event", tables=tables,
                                          boards=boards).event()
                settle()
        if "api" in parts:
            with step("result POST throughput"):
                figures.extend(api_figure(sizes, notes))
        if "polls" in parts:
            with step("live polls"):
                figures.extend(poll_figures(sizes, notes))
        if "reports" in parts:
            with step("travellers and score cards PDFs"):
                figures.extend(report_figures(event, sizes))
        if "memory" in parts:
            with step("peak memory"):
                figures.append(memory_figure(event, sizes))
        return figures
    finally:
        with step("removing the bench events"):
            delete_bench_events()
            if "api" in parts or "polls" in parts:
                bench_api.drop_bare_table()


# --- main ----------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", metavar="PART",
                        help=f"what to measure: any of {', '.join(PARTS)} (default: all)")
    parser.add_argument("--quick", action="store_true",
                        help="small sizes and few runs (a smoke test, not the real figures)")
    parser.add_argument("--output", type=Path, default=None,
                        help="where to write the Markdown (default: docs/benchmarks.md for a "
                             "full run, nowhere for --quick)")
    parser.add_argument("--profile", action="store_true",
                        help="also print cProfile summaries of the slow paths")
    args = parser.parse_args(argv)
    unknown = [p for p in args.parts if p not in PARTS]
    if unknown:
        parser.error(f"unknown part {', '.join(unknown)}: choose from {', '.join(PARTS)}")
    args.parts = tuple(p for p in PARTS if p in args.parts) or PARTS
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    sizes = QUICK if args.quick else FULL
    notes: list[str] = []
    started = time.perf_counter()
    load_start = _load_average()
    url = choose_database(notes)
    configure_environment(url, notes)
    figures: list[Figure] = []
    if "engine" in args.parts:
        print("python -m bench: the scoring engine ...", flush=True)
        with step("engine (bench/bench_engine.py)"):
            figures = engine_figures(sizes, notes)
    why_not = prepare_postgres(url)
    postgresql = "not reachable"
    database_parts = tuple(p for p in args.parts if p != "engine")
    if database_parts and why_not is None:
        with step("migrating the bench database"):
            postgresql = setup_django()
        print(f"python -m bench: {', '.join(database_parts)} on "
              f"{postgresql} (this takes a few minutes) ...", flush=True)
        figures += database_figures(sizes, notes, parts=database_parts, profile=args.profile)
    elif database_parts:
        figures += [Figure.not_measured(name, goal, why_not)
                    for name, goal in PG_ROWS + POLL_ROWS]
    if args.parts != PARTS:
        notes.append(f"This run measured only: {', '.join(args.parts)} "
                     f"(`python -m bench {' '.join(args.parts)}`); the other rows are kept "
                     "as the last run that measured them wrote them.")
    notes.append("Each figure runs with DEBUG off, as in production. Whole bench: "
                 f"{time.perf_counter() - started:.0f} s.")
    m = report.machine(postgresql, {
        "Database": _safe_url(url),
        "Load average (1 min) at the start and the end": f"{load_start} and {_load_average()} "
        "(other work on the machine slows every figure)",
    })
    text = report.markdown(figures, m, notes, quick=args.quick)
    print()
    print(text)
    output = args.output or (None if args.quick else DOCS)
    if output is not None:
        if args.parts != PARTS and output.exists():
            text = report.merge(output.read_text(encoding="utf-8"), text)
        report.write(output, text)
        print(f"(written to {output})")
    missed = sum(1 for f in figures if f.verdict not in (MET, ""))
    if missed:
        print(f"{missed} figure(s) missed their goal or were not measured.")
    return 0


def _load_average() -> str:
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "unknown"


def _safe_url(url: str) -> str:
    """The URL without a password."""
    parsed = urlparse(url)
    if parsed.password:
        netloc = parsed.netloc.replace(f":{parsed.password}@", ":***@")
        return parsed._replace(netloc=netloc).geturl()
    return url


if __name__ == "__main__":
    sys.exit(main())
