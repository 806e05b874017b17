"""Each PDF through a real Celery worker on Redis (the worker runs in a thread of this
process, so it sees the test database on SQLite as well as on PostgreSQL)."""

import pytest
from celery.contrib.testing.worker import start_worker
from django.core.management import call_command

from config.celery import app
from tournaments.models import ReportJob
from tournaments.reports import services
from tournaments.services import Actor

from .conftest import wait_for
from .night import build_night
from .pdf import pdf_text

pytestmark = [pytest.mark.redis, pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

EXPECTED = {
    "travellers": ["Board 1 · dealer North", "♠ 10 8 2", "Average (Duplicate Law B)"],
    "standings": ["North–South", "East–West", "Ann Lee & Bob Ray", "Provisional"],
    "scorecards": ["Pair 1: Ann Lee & Bob Ray", "Pair 6: Kit Lamb & Lou Moss", "Total:"],
    "guidecards": ["Table 1", "Table 3", "end of play"],  # one section: none named
}


def finished(kind: str):
    job = ReportJob.objects.filter(kind=kind).first()
    return job if job is not None and job.status in ("done", "failed") else None


def test_every_pdf_is_made_by_the_worker(director, redis_queue):
    assert not app.conf.task_always_eager  # a real broker, not in-process
    night = build_night(director)
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        for kind in EXPECTED:
            services.report_request(event=night.event, kind=kind,
                                    actor=Actor.director(director))
        for kind, words in EXPECTED.items():
            job = wait_for(lambda kind=kind: finished(kind), what=f"the {kind}")
            assert job.status == "done", job.error
            assert job.task_id and job.attempts == 1
            assert job.done == job.total > 0
            with job.file.open("rb") as handle:
                text = pdf_text(handle.read())
            for word in words:
                assert word in text, (kind, word)
    # The worker recorded its progress in Celery's result store too.
    job = ReportJob.objects.get(kind="travellers")
    result = app.AsyncResult(job.task_id)
    assert result.state == "PROGRESS" and result.info == {"done": 12, "total": 12}


def test_jobs_asked_for_while_redis_was_down_run_when_it_is_back(director, redis_queue,
                                                                  dead_broker):
    night = build_night(director)
    services.report_request(event=night.event, kind="standings", actor=Actor.director(director))
    job = ReportJob.objects.get()
    assert (job.status, job.task_id) == ("queued", "")
    dead_broker()  # Redis is back
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        call_command("requeue_reports", "--unsent-after", "0")
        job = wait_for(lambda: finished("standings"))
    assert job.status == "done", job.error
    with job.file.open("rb") as handle:
        assert "Ann Lee & Bob Ray" in pdf_text(handle.read())
