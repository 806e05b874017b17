"""Fixtures for the printed reports: a small night, PDFs written to a temporary folder,
and jobs run in-process unless a test brings a real worker."""

import socket
import time

import pytest

from config.celery import app
from tournaments import standings
from tournaments.reports import services

from .night import build_night, make_director


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


@pytest.fixture(autouse=True)
def _fresh_standings():
    standings.clear_cache()
    yield
    standings.clear_cache()


class InlineJobs:
    """Runs an in-process job in the caller's thread as soon as it is sent.

    Without a broker the product runs each job in a thread of its own
    (``services.InProcessJobs``); a test inside a transaction needs the job in its own
    thread, on its own connection, to see the test's data. ``hold=True`` keeps the
    jobs until ``run()``, so a test can look at the page while the job has not run.
    """

    def __init__(self, *, hold: bool = False) -> None:
        self.hold = hold
        self.held: list[tuple[int, str]] = []

    def start(self, *, job_id: int, task_id: str) -> None:
        if self.hold:
            self.held.append((job_id, task_id))
        else:
            services.report_run_here(job_id=job_id, task_id=task_id)

    def run(self) -> int:
        jobs, self.held = self.held, []
        for job_id, task_id in jobs:
            services.report_run_here(job_id=job_id, task_id=task_id)
        return len(jobs)

    def wait(self, timeout: float | None = 60) -> bool:
        self.run()
        return True


def _swap_runner(runner):
    """Set the in-process runner; returns the one it replaced. (Not by monkeypatch: some
    tests call monkeypatch.undo(), which must not bring back the threads.)"""
    before, services.in_process = services.in_process, runner
    return before


@pytest.fixture(autouse=True)
def _in_process(request):
    """Run jobs in-process (as `make run` does), unless the test runs a real worker.

    With REDIS_URL set for the whole suite the app would otherwise publish to Redis,
    where no worker of this test is listening. The jobs run in the test's own thread
    (``InlineJobs``); ``threaded_jobs`` brings back the product's threads.
    """
    if request.node.get_closest_marker("celery_worker"):
        yield
        return
    runner = _swap_runner(InlineJobs())
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before
    _swap_runner(runner)


@pytest.fixture
def held_jobs():
    """In-process jobs that wait for the test to call ``run()``."""
    jobs = InlineJobs(hold=True)
    before = _swap_runner(jobs)
    yield jobs
    _swap_runner(before)


@pytest.fixture
def threaded_jobs(transactional_db):
    """The product's own in-process runner: a thread per job (needs committed data)."""
    jobs = services.InProcessJobs()
    before = _swap_runner(jobs)
    yield jobs
    finished = jobs.wait(60)
    _swap_runner(before)
    assert finished, "an in-process job was still running at the end of the test"


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


