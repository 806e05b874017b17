"""/health/: anyone gets the database and the last known cache and job states at once;
directors and HEALTH_TOKEN holders get the live check, with short timeouts."""

import time

import pytest
from django.core.management import call_command
from django.test import Client

from tests.factories import DirectorFactory, UserFactory
from tournaments.models import ServiceState

KEYS = {"status", "database", "jobs", "cache", "since", "checked_at", "live"}


@pytest.mark.django_db
def test_health_reports_database_and_jobs(client, settings):
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == KEYS
    assert body["database"] == "ok" and body["live"] is False
    if settings.CELERY_TASK_ALWAYS_EAGER:
        assert body["jobs"] == "eager"
    else:  # nobody has checked yet in this database
        assert body["jobs"] == "unknown"


def test_jobs_unreachable_when_nothing_listens():
    """A broker address where nothing listens is reported unreachable, not an error page."""
    from celery import Celery

    from tournaments.health import jobs_status

    dead = Celery(broker="redis://127.0.0.1:1/0", backend="redis://127.0.0.1:1/0")
    dead.conf.broker_connection_retry = False
    dead.conf.broker_connection_max_retries = 0
    dead.conf.redis_socket_connect_timeout = 1
    assert jobs_status(dead) == "unreachable"


def timed_get(client: Client, **headers) -> tuple[float, dict]:
    started = time.monotonic()
    response = client.get("/health/", **headers)
    return time.monotonic() - started, response.json()


@pytest.mark.redis
@pytest.mark.django_db
def test_anyone_is_answered_at_once_with_no_worker_and_with_redis_down(private_redis):
    """The old check sent a ping and waited: 3 s with no worker, 19 s with Redis down."""
    client = Client()
    client.get("/health/")  # the first request of a process imports what it needs
    elapsed, body = timed_get(client)  # Redis up, no worker
    assert elapsed < 0.5, elapsed
    assert body["database"] == "ok" and body["jobs"] == "unknown" and body["live"] is False
    private_redis.stop()
    elapsed, body = timed_get(client)
    assert elapsed < 0.5, elapsed
    assert body["status"] == "ok" and body["database"] == "ok"


@pytest.mark.redis
@pytest.mark.django_db
def test_the_live_check_is_for_directors_and_the_token(private_redis, settings):
    settings.HEALTH_TOKEN = "s3cret-token"
    director, player = Client(), Client()
    director.force_login(DirectorFactory())
    player.force_login(UserFactory())
    assert Client().get("/health/").json()["live"] is False
    assert player.get("/health/").json()["live"] is False
    assert Client().get("/health/", HTTP_AUTHORIZATION="Bearer wrong").json()["live"] is False
    live = Client().get("/health/", HTTP_AUTHORIZATION="Bearer s3cret-token").json()
    assert live["live"] is True
    assert (live["cache"], live["jobs"]) == ("ok", "unreachable")  # no worker runs here
    assert director.get("/health/").json()["live"] is True


@pytest.mark.redis
@pytest.mark.django_db
def test_the_live_check_finds_redis_down_quickly_and_anyone_then_sees_it(private_redis):
    director = Client()
    director.force_login(DirectorFactory())
    private_redis.stop()
    elapsed, body = timed_get(director)
    assert elapsed < 3.0, elapsed  # the cache fails at once, the ping is given up on
    assert body["live"] is True and body["status"] == "degraded"
    assert body["cache"].startswith("unreachable since ") and body["jobs"] == "unreachable"

    elapsed, seen = timed_get(Client())
    assert elapsed < 0.5, elapsed
    assert seen["live"] is False and seen["status"] == "degraded"
    assert (seen["cache"], seen["jobs"]) == (body["cache"], "unreachable")
    assert seen["since"]["cache"] and seen["checked_at"]["jobs"]

    private_redis.start()
    assert director.get("/health/").json()["cache"] == "ok"
    assert Client().get("/health/").json()["cache"] == "ok"


@pytest.mark.redis
@pytest.mark.django_db
def test_the_check_command_stores_what_anyone_then_sees(private_redis):
    with pytest.raises(Exception, match="unreachable: jobs"):  # no worker: exits 1
        call_command("check_services")
    assert ServiceState.objects.get(name="cache").state == "ok"
    body = Client().get("/health/").json()
    assert (body["cache"], body["jobs"], body["status"]) == ("ok", "unreachable", "degraded")
