"""Printed reports: asking for one, running it, and getting it to the worker.

Terms: a *report job* (``ReportJob``) is one document of one event — travellers,
standings, personal score cards, guide cards or hand records — with its state (queued,
running, done, failed), its progress and its file. There is one row per event and kind:



How a job reaches a worker, and why it is never lost:

- ``report_request`` stores the job as queued; after the commit, ``report_send``
  gives it a fresh Celery task id and publishes it. When Redis is down the
  publish fails fast, the task id is cleared, and the job simply stays queued
  ("printing is waiting for the print worker"); scores and standings do not need
  the broker at all.
- A running job has a *heartbeat*: a thread beside the run touches the job row
  every ``REPORTS_HEARTBEAT`` seconds (5), whatever the pages are doing, so a slow
  stretch of a big job (no page progress for a minute) still shows a live worker.
  A job silent for ``STALE_BEATS`` beats (20 s) has lost its worker.
- ``report_requeue`` sends again every job that never reached the broker, and
  every job whose worker has gone quiet (a killed worker); every worker calls it
  at each heartbeat (``RequeueWatch``), and so do the job page and
  ``manage.py requeue_reports``.
- Without a broker (no ``REDIS_URL``: ``make run``) ``report_send`` hands the job to
  ``in_process``, which runs it in a thread of the web process: the request that
  asked answers at once with the same 202 and progress page, and the job row goes
  through the same states (queued, running, done or failed) as with a worker.
- A job runs only under the task id it was last sent with. A message delivered
  twice (acks_late re-delivers a killed worker's message) or superseded by a
  re-send finds another id on the row and does nothing, so any number of
  deliveries produce one file. The file is written to a temporary name and
  renamed into place, so a reader never sees half a PDF.

The Celery task (``render_report``) lives here, beside the services it sends and
runs (pretix's way, see README.md): sending a job needs the task, and the task
needs ``report_run``, so one module holds both and nothing imports back.
``tasks.py`` only names the task for Celery's autodiscovery.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from celery import Task, shared_task
from celery.signals import worker_ready, worker_shutdown
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import OperationalError, close_old_connections, connection, connections, transaction
from django.db.models import Count, F, Q, Sum
from django.utils import dateformat, timezone
from kombu.exceptions import KombuError
from redis.exceptions import RedisError

from config.celery import app
from scoring.engine import dealer_for_board, parse_deal

from .. import access, presenters, selectors, standings
from ..models import Event, Meeting, Party, ReportJob, Rubber, Season
from ..services import Actor, Forbidden, ServiceError, party_standings, rubber_sheet
from .base import Progress
from .documents import (
    GuidecardsRenderer,
    HandRecordsRenderer,
    OverallRenderer,
    PartyStandingsRenderer,
    RubberSheetRenderer,
    ScorecardsRenderer,
    SeasonTableRenderer,
    StandingsRenderer,
    TravellersRenderer,
)

log = logging.getLogger(__name__)

# The event documents of the print room; a rubber's score sheet (the pad), a party
# night's standings and a season's table are jobs too.
KINDS: dict[str, str] = {k: v for k, v in ReportJob.KINDS
                         if k not in ("rubber", "party", "season")}
TITLES: dict[str, str] = dict(ReportJob.KINDS)
RENDERERS = {
    "rubber": RubberSheetRenderer,
    "party": PartyStandingsRenderer,
    "season": SeasonTableRenderer,
    "travellers": TravellersRenderer,
    "standings": StandingsRenderer,
    "scorecards": ScorecardsRenderer,
    "guidecards": GuidecardsRenderer,
    "handrecords": HandRecordsRenderer,
    "overall": OverallRenderer,
}
# A job that never reached the broker is tried again after this long (and no more
# often, so a dead broker does not slow every page that looks at the job).
UNSENT_AFTER = timedelta(seconds=10)
# A running job's row is touched every heartbeat (settings.REPORTS_HEARTBEAT) while its
# worker lives; a job silent for this many beats lost its worker (``stale_after``).
STALE_BEATS = 4
# A job sent this long ago that no worker has started may have lost its message (a
# restarted Redis). Not derived from the heartbeat: a queued job may simply be waiting
# behind others, and each re-send would put it at the back of the queue again.
LOST_AFTER = timedelta(minutes=2)
PROGRESS_EVERY = 0.5  # seconds between progress writes to the job row


# What publishing raises when the broker cannot be reached.
BROKER_ERRORS: tuple[type[BaseException], ...] = (KombuError, OSError, TimeoutError, RedisError)


def _eager() -> bool:
    return bool(app.conf.task_always_eager)


# --- asking for a report ---------------------------------------------------------------


def _check_printable(event: Event, kind: str) -> None:
    """Refuse, in the director's words, a report that would print nothing useful."""
    if kind not in KINDS:
        raise ServiceError(
            "print travellers, standings, scorecards, guidecards, handrecords or overall",
            field="kind")
    if kind == "overall" and event.kind == "teams":
        raise ServiceError("a team match has no sessions: print its standings", field="kind")
    if kind == "overall" and not event.has_sessions():
        # Decision 129: one session's standings are its own; "overall" would rank its N–S
        # and E–W pairs of a Mitchell together in one column.
        raise ServiceError("the overall standings are for an event of several sessions: "
                           "print its standings", field="kind")
    if kind == "travellers" and not event.boards.exists():
        raise ServiceError("the event has no boards yet: add them first", field="kind")
    if kind == "scorecards" and not event.pairs.exists():
        raise ServiceError("the event has no pairs yet: add them first", field="kind")
    if kind == "guidecards" and not Meeting.objects.filter(section__event=event).exists():
        raise ServiceError(
            "guide cards come from the movement: set the section's movement first",
            field="kind")
    if kind == "handrecords" and not event.boards.exclude(deal="").exists():
        raise ServiceError(
            ("no board has its hands yet" if event.boards.exists() else
             "the event has no boards yet")
            + ": deal new hands or upload a hand record (PBN) on the boards page first",
            field="kind")


@transaction.atomic
def report_request(*, event: Event, kind: str, actor: Actor) -> ReportJob:
    """Ask for a report; returns its job. The task is sent after the commit.

    Asking again while the job is queued or running returns it as it is (a
    double click prints once); asking for a finished or failed job prints it
    again, over the same row and file.
    """
    if not actor.is_director:
        raise Forbidden("only the director prints reports")
    _check_printable(event, kind)
    job, created = ReportJob.objects.select_for_update().get_or_create(event=event, kind=kind)
    return _queue(job, created)


def _queue(job: ReportJob, created: bool) -> ReportJob:
    """Queue `job` (locked) to print afresh, unless it is queued or running already:
    then it is returned as it is (and, still waiting for the broker, sent again)."""
    if job.status in (ReportJob.Status.QUEUED, ReportJob.Status.RUNNING) and not created:
        if job.status == ReportJob.Status.QUEUED and not job.task_id:
            # Still waiting for the broker: asking again is a good moment to retry.
            transaction.on_commit(lambda: report_requeue(job=job, unsent_after=timedelta(0)))
        return job
    job.status = ReportJob.Status.QUEUED
    job.done = job.total = job.attempts = 0
    job.error = job.task_id = ""
    job.save()
    job_id = job.pk
    transaction.on_commit(lambda: report_send(job_id=job_id))
    return job


@transaction.atomic
def rubber_report_request(*, rubber: Rubber) -> ReportJob:
    """Ask for a rubber's score sheet as a PDF (the pad's "Print"); returns its job.

    Whoever holds the pad's link may print it. One job row per rubber, as one per
    event and kind: asking while it is queued or running returns it; asking again
    later prints the sheet as it now stands over the same row and file.
    """
    rubber = Rubber.objects.select_for_update().get(pk=rubber.pk)
    job, created = ReportJob.objects.select_for_update().get_or_create(
        rubber=rubber, kind="rubber")
    return _queue(job, created)


@transaction.atomic
def party_report_request(*, party: Party) -> ReportJob:
    """Ask for a party night's standings as a PDF (the director's "Print"); returns its
    job. One job row per party, as one per rubber: asking while it is queued or running
    returns it; asking again later prints the standings as they now stand."""
    party = Party.objects.select_for_update().get(pk=party.pk)
    job, created = ReportJob.objects.select_for_update().get_or_create(
        party=party, kind="party")
    return _queue(job, created)


def party_report_data(party: Party) -> dict[str, Any]:
    """What the party night's PDF prints: the standings."""
    return party_standings(party=party)


@transaction.atomic
def season_report_request(*, season: Season, actor: Actor) -> ReportJob:
    """Ask for a season's table as a PDF (the director's); returns its job. One job row
    per season, as one per event and kind: asking while it is queued or running returns
    it; asking again later prints the table as it now stands over the same row and file.
    """
    if not actor.is_director:
        raise Forbidden("only the director prints reports")
    season = Season.objects.select_for_update().get(pk=season.pk)
    job, created = ReportJob.objects.select_for_update().get_or_create(
        season=season, kind="season")
    return _queue(job, created)


def season_report_data(season: Season) -> dict:
    """The plain data the season's PDF prints: the director's table (every night, each
    printed; one not yet final, or not published, is marked so), as the season's page
    shows it, and the footnote saying what its brackets and rounding mean."""
    table = selectors.season_table(season, director=True)
    columns, rows = presenters.season_rows(table)
    pending = [e for e in columns if not e["final"]]
    note = ("Not final yet: " + "; ".join(
        f"{e['name']} ({presenters.day(e['date'])}"
        + (", not published" if e["published"] == "none" else "") + ")" for e in pending)
        + ".") if pending else ""
    footnote = "Visitors (players without a member number) are not ranked in a season."
    if season.rule == "best":
        footnote = (f"Only the best {season.best_of} nights count: a score in brackets is "
                    "not counted. " + footnote)
    if season.min_events > 1:
        who = "A partnership" if season.entrants == "pairs" else "A member"
        footnote += (f" {who} with fewer than {season.min_events} nights is listed "
                     "without a place.")
    if table["counts"] == "points":
        if any(r["exact"] not in r["shown"] for r in rows):  # an average, as a rule
            footnote += (" Points that are not a whole number or a simple fraction (6½) "
                         "are printed to two decimals, the exact value beside them in "
                         "brackets; places go by the exact value.")
    elif table["method"] == "matchpoints":
        footnote += (" Each percentage is printed to two decimals, as the nights' standings "
                     "do; the season adds the nights' exact percentages, printed beside its "
                     "total in brackets where they differ.")
    else:
        footnote += (" Each score shows the nearest whole number, as the nights' standings "
                     "do; the season adds the nights' exact scores, printed beside its total "
                     "in brackets where they differ.")
    return {"season": season.name, "rule": presenters.season_rule(season), "note": note,
            "footnote": footnote, "counts": season.counts, "entrants": season.entrants,
            "columns": columns, "rows": rows}


# The jobs of one block and no event, by kind: the kind names the job's owner too (a
# rubber, a party night, a season; the check constraint holds it), and what it prints.
ONE_BLOCK: dict[str, Any] = {
    "rubber": lambda rubber: rubber_sheet(rubber=rubber),
    "party": lambda party: party_report_data(party),
    "season": lambda season: season_report_data(season),
}


def report_send(*, job_id: int) -> bool:
    """Publish a queued job under a fresh task id; False when the broker is down.

    Never raises for a broker that cannot be reached: the job stays queued, with
    no task id, for ``report_requeue`` to send when the broker is back.
    """
    task_id = uuid.uuid4().hex
    # Claim the job for this task id before publishing, so the worker, however
    # fast, finds its id on the row. Only a queued job is sent.
    claimed = ReportJob.objects.filter(pk=job_id, status=ReportJob.Status.QUEUED).update(
        task_id=task_id, updated_at=timezone.now())
    if not claimed:
        return False
    if _eager():
        # No broker: the job runs in a thread of this process, and the page that
        # asked for it answers at once (never waits for the PDF).
        in_process.start(job_id=job_id, task_id=task_id)
        return True
    try:
        # ignore_result: nobody waits on the Celery result (the job row is the record),
        # and subscribing to it would hang a request for ~20 s while Redis is down.
        render_report.apply_async(
            args=[job_id], task_id=task_id, ignore_result=True, retry=True,
            retry_policy={"max_retries": 2, "interval_start": 0, "interval_step": 0.2,
                          "interval_max": 0.2},
        )
    except BROKER_ERRORS as exc:
        log.warning("report job %s waits for the print worker: %s", job_id, exc)
        ReportJob.objects.filter(pk=job_id, task_id=task_id,
                                 status=ReportJob.Status.QUEUED).update(
            task_id="", updated_at=timezone.now())
        return False
    return True


def report_run_here(*, job_id: int, task_id: str) -> None:
    """Run a sent job in this thread, now, as a worker would run it (no broker).

    The task retries transient errors and records a final failure on the job row
    (``ReportTask``); anything that escapes it is recorded here, so the progress
    page always ends with the file or the reason.
    """
    try:
        render_report.apply_async(args=[job_id], task_id=task_id, ignore_result=True)
    except Exception as exc:
        log.exception("report job %s failed in-process", job_id)
        report_failed(job_id=job_id, task_id=task_id, error=str(exc) or type(exc).__name__)


class InProcessJobs:
    """Runs report jobs without a broker: each in a thread of its own.

    ``start`` returns at once; the thread runs ``report_run_here`` and closes its
    database connections when done. ``wait`` waits for the jobs started so far (tests
    use it; a thread is never joined by a request).
    """

    def __init__(self) -> None:
        self._threads: set[threading.Thread] = set()
        self._lock = threading.Lock()

    def start(self, *, job_id: int, task_id: str) -> None:
        thread = threading.Thread(target=self._run, args=(job_id, task_id),
                                  name=f"report-job-{job_id}", daemon=True)
        with self._lock:
            self._threads.add(thread)
        thread.start()

    def _run(self, job_id: int, task_id: str) -> None:
        try:
            report_run_here(job_id=job_id, task_id=task_id)
        finally:
            connections.close_all()  # this thread's own connections
            with self._lock:
                self._threads.discard(threading.current_thread())

    def wait(self, timeout: float | None = 60) -> bool:
        """Wait until every job started so far has finished; False after `timeout` seconds
        (None: as long as it takes)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._lock:
                running = list(self._threads)
            if not running:
                return True
            for thread in running:
                thread.join(None if deadline is None
                            else max(0.0, deadline - time.monotonic()))
            if deadline is not None and time.monotonic() >= deadline:
                return not any(thread.is_alive() for thread in running)


in_process = InProcessJobs()


def heartbeat_every() -> float:
    """Seconds between two heartbeats of a running job (settings.REPORTS_HEARTBEAT)."""
    return float(settings.REPORTS_HEARTBEAT)


def stale_after() -> timedelta:
    """How long a running job may stay silent before it counts as lost: four beats."""
    return timedelta(seconds=STALE_BEATS * heartbeat_every())


def report_requeue(*, event: Event | None = None, job: ReportJob | None = None,
                   unsent_after: timedelta = UNSENT_AFTER,
                   stale: timedelta | None = None,
                   lost_after: timedelta = LOST_AFTER) -> list[int]:
    """Send again the jobs that are waiting for nothing; returns their ids.

    That is: queued jobs that never reached the broker (no task id) for
    `unsent_after`; queued jobs sent more than `lost_after` ago that no worker
    has started (the message may be gone with a restarted Redis); running jobs
    whose row has not moved for `stale` (default ``stale_after()``: their worker
    was killed, since a live one beats every heartbeat). A re-sent job gets a new
    task id, so the old message, if it ever arrives, does nothing. Stops at the
    first send that finds the broker down.
    """
    now = timezone.now()
    stale = stale_after() if stale is None else stale
    unsent = Q(status=ReportJob.Status.QUEUED, task_id="", updated_at__lte=now - unsent_after)
    lost = Q(status=ReportJob.Status.QUEUED, updated_at__lte=now - lost_after) & ~Q(task_id="")
    stalled = Q(status=ReportJob.Status.RUNNING, updated_at__lte=now - stale)
    jobs = ReportJob.objects.filter(unsent | lost | stalled)
    if event is not None:
        jobs = jobs.filter(event=event)
    if job is not None:
        jobs = jobs.filter(pk=job.pk)
    sent = []
    for candidate in jobs.order_by("updated_at", "pk").values_list("pk", flat=True):
        if not _reset_to_queued(candidate, unsent | lost | stalled):
            continue
        if not report_send(job_id=candidate):
            break
        sent.append(candidate)
    return sent


def unsent_jobs(*, event: Event | None = None, older_than: timedelta = UNSENT_AFTER) -> int:
    """How many jobs have waited `older_than` or more without reaching the broker."""
    jobs = ReportJob.objects.filter(status=ReportJob.Status.QUEUED, task_id="",
                                    updated_at__lte=timezone.now() - older_than)
    if event is not None:
        jobs = jobs.filter(event=event)
    return jobs.count()


@transaction.atomic
def _reset_to_queued(job_id: int, condition: Q) -> bool:
    """Put a stalled job back in the queue, if it still needs it (checked under the lock)."""
    job = ReportJob.objects.select_for_update().filter(condition, pk=job_id).first()
    if job is None:
        return False
    job.status = ReportJob.Status.QUEUED
    job.save(update_fields=["status", "updated_at"])
    return True


# --- running a report (the one function the Celery task calls) -----------------------------


def report_run(*, job_id: int, task_id: str,
               on_progress: Progress | None = None) -> dict[str, Any]:
    """Make the job's PDF and store it; returns a small summary.

    Safe to run any number of times for one job: only the task id last sent runs,
    and a re-run writes the same file again. Progress goes to the job row and to
    `on_progress` (the task's Celery state) through one throttle, ``_throttled``.
    """
    job = _report_start(job_id=job_id, task_id=task_id)
    if job is None:
        return {"job": job_id, "status": "skipped"}
    event = job.event

    def record(done: int, total: int) -> None:
        report_progress(job_id=job_id, task_id=task_id, done=done, total=total)
        if on_progress is not None:
            on_progress(done, total)

    progress = _throttled(record)
    if job.kind in ONE_BLOCK:  # a rubber's sheet, a party's or a season's table
        owner = getattr(job, job.kind)
        with Heartbeat(job_id=job_id, task_id=task_id):
            # A rubber's change number, read before its deals: a deal written meanwhile
            # shows the sheet as older than it is, never as newer (``report_stale``).
            seq = _rubber_seq(owner.pk) if job.kind == "rubber" else None
            renderer = RENDERERS[job.kind](progress=lambda done, n: progress(done, n))
            filename, _mimetype, content = renderer.render(ONE_BLOCK[job.kind](owner))
            name = _store_as(f"reports/{job.kind}-{owner.pk}/{filename}", content,
                             previous=job.file.name)
            finished = _report_finish(job_id=job_id, task_id=task_id, name=name, total=1,
                                      seq=seq)
        return {"job": job_id, "status": "done" if finished else "superseded", "file": name}
    with Heartbeat(job_id=job_id, task_id=task_id):
        # Gathering the data and laying out the pages take about as long as each other:
        # each is half of the bar.
        units = report_units(event, job.kind)
        seq = _seq_of(event.pk, job.kind)  # read before the data: a later change shows
        data = report_data(event, job.kind,
                           progress=lambda done, _n: progress(done, 2 * units))
        renderer = RENDERERS[job.kind](
            progress=lambda done, _n: progress(units + done, 2 * units))
        filename, _mimetype, content = renderer.render(data)
        name = _store(event, filename, content, previous=job.file.name)
        finished = _report_finish(job_id=job_id, task_id=task_id, name=name, total=2 * units,
                                  seq=seq)
    return {"job": job_id, "status": "done" if finished else "superseded", "file": name}


class Heartbeat:
    """While a job runs, a thread of its own touches the job row every heartbeat.

    Page progress is no sign of life: one board of a big traveller, or the standings
    of a big event, can take longer than any stale limit without a page done. The beat
    runs beside the work (the work releases the GIL between bytecodes, so a busy run
    still beats) and stops when the run ends, however it ends; a killed process stops
    beating with it, which is what ``report_requeue`` looks for. The beat is one
    UPDATE of the row it belongs to (this task id, still running), on the thread's
    own connection, closed when it stops.
    """

    def __init__(self, *, job_id: int, task_id: str, every: float | None = None) -> None:
        self.job_id, self.task_id = job_id, task_id
        self.every = heartbeat_every() if every is None else every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name=f"report-heartbeat-{job_id}",
                                        daemon=True)

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join(timeout=self.every + 5)

    def _beat(self) -> None:
        try:
            while not self._stop.wait(self.every):
                try:
                    alive = ReportJob.objects.filter(
                        pk=self.job_id, task_id=self.task_id,
                        status=ReportJob.Status.RUNNING).update(updated_at=timezone.now())
                except Exception:  # the database may be away a moment: beat again later
                    log.warning("report job %s: heartbeat not recorded", self.job_id,
                                exc_info=True)
                    connection.close()  # a fresh connection for the next beat
                    continue
                if not alive:
                    return  # finished, failed or superseded: nothing to keep alive
        finally:
            connections.close_all()  # this thread's own connection


class RequeueWatch:
    """In each worker: ``report_requeue`` at every heartbeat, from a thread of its own.

    A job whose worker was killed outright (the whole worker, not a pool process) waits
    for somebody to notice its silence. With this watch every live worker looks, so
    such a job is sent again within a stale limit and a beat, with nobody at the job
    page. The watch closes its connection after each look, so the worker's pool
    processes, forked at any time, never share a live connection with it.
    """

    def __init__(self, every: float | None = None) -> None:
        self.every = every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._watch, name="report-requeue-watch",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _watch(self) -> None:
        while not self._stop.wait(self.every or heartbeat_every()):
            try:
                sent = report_requeue()
            except Exception:
                log.warning("could not look for stalled report jobs", exc_info=True)
            else:
                if sent:
                    log.warning("sent again %d report job(s) whose worker went quiet or "
                                "that were waiting for the broker", len(sent))
            finally:
                connections.close_all()


requeue_watch = RequeueWatch()


def _throttled(record: Progress) -> Progress:
    """`record`, called at most every ``PROGRESS_EVERY`` seconds, and always at the end.

    The one place progress is throttled: a report of 52,000 rows reports every block,
    and each report is a database write (and, under a worker, a Redis write).
    """
    last: float | None = None

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if done == total or last is None or now - last >= PROGRESS_EVERY:
            last = now
            record(done, total)

    return progress


@transaction.atomic
def _report_start(*, job_id: int, task_id: str) -> ReportJob | None:
    """Mark the job running under `task_id`; None if it is gone, superseded or done."""
    job = ReportJob.objects.select_for_update(of=("self",)).select_related(
        "event", "rubber", "party", "season").filter(
        pk=job_id).first()
    if job is None or job.task_id != task_id:
        return None
    if job.status == ReportJob.Status.DONE:
        return None  # a re-delivered message of a job that finished
    job.status = ReportJob.Status.RUNNING
    job.done = 0
    job.error = ""
    job.attempts = F("attempts") + 1
    job.save(update_fields=["status", "done", "error", "attempts", "updated_at"])
    job.refresh_from_db(fields=["attempts"])
    return job


def report_progress(*, job_id: int, task_id: str, done: int, total: int) -> None:
    """Record progress (one UPDATE; it also tells ``report_requeue`` the worker lives)."""
    ReportJob.objects.filter(pk=job_id, task_id=task_id,
                             status=ReportJob.Status.RUNNING).update(
        done=done, total=total, updated_at=timezone.now())


@transaction.atomic
def _report_finish(*, job_id: int, task_id: str, name: str, total: int,
                   seq: int | None = None) -> bool:
    return bool(ReportJob.objects.filter(pk=job_id, task_id=task_id).update(
        status=ReportJob.Status.DONE, file=name, done=total, total=total, error="",
        seq=seq, updated_at=timezone.now()))


def _followed(event: Event, kind: str) -> int:
    """The change number an event's document follows: the guide cards change only with
    the movement and the pairs (roster_seq), the hand records only with the deals (their
    fingerprint: ``_deals_key``), the overall standings with any change to any session
    (``_sessions_seq``), every other document with any change."""
    if kind == "handrecords":
        return _deals_key(event)
    if kind == "overall":
        return _sessions_seq(event)
    return event.roster_seq if kind == "guidecards" else event.seq


def _sessions_seq(event: Event) -> int:
    """The sum of the change numbers of every session of the event's series.

    The overall standings show every session and the carry-over, so each session's copy
    follows them all: a result corrected in session 2 makes session 1's copy out of date
    too. Each session's ``seq`` only ever grows, so their sum moves whenever any of them
    does; setting the carry-over and adding a session take the first session's next change
    number (``services.carry_over_set`` and ``session_add`` lock it with ``_lock_event``),
    so they move it as well. One statement, so the sum is of one moment.
    """
    total = event.session_events().order_by().aggregate(total=Sum("seq"))["total"]
    return total or 0


def _deals_key(event: Event) -> int:
    """A fingerprint of the event's boards and their deals, kept in the job's ``seq``.

    No change number follows the deals alone, and the event's (``seq``) moves with every
    result: hand records printed before play would read as out of date after the first
    score, and be printed again for nothing. A board dealt anew (Duplicate Law B), a hand
    record uploaded or a board added changes the fingerprint; nothing else does.
    """
    rows = list(event.boards.order_by("number").values_list("number", "deal"))
    digest = hashlib.blake2b(repr(rows).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1  # a BigIntegerField holds 63 bits and a sign


def _seq_of(event_id: int, kind: str) -> int:
    """``_followed`` as the event's row (or its boards' deals) stands now."""
    return _followed(Event.objects.only("seq", "roster_seq", "session_of").get(pk=event_id),
                     kind)


def _rubber_seq(rubber_id: int) -> int:
    """A rubber's change number as its row stands now (Rubber.seq)."""
    return Rubber.objects.only("seq").get(pk=rubber_id).seq


def report_stale(job: ReportJob) -> bool:
    """Was the job's file made before the latest change that it shows: the event's, or
    the rubber's (a deal entered, corrected or removed since)? A rubber's sheet printed
    before its change numbers were kept (no ``seq``) counts as made at 0: any change of
    the rubber since makes it stale."""
    if job.status != ReportJob.Status.DONE:
        return False
    if job.rubber_id is not None:
        return _rubber_seq(job.rubber_id) > (job.seq or 0)
    if job.event_id is None or job.seq is None:
        return False
    now = _followed(job.event, job.kind)
    return now != job.seq if job.kind == "handrecords" else now > job.seq


def report_failed(*, job_id: int, task_id: str, error: str) -> None:
    """The task gave up: record why, in words the director can act on."""
    ReportJob.objects.filter(pk=job_id, task_id=task_id).exclude(
        status=ReportJob.Status.DONE).update(
        status=ReportJob.Status.FAILED, error=error[:2000], updated_at=timezone.now())


def _store(event: Event, filename: str, content: bytes, *, previous: str) -> str:
    """Write the PDF under its final name atomically; returns the storage name.

    On the file system the bytes go to a temporary file in the same folder and are
    renamed over the old file (atomic on POSIX): a reader sees the old PDF or the
    new one, never half of one, and a re-run overwrites rather than piling up copies.
    """
    # the renderer's name says the kind
    return _store_as(f"reports/event-{event.pk}/{filename}", content, previous=previous)


def _store_as(name: str, content: bytes, *, previous: str) -> str:
    """``_store`` under a name given whole (an event's report, or a rubber's sheet)."""
    try:
        final = Path(default_storage.path(name))
    except NotImplementedError:  # a remote storage: no rename; replace the object
        if default_storage.exists(name):
            default_storage.delete(name)
        name = default_storage.save(name, ContentFile(content))
    else:
        final.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=final.parent, prefix=".tmp-", suffix=".pdf")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temp, 0o644)
            os.replace(temp, final)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
    if previous and previous != name and default_storage.exists(previous):
        default_storage.delete(previous)  # the event was renamed since the last print
    return name


# --- the Celery task (sent by report_send, runs report_run) -------------------------------


class ReportTask(Task):
    """Records a final failure on the job row, in words the director can act on."""

    def apply(self, *args, throw=None, **kwargs):
        # In-process runs (no REDIS_URL: a thread of the web process, see
        # InProcessJobs) behave as in a worker: retry, then record the failure
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
            report_failed(job_id=job_id, task_id=task_id, error=error)
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
    """Print report job `job_id` (travellers, standings, score cards, guide cards...).

    The settings acknowledge a message only after the task returns and put it back
    when a worker dies (``task_acks_late``, ``task_reject_on_worker_lost``); the run is
    idempotent (``report_run``), so a second delivery costs nothing but time. Transient
    failures (the database going away, a full or busy disk) are retried with backoff;
    anything else, or a fourth failure, marks the job failed (``ReportTask``).
    """

    def progress(done: int, total: int) -> None:  # already throttled by report_run
        try:
            self.update_state(state="PROGRESS", meta={"done": done, "total": total})
        except Exception:  # the result store is a convenience; the job row is the record
            log.warning("could not store the progress of report job %s", job_id, exc_info=True)

    try:
        return report_run(job_id=job_id, task_id=self.request.id, on_progress=progress)
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
    """A worker coming up sends the jobs that were asked for while the broker was down,
    then keeps looking for stalled jobs at every heartbeat (``RequeueWatch``)."""
    try:
        sent = report_requeue()
    except Exception:
        log.exception("could not re-send the waiting report jobs")
    else:
        if sent:
            log.warning("sent %d report job(s) that were waiting for the print worker",
                        len(sent))
    finally:
        connections.close_all()
    requeue_watch.start()


@worker_shutdown.connect
def _stop_watching(**_kwargs) -> None:
    requeue_watch.stop()


# --- the data each document prints (reads only) ------------------------------------------------


def report_units(event: Event, kind: str) -> int:
    """How many blocks a report has: boards, pairs, tables, or rankings."""
    if kind == "travellers":
        return event.boards.count()
    if kind == "scorecards":
        return event.pairs.count()
    if kind == "handrecords":  # the boards with their hands (a line names the others)
        return max(1, event.boards.exclude(deal="").count())
    if kind == "guidecards":  # a card per table and a card per pair
        meetings = Meeting.objects.filter(section__event=event)
        pairs = set(meetings.values_list("ns_pair", flat=True)) | set(
            meetings.values_list("ew_pair", flat=True))
        return meetings.values("section", "table").distinct().count() + len(pairs)
    return 1


def report_data(event: Event, kind: str, *,
                progress: Callable[[int, int], None] | None = None) -> dict:
    """The plain data a renderer takes (see each renderer's docstring)."""
    step = progress or (lambda done, total: None)
    base = {"event": event.name, "rules": event.rules, "method": event.method,
            "published": event.published}
    if kind == "standings":
        # A late pair's Boards read "5 of 7" (the boards of the rounds before it joined).
        table = standings.standings(event)
        data = {**table, "late_pairs": selectors.late_pairs(event, table)}
        step(1, 1)
        return data
    if kind == "overall":
        data = standings.overall_standings(event)
        step(1, 1)
        return data
    if kind == "travellers":
        # Every board's results in one query (a big event's 52,000 rows in well under a
        # second), the progress moving as each board's traveller is made.
        boards = selectors.travellers(event, progress=step)
        if event.status in (Event.Status.SETTING_UP, Event.Status.RUNNING):
            # A traveller printed mid-night may be pinned up: the hands of a board still
            # in play are kept back, as the public traveller keeps back its results.
            finished = access.finished_boards(event)
            for board in boards:
                if board["hands"] and board["board"] not in finished:
                    board.update(hands=None, deal=None, hands_kept=True)
        return {**base, "boards": boards}
    if kind == "scorecards":
        return {**base, "cards": selectors.scorecards(event, progress=step)}
    if kind == "guidecards":
        # Without "published": the page header would add "scores may still change", and a
        # guide card holds no score (as the hand records leave it out).
        data = {k: v for k, v in base.items() if k != "published"}
        data.update(selectors.guide_cards(event))
        step(1, 1)
        return data
    if kind == "handrecords":
        return hand_records_data(event, progress=step)
    raise ValueError(f"unknown report kind {kind!r}")


def hands_known(event: Event) -> tuple[int, int]:
    """How many of the event's boards have their hands, and how many boards it has."""
    counts = event.boards.aggregate(boards=Count("pk"), dealt=Count("pk", filter=~Q(deal="")))
    return counts["dealt"], counts["boards"]


def hand_records_data(event: Event, *,
                      progress: Callable[[int, int], None] | None = None) -> dict:
    """What the hand records print: each board that has its hands, and the numbers of
    those that have none. Every board's hands, whatever has been played: the print room
    is the director's, and the boards are made up from this before play (``in_play``
    has the file say so). Whether the standings are published is left out: the page
    header would add "scores may still change", and a hand record holds no score.

    A board keeps its deal and nothing else: no trump card is recorded for a whist
    board, so none is printed."""
    boards, missing = [], []
    for number, deal in event.boards.order_by("number").values_list("number", "deal"):
        if deal:
            boards.append({"board": number, "dealer": dealer_for_board(number),
                           "hands": parse_deal(deal)})
        else:
            missing.append(number)
    if progress is not None:
        progress(max(1, len(boards)), max(1, len(boards)))
    return {"event": event.name, "rules": event.rules, "boards": boards, "missing": missing,
            "in_play": event.status in (Event.Status.SETTING_UP, Event.Status.RUNNING)}


# --- what the job page shows -------------------------------------------------------------------


WAITING = "Printing is waiting for the print worker."


STARTING = "Printing starts in a moment."
STALE_EVENT = ("Ready, but the night has changed since it was printed: print it again to "
               "have it as it stands now.")
STALE_RUBBER = ("Out of date: deals were entered, corrected or removed since this sheet was "
                "printed. Print it again to have the sheet as it stands now.")


def _just_sent(job: ReportJob) -> bool:
    """Queued, handed to the worker (or to a thread here) a moment ago: not waiting yet."""
    return (job.status == ReportJob.Status.QUEUED and bool(job.task_id)
            and job.updated_at is not None
            and timezone.now() - job.updated_at < UNSENT_AFTER)


def made_words(when: datetime) -> str:
    """When a file was made, as the print room says it, in the server's time zone: the
    time alone today ("made 04:28"), the day too on any other ("made 24 Nov, 21:05"), and
    the year when it is not this one ("made 24 Nov 2025, 21:05")."""
    made, today = timezone.localtime(when), timezone.localdate()
    if made.date() == today:
        return f"made {dateformat.format(made, 'H:i')}"
    day = dateformat.format(made, "j M" if made.year == today.year else "j M Y")
    return f"made {day}, {dateformat.format(made, 'H:i')}"


def report_status(job: ReportJob) -> dict[str, Any]:
    """The job's state as the status URL returns it (JSON)."""
    percent = int(100 * job.done / job.total) if job.total else 0
    if job.status == ReportJob.Status.DONE:
        percent = 100
    just_sent = _just_sent(job)
    stale = report_stale(job)
    message = {
        ReportJob.Status.QUEUED: STARTING if just_sent else WAITING + " Scores and "
        "standings work as usual; the file will be made as soon as the worker takes the job.",
        ReportJob.Status.RUNNING: f"Printing: {percent}% done.",
        ReportJob.Status.DONE: (STALE_RUBBER if job.rubber_id else STALE_EVENT)
        if stale else "Ready.",
        ReportJob.Status.FAILED: f"Printing failed: {job.error}" if job.error else
        "Printing failed.",
    }[ReportJob.Status(job.status)]
    return {
        "event": job.event_id,
        "kind": job.kind,
        "title": TITLES[job.kind],
        "rubber": job.rubber_id,
        "party": job.party_id,
        "season": job.season_id,
        "status": job.status,
        "status_display": job.get_status_display(),
        "done": job.done,
        "total": job.total,
        "percent": percent,
        "waiting_for_worker": job.status == ReportJob.Status.QUEUED and not just_sent,
        "sent": bool(job.task_id),
        "attempts": job.attempts,
        "error": job.error,
        "message": message,
        "stale": stale,
        "updated_at": job.updated_at.isoformat() if job.updated_at else None,
        "made": made_words(job.updated_at)
        if job.status == ReportJob.Status.DONE and job.updated_at else "",
    }
