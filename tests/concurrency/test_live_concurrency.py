"""A whole session submitted at once over HTTP, as a room full of phones on bad wifi would.

A 10-table Mitchell (skip), 3 boards a round, every round: 270 results. Sixty
client threads submit them through a real gunicorn (4 processes x 4 threads) with
each table's code, a round at a time (a table enters only the round it is at; the
director agrees each round before the next), interleaved at random within it, and
misbehave the way phones do:

- retries: the same request again with the same Idempotency-Key, sometimes from
  two threads at the same moment (the second waits for the first and gets its answer);
- duplicates: the same result under a new key (a second press of "send");
- conflicts: a different result for a stored board under a new key (409);
- late retries: keys resent long after, once everything is in.

Then: every result is stored exactly once with the content sent, no answer was a
5xx, and every retry got exactly the first answer (status and body).
"""

import datetime
import http.client
import json
import queue
import random
import threading
import time
import uuid
from dataclasses import dataclass, field

import pytest
from django.contrib.auth import get_user_model

from tests.factories import DirectorFactory
from tournaments import services
from tournaments.models import AuditEntry, Event, IdempotencyRecord, Meeting, Result, TableCode
from tournaments.services import Actor

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

CLIENTS = 60
TIME_LIMIT = 60.0
DENOMINATIONS = ["S", "C", "D", "H", "RS", "NT"]


@dataclass
class Job:
    """One board at one meeting, as its table will send it."""

    code: str
    round: int
    board: int
    ns: int
    ew: int
    result: dict

    def body(self, result: dict | None = None) -> dict:
        # Random results are often unusual (7 NT redoubled, no tricks): the tables have had
        # their second look and save them as entered.
        return {"board": self.board, "round": self.round, "ns": self.ns, "ew": self.ew,
                "result": result or self.result, "as_entered": True}


@dataclass
class Sent:
    """A key and what it was first answered."""

    job: Job
    key: str
    body: dict
    status: int
    answer: dict


@dataclass
class Log:
    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: list[int] = field(default_factory=list)
    sent: list[Sent] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    first_ids: dict[tuple[int, int, int], int] = field(default_factory=dict)

    def problem(self, text: str) -> None:
        with self.lock:
            self.problems.append(text)


def random_result(rng: random.Random) -> dict:
    denomination = rng.choice(DENOMINATIONS)
    # No hand record: a table gives every honour (Law 3), 5 in a suit, the 4 aces at NT.
    honours = [1, 1, 1, 1] if denomination == "NT" else [2, 1, 1, 1]
    rng.shuffle(honours)
    return {
        "contract": {"level": rng.randint(1, 7), "denomination": denomination,
                     "declarer": rng.choice("NESW"), "doubled": rng.choice(["", "", "X", "XX"])},
        "tricks": rng.randint(0, 13),
        "honours": dict(zip("NESW", honours, strict=True)),
    }


def other_result(result: dict) -> dict:
    """A result that differs from `result` (one more or one fewer trick)."""
    tricks = result["tricks"] + 1 if result["tricks"] < 13 else 12
    return {**result, "tricks": tricks}


class Client:
    """One keep-alive connection per thread; reconnects when the server closes it."""

    def __init__(self, host: str, port: int, log: Log) -> None:
        self.host, self.port, self.log = host, port, log
        self.conn: http.client.HTTPConnection | None = None

    def _once(self, path: str, code: str, key: str, body: dict) -> tuple[int, dict]:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        payload = json.dumps(body)
        self.conn.request("POST", path, body=payload, headers={
            "Content-Type": "application/json", "Authorization": f"Table {code}",
            "Idempotency-Key": key})
        response = self.conn.getresponse()
        raw = response.read()
        try:
            data = json.loads(raw) if raw else None
        except ValueError:
            data = {"unparsable": raw.decode(errors="replace")[:500]}
        return response.status, data

    def send(self, path: str, code: str, key: str, body: dict) -> tuple[int, dict]:
        """POST until there is an answer: a dropped connection is followed by the same
        request with the same key."""
        for _attempt in range(200):
            try:
                status, data = self._once(path, code, key, body)
            except (ConnectionError, http.client.HTTPException, TimeoutError):
                if self.conn is not None:
                    self.conn.close()
                self.conn = None
                time.sleep(0.02)
                continue
            with self.log.lock:
                self.log.statuses.append(status)
            return status, data
        raise AssertionError(f"no final answer for key {key}")


def build_session() -> tuple[Event, list[Job]]:
    from boards.movements import generate

    actor = Actor.director(DirectorFactory(username="td"))
    event = services.event_create(name="Busy night", date=datetime.date(2026, 11, 17),
                                  actor=actor)
    movement = generate("mitchell", tables=10, boards_per_round=3, variant="skip")
    for number in range(1, movement.pairs + 1):
        services.pair_set(event=event, number=number, players=[f"N{number}", f"S{number}"],
                          actor=actor)
    services.boards_set(event=event, count=movement.boards, actor=actor)
    services.movement_meetings_set(section=event.sections.get(), movement=movement, actor=actor)
    services.event_set_status(event=event, status=Event.Status.RUNNING, actor=actor)
    codes = dict(TableCode.objects.filter(section__event=event).values_list("table", "code"))
    rng = random.Random(1913)
    jobs = [
        Job(codes[m.table], m.round, board, m.ns_pair.number, m.ew_pair.number,
            random_result(rng))
        for m in Meeting.objects.filter(section__event=event).select_related(
            "ns_pair", "ew_pair")
        for board in m.boards
    ]
    return event, jobs


def play(job: Job, client: Client, path: str, log: Log, rng: random.Random) -> None:
    """Send one board the way a phone might, checking each answer as it comes."""
    key = uuid.uuid4().hex
    body = job.body()
    if rng.random() < 0.2:
        # The same key from two threads at once: one does the work, the other waits for
        # it and gets the replay (never "still running").
        twin_answer: list[tuple[int, dict]] = []
        twin_client = Client(client.host, client.port, log)
        twin = threading.Thread(
            target=lambda: twin_answer.append(twin_client.send(path, job.code, key, body)))
        twin.start()
        status, answer = client.send(path, job.code, key, body)
        twin.join(timeout=30)
        if not twin_answer or twin_answer[0] != (status, answer):
            log.problem(f"board {job.board} r{job.round}: twins got different answers "
                        f"{(status, answer)} and {twin_answer}")
    else:
        status, answer = client.send(path, job.code, key, body)
    if status != 201:
        log.problem(f"board {job.board} round {job.round}: first send got {status} {answer}")
        return
    with log.lock:
        log.sent.append(Sent(job, key, body, status, answer))
        log.first_ids[(job.board, job.ns, job.ew)] = answer["id"]
    if rng.random() < 0.3:  # the answer was lost: send it again, same key
        again = client.send(path, job.code, key, body)
        if again != (status, answer):
            log.problem(f"board {job.board}: retry got {again}, first {(status, answer)}")
    if rng.random() < 0.3:  # "send" pressed twice: same result, new key
        dup_status, dup = client.send(path, job.code, uuid.uuid4().hex, body)
        if dup_status != 200 or dup.get("id") != answer["id"]:
            log.problem(f"board {job.board}: duplicate got {dup_status} {dup}")
    if rng.random() < 0.05:  # the other side's phone sends a different result
        clash_key = uuid.uuid4().hex
        clash_body = job.body(other_result(job.result))
        clash = client.send(path, job.code, clash_key, clash_body)
        if clash[0] != 409 or clash[1].get("existing", {}).get("id") != answer["id"]:
            log.problem(f"board {job.board}: conflict got {clash}")
        with log.lock:
            log.sent.append(Sent(job, clash_key, clash_body, *clash))
        if client.send(path, job.code, clash_key, clash_body) != clash:
            log.problem(f"board {job.board}: the conflict's retry was answered differently")


def run_threads(count: int, work) -> None:
    threads = [threading.Thread(target=work, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=TIME_LIMIT)
        assert not thread.is_alive(), "a client thread is stuck"


def test_a_whole_session_submitted_concurrently(gunicorn_server):
    event, jobs = build_session()
    assert len(jobs) == 270
    path = f"/api/events/{event.pk}/results/"
    log = Log()
    work: queue.Queue[Job] = queue.Queue()

    rngs = [random.Random(n) for n in range(CLIENTS)]  # each thread's, across the rounds

    def client_thread(n: int) -> None:
        rng = rngs[n]
        client = Client(gunicorn_server.host, gunicorn_server.port, log)
        while True:
            try:
                job = work.get_nowait()
            except queue.Empty:
                return
            try:
                play(job, client, path, log, rng)
            except Exception as exc:  # report, do not hang the others
                log.problem(f"board {job.board} round {job.round}: {exc!r}")

    started = time.monotonic()
    # A table enters only the round it is at: the room sends a round's results all at
    # once, then the director agrees the round and the tables move on.
    shuffled = random.Random(84).sample(jobs, len(jobs))
    director = Actor.director(get_user_model().objects.get(username="td"))
    for round_number in sorted({job.round for job in jobs}):
        for job in shuffled:
            if job.round == round_number:
                work.put(job)
        run_threads(CLIENTS, client_thread)
        services.round_agree(section=event.sections.get(), round_number=round_number,
                             actor=director)

    # Late retries: keys resent after everything is in, from many threads at once.
    late = random.Random(7).sample(log.sent, min(120, len(log.sent)))

    def late_thread(n: int) -> None:
        client = Client(gunicorn_server.host, gunicorn_server.port, log)
        for sent in late[n::CLIENTS]:
            again = client.send(path, sent.job.code, sent.key, sent.body)
            if again != (sent.status, sent.answer):
                log.problem(f"late retry of board {sent.job.board}: {again} != "
                            f"{(sent.status, sent.answer)}")

    run_threads(CLIENTS, late_thread)
    elapsed = time.monotonic() - started
    counts = {code: log.statuses.count(code) for code in sorted(set(log.statuses))}
    print(f"{len(log.statuses)} requests in {elapsed:.1f} s; answers by status: {counts}")

    assert log.problems == []
    assert [s for s in log.statuses if s >= 500] == []
    assert elapsed < TIME_LIMIT, f"took {elapsed:.1f} s"
    assert sum(1 for s in log.sent if s.status == 409) >= 1, "no conflict was exercised"

    # Exactly once, with the content sent.
    stored = {(r.board.number, r.ns_pair.number, r.ew_pair.number): r
              for r in Result.objects.filter(event=event).select_related(
                  "board", "ns_pair", "ew_pair")}
    assert len(stored) == Result.objects.filter(event=event).count() == len(jobs)
    for job in jobs:
        result = stored[(job.board, job.ns, job.ew)]
        contract = job.result["contract"]
        assert (result.level, result.denomination, result.declarer, result.doubled,
                result.tricks) == (contract["level"], contract["denomination"],
                                   contract["declarer"], contract["doubled"],
                                   job.result["tricks"])
        assert not result.voided and result.version == 1
        assert log.first_ids[(job.board, job.ns, job.ew)] == result.pk
    assert AuditEntry.objects.filter(event=event, action="enter").count() == len(jobs)
    assert not IdempotencyRecord.objects.filter(status_code__isnull=True).exists()
