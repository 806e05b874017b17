"""One throttle on table codes, for the web pages and the API alike.

Table codes are short, so guessing them must stay slow; but every phone on a club's
wifi leaves through one public address, so the address alone must not decide. The
rules (docs/decisions.md, item 15):

- A code the client already holds always passes and is never counted: the web
  session that opened the table, or, for the stateless API, a code this address has
  used successfully before (remembered for a night, ``REMEMBER``). Tables already
  playing therefore go on whatever anyone else on their network types.
- Any other wrong code is an *attempt*, counted per client and per address in fixed
  windows. The client's limit is the setting TABLE_CODE_THROTTLE (REST_FRAMEWORK
  DEFAULT_THROTTLE_RATES["table-code"], "10/minute" by default); the address's limit
  is ``ADDRESS_FACTOR`` times that (60 a minute by default: a room of 30 tables can
  each mistype twice in the same minute, and a guesser who sheds cookies still gets
  no more than 60 guesses a minute from one address).
- Only wrong codes count; a right code is never counted.
- While the client or its address is over its limit, every code it does not hold is
  answered "too many tries", right or wrong: otherwise a guesser would learn which
  guess was right.

The client: the web session when the request carries one; otherwise (the API, or a
browser without cookies) the address together with the browser's User-Agent. Neither
can be trusted not to change, which is why the address counts as well; the client's
lower limit only slows one device down sooner.

Atomicity: a wrong code is counted first and decided on the count. ``cache.add`` then
``cache.incr`` are each atomic (Redis INCR; locmem under a lock), so of N parallel wrong
guesses exactly those that drew a number within the limit are answered "no such code":
there is no window between checking and counting. Every cache operation goes through
``_bump``, ``_count``, ``_remember`` and ``_remembered``.

A cache outage never stops entry (docs/decisions.md, item 62): those four answer
"nothing counted, nothing remembered" while Redis is down (tournaments/outages.py), so a
right code opens its table and a wrong one is refused as wrong, only not counted. The
cost is that guessing is not slowed for the length of the outage, which the log and
/health/ show; a table that cannot enter its scores is the worse failure.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from django.core.cache import cache
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from .outages import cache_tolerant

SCOPE = "table-code"
ADDRESS_FACTOR = 6  # the address's limit, as a multiple of one client's
REMEMBER = 12 * 3600  # how long an address keeps a code it used successfully (a night)
# This process's copy of the cache's yes to "does this address hold this code?": a minute,
# for at most so many codes (a room's tables, many times over).
HELD_HERE = 60
HELD_HERE_MAX = 10_000
_held_here: dict[str, float] = {}
_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """'10/minute' -> (10, 60): attempts allowed per window of so many seconds."""
    count, period = rate.split("/")
    return int(count), _PERIODS[period.strip()[0].lower()]


def client_address(request) -> str:
    """The client's address; X-Forwarded-For only when NUM_PROXIES says it can be trusted.

    DRF's own get_ident trusts the whole X-Forwarded-For header when NUM_PROXIES is
    unset, which would let a guesser pick a fresh "address" for every attempt.
    """
    if api_settings.NUM_PROXIES:
        return BaseThrottle().get_ident(request)
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def client_id(request) -> str:
    """The web session if the request carries one, else the address and User-Agent."""
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None) if session is not None else None
    if key:
        return f"session:{key}"
    agent = request.META.get("HTTP_USER_AGENT", "")
    digest = hashlib.sha256(agent.encode("utf-8", "replace")).hexdigest()[:16]
    return f"agent:{client_address(request)}:{digest}"


@dataclass
class Verdict:
    """What the throttle says about one code: go on, or wait so many seconds."""

    allowed: bool
    wait: int = 0


class CodeGate:
    """Counts table-code attempts of one request's client and address."""

    def __init__(self, request) -> None:
        # Read the rate on each use, so a settings override (tests, ops) takes effect.
        self.limit, self.window = parse_rate(api_settings.DEFAULT_THROTTLE_RATES[SCOPE])
        self.address_limit = self.limit * ADDRESS_FACTOR
        self.address = client_address(request)
        self.client = client_id(request)
        self.now = time.time()
        self.window_start = int(self.now // self.window) * self.window

    def _key(self, who: str) -> str:
        return f"throttle:{SCOPE}:{who}:{self.window_start}"

    def _known_key(self, code: str) -> str:
        return f"throttle:{SCOPE}:known:{self.address}:{code}"

    def wait(self) -> int:
        """Seconds until the window ends (at least 1)."""
        return max(1, int(self.window_start + self.window - self.now + 0.999))

    def holds(self, code: str) -> bool:
        """Has this address used this code successfully before (a table already playing)?
        A yes is kept in this process for HELD_HERE seconds (it holds for a night), so a
        playing table's every write does not ask the cache again."""
        if not code:
            return False
        key = self._known_key(code)
        if _held_here.get(key, 0) > self.now:
            return True
        if not _remembered(key):
            return False
        if len(_held_here) >= HELD_HERE_MAX:
            _held_here.clear()
        _held_here[key] = self.now + HELD_HERE
        return True

    def decide(self, code: str, *, right: bool) -> Verdict:
        """One code the client does not hold, once it has been looked up.

        A wrong code is an attempt: counted first, then decided on the count, in one
        atomic step per counter. A right code is never counted (so a room of tables
        opening their pages at the same moment never throttles itself), but it waits
        like any other while the client or its address is over its limit: otherwise a
        guesser would learn which guess was right. Once through, it is remembered for
        this address.
        """
        if right:
            if (_count(self._key(self.client)) >= self.limit
                    or _count(self._key("address:" + self.address)) >= self.address_limit):
                return Verdict(False, self.wait())
            _remember(self._known_key(code), REMEMBER)
            return Verdict(True)
        client = _bump(self._key(self.client), self.window)
        address = _bump(self._key("address:" + self.address), self.window)
        if client > self.limit or address > self.address_limit:
            return Verdict(False, self.wait())
        return Verdict(True)


def forget() -> None:
    """Drop this process's copies of the cache's answers (the cache itself is untouched)."""
    _held_here.clear()


# --- the cache: every access in one place ---------------------------------------------------


@cache_tolerant(default=0)
def _bump(key: str, window: int) -> int:
    """Add one to a window's counter and return the new count (atomic); 0 when the
    cache is down: the attempt is not counted."""
    cache.add(key, 0, timeout=window + 1)  # a no-op when the window has begun
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr: this attempt opens a new window
        cache.add(key, 0, timeout=window + 1)
        return cache.incr(key)


@cache_tolerant(default=0)
def _count(key: str) -> int:
    """A window's counter as it stands (0 before the window's first attempt, and while
    the cache is down)."""
    return cache.get(key) or 0


@cache_tolerant(default=None)
def _remember(key: str, timeout: int) -> None:
    """Remember a code this address used (nothing while the cache is down)."""
    cache.set(key, 1, timeout=timeout)


@cache_tolerant(default=False)
def _remembered(key: str) -> bool:
    """Has this address used the code? False while the cache is down: the code is
    looked up as any other, and a right one still passes."""
    return cache.get(key) is not None
