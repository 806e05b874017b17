"""The end of the correction period publishes the standings final: by a task that a worker
runs at the period's end (an eta under Redis), and, in-process or whenever a task was
lost, by the first read of the event after the end (services.event_final_if_due)."""

import datetime
import json

import pytest
from celery.contrib.testing.worker import start_worker
from django.utils import timezone

from config.celery import app
from tests.reports.conftest import wait_for
from tests.reports.night import build_night, make_director
from tournaments import services
from tournaments.models import Event
from tournaments.tasks import publish_final_if_due


@pytest.fixture
def director(db):
    return make_director()


@pytest.fixture
def in_process():
    """As `make run` has it: no Redis, tasks run in-process (an eta is ignored)."""
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


def _end_period(event: Event, seconds: float = -1) -> None:
    Event.objects.filter(pk=event.pk).update(
        final_after=timezone.now() + datetime.timedelta(seconds=seconds))


def test_in_process_the_first_read_after_the_end_publishes_final(director, in_process, client):
    night = build_night(director)
    event = services.event_close(event=night.event, actor=night.actor, reason="Checked")
    page = client.get(f"/events/{event.pk}/standings/").content.decode()
    assert f"final after {timezone.localtime(event.final_after):%H:%M}" in page
    assert Event.objects.get(pk=event.pk).published == "provisional"
    _end_period(event)
    page = client.get(f"/events/{event.pk}/standings/").content.decode()
    assert "Final results" in page
    assert Event.objects.get(pk=event.pk).published == "final"


def test_the_task_is_idempotent_and_waits_for_the_end(director, in_process):
    night = build_night(director)
    event = services.event_close(event=night.event, actor=night.actor, reason="Checked")
    # In-process an eta is ignored: the task runs at once, finds nothing due, changes nothing.
    assert publish_final_if_due.delay(event.pk).get() == "provisional"
    _end_period(event)
    assert publish_final_if_due.delay(event.pk).get() == "final"
    assert publish_final_if_due.delay(event.pk).get() == "final"
    assert publish_final_if_due.delay(10**9).get() == "gone"


def test_a_reopened_event_is_not_published_by_its_old_task(director, in_process):
    night = build_night(director)
    event = services.event_close(event=night.event, actor=night.actor, reason="Checked")
    services.event_reopen(event=event, actor=night.actor, reason="A revoke on board 2")
    assert publish_final_if_due.delay(event.pk).get() == "provisional"
    assert Event.objects.get(pk=event.pk).status == "agreed"


@pytest.mark.redis
@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_publishes_final_at_the_end_of_the_period(redis_queue):
    """Closing sends the task with the period's end as its eta; a real worker runs it then."""
    assert not app.conf.task_always_eager
    director = make_director()
    night = build_night(director)
    event = services.event_close(event=night.event, actor=night.actor, reason="Checked",
                                 correction_minutes=1)
    sent = [json.loads(raw) for raw in redis_queue.lrange("celery", 0, -1)]
    assert [m["headers"]["task"] for m in sent] == [services.FINAL_TASK]
    eta = datetime.datetime.fromisoformat(sent[0]["headers"]["eta"])
    assert abs((eta - event.final_after).total_seconds()) < 1
    # A minute is long for a test: bring the end to three seconds from now, as a second
    # message (the first one, still a minute away, finds nothing due by then).
    _end_period(event, seconds=3)
    event.refresh_from_db()
    services._schedule_final(event.pk, event.final_after)
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        assert Event.objects.get(pk=event.pk).published == "provisional"
        wait_for(lambda: Event.objects.get(pk=event.pk).published == "final", timeout=30,
                 what="the final standings")
    assert timezone.now() >= event.final_after
