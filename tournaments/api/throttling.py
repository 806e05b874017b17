"""Wrong table codes are throttled per client address, so codes cannot be guessed.

Only failed attempts count: a table that types its code right is never slowed
down. Once an address has used up its allowance (REST_FRAMEWORK
DEFAULT_THROTTLE_RATES["table-code"], e.g. "10/minute"), every table-code request
from it is refused until the window ends, right code or not; otherwise a guesser
would simply keep going.

The count is a fixed-window counter in the Django cache (Redis in production):
``cache.add`` then ``cache.incr`` are atomic there, so parallel guesses cannot slip
past the limit the way a read-modify-write of a list of timestamps can.
"""

import time

from django.core.cache import cache
from rest_framework.exceptions import Throttled
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

SCOPE = "table-code"
_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class TooManyWrongCodes(Throttled):
    default_detail = "Too many wrong table codes from this device."
    extra_detail_singular = "Try again in {wait} second."
    extra_detail_plural = "Try again in {wait} seconds."


def parse_rate(rate: str) -> tuple[int, int]:
    """'10/minute' -> (10, 60): attempts allowed per window of so many seconds."""
    count, period = rate.split("/")
    return int(count), _PERIODS[period.strip()[0].lower()]


class TableCodeFailures:
    """Counts wrong table codes per client address in fixed windows."""

    def __init__(self, request) -> None:
        # Read the rate on each use, so a settings override (tests, ops) takes effect.
        self.limit, self.window = parse_rate(api_settings.DEFAULT_THROTTLE_RATES[SCOPE])
        self.ident = client_address(request)
        self.now = time.time()
        self.window_start = int(self.now // self.window) * self.window

    @property
    def key(self) -> str:
        return f"throttle:{SCOPE}:{self.ident}:{self.window_start}"

    def wait(self) -> int:
        """Seconds until the window ends (at least 1)."""
        return max(1, int(self.window_start + self.window - self.now + 0.999))

    def check(self) -> None:
        """Refuse (429) when this address has used up its wrong guesses."""
        if (cache.get(self.key) or 0) >= self.limit:
            raise TooManyWrongCodes(wait=self.wait())

    def record(self) -> None:
        """One more wrong code from this address."""
        # add() is a no-op when the key exists; incr() is atomic in Redis and locmem.
        cache.add(self.key, 0, timeout=self.window + 1)
        try:
            cache.incr(self.key)
        except ValueError:  # expired between add and incr: start the window again
            cache.add(self.key, 1, timeout=self.window + 1)


def client_address(request) -> str:
    """The client's address; X-Forwarded-For only when NUM_PROXIES says it can be trusted.

    DRF's own get_ident trusts the whole X-Forwarded-For header when NUM_PROXIES is
    unset, which would let a guesser pick a fresh "address" for every attempt.
    """
    if api_settings.NUM_PROXIES:
        return BaseThrottle().get_ident(request)
    return request.META.get("REMOTE_ADDR", "") or "unknown"
