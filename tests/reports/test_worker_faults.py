"""A worker killed mid-job loses nothing (a real worker process on Redis and PostgreSQL).

Two ways a worker dies: its pool process is killed (the worker notices, and with
acks_late and reject_on_worker_lost puts the job back on the queue at once), or
the whole worker is killed (its message waits out Redis's visibility timeout, so
a job whose heartbeat stopped is sent again: by any live worker's watch, the job page
or ``requeue_reports``). A slow job that beats is never taken for a dead one.
"""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from config.celery import app
from tournaments.models import ReportJob
from tournaments.reports import services
from tournaments.services import Actor

from .conftest import wait_for
from .night import build_night
from .pdf import pdf_text

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis,
              pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def workers(tmp_path):
    """Start worker processes that see this test's database; kill them all at the end."""
    started: list[subprocess.Popen] = []
    db = connection.settings_dict  # the test database ("test_<name>"), not the configured one
    auth = quote(db["USER"]) + (f":{quote(db['PASSWORD'])}" if db.get("PASSWORD") else "")
    url = f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"

    def start(name: str, *, delay: float = 0.0, stall: float = 0.0,
              heartbeat: float | None = None) -> tuple[subprocess.Popen, Path]:
        pidfile = tmp_path / f"{name}.pid"
        env = {**os.environ, "DATABASE_URL": url, "MEDIA_ROOT": str(settings.MEDIA_ROOT),
               "DEBUG": "1", "SLOW_WORKER_DELAY": str(delay), "SLOW_WORKER_STALL": str(stall),
               "SLOW_WORKER_PIDFILE": str(pidfile), "CONN_MAX_AGE": "0",
               "SLOW_WORKER_STALLFILE": str(tmp_path / f"{name}.stall"),
               "SLOW_WORKER_RELEASE": str(tmp_path / f"{name}.release")}
        if heartbeat is not None:
            env["REPORTS_HEARTBEAT"] = str(heartbeat)
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.reports.slow_worker", name], cwd=ROOT, env=env,
            start_new_session=True, stdout=subprocess.DEVNULL, stderr=tmp_path.joinpath(
                f"{name}.log").open("w"))
        started.append(process)
        return process, pidfile

    yield start
    for process in started:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


def running_with_progress(job_id: int):
    job = ReportJob.objects.get(pk=job_id)
    return job if job.status == "running" and job.done >= 2 else None


def assert_travellers_printed(job: ReportJob) -> None:
    assert job.status == "done", job.error
    with job.file.open("rb") as handle:
        text = pdf_text(handle.read())
    for number in range(1, 7):
        assert f"Board {number} · dealer" in text


def test_a_killed_pool_process_is_replaced_and_the_job_completes(director, workers,
                                                                 redis_queue):
    night = build_night(director)
    worker, pidfile = workers("pool", delay=1.0)
    job = services.report_request(event=night.event, kind="travellers",
                                  actor=Actor.director(director))
    wait_for(lambda: running_with_progress(job.pk), what="the worker to start the job")
    child = int(pidfile.read_text())
    assert child != worker.pid
    os.kill(child, signal.SIGKILL)  # the process printing the job dies mid-job
    job = wait_for(lambda: ReportJob.objects.filter(pk=job.pk, status="done").first(),
                   timeout=120, what="the job to be redelivered and finished")
    assert job.attempts == 2  # started, killed, started again from the queue
    assert_travellers_printed(job)


def test_a_killed_worker_is_replaced_and_the_job_completes(director, workers, redis_queue):
    night = build_night(director)
    first, _ = workers("first", delay=1.0)
    job = services.report_request(event=night.event, kind="travellers",
                                  actor=Actor.director(director))
    wait_for(lambda: running_with_progress(job.pk), what="the first worker to start the job")
    os.killpg(first.pid, signal.SIGKILL)  # the whole worker dies: nobody will ack its message
    first.wait(timeout=30)
    lost_task = ReportJob.objects.get(pk=job.pk).task_id
    assert ReportJob.objects.get(pk=job.pk).status == "running"

    workers("second")
    time.sleep(1.5)
    call_command("requeue_reports", "--stale-after", "1")  # the job's worker went quiet
    job = wait_for(lambda: ReportJob.objects.filter(pk=job.pk, status="done").first(),
                   timeout=120, what="the second worker to finish the job")
    assert job.task_id != lost_task and job.attempts == 2
    assert_travellers_printed(job)


HEARTBEAT = 1.0  # seconds: the workers' and this test's; the stale limit is four beats


def ready(name: str) -> bool:
    return bool(app.control.ping(destination=[f"{name}@{socket.gethostname()}"], timeout=0.5))


def test_a_slow_job_that_beats_is_never_sent_again(director, workers, redis_queue, settings,
                                                   tmp_path):
    settings.REPORTS_HEARTBEAT = HEARTBEAT
    stale = services.stale_after().total_seconds()
    night = build_night(director)
    # The slow worker alone is up when the job is sent, so it is the one that prints; it
    # stalls at its first board, before any page is done, until the test releases it.
    workers("slow", delay=0.2, stall=120, heartbeat=HEARTBEAT)
    wait_for(lambda: ready("slow"), what="the slow worker to be ready")
    job = services.report_request(event=night.event, kind="travellers",
                                  actor=Actor.director(director))
    stall = tmp_path / "slow.stall"
    running = wait_for(lambda: stall.exists() and stall.read_text() == "stalling"
                       and ReportJob.objects.filter(pk=job.pk, status="running").first(),
                       what="the slow worker to start the job and stall")
    task_id = running.task_id
    # Another worker idles beside it, its watch looking for stalled jobs every beat.
    workers("idle", heartbeat=HEARTBEAT)
    wait_for(lambda: ready("idle"), what="the idle worker to be ready")
    silent_until = time.monotonic() + 2.5 * stale
    while time.monotonic() < silent_until:  # the job page, polled all the while
        assert services.report_requeue(job=running) == []
        current = ReportJob.objects.get(pk=job.pk)
        assert (current.status, current.task_id, current.attempts) == ("running", task_id, 1)
        assert current.done == 0  # no page progress at all: only the heartbeat speaks
        time.sleep(0.5)
    assert stall.read_text() == "stalling"  # silent for more than twice the stale limit
    (tmp_path / "slow.release").touch()
    job = wait_for(lambda: ReportJob.objects.filter(pk=job.pk, status="done").first(),
                   timeout=60, what="the slow job to finish")
    assert (job.task_id, job.attempts) == (task_id, 1)  # sent once, run once
    assert_travellers_printed(job)


def test_a_killed_workers_job_is_resumed_by_another_within_seconds(director, workers,
                                                                   redis_queue, settings):
    settings.REPORTS_HEARTBEAT = HEARTBEAT
    night = build_night(director)
    first, _ = workers("doomed", delay=4.0, heartbeat=HEARTBEAT)  # 24 s to gather
    job = services.report_request(event=night.event, kind="travellers",
                                  actor=Actor.director(director))
    wait_for(lambda: running_with_progress(job.pk), what="the first worker to start the job")
    workers("spare", heartbeat=HEARTBEAT)
    # Ready (its start-up look for waiting jobs done, with the job still beating), so
    # only its watch can notice what happens next.
    wait_for(lambda: ready("spare"), what="the spare worker to be ready")
    os.killpg(first.pid, signal.SIGKILL)  # the whole worker dies: nobody will ack its message
    first.wait(timeout=30)
    killed = time.monotonic()
    lost = ReportJob.objects.get(pk=job.pk)
    assert (lost.status, lost.attempts) == ("running", 1)  # killed mid-job
    lost_task = lost.task_id
    # Nobody looks at the job page and nobody runs requeue_reports: the spare worker
    # notices the silence by itself.
    job = wait_for(lambda: ReportJob.objects.filter(pk=job.pk, status="done").first(),
                   timeout=60, what="the spare worker to resume and finish the job")
    resumed_in = time.monotonic() - killed
    assert job.task_id != lost_task and job.attempts == 2
    # Four silent beats, a beat of the watch, the print itself, and the worker starting.
    assert resumed_in < services.stale_after().total_seconds() + 20, resumed_in
    assert_travellers_printed(job)
