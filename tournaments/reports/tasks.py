"""The Celery task that prints a report.

It takes a job id, calls ``services.report_run`` and returns a small dict. The
settings acknowledge a message only after the task returns and put it back when
a worker dies (``task_acks_late``, ``task_reject_on_worker_lost``); the run is
idempotent (see services), so a second delivery costs nothing but time.
Transient failures — the database going away, a full or busy disk — are retried
with backoff; anything else, or a fourth failure, marks the job failed.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import Task, shared_task
from celery.signals import worker_ready
from django.db import OperationalError, close_old_connections, connection

from . import services

log = logging.getLogger(__name__)

__all__ = ["render_report"]


class ReportTask(Task):
    """Records a final failure on the job row, in words the director can act on."""

    def apply(self, *args, throw=None, **kwargs):
        # In-process runs (no REDIS_URL: a thread of the web process, see
        # services.InProcessJobs) behave as in a worker: retry, then record the failure
        # on the job, rather than raise.
        # (task_eager_propagates would otherwise stop the retries at the first one.)
        return super().apply(*args, throw=False, **kwargs)

    def on_failure(self, exc, task_id, args, kwargs, einfo) -> None:
        job_id = args[0] if args else kwargs.get("job_id")
        if isinstance(exc, OperationalError):
            error = "the database could not be reached; try again in a moment"
        elif isinstance(exc, OSError):
            error = f"the file could not be written ({exc.strerror or exc})"
        else:
            error = str(exc) or exc.__class__.__name__
        try:
            _drop_broken_connection()
            services.report_failed(job_id=job_id, task_id=task_id, error=error)
        except Exception:  # the database may still be down: the log keeps the story
            log.exception("could not record the failure of report job %s", job_id)


@shared_task(
    bind=True,
    base=ReportTask,
    name="tournaments.render_report",
    autoretry_for=(OperationalError, OSError),
    max_retries=3,
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=True,
    acks_late=True,
    reject_on_worker_lost=True,
)
def render_report(self, job_id: int) -> dict[str, Any]:
    """Print report job `job_id` (travellers, standings, score cards or guide cards)."""
    last = 0.0

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if done != total and now - last < services.PROGRESS_EVERY:
            return
        last = now
        try:
            self.update_state(state="PROGRESS", meta={"done": done, "total": total})
        except Exception:  # the result store is a convenience; the job row is the record
            log.warning("could not store the progress of report job %s", job_id, exc_info=True)

    try:
        return services.report_run(job_id=job_id, task_id=self.request.id, on_progress=progress)
    except OperationalError:
        _drop_broken_connection()
        raise


def _drop_broken_connection() -> None:
    """After a database error, drop a broken connection so the retry opens a fresh one.

    Never inside a transaction (an in-process run inside a test): closing there would
    break the caller's transaction, and Django closes such a connection at its end.
    """
    if not connection.in_atomic_block:
        close_old_connections()


@worker_ready.connect
def _send_waiting_jobs(**_kwargs) -> None:
    """A worker coming up sends the jobs that were asked for while the broker was down."""
    try:
        sent = services.report_requeue()
    except Exception:
        log.exception("could not re-send the waiting report jobs")
        return
    if sent:
        log.warning("sent %d report job(s) that were waiting for the print worker", len(sent))
