"""A result POST whose server process dies mid-write, and a retry racing the first request,
against a live gunicorn on PostgreSQL.

The test holds the event's row lock from a connection of its own, so a result POST stops
inside its transaction, after claiming its Idempotency-Key, at the service's event lock.
Then it kills the gunicorn worker serving that request (SIGKILL: no clean-up of any
kind), or sends the same request again, and lets the event go.
"""

import http.client
import json
import os
import signal
import threading
import time
import uuid

import psutil
import psycopg
import pytest
from django.conf import settings
from django.db import connection

from tests.api.helpers import TWO_HEARTS, build_night
from tests.factories import DirectorFactory
from tournaments.models import IdempotencyRecord, Result

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def _lock_event(event_id: int) -> psycopg.Connection:
    """A connection of the test's own holding the event's row lock until rolled back."""
    db = settings.DATABASES["default"]
    holder = psycopg.connect(host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432,
                             dbname=db["NAME"], user=db["USER"],
                             password=db.get("PASSWORD") or None)
    holder.execute("SELECT id FROM tournaments_event WHERE id = %s FOR UPDATE", [event_id])
    return holder


def _lock_waiters() -> int:
    """Backends of the test database waiting for a lock (a row, or another's claim)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                       "current_database() AND wait_event_type = 'Lock'")
        return cursor.fetchone()[0]


def _wait(predicate, what: str, timeout: float = 15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}")


class Post:
    """One result POST on a connection of its own, sent from a thread of its own."""

    def __init__(self, server, path: str, code: str, key: str, body: dict) -> None:
        self.conn = http.client.HTTPConnection(server.host, server.port, timeout=60)
        self.conn.connect()
        self.local_port = self.conn.sock.getsockname()[1]
        self.answer: tuple[int, dict, str | None] | BaseException | None = None
        headers = {"Content-Type": "application/json", "Authorization": f"Table {code}",
                   "Idempotency-Key": key}
        self.thread = threading.Thread(target=self._send, args=(path, json.dumps(body), headers))
        self.thread.start()

    def _send(self, path: str, payload: str, headers: dict) -> None:
        try:
            self.conn.request("POST", path, body=payload, headers=headers)
            response = self.conn.getresponse()
            self.answer = (response.status, json.loads(response.read()),
                           response.getheader("Idempotent-Replayed"))
        except (ConnectionError, http.client.HTTPException, OSError) as exc:
            self.answer = exc
        finally:
            self.conn.close()

    def result(self, timeout: float = 15.0):
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "no answer"
        return self.answer


def _worker_serving(server, client_port: int) -> psutil.Process:
    """The gunicorn worker process holding the connection that comes from `client_port`."""
    for child in psutil.Process(server.pid).children():
        for conn in child.net_connections(kind="tcp"):
            if conn.raddr and conn.raddr.port == client_port and conn.laddr.port == server.port:
                return child
    return None


def _night():
    night = build_night(DirectorFactory(username="td"))
    meeting = night.meeting(1, 1)
    body = {"board": meeting.boards[0], "round": 1, "result": TWO_HEARTS}
    return night, f"/api/events/{night.event.pk}/results/", body


def test_a_request_killed_mid_write_leaves_its_key_free(gunicorn_server):
    night, path, body = _night()
    key = uuid.uuid4().hex
    holder = _lock_event(night.event.pk)
    try:
        first = Post(gunicorn_server, path, night.codes[1], key, body)
        _wait(lambda: _lock_waiters() == 1, "the request to wait for the event lock")
        worker = _wait(lambda: _worker_serving(gunicorn_server, first.local_port),
                       "the worker serving the request")
        os.kill(worker.pid, signal.SIGKILL)  # the process dies inside its transaction
        worker.wait(timeout=10)
        assert isinstance(first.result(), BaseException)  # the phone heard nothing
    finally:
        holder.rollback()  # the event is free again; the dead request's backend ends
        holder.close()

    # The phone sends again, same key: the answer comes at once, never "still running".
    started = time.monotonic()
    again = Post(gunicorn_server, path, night.codes[1], key, body).result()
    elapsed = time.monotonic() - started
    assert not isinstance(again, BaseException), again
    status, answer, replayed = again
    assert (status, replayed) == (201, None), answer
    assert elapsed < 5, f"the retry took {elapsed:.1f} s"
    stored = Result.objects.get(event=night.event)
    assert answer["id"] == stored.pk
    assert IdempotencyRecord.objects.get(key=key).status_code == 201


def test_a_retry_while_the_first_runs_waits_and_gets_its_answer(gunicorn_server):
    night, path, body = _night()
    key = uuid.uuid4().hex
    holder = _lock_event(night.event.pk)
    try:
        first = Post(gunicorn_server, path, night.codes[1], key, body)
        _wait(lambda: _lock_waiters() == 1, "the first request to wait for the event lock")
        second = Post(gunicorn_server, path, night.codes[1], key, body)
        # The second waits for the first's claim (or, before the fix, answered at once).
        _wait(lambda: _lock_waiters() == 2 or not second.thread.is_alive(),
              "the second request to wait for the first")
    finally:
        holder.rollback()
        holder.close()
    status, answer, replayed = first.result()
    assert (status, replayed) == (201, None), answer
    assert second.result() == (201, answer, "true")
    assert Result.objects.filter(event=night.event).count() == 1
