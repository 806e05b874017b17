"""/health/ reports the database and the job queue."""

import pytest


@pytest.mark.django_db
def test_health_reports_database_and_jobs(client, settings):
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["database"] == "ok"
    expected = "eager" if settings.CELERY_TASK_ALWAYS_EAGER else "ok"
    assert body["jobs"] in (expected, "unreachable")
    if settings.CELERY_TASK_ALWAYS_EAGER:
        assert body["jobs"] == "eager"


def test_jobs_unreachable_when_nothing_listens():
    """A broker address where nothing listens is reported unreachable, not an error page."""
    from celery import Celery

    from tournaments.health import jobs_status

    dead = Celery(broker="redis://127.0.0.1:1/0", backend="redis://127.0.0.1:1/0")
    dead.conf.broker_connection_retry = False
    dead.conf.broker_connection_max_retries = 0
    dead.conf.redis_socket_connect_timeout = 1
    assert jobs_status(dead) == "unreachable"


def test_home_page_serves(client, db):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Duplicate nights" in response.content


def test_home_lists_only_published_events_to_the_public(client, db):
    from tests.factories import DirectorFactory, EventFactory

    EventFactory(name="Published night", published="provisional")
    EventFactory(name="Secret night", published="none")
    public = client.get("/").content.decode()
    assert "Published night" in public and "Secret night" not in public
    client.force_login(DirectorFactory())
    assert "Secret night" in client.get("/").content.decode()
