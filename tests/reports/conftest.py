"""Fixtures for the printed reports: a small night, PDFs written to a temporary folder,
and jobs run in-process unless a test brings a real worker."""

import os
import socket
import time

import pytest

from config.celery import app
from tournaments import standings

from .night import build_night, make_director


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


@pytest.fixture(autouse=True)
def _fresh_standings():
    standings.clear_cache()
    yield
    standings.clear_cache()


@pytest.fixture(autouse=True)
def _in_process(request):
    """Run jobs in-process (as `make run` does), unless the test runs a real worker.

    With REDIS_URL set for the whole suite the app would otherwise publish to Redis,
    where no worker of this test is listening.
    """
    if request.node.get_closest_marker("celery_worker"):
        yield
        return
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


@pytest.fixture
def director(db):
    return make_director()


@pytest.fixture
def night(director):
    return build_night(director)


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


def _reset_broker_pools() -> None:
    """Forget pooled broker connections, so the next publish uses the current broker_url."""
    app._pool = None
    amqp = app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None


def free_port() -> int:
    """A local port where nothing listens (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def dead_broker():
    """Point the app at a Redis port where nothing listens: Redis is "down".

    Yields a function that brings the broker back as it was (in-process jobs when
    the suite runs without REDIS_URL, the real Redis when it has one).
    """
    saved = (app.conf.broker_url, app.conf.task_always_eager)
    app.conf.broker_url = f"redis://127.0.0.1:{free_port()}/6"
    app.conf.task_always_eager = False
    _reset_broker_pools()

    def restore() -> None:
        app.conf.broker_url, app.conf.task_always_eager = saved
        _reset_broker_pools()

    yield restore
    restore()


def wait_for(predicate, *, timeout: float = 60, every: float = 0.2, what: str = "the job"):
    """Poll `predicate` until it returns something truthy; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}")


@pytest.fixture
def redis_queue():
    """This engineer's Redis db, emptied before and after (no stale messages or results)."""
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    client.flushdb()
    yield client
    client.flushdb()
