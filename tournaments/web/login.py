"""The director's log-in throttle (django-axes): the client's address and the lock-out page.

django-axes counts failed log-ins in the database, per user name and per address, and
refuses a locked-out user name or address before any password is checked (settings:
LOGIN_FAILURE_LIMIT, LOGIN_LOCKOUT_MINUTES). The console's log-in and the admin's share
it. This module gives axes the client's address as the table-code throttle sees it (so
NUM_PROXIES is honoured the same way) and writes the page a locked-out director sees:
what happened and when to try again.
"""

from __future__ import annotations

import math
from datetime import datetime

from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from .. import presenters
from ..throttle import client_address as throttle_address

LOCKED_STATUS = 429


def client_address(request: HttpRequest) -> str | None:
    """The address failed log-ins are counted against (None when the server got none)."""
    address = throttle_address(request)
    return None if address == "unknown" else address


def locked_until(username: str | None, address: str | None) -> datetime | None:
    """When the lock-out of this user name, or of this address, ends (None: neither is).

    Each stored attempt carries its failures and the time of the latest; an attempt stops
    counting LOGIN_LOCKOUT_MINUTES after that. So a lock-out ends when the newest attempts
    no longer add up to the limit: at the expiry of the attempt that brings them to it.
    """
    limit = settings.AXES_FAILURE_LIMIT
    cool_off = settings.AXES_COOLOFF_TIME
    ends = []
    for who in ({"username": username}, {"ip_address": address}):
        if None in who.values():
            continue
        failures = 0
        for at, count in (AccessAttempt.objects
                          .filter(**who, attempt_time__gte=timezone.now() - cool_off)
                          .order_by("-attempt_time")
                          .values_list("attempt_time", "failures_since_start")):
            failures += count
            if failures >= limit:
                ends.append(at + cool_off)
                break
    return max(ends, default=None)


def locked_out(request: HttpRequest, original_response: HttpResponse | None = None,
               credentials: dict | None = None) -> HttpResponse:
    """The page for a locked-out log-in (the console's and the admin's): 429, when to retry."""
    username = get_client_username(request, credentials)
    until = (locked_until(username, getattr(request, "axes_ip_address", None))
             or timezone.now() + settings.AXES_COOLOFF_TIME)
    seconds = max(1, math.ceil((until - timezone.now()).total_seconds()))
    minutes = math.ceil(seconds / 60)
    response = render(request, "registration/locked_out.html", {
        "until": presenters.clock(until),
        "minutes": minutes,
        "limit": settings.AXES_FAILURE_LIMIT,
        "lockout_minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
    }, status=LOCKED_STATUS)
    response["Retry-After"] = str(seconds)
    return response
