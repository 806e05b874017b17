"""Result POST throughput: many tables entering scores at once, through gunicorn.

gunicorn serves the project (bench.settings: the real application plus one bare
endpoint) on 127.0.0.1 at a free port. Each client is one table of a prepared
event: a thread with its own keep-alive connection (http.client) posting its
boards, round by round, to the real API endpoint
``POST /api/events/<id>/results/`` with ``Authorization: Table <code>`` and a
fresh ``Idempotency-Key`` each. The floor is the same clients posting the same
bodies to ``/bench/bare/``, which inserts one row with raw SQL and answers.
A run is bounded by a count of requests and by a time limit, and traffic goes
to the loopback address only.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .data import TablePlan

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
READY_TIMEOUT = 60.0


@dataclass(frozen=True)
class ServerConfig:
    workers: int
    threads: int

    def describe(self) -> str:
        return f"gunicorn gthread, {self.workers} workers x {self.threads} threads"


def default_server_config() -> ServerConfig:
    """Two workers per core, with enough threads that every client has one in flight."""
    cores = os.cpu_count() or 1
    return ServerConfig(workers=2 * cores, threads=8)


@dataclass
class LoadResult:
    """One bounded load run: how many answered, how fast, and how long each took."""

    requests: int
    seconds: float
    latencies: list[float] = field(repr=False)
    statuses: dict[int, int]
    errors: list[str]

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        """The q-th percentile latency in seconds (nearest rank)."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
        return ordered[rank]


# --- the floor's table --------------------------------------------------------------------


def ensure_bare_table() -> None:
    """The small table the bare endpoint inserts into (PostgreSQL), emptied."""
    from django.db import connection

    from .urls import BARE_TABLE

    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {BARE_TABLE} "
                       "(id bigserial PRIMARY KEY, body text NOT NULL, "
                       "at timestamptz NOT NULL DEFAULT now())")
        cursor.execute(f"TRUNCATE {BARE_TABLE}")


def drop_bare_table() -> None:
    from django.db import connection

    from .urls import BARE_TABLE

    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {BARE_TABLE}")


# --- the server ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def _wait_ready(proc: subprocess.Popen, port: int) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited with code {proc.returncode} before serving")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/bench/bare/")
            if conn.getresponse().status == 200:
                conn.close()
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer on port {port} within {READY_TIMEOUT:.0f} s")


@contextlib.contextmanager
def server(config: ServerConfig, env: dict[str, str]) -> Iterator[int]:
    """gunicorn serving bench.settings on a free loopback port; yields the port."""
    port = free_port()
    args = [
        sys.executable, "-m", "gunicorn", "config.wsgi:application",
        "--bind", f"{HOST}:{port}",
        "--worker-class", "gthread", "--workers", str(config.workers),
        "--threads", str(config.threads),
        "--preload", "--log-level", "warning", "--graceful-timeout", "5",
    ]
    child_env = {**env, "DJANGO_SETTINGS_MODULE": "bench.settings"}
    proc = subprocess.Popen(args, cwd=ROOT, env=child_env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        _wait_ready(proc, port)
        yield port
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)  # every request has been answered: stop at once
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()


# --- the clients -----------------------------------------------------------------------------


class _Budget:
    """A shared count of requests and a deadline: each client asks before each request."""

    def __init__(self, limit: int, seconds: float):
        self.limit = limit
        self.seconds = seconds
        self.deadline = 0.0
        self._taken = 0
        self._lock = threading.Lock()

    def start(self) -> None:
        self.deadline = time.perf_counter() + self.seconds

    def take(self) -> bool:
        if time.perf_counter() >= self.deadline:
            return False
        with self._lock:
            if self._taken >= self.limit:
                return False
            self._taken += 1
            return True


def _client(port: int, path: str, code: str, bodies: list[dict], budget: _Budget,
            barrier: threading.Barrier, out: dict) -> None:
    """One table: post its bodies in order on one keep-alive connection."""
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    errors: list[str] = []
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    barrier.wait()
    for body in bodies:
        if not budget.take():
            break
        payload = json.dumps(body).encode()
        headers = {"Content-Type": "application/json", "Authorization": f"Table {code}",
                   "Idempotency-Key": uuid.uuid4().hex, "Connection": "keep-alive"}
        start = time.perf_counter()
        for attempt in range(2):
            try:
                conn.request("POST", path, payload, headers)
                response = conn.getresponse()
                text = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionError, BrokenPipeError):
                # The server closed an idle keep-alive connection: reconnect, send again
                # (the same Idempotency-Key makes a resend safe).
                conn.close()
                conn = http.client.HTTPConnection(HOST, port, timeout=30)
                if attempt:
                    raise
        latencies.append(time.perf_counter() - start)
        statuses[response.status] = statuses.get(response.status, 0) + 1
        if response.status >= 300 and len(errors) < 3:
            errors.append(f"{response.status}: {text[:200].decode('utf-8', 'replace')}")
    conn.close()
    out.update(latencies=latencies, statuses=statuses, errors=errors)


def bare_path(_plan: TablePlan) -> str:
    return "/bench/bare/"


def api_path(plan: TablePlan) -> str:
    return f"/api/events/{plan.event_id}/results/"


def load(port: int, path: Callable[[TablePlan], str], plans: list[TablePlan], *, limit: int,
         seconds: float) -> LoadResult:
    """All clients at once (one per plan, posting to ``path(plan)``), until `limit` requests
    or `seconds` have passed."""
    budget = _Budget(limit, seconds)
    barrier = threading.Barrier(len(plans) + 1)
    outs: list[dict] = [{} for _ in plans]
    threads = [
        threading.Thread(target=_client, args=(port, path(plan), plan.code, plan.bodies,
                                               budget, barrier, out), daemon=True)
        for plan, out in zip(plans, outs, strict=True)
    ]
    for thread in threads:
        thread.start()
    budget.start()
    barrier.wait()
    start = time.perf_counter()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    elapsed = time.perf_counter() - start
    latencies = [x for out in outs for x in out.get("latencies", [])]
    statuses: dict[int, int] = {}
    errors: list[str] = []
    for out in outs:
        for status, count in out.get("statuses", {}).items():
            statuses[status] = statuses.get(status, 0) + count
        errors.extend(out.get("errors", []))
    missing = sum(1 for out in outs if not out)
    if missing:
        errors.append(f"{missing} client(s) did not finish")
    return LoadResult(len(latencies), elapsed, latencies, statuses, errors[:5])


def warm_up(port: int, plans: list[TablePlan]) -> None:
    """Wake every worker (its lazy imports, its threads' database connections) with the
    real API and the bare endpoint, on an event of its own; nothing here is counted."""
    limit = sum(len(p.bodies) for p in plans)
    load(port, api_path, plans, limit=limit, seconds=60)
    load(port, bare_path, plans, limit=limit, seconds=60)


@dataclass
class ThroughputRun:
    api: LoadResult
    floor: LoadResult

    @property
    def ratio(self) -> float:
        return self.api.per_second / self.floor.per_second if self.floor.per_second else 0.0


def summary(runs: list[ThroughputRun]) -> dict:
    """Medians over runs of the API's and the floor's rate and latencies, and their ratio."""
    def med(values: list[float]) -> float:
        return statistics.median(values)

    return {
        "runs": len(runs),
        "requests": [r.api.requests for r in runs],
        "api_per_second": med([r.api.per_second for r in runs]),
        "api_p50": med([r.api.percentile(50) for r in runs]),
        "api_p99": med([r.api.percentile(99) for r in runs]),
        "floor_per_second": med([r.floor.per_second for r in runs]),
        "floor_p50": med([r.floor.percentile(50) for r in runs]),
        "floor_p99": med([r.floor.percentile(99) for r in runs]),
        "ratio": med([r.ratio for r in runs]),
        "api_statuses": _merge([r.api.statuses for r in runs]),
        "floor_statuses": _merge([r.floor.statuses for r in runs]),
        "errors": [e for r in runs for e in r.api.errors + r.floor.errors][:5],
    }


def _merge(dicts: list[dict[int, int]]) -> dict[int, int]:
    merged: dict[int, int] = {}
    for d in dicts:
        for k, v in d.items():
            merged[k] = merged.get(k, 0) + v
    return merged
