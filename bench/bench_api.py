"""Result POST throughput: many tables entering scores at once, through gunicorn.

gunicorn serves the project (bench.settings: the real application plus one bare
endpoint) on 127.0.0.1 at a free port. Each client is one table of a prepared
event: a thread with its own keep-alive connection (http.client) posting its
boards, round by round, to the real API endpoint
``POST /api/events/<id>/results/`` with ``Authorization: Table <code>`` and a
fresh ``Idempotency-Key`` each.

A table enters only the round it is at (decisions.md item 75), so each client plays
its rounds as a real table does: before going on to the next round it has the
opponents confirm each result of the round it finished (``POST .../results/<id>/
confirm/``, the id from the POST's answer) and agrees that round (``POST
.../sections/<s>/tables/<t>/rounds/<r>/agree/``). Those requests are not in the
POST figure (its count, budget, latencies and statuses); they are tallied apart and
any answer but 200/201 is reported. They do run under the same load, as in a real
room, so they take server time the POSTs' rate feels. A 422 asking about an unusual
result is answered as a table would after looking again: the same body with
``as_entered``, a POST of its own.

The floor is the same clients posting the same bodies to ``/bench/bare/``, which
inserts one row with raw SQL and answers; between rounds they send the same number
of requests (one per result, one for the round) to the same bare endpoint, so both
runs have the same shape of traffic and only what each request does differs.
A run is bounded by a count of result POSTs and by a time limit, and traffic goes
to the loopback address only.
"""

from __future__ import annotations

import collections
import contextlib
import gc
import http.client
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from django.contrib.messages.storage.cookie import CookieStorage

from .data import TablePlan

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
READY_TIMEOUT = 60.0
STDERR_LINES = 40
OK = (200, 201)


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


def _percentile(latencies: list[float], q: float) -> float:
    """The q-th percentile latency in seconds (nearest rank)."""
    if not latencies:
        return float("nan")
    ordered = sorted(latencies)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


@dataclass
class LoadResult:
    """One bounded load run: how many result POSTs answered, how fast, how long each took;
    apart, the confirms and agrees sent between rounds (not in the POST figures)."""

    requests: int
    seconds: float
    latencies: list[float] = field(repr=False)
    statuses: dict[int, int]
    errors: list[str]
    unusual: int = 0  # 422s asking about an unusual result (resent with as_entered)
    unfinished: int = 0  # clients that raised or outlived the run
    side_latencies: list[float] = field(default_factory=list, repr=False)
    side_statuses: dict[int, int] = field(default_factory=dict)
    side_errors: list[str] = field(default_factory=list)
    # CPU seconds the run cost, by process kind (cpu_seconds); empty where unknown.
    cpu: dict[str, float] = field(default_factory=dict)
    # Bytes the database wrote to its log meanwhile (wal_written); None where unknown.
    wal: int | None = None

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        return _percentile(self.latencies, q)

    def side_percentile(self, q: float) -> float:
        return _percentile(self.side_latencies, q)

    @property
    def bad(self) -> int:
        """POST answers neither 200/201 nor a question about an unusual result, and clients
        that did not finish."""
        not_ok = sum(v for k, v in self.statuses.items() if k not in OK)
        return not_ok - self.unusual + self.unfinished

    @property
    def side_bad(self) -> int:
        """Confirm and agree answers that were not 200/201."""
        return sum(v for k, v in self.side_statuses.items() if k not in OK)


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
                            stderr=subprocess.PIPE, text=True, errors="replace")
    # What the server writes on standard error (its log: a request that failed) is read as
    # it comes, the last lines kept: left in the pipe, it filled it, and every thread that
    # logged then waited for a reader that never came, the whole server with them.
    said: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
    reader = threading.Thread(target=said.extend, args=(proc.stderr,), daemon=True)
    reader.start()
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
        reader.join(timeout=5)
        if proc.stderr is not None:
            proc.stderr.close()
        if said:
            print(f"  the server said (its last {len(said)} lines on standard error):\n"
                  + "".join(f"    {line}" for line in said), file=sys.stderr, flush=True)


# --- the clients -----------------------------------------------------------------------------


class _Budget:
    """A shared count of result POSTs and a deadline: each client asks before each POST.
    `per_second`: the POSTs are paced, all clients together, at that rate (the n-th waits
    for its slot, n / per_second after the start); None: as fast as answered."""

    def __init__(self, limit: int, seconds: float, per_second: float | None = None):
        self.limit = limit
        self.seconds = seconds
        self.per_second = per_second
        self.deadline = 0.0
        self.started = 0.0
        self._taken = 0
        self._lock = threading.Lock()

    def start(self) -> None:
        self.started = time.perf_counter()
        self.deadline = self.started + self.seconds

    def take(self) -> bool:
        if time.perf_counter() >= self.deadline:
            return False
        with self._lock:
            if self._taken >= self.limit:
                return False
            self._taken += 1
            slot = self._taken - 1
        if self.per_second:
            wait = self.started + slot / self.per_second - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
        return time.perf_counter() < self.deadline


@dataclass(frozen=True)
class Route:
    """Where a client sends its result POSTs and, between rounds, its confirms and agree;
    `page`: through the table's page (a form, its session and CSRF cookies) not the API."""

    post: Callable[[TablePlan, dict], str]  # (plan, body)
    confirm: Callable[[TablePlan, int], str]  # (plan, result id; the board on the page)
    agree: Callable[[TablePlan, int], str]  # (plan, round)
    page: bool = False


def _api_post(plan: TablePlan, body: dict | None = None) -> str:
    return f"/api/events/{plan.event_id}/results/"


def _api_confirm(plan: TablePlan, result_id: int) -> str:
    return f"/api/events/{plan.event_id}/results/{result_id}/confirm/"


def _api_agree(plan: TablePlan, round_number: int) -> str:
    return (f"/api/events/{plan.event_id}/sections/{plan.section}/tables/{plan.table}"
            f"/rounds/{round_number}/agree/")


def _bare(plan: TablePlan, _n: object = None) -> str:
    return "/bench/bare/"


def _page_post(plan: TablePlan, body: dict) -> str:
    return f"/t/{plan.code}/round/{body['round']}/board/{body['board']}/"


def _page_confirm(plan: TablePlan, board: int) -> str:
    return f"/t/{plan.code}/round/{{round}}/board/{board}/confirm/"


def _page_agree(plan: TablePlan, round_number: int) -> str:
    return f"/t/{plan.code}/round/{round_number}/agree/"


API = Route(_api_post, _api_confirm, _api_agree)
# The table page's own form: the same boards, as a phone's browser sends them.
PAGE = Route(_page_post, _page_confirm, _page_agree, page=True)
# The floor makes every request the API client makes, each to the bare endpoint.
BARE = Route(_bare, _bare, _bare)

# The cookie a page's message is kept in for the next page (the messages framework's
# default storage tries its cookie first).
MESSAGES_COOKIE = CookieStorage.cookie_name
CONFIRM_BODY = json.dumps({"by": "E-W"}).encode()
AGREE_BODY = b"{}"
_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


class _Connection:
    """One table's keep-alive connection (http.client), reopened if the server closed it."""

    def __init__(self, port: int, code: str):
        self.port = port
        self.code = code
        self.conn = http.client.HTTPConnection(HOST, port, timeout=30)

    def post(self, path: str, payload: bytes, key: str) -> tuple[int, bytes]:
        headers = {"Content-Type": "application/json", "Authorization": f"Table {self.code}",
                   "Idempotency-Key": key, "Connection": "keep-alive"}
        for attempt in range(2):
            try:
                self.conn.request("POST", path, payload, headers)
                response = self.conn.getresponse()
                return response.status, response.read()
            except (http.client.RemoteDisconnected, ConnectionError, BrokenPipeError):
                # The server closed an idle keep-alive connection: reconnect, send again
                # (the same Idempotency-Key makes a resend safe).
                self.conn.close()
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.conn.close()


class _PageConnection(_Connection):
    """A phone's browser on the table page: it opens the table with its code once (the
    session and CSRF cookies), then sends each board as the page's form does, answered
    by a redirect. Its answers are put as the API's are: a redirect is 201 with the board
    as the id, a form shown again with the question about an unusual result is 422 naming
    ``as_entered``, any other page its status.

    The page a redirect leads to is the phone's own request, not sent here; but the cookies
    the phone sends next are the ones that page leaves. It shows the message the redirect's
    answer kept for it ("Board 3 saved.") and so takes it: the messages cookie is gone
    before the phone's next form. Kept instead, each request would carry every message of
    the night, read and signed again with each answer (measured in one process: 0.02 ms
    more a request than one message at 10 messages, 0.33 ms at 100), a cost no phone
    pays."""

    def __init__(self, port: int, code: str, first: str):
        super().__init__(port, code)
        self.cookies: dict[str, str] = {}
        self.digest = ""
        self.round = 1
        self._request("GET", first, None)  # the first board's form: the cookies

    def _request(self, method: str, path: str, form: dict | None) -> tuple[int, bytes]:
        headers = {"Connection": "keep-alive", "Cookie": "; ".join(
            f"{k}={v}" for k, v in self.cookies.items())}
        payload = None
        if form is not None:
            payload = urllib.parse.urlencode(form).encode()
            headers.update({"Content-Type": "application/x-www-form-urlencoded",
                            "X-CSRFToken": self.cookies.get("csrftoken", "")})
        for attempt in range(2):
            try:
                self.conn.request(method, path, payload, headers)
                response = self.conn.getresponse()
                text = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionError, BrokenPipeError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
                if attempt:
                    raise
        for cookie in response.msg.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        if response.status == 302:
            self.cookies.pop(MESSAGES_COOKIE, None)  # the next page shows the message
        return response.status, text

    def post(self, path: str, payload: bytes, key: str) -> tuple[int, bytes]:
        if path.startswith("/bench/"):
            return super().post(path, payload, key)
        if "/confirm/" in path or "/agree/" in path:
            status, text = self._request("POST", path.replace("{round}", str(self.round)), {})
            return (200 if status == 302 else status), text
        body = json.loads(payload)
        self.round = body["round"]
        contract = body["result"]["contract"]
        form = {"level": contract["level"], "denomination": contract["denomination"],
                "declarer": contract["declarer"], "doubled": contract["doubled"],
                "tricks": body["result"]["tricks"], "revokes_declaring": 0,
                "revokes_defending": 0, "first_penalty": "", "action": "save", "token": key,
                "as_entered": self.digest if body.get("as_entered") else ""}
        status, text = self._request("POST", path, form)
        if status == 302:
            return 201, json.dumps({"id": body["board"]}).encode()
        found = re.search(rb'name="as_entered" value="([0-9a-f]+)"', text)
        if status == 200 and found:
            self.digest = found.group(1).decode()
            return 422, json.dumps({"field": "as_entered"}).encode()
        return status, text[:300]


@dataclass
class _Tally:
    """One kind of request's answers: latencies, statuses and the first few errors."""

    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def add(self, seconds: float, status: int, text: bytes) -> None:
        self.latencies.append(seconds)
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if status not in OK and not _unusual(status, text) and len(self.errors) < 3:
            self.errors.append(f"{status}: {text[:200].decode('utf-8', 'replace')}")

    def merge(self, other: _Tally) -> None:
        self.latencies.extend(other.latencies)
        for status, count in other.statuses.items():
            self.statuses[status] = self.statuses.get(status, 0) + count
        self.errors.extend(other.errors)


def _timed_post(conn: _Connection, tally: _Tally, path: str, payload: bytes,
                key: str) -> tuple[int, bytes]:
    start = time.perf_counter()
    status, text = conn.post(path, payload, key)
    tally.add(time.perf_counter() - start, status, text)
    return status, text


def _unusual(status: int, text: bytes) -> bool:
    """The server's question about an unusual result (422 naming ``as_entered``)."""
    if status != 422:
        return False
    try:
        return json.loads(text).get("field") == "as_entered"
    except (ValueError, AttributeError):
        return False


def _result_id(text: bytes) -> int | None:
    try:
        return json.loads(text).get("id")
    except (ValueError, AttributeError):
        return None


def _rounds(bodies: list[dict]) -> list[tuple[int, list[dict]]]:
    """The bodies grouped by round, in the order posted."""
    grouped: list[tuple[int, list[dict]]] = []
    for body in bodies:
        if not grouped or grouped[-1][0] != body["round"]:
            grouped.append((body["round"], []))
        grouped[-1][1].append(body)
    return grouped


def _client(port: int, route: Route, plan: TablePlan, budget: _Budget,
            barrier: threading.Barrier, out: dict) -> None:
    """One table: its boards round by round on one keep-alive connection.

    Before the first board of the next round, the table finishes the last one as a real
    table does (decisions.md item 75: a table enters only the round it is at): the
    opponents confirm each of that round's results, then the table agrees the round.
    Those requests go to `side`, not to the POSTs' tally; a client whose budget is spent
    sends none, so no run ends with confirms that no POST follows. A 422 asking about an
    unusual result is answered as the table would, having looked again: the same body
    with ``as_entered`` under the same key, a POST of its own.
    """
    posts, side = _Tally(), _Tally()
    out.update(posts=posts, side=side)
    conn = (_PageConnection(port, plan.code, route.post(plan, plan.bodies[0])) if route.page
            else _Connection(port, plan.code))
    barrier.wait()
    try:
        out["unusual"] = _play(conn, route, plan, budget, posts, side)
        out["done"] = True
    finally:
        conn.close()


def _play(conn: _Connection, route: Route, plan: TablePlan, budget: _Budget, posts: _Tally,
          side: _Tally) -> int:
    """The table's rounds until its plan or the budget ends; how many unusual results."""
    unusual = 0
    pending: tuple[int, list[int]] | None = None  # the round played last, its result ids
    for round_number, bodies in _rounds(plan.bodies):
        result_ids: list[int] = []
        for body in bodies:
            if not budget.take():
                return unusual
            if pending is not None:
                _finish_round(conn, route, plan, side, *pending)
                pending = None
            key = uuid.uuid4().hex
            status, text = _timed_post(conn, posts, route.post(plan, body),
                                       json.dumps(body).encode(), key)
            if _unusual(status, text):
                unusual += 1  # an answer, not a failure: the table looks again
                if not budget.take():
                    return unusual
                status, text = _timed_post(conn, posts, route.post(plan, body), json.dumps(
                    {**body, "as_entered": True}).encode(), key)
            if status in OK:
                # A 2xx without an id is confirmed as result 0: a 404, counted loudly.
                result_ids.append(_result_id(text) or 0)
        pending = (round_number, result_ids)
    return unusual


def _finish_round(conn: _Connection, route: Route, plan: TablePlan, side: _Tally,
                  round_number: int, result_ids: list[int]) -> None:
    """The opponents confirm each result of the round, then the table agrees it."""
    for result_id in result_ids:
        _timed_post(conn, side, route.confirm(plan, result_id), CONFIRM_BODY, uuid.uuid4().hex)
    _timed_post(conn, side, route.agree(plan, round_number), AGREE_BODY, uuid.uuid4().hex)


def load(port: int, route: Route, plans: list[TablePlan], *, limit: int,
         seconds: float, per_second: float | None = None) -> LoadResult:
    """All clients at once (one per plan, by `route`), until `limit` result POSTs or
    `seconds` have passed; paced at `per_second` result POSTs, all together, if given."""
    budget = _Budget(limit, seconds, per_second)
    barrier = threading.Barrier(len(plans) + 1)
    outs: list[dict] = [{} for _ in plans]
    threads = [
        threading.Thread(target=_client, args=(port, route, plan, budget, barrier, out),
                         daemon=True)
        for plan, out in zip(plans, outs, strict=True)
    ]
    for thread in threads:
        thread.start()
    budget.start()
    barrier.wait()
    cpu_before, wal_before = cpu_seconds(), wal_written()
    start = time.perf_counter()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    elapsed = time.perf_counter() - start
    cpu_after, wal_after = cpu_seconds(), wal_written()
    posts, side = _Tally(), _Tally()
    for out in outs:
        posts.merge(out["posts"])
        side.merge(out["side"])
    unfinished = sum(1 for out in outs if not out.get("done"))
    if unfinished:
        posts.errors.insert(0, f"{unfinished} client(s) did not finish")
    return LoadResult(len(posts.latencies), elapsed, posts.latencies, posts.statuses,
                      posts.errors[:5], unusual=sum(out.get("unusual", 0) for out in outs),
                      unfinished=unfinished, side_latencies=side.latencies,
                      side_statuses=side.statuses, side_errors=side.errors[:5],
                      cpu=cpu_used(cpu_before, cpu_after),
                      wal=None if wal_before is None or wal_after is None
                      else wal_after - wal_before)


# Which process is which, by its command line (the server, the database, the cache).
_KINDS = (("server", "gunicorn"), ("PostgreSQL", "postgres"), ("Redis", "redis-server"))


def cpu_seconds() -> dict[int, tuple[str, float]]:
    """CPU seconds (user and system) used so far by each of this machine's gunicorn,
    PostgreSQL and Redis processes and by this process (the clients), by process id, with
    its kind, from /proc (Linux); {} elsewhere."""
    proc = Path("/proc")
    if not (proc / "self" / "stat").exists():
        return {}
    tick = os.sysconf("SC_CLK_TCK")
    used: dict[int, tuple[str, float]] = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(
                "utf-8", "replace")
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        kind = "clients" if pid == os.getpid() else next(
            (name for name, mark in _KINDS if mark in command), None)
        if kind is not None:
            used[pid] = (kind, (int(fields[11]) + int(fields[12])) / tick)
    return used


def wal_written() -> int | None:
    """Where PostgreSQL's log is written to, in bytes from its start (the whole server's);
    None where it cannot say."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')")
        return int(cursor.fetchone()[0])


def process_cpu(pid: int) -> float:
    """The CPU seconds process `pid` has run so far, to the nanosecond (Linux's scheduler
    statistics: /proc/<pid>/schedstat); 0.0 where it cannot be read."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def cpu_used(before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]
             ) -> dict[str, float]:
    """CPU seconds used between two cpu_seconds readings, by kind: each process's own
    difference (all of it for one started in between). A process that ended in between is
    not counted, so this is a floor."""
    used: dict[str, float] = {}
    for pid, (kind, seconds) in after.items():
        used[kind] = used.get(kind, 0.0) + seconds - before.get(pid, (kind, 0.0))[1]
    return used


def cpu_note(run: LoadResult, label: str) -> str:
    """CPU per result POST of a run (its share of the confirms and agrees in), by process."""
    if not run.cpu or not run.requests:
        return ""
    parts = ", ".join(f"{kind} {seconds / run.requests * 1000:.2f} ms"
                      for kind, seconds in run.cpu.items())
    busy = sum(run.cpu.values()) / run.seconds if run.seconds else 0.0
    return (f"{label} {sum(run.cpu.values()) / run.requests * 1000:.2f} ms ({parts}; "
            f"{busy:.2f} of {os.cpu_count()} cores busy)")


def warm_up(port: int, plans: list[TablePlan], route: Route = API) -> None:
    """Wake every worker (its lazy imports, its threads' database connections) with the
    real API (or the table page) and the bare endpoint, on an event of its own; nothing
    here is counted."""
    limit = sum(len(p.bodies) for p in plans)
    for run in (load(port, route, plans, limit=limit, seconds=60),
                load(port, BARE, plans, limit=limit, seconds=60)):
        if run.bad or run.side_bad:  # a figure measured after a failing warm-up means nothing
            raise RuntimeError(f"the warm-up's requests failed: "
                               f"{(run.errors + run.side_errors)[:2]}")


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
        "by_run": [(r.api.per_second, r.floor.per_second, r.ratio) for r in runs],
        "api_statuses": _merge([r.api.statuses for r in runs]),
        "floor_statuses": _merge([r.floor.statuses for r in runs]),
        "errors": [e for r in runs for e in r.api.errors + r.floor.errors][:5],
        "unusual": sum(r.api.unusual for r in runs),
        "bad": sum(r.api.bad + r.floor.bad for r in runs),
        "side_requests": [len(r.api.side_latencies) for r in runs],
        "side_p50": med([r.api.side_percentile(50) for r in runs]),
        "side_p99": med([r.api.side_percentile(99) for r in runs]),
        "side_bad": sum(r.api.side_bad + r.floor.side_bad for r in runs),
        "side_errors": [e for r in runs for e in r.api.side_errors + r.floor.side_errors][:5],
    }


def _merge(dicts: list[dict[int, int]]) -> dict[int, int]:
    merged: dict[int, int] = {}
    for d in dicts:
        for k, v in d.items():
            merged[k] = merged.get(k, 0) + v
    return merged


# --- where a POST's time goes (in-process) ----------------------------------------------------


class _Clock:
    """Exclusive time by part: a part's time leaves out the parts it calls (SQL inside
    authentication counts as SQL), so the parts add up to the whole."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = {}
        self._stack: list[list] = []  # [part, start, time in nested parts]

    def enter(self, part: str) -> None:
        self._stack.append([part, time.perf_counter(), 0.0])

    def leave(self) -> None:
        part, start, nested = self._stack.pop()
        spent = time.perf_counter() - start
        self.totals[part] = self.totals.get(part, 0.0) + spent - nested
        if self._stack:
            self._stack[-1][2] += spent

    @contextlib.contextmanager
    def aside(self) -> Iterator[None]:
        """What runs inside is left out of the parts: the totals are as they were before."""
        before = dict(self.totals)
        try:
            yield
        finally:
            self.totals.clear()
            self.totals.update(before)

    def timed(self, part: str, function: Callable) -> Callable:
        clock = self

        def wrapper(*args, **kwargs):
            clock.enter(part)
            try:
                return function(*args, **kwargs)
            finally:
                clock.leave()

        return wrapper


# (part, module path, attribute path): what each part of the breakdown times. The view's
# own work is the rest of the handler (the service's logic, the lock's wait is SQL).
BREAKDOWN_PARTS = (
    ("authentication", "tournaments.api.auth", "TableCodeAuthentication.authenticate"),
    ("parsing", "rest_framework.request", "Request._parse"),
    ("parsing", "tournaments.api.hot", "json_body"),
    ("validation", "tournaments.api.views", "validated"),
    ("validation", "tournaments.api.hot", "_valid"),
    ("scoring", "tournaments.seam", "live_result"),
    ("serializing", "tournaments.api.serializers", "ResultOut.to_representation"),
    ("rendering", "rest_framework.renderers", "JSONRenderer.render"),
    ("cache", "tournaments.throttle", "_remembered"),
    ("cache", "tournaments.polls", "_keep_highest"),
    ("DRF dispatch", "rest_framework.views", "APIView.dispatch"),
    # The COMMIT is SQL too, wherever the transaction ends.
    ("SQL", "django.db.backends.base.base", "BaseDatabaseWrapper.commit"),
)

def _patch(clock: _Clock, module_path: str, attribute: str, part: str) -> Callable[[], None]:
    import importlib

    owner = importlib.import_module(module_path)
    names = attribute.split(".")
    for name in names[:-1]:
        owner = getattr(owner, name)
    name = names[-1]
    own = name in vars(owner)
    original = getattr(owner, name)
    setattr(owner, name, clock.timed(part, original))
    return (lambda: setattr(owner, name, original)) if own else (lambda: delattr(owner, name))


def breakdown(plans: list[TablePlan], *, warm: int = 8) -> dict:
    """Each plan's first round POSTed in this process through Django's test client (the
    whole middleware stack, the real view), timed by part; the mean per POST in seconds,
    by part, with "middleware and Django" the rest of the whole."""
    from django.db import connection
    from django.test import Client

    clock = _Clock()
    undo = [_patch(clock, module, attribute, part)
            for part, module, attribute in BREAKDOWN_PARTS]

    def sql(execute, sql_text, params, many, context):
        clock.enter("SQL")
        try:
            return execute(sql_text, params, many, context)
        finally:
            clock.leave()

    count, whole = 0, 0.0
    # Each kind of request timed whole, with its statements counted (besides BEGIN, COMMIT
    # and savepoints: what it costs the event's row lock) and the CPU it took, here and in
    # the database's process serving this connection; the bare insert the same way, one
    # per POST, the floor's request in this process.
    side = {kind: {"requests": 0, "seconds": 0.0, "statements": 0, "python": 0.0,
                   "database": 0.0} for kind in ("POST", "confirm", "agree", "bare")}
    counting: list[str] = []
    connection.ensure_connection()
    backend = connection.connection.info.backend_pid

    def counted(execute, sql_text, params, many, context):
        if counting and not sql_text.startswith(_CONTROL):
            side[counting[0]]["statements"] += 1
        return sql(execute, sql_text, params, many, context)

    def send(client, kind: str, path: str, body: bytes):
        counting[:] = [kind]
        database = process_cpu(backend)
        python = time.thread_time()
        start = time.perf_counter()
        clock.enter("middleware and Django")
        try:
            return client.post(path, body, content_type="application/json",
                               HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex)
        finally:
            clock.leave()
            counting.clear()
            side[kind]["requests"] += 1
            side[kind]["seconds"] += time.perf_counter() - start
            side[kind]["python"] += time.thread_time() - python
            side[kind]["database"] += process_cpu(backend) - database

    # What this process holds by now (the loads' plans and tallies) lives to its end, as
    # the server's modules do: frozen as config/wsgi.py freezes them, so that the
    # collector's full passes over it are not counted in the requests' CPU (in a process
    # holding two rooms' loads, they made an agree cost four times its own CPU).
    gc.collect()
    gc.freeze()
    try:
        with connection.execute_wrapper(counted):
            for n, plan in enumerate(plans):
                client = Client(HTTP_AUTHORIZATION=f"Table {plan.code}")
                # The phone opens its table first, as the load's clients have by their
                # second POST: its code is then one this address holds (the hot path).
                # Not in the parts.
                with clock.aside():
                    client.get("/api/table/")
                first_round = [b for b in plan.bodies if b["round"] == plan.bodies[0]["round"]]
                result_ids = []
                for body in first_round:
                    if n == warm:
                        clock.totals.clear()
                        count, whole = 0, 0.0
                        for kind in side.values():
                            kind.update(requests=0, seconds=0.0, statements=0, python=0.0,
                                        database=0.0)
                    start = time.perf_counter()
                    response = send(client, "POST", _api_post(plan),
                                    json.dumps(body).encode())
                    whole += time.perf_counter() - start
                    count += 1
                    if _unusual(response.status_code, response.content):
                        with clock.aside():  # looked at again: not timed, nor in the parts
                            response = client.post(
                                _api_post(plan), json.dumps({**body, "as_entered": True}),
                                content_type="application/json",
                                HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex)
                    if response.status_code not in OK:
                        raise RuntimeError(f"breakdown POST answered {response.status_code}: "
                                           f"{response.content[:200]!r}")
                    result_ids.append(_result_id(response.content))
                    # The floor's request, here: the same body to the bare insert. Not in
                    # the parts.
                    with clock.aside():
                        send(client, "bare", _bare(plan), json.dumps(body).encode())
                # Not in the parts: the clock's totals are the POSTs' alone.
                with clock.aside():
                    answers = [send(client, "confirm", _api_confirm(plan, result_id),
                                    CONFIRM_BODY) for result_id in result_ids]
                    answers.append(send(client, "agree",
                                        _api_agree(plan, first_round[0]["round"]), AGREE_BODY))
                for response in answers:
                    if response.status_code not in OK:
                        raise RuntimeError(f"breakdown confirm/agree answered "
                                           f"{response.status_code}: {response.content[:200]!r}")
    finally:
        for restore in undo:
            restore()
        gc.unfreeze()
    return {"posts": count, "whole": whole / count,
            "parts": {part: seconds / count for part, seconds in clock.totals.items()},
            "requests": {kind: {name: v[name] / max(v["requests"], 1)
                                for name in ("seconds", "statements", "python", "database")}
                         | {"requests": v["requests"]} for kind, v in side.items()}}
