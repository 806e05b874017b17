"""A running job's heartbeat: independent of page progress, and stopped with the run."""

import datetime
import time

import pytest
from django.utils import timezone

from tournaments.models import ReportJob
from tournaments.reports import services
from tournaments.services import Actor

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def running_job(director, night):
    job = services.report_request(event=night.event, kind="standings",
                                  actor=Actor.director(director))
    # Just started (as _report_start leaves it), by the task "the-task".
    ReportJob.objects.filter(pk=job.pk).update(status="running", task_id="the-task",
                                               updated_at=timezone.now())
    return job


def last_sign(job) -> datetime.datetime:
    return ReportJob.objects.get(pk=job.pk).updated_at


def test_the_heartbeat_keeps_a_job_without_progress_alive(running_job, settings):
    settings.REPORTS_HEARTBEAT = 0.2
    stale = services.stale_after()
    assert stale == datetime.timedelta(seconds=0.8)  # four beats
    with services.Heartbeat(job_id=running_job.pk, task_id="the-task"):
        deadline = time.monotonic() + 3 * stale.total_seconds()
        while time.monotonic() < deadline:  # no page progress at all, three stale limits
            time.sleep(0.1)
            assert timezone.now() - last_sign(running_job) < stale
            assert services.report_requeue(job=running_job) == []
    stopped = last_sign(running_job)
    time.sleep(0.5)
    assert last_sign(running_job) == stopped  # the beat ends with the run


def test_a_heartbeat_stops_when_its_task_is_superseded(running_job, settings):
    settings.REPORTS_HEARTBEAT = 0.1
    started = last_sign(running_job)
    beat = services.Heartbeat(job_id=running_job.pk, task_id="an-older-task")
    with beat:
        time.sleep(0.5)
        assert not beat._thread.is_alive()  # its first beat found another task's job
    assert last_sign(running_job) == started  # and did not speak for it
