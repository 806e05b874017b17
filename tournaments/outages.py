"""Outages of the services entry must never wait for: the cache (Redis) and the job queue.

A table's request reads the cache (the table-code throttle, the page's submission
tokens) but must not depend on it: while Redis is down, a table holding its right code
goes on (docs/decisions.md, item 62). ``cache_tolerant`` wraps each cache call on that
path: a failure answers the call's "nothing known" default instead of an error page.

Terms:

- A ``Watch`` is one process's view of one service: up, or down since a moment.
- The first failure in a process marks the service down there and records it in the
  database (``ServiceState``); the process that flips that row logs the one WARNING of
  the outage, so many requests, threads and processes log it once. The first success
  afterwards records it back, with a second WARNING ("answers again").
- While a process knows the service is down it does not try it on every request: one
  request every ``RETRY_SECONDS`` tries (and pays the connect timeout of a hung Redis,
  CACHES' OPTIONS in config/settings.py); the others go straight to the default.

Races: two threads may both fail before either marks the watch; the lock makes one of
them the one that records. Two processes may both record; the row's conditional update
lets exactly one of them change it, and only that one logs. The record is written in a
savepoint, so a request inside a transaction that the database refuses loses only the
record, never its own work; a record rolled back with its request's transaction is
written again by the next check (``check_services``).
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

import redis
from django.db import DatabaseError, transaction
from django.utils import timezone

from . import presenters
from .models import ServiceState

log = logging.getLogger(__name__)

RETRY_SECONDS = 5.0  # while down, how often one request tries the service again
# What a cache call raises when Redis is gone, refuses or does not answer in time.
CACHE_ERRORS: tuple[type[Exception], ...] = (redis.RedisError, OSError)

T = TypeVar("T")


def record(name: str, state: str, *, at: datetime | None = None, touch: bool = False
           ) -> bool | None:
    """Store a service's state; True if this call changed it, None if the database failed.

    ``touch`` also notes that the state was seen now when it has not changed (the checks
    do; the requests do not, to write nothing while all is well).
    """
    at = at or timezone.now()
    try:
        with transaction.atomic():  # a savepoint inside a request's transaction
            changed = (ServiceState.objects.filter(name=name).exclude(state=state)
                       .update(state=state, since=at, checked_at=at))
            if changed:
                return True
            _, created = ServiceState.objects.get_or_create(
                name=name, defaults={"state": state, "since": at, "checked_at": at})
            if not created and touch:
                ServiceState.objects.filter(name=name).update(checked_at=at)
            return created
    except DatabaseError:
        log.warning("could not record that the %s is %s", name, state, exc_info=True)
        return None


class Watch:
    """One process's view of one service: up, or down since a moment."""

    def __init__(self, name: str, what: str) -> None:
        self.name = name
        self.what = what  # for the log: "the cache (Redis)"
        self.down_since: datetime | None = None
        self._retry_at = 0.0  # time.monotonic() at which a request tries again
        self._lock = threading.Lock()

    def usable(self) -> bool:
        """Try the service? Always while it is up; while it is down, once per RETRY_SECONDS."""
        if self.down_since is None:
            return True
        with self._lock:
            now = time.monotonic()
            if now < self._retry_at:
                return False
            self._retry_at = now + RETRY_SECONDS
            return True

    def failed(self, error: BaseException) -> None:
        with self._lock:
            self._retry_at = time.monotonic() + RETRY_SECONDS
            if self.down_since is not None:
                return
            self.down_since = since = timezone.now()
        if record(self.name, ServiceState.State.UNREACHABLE, at=since) is not False:
            log.warning("%s is unreachable since %s (%s: %s); table entry goes on without "
                        "it", self.what, presenters.clock(since), type(error).__name__, error)

    def answered(self) -> None:
        if self.down_since is None:  # the path of every request while all is well: no lock
            return
        with self._lock:
            since, self.down_since = self.down_since, None
        if since is not None and record(self.name, ServiceState.State.OK):
            log.warning("%s answers again (unreachable since %s)", self.what,
                        presenters.clock(since))

    def reset(self) -> None:
        with self._lock:
            self.down_since, self._retry_at = None, 0.0


CACHE = Watch("cache", "The cache (Redis)")


def cache_tolerant(default: Any) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Answer ``default`` instead of failing when the cache is down (and note the outage).

    For the cache calls on a table's path: each says in its docstring what its default
    means for the table.
    """

    def decorate(function: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(function)
        def tolerant(*args, **kwargs):
            if not CACHE.usable():
                return default
            try:
                value = function(*args, **kwargs)
            except CACHE_ERRORS as error:
                CACHE.failed(error)
                return default
            CACHE.answered()
            return value

        return tolerant

    return decorate


def reset() -> None:
    """Forget what this process knows (tests)."""
    CACHE.reset()
