"""The live pages' polls at 1,000 tables, through gunicorn (the server of bench_api).

Every phone polls its round's state (``/t/<code>/round/<n>/state.json``) and every
public page the event's live JSON (``/events/<id>/live/``), every 5 s, each bringing
back the ETag of its last answer (static/js/table.js, static/js/live.js). A *viewer*
here is one of them: a phone (with its session cookie, as a phone keeps it) or a public
page, with the tag of its last answer.

Two measurements, on one running event of 1,000 tables with its table codes, published:

- Throughput of unchanged polls: closed loop, each client thread on its own
  keep-alive connection polls as fast as it is answered, every poll with a tag that is
  still current, so every answer is a 304 (two phones' polls for one public page's).
  The floor is the same threads, sending If-None-Match to a bare view that answers
  304 from the header alone (bench/urls.py), through the same server and middleware.
  Floor and polls alternate, run by run.
- Polls at the room's rate while results come in: open loop, RATE polls a second
  spread over 1,000 phones and 500 public pages (each polled every 5 s), while a few
  tables POST their results to the same event through the API (bench_api's clients:
  enter, have the opponents confirm, agree the round). A poll after a change is a poll
  whose tag no longer matches: it gets the full answer (200) and its new tag. Latency
  is from sending a request to the end of its answer.
"""

from __future__ import annotations

import http.client
import queue
import statistics
import threading
import time
from dataclasses import dataclass, field

from .bench_api import HOST, _percentile

RATE = 300  # polls a second: 1,000 phones and 500 pages, every 5 s
PHONES_PER_PAGE = 2


@dataclass
class Viewer:
    """A phone or a public page: what it polls, its session cookie and its last tag."""

    path: str
    cookie: str = ""
    etag: str = ""


def viewers(event_id: int, plans: list, pages: int) -> list[Viewer]:
    """One phone per table (its round 1 state) and `pages` public pages."""
    phones = [Viewer(f"/t/{plan.code}/round/1/state.json") for plan in plans]
    public = [Viewer(f"/events/{event_id}/live/") for _ in range(pages)]
    return phones + public


class _Conn:
    def __init__(self, port: int):
        self.port = port
        self.conn = http.client.HTTPConnection(HOST, port, timeout=30)

    def get(self, path: str, headers: dict) -> tuple[int, http.client.HTTPResponse, bytes]:
        for attempt in range(2):
            try:
                self.conn.request("GET", path, headers=headers)
                response = self.conn.getresponse()
                return response.status, response, response.read()
            except (http.client.RemoteDisconnected, ConnectionError, BrokenPipeError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.conn.close()


def poll(conn: _Conn, viewer: Viewer) -> tuple[int, float]:
    """One poll as the page's script makes it; (status, seconds). Keeps the new tag."""
    headers = {"Accept": "application/json", "Connection": "keep-alive"}
    if viewer.etag:
        headers["If-None-Match"] = viewer.etag
    if viewer.cookie:
        headers["Cookie"] = viewer.cookie
    start = time.perf_counter()
    status, response, _body = conn.get(viewer.path, headers)
    seconds = time.perf_counter() - start
    if status in (200, 304):  # a 304 may name a new state (a phone's, after a change)
        viewer.etag = response.getheader("ETag") or viewer.etag
    cookie = response.getheader("Set-Cookie")
    if cookie and cookie.startswith("sessionid="):
        viewer.cookie = cookie.split(";", 1)[0]
    return status, seconds


def prime(port: int, all_viewers: list[Viewer], threads: int = 16) -> dict[int, int]:
    """Each viewer's first poll (its tag and, for a phone, its session); the statuses."""
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    jobs: queue.Queue = queue.Queue()
    for viewer in all_viewers:
        jobs.put(viewer)

    def work() -> None:
        conn = _Conn(port)
        try:
            while True:
                try:
                    viewer = jobs.get_nowait()
                except queue.Empty:
                    return
                status, _ = poll(conn, viewer)
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1
        finally:
            conn.close()

    workers = [threading.Thread(target=work, daemon=True) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return statuses


# --- throughput of unchanged polls -------------------------------------------------------------


@dataclass
class Throughput:
    requests: int
    seconds: float
    latencies: list[float] = field(repr=False)
    statuses: dict[int, int]

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        return _percentile(self.latencies, q)


def hammer(port: int, assigned: list[list[Viewer]], seconds: float) -> Throughput:
    """Each thread polls its viewers in turn, as fast as it is answered, for `seconds`.
    A viewer's tag is not updated: every poll sends the tag the viewer started with."""
    barrier = threading.Barrier(len(assigned) + 1)
    outs: list[dict] = [{} for _ in assigned]
    deadline = [0.0]

    def work(mine: list[Viewer], out: dict) -> None:
        conn = _Conn(port)
        latencies: list[float] = []
        statuses: dict[int, int] = {}
        out.update(latencies=latencies, statuses=statuses)
        barrier.wait()
        try:
            i = 0
            while time.perf_counter() < deadline[0]:
                viewer = mine[i % len(mine)]
                i += 1
                headers = {"Accept": "application/json", "Connection": "keep-alive",
                           "If-None-Match": viewer.etag}
                if viewer.cookie:
                    headers["Cookie"] = viewer.cookie
                start = time.perf_counter()
                status, _response, _body = conn.get(viewer.path, headers)
                latencies.append(time.perf_counter() - start)
                statuses[status] = statuses.get(status, 0) + 1
        finally:
            conn.close()

    threads = [threading.Thread(target=work, args=(mine, out), daemon=True)
               for mine, out in zip(assigned, outs, strict=True)]
    for t in threads:
        t.start()
    deadline[0] = time.perf_counter() + seconds
    start = time.perf_counter()
    barrier.wait()
    for t in threads:
        t.join(timeout=seconds + 60)
    elapsed = time.perf_counter() - start
    latencies = [x for out in outs for x in out["latencies"]]
    statuses: dict[int, int] = {}
    for out in outs:
        for k, v in out["statuses"].items():
            statuses[k] = statuses.get(k, 0) + v
    return Throughput(len(latencies), elapsed, latencies, statuses)


def assign(all_viewers: list[Viewer], threads: int) -> list[list[Viewer]]:
    """Spread the viewers over the threads, phones and pages mixed in every thread."""
    phones = [v for v in all_viewers if v.path.startswith("/t/")]
    pages = [v for v in all_viewers if not v.path.startswith("/t/")]
    mixed: list[Viewer] = []
    for i, page in enumerate(pages):
        mixed.extend(phones[i * PHONES_PER_PAGE:(i + 1) * PHONES_PER_PAGE])
        mixed.append(page)
    mixed.extend(phones[len(pages) * PHONES_PER_PAGE:])
    return [mixed[i::threads] for i in range(threads)]


def bare_viewers(count: int, path: str, tag: str) -> list[list[Viewer]]:
    return [[Viewer(path, etag=tag)] for _ in range(count)]


@dataclass
class ThroughputRun:
    polls: Throughput
    floor: Throughput

    @property
    def ratio(self) -> float:
        return self.polls.per_second / self.floor.per_second if self.floor.per_second else 0.0


# --- polls at the room's rate, while results come in ---------------------------------------------


@dataclass
class RoomRun:
    """Polls after a change: the answer names another state than the tag sent (a 200, or
    a phone's 304 with a new tag: its table's state is the same); unchanged: a 304 naming
    the tag sent."""

    seconds: float
    sent: int
    unchanged: list[float] = field(repr=False)
    changed: list[float] = field(repr=False)
    changed_phones: list[float] = field(default_factory=list, repr=False)
    changed_pages: list[float] = field(default_factory=list, repr=False)
    statuses: dict[int, int] = field(default_factory=dict)
    late: int = 0  # polls sent more than a second after their time (the client fell behind)

    @property
    def per_second(self) -> float:
        return self.sent / self.seconds if self.seconds else 0.0


def room(port: int, all_viewers: list[Viewer], *, rate: float, seconds: float,
         threads: int = 64) -> RoomRun:
    """Open loop: poll viewer after viewer at `rate` a second for `seconds`, each poll at
    its own moment whatever the answers before it did (a thread pool sends them)."""
    jobs: queue.Queue = queue.Queue()
    lock = threading.Lock()
    run = RoomRun(seconds=0.0, sent=0, unchanged=[], changed=[])
    # One poll of a viewer at a time, as one page's script does: a viewer whose last
    # poll has not come back skips its turn.
    busy: set[int] = set()

    def work() -> None:
        conn = _Conn(port)
        try:
            while True:
                job = jobs.get()
                if job is None:
                    return
                index, due = job
                viewer = all_viewers[index]
                sent_tag = viewer.etag
                late = time.perf_counter() - due > 1.0
                status, latency = poll(conn, viewer)
                with lock:
                    busy.discard(index)
                    run.sent += 1
                    run.late += late
                    run.statuses[status] = run.statuses.get(status, 0) + 1
                    if status == 304 and viewer.etag == sent_tag:
                        run.unchanged.append(latency)
                    elif status in (200, 304) and sent_tag:
                        run.changed.append(latency)
                        phone = viewer.path.startswith("/t/")
                        (run.changed_phones if phone else run.changed_pages).append(latency)
        finally:
            conn.close()

    workers = [threading.Thread(target=work, daemon=True) for _ in range(threads)]
    for w in workers:
        w.start()
    start = time.perf_counter()
    n = 0
    total = int(rate * seconds)
    while n < total:
        due = start + n / rate
        pause = due - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
        index = n % len(all_viewers)
        with lock:
            skip = index in busy
            if not skip:
                busy.add(index)
        if not skip:
            jobs.put((index, due))
        n += 1
    for _ in workers:
        jobs.put(None)
    for w in workers:
        w.join(timeout=60)
    run.seconds = time.perf_counter() - start
    return run


def probe(port: int, path: str, tag: str, *, rate: float, seconds: float) -> list[float]:
    """A bare 304 at `rate` a second for `seconds`, one at a time: what any answer costs on
    the machine at that moment (its latencies)."""
    conn = _Conn(port)
    viewer = Viewer(path, etag=tag)
    latencies: list[float] = []
    start = time.perf_counter()
    try:
        n = 0
        while time.perf_counter() - start < seconds:
            pause = start + n / rate - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
            latencies.append(poll(conn, viewer)[1])
            n += 1
    finally:
        conn.close()
    return latencies


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")
