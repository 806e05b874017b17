"""A Celery round trip through a real worker on Redis."""

import os

import pytest
from celery.contrib.testing.worker import start_worker

from config.celery import app
from tournaments.health import jobs_status
from tournaments.tasks import ping

pytestmark = [pytest.mark.redis, pytest.mark.celery_worker]


@pytest.fixture
def redis_app():
    """The project's app, pointed at the real Redis (not eager), restored afterwards."""
    url = os.environ["REDIS_URL"]
    wanted = {"broker_url": url, "result_backend": url, "task_always_eager": False}
    saved = {name: app.conf.get(name) for name in wanted}
    app.conf.update(wanted)
    yield app
    app.conf.update(saved)


def test_ping_round_trip_through_a_real_worker(redis_app):
    with start_worker(redis_app, perform_ping_check=False, pool="solo", loglevel="WARNING"):
        assert ping.delay().get(timeout=20) == "pong"
        assert jobs_status(redis_app) == "ok"


def test_no_worker_means_unreachable(redis_app):
    """Redis answers, but no worker takes the job within the timeout."""
    assert jobs_status(redis_app) == "unreachable"
