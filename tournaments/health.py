"""The /health/ endpoint: is the database up, and do the cache and the job queue answer?

Two answers (docs/decisions.md, item 63):

- **Anyone** gets a cheap answer at once, whatever is down: the database checked now
  (one ``SELECT 1`` and one read of ``ServiceState``), the cache and the jobs as last
  known, and when they were seen so. Nothing here talks to Redis or Celery, so a
  monitor polling /health/ cannot slow the site down.
- **A director** (a staff session) or a request carrying ``Authorization: Bearer
  <HEALTH_TOKEN>`` gets the live check: the cache written and read with its short
  socket timeouts (CACHES' OPTIONS), and a ping sent through the queue to a worker,
  answered within ``JOB_TIMEOUT_SECONDS``. Each live check stores what it found, for
  the anonymous answer; so does ``manage.py check_services`` (run it every minute).

The JSON keeps the old keys (``status``, ``database``, ``jobs``) and adds ``cache``,
``since`` and ``checked_at`` (the moments behind each answer) and ``live``. ``status`` is
"degraded" when anything is down; the HTTP status is 503 only when the database is, as
the web cannot serve without it but serves, and takes scores, without Redis.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import uuid
from datetime import datetime

from celery import Celery
from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone

from config.celery import app as default_app

from . import access, outages, presenters
from .models import ServiceState
from .tasks import ping

JOB_TIMEOUT_SECONDS = 1.0  # a worker answers a ping in milliseconds; 1 s is "no worker"
# The ping's whole round trip, however the broker or the result store fails or hangs:
# the ping runs in a thread, and is given up on after this.
JOB_DEADLINE_SECONDS = JOB_TIMEOUT_SECONDS + 1.0

State = ServiceState.State


# --- the live checks ---------------------------------------------------------------------------


def database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:  # any driver error means the same thing to a director
        return "unreachable"
    return "ok"


def _cache_is_local() -> bool:
    return "redis" not in settings.CACHES["default"]["BACKEND"].lower()


def cache_status() -> str:
    """ok: the cache took a value and gave it back; local: no Redis; unreachable otherwise."""
    if _cache_is_local():
        return State.LOCAL
    key, value = "health:probe", uuid.uuid4().hex
    try:
        cache.set(key, value, timeout=30)
        answered = cache.get(key) == value
    except outages.CACHE_ERRORS as error:
        outages.CACHE.failed(error)
        return State.UNREACHABLE
    if answered:
        outages.CACHE.answered()
    return State.OK if answered else State.UNREACHABLE


def _probe_app(app: Celery) -> Celery:
    """A Celery app for the ping only: the same broker and result store as ``app``, but
    every connection gives up at once. The app's own result store retries a lost Redis
    20 times a second apart (and logs each), which is right for a job's result but not for
    a check. Made once per broker, under ``_pings_lock``."""
    key = (app.conf.broker_url, app.conf.result_backend, app.conf.task_default_queue)
    if key not in _probe_apps:
        probe = Celery("health-probe", set_as_current=False)
        probe.conf.update(
            broker_url=key[0], result_backend=key[1], task_default_queue=key[2],
            broker_connection_timeout=1, broker_connection_retry=False,
            broker_transport_options={"socket_connect_timeout": 1, "socket_timeout": 2},
            redis_socket_connect_timeout=1, redis_socket_timeout=2,
            result_backend_transport_options={"retry_policy": {"max_retries": 0}})
        _probe_apps[key] = probe
    return _probe_apps[key]


class _Ping(threading.Thread):
    """One ping through the queue, in a thread of its own so that its caller can stop
    waiting. A daemon: a broker that hangs never keeps the process from exiting."""

    def __init__(self, app: Celery) -> None:
        super().__init__(name="health-ping", daemon=True)
        self.app = app
        self.answer: str | None = None

    def run(self) -> None:
        result = None
        try:
            result = self.app.send_task("tournaments.ping", retry=False)
            pong = result.get(timeout=JOB_TIMEOUT_SECONDS)
        except Exception:  # broker refused, backend down, no worker within the timeout
            self.answer = State.UNREACHABLE
        else:
            self.answer = State.OK if pong == "pong" else State.UNREACHABLE
        finally:
            if result is not None:
                self._unsubscribe(result)

    @staticmethod
    def _unsubscribe(result) -> None:
        """Stop listening for the ping's answer now, while the connection is fresh;
        otherwise the garbage collector does it whenever it runs, perhaps once Redis is
        gone, and the failure ends up on stderr."""
        # Redis may have gone meanwhile: the connection is dropped all the same.
        with contextlib.suppress(Exception):
            result.backend.remove_pending_result(result)


_probe_apps: dict[tuple, Celery] = {}
_pings: dict[tuple, _Ping] = {}  # the ping in flight, per broker (tests use their own)
_pings_lock = threading.Lock()


def jobs_status(app: Celery = default_app) -> str:
    """ok: a worker ran a ping; eager: jobs run in-process; unreachable otherwise.

    Never waits longer than JOB_DEADLINE_SECONDS. Calls that come while a ping is still
    in flight wait for that one rather than sending another: a broker that hangs holds
    one thread per process, not one per call.
    """
    if app.conf.task_always_eager:
        return State.EAGER if ping.apply().get() == "pong" else State.UNREACHABLE
    with _pings_lock:
        probe_app = _probe_app(app)
        key = (probe_app.conf.broker_url, probe_app.conf.result_backend)
        probe = _pings.get(key)
        if probe is None or not probe.is_alive():
            probe = _pings[key] = _Ping(probe_app)
            probe.start()
    probe.join(JOB_DEADLINE_SECONDS)
    return probe.answer or State.UNREACHABLE


def check_services() -> dict[str, str]:
    """The live check of the cache and the jobs; stores what it found for /health/."""
    found = {"cache": cache_status(), "jobs": jobs_status()}
    now = timezone.now()
    for name, state in found.items():
        outages.record(name, state, at=now, touch=True)
    return found


# --- the answers ---------------------------------------------------------------------------------


def _iso(moment: datetime | None) -> str | None:
    return timezone.localtime(moment).isoformat(timespec="seconds") if moment else None


def _configured(name: str) -> str | None:
    """What the settings alone tell: no Redis means a local cache and in-process jobs."""
    if name == "cache" and _cache_is_local():
        return State.LOCAL
    if name == "jobs" and default_app.conf.task_always_eager:
        return State.EAGER
    return None


def _last_known() -> dict[str, ServiceState]:
    try:
        return {row.name: row for row in ServiceState.objects.all()}
    except DatabaseError:
        return {}


def _shown(name: str, state: str, since: datetime | None) -> str:
    """The cache's word says since when it is down ("unreachable since 21:14"); the jobs'
    words stay what they always were, for the programs that read them."""
    if name == "cache" and state == State.UNREACHABLE and since is not None:
        return f"unreachable since {presenters.clock(since)}"
    return state


def _may_see_live(request: HttpRequest) -> bool:
    token = settings.HEALTH_TOKEN
    header = request.headers.get("Authorization", "")
    if token and header.startswith("Bearer ") and secrets.compare_digest(
            header.removeprefix("Bearer ").strip().encode(), token.encode()):
        return True
    if not request.COOKIES.get(settings.SESSION_COOKIE_NAME):
        return False  # no session to look up: a monitor, or the public
    try:
        return access.is_director(request.user)
    except DatabaseError:  # the sessions live in the database: without it, anonymous
        return False


def health(request: HttpRequest) -> JsonResponse:
    database = database_status()
    live = database == "ok" and _may_see_live(request)
    found = check_services() if live else {}
    known = _last_known() if database == "ok" else {}
    body: dict = {"database": database, "since": {}, "checked_at": {}, "live": live}
    for name in ("cache", "jobs"):
        row = known.get(name)
        state = found.get(name) or _configured(name) or (row.state if row else "unknown")
        since, checked = (row.since, row.checked_at) if row else (None, None)
        body[name] = _shown(name, state, since)
        body["since"][name] = _iso(since)
        body["checked_at"][name] = _iso(checked)
    down = database != "ok" or any(body[name].startswith(State.UNREACHABLE)
                                   for name in ("cache", "jobs"))
    body["status"] = "degraded" if down else "ok"
    return JsonResponse(body, status=200 if database == "ok" else 503)
