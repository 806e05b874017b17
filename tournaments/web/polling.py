"""The polls of the live pages: a 304 from the cache when nothing has changed (tournaments.polls).

``LivePollMiddleware`` stands near the top of the middleware (config/settings.py), before
everything that reads the session, the user or the database, and before the work every
page's answer costs (the Content-Security-Policy header, the URL resolver): a poll to
one of ``POLL_PATHS`` bringing back the tag of the state it was shown, while the event
is still at that state, is answered 304 at once; a public page's poll after a change,
while the event is published, gets the live JSON from the cache (polls.live_answer).
Any other request goes on as before;
the poll views answer in full and ``tagged`` gives the answer its tag (and the cache
the event's mark). tests/web/test_live_polls.py holds that ``POLL_PATHS`` match the
poll URLs (tournaments/web/urls.py) and nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse

from .. import polls
from ..models import Event

# The event's live JSON (public.live) and a table's round state (table.state).
POLL_PATHS = re.compile(r"(?P<live>/events/[0-9]+/live/)"
                        r"|(?P<state>/t/[^/]+/round/[0-9]+/state\.json)")
# What django.views.decorators.cache.never_cache gives the full answers.
NEVER_CACHE = "max-age=0, no-cache, no-store, must-revalidate, private"


class LivePollMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        tag = request.META.get("HTTP_IF_NONE_MATCH")
        if not (tag and request.method in ("GET", "HEAD")):
            return self.get_response(request)
        matched = POLL_PATHS.fullmatch(request.path_info)
        if matched is None:
            return self.get_response(request)
        path = request.get_full_path()
        if polls.unchanged(path, tag):
            response = HttpResponseNotModified()
            response["ETag"] = tag
        elif matched.lastgroup == "live" and (answer := polls.live_answer(path, tag)):
            data, tag = answer
            response = JsonResponse(data)
            response["ETag"] = tag
        else:
            return self.get_response(request)
        response["Cache-Control"] = NEVER_CACHE
        return response


def tagged(request: HttpRequest, response: HttpResponse, event: Event) -> HttpResponse:
    """A full answer to a poll, made from `event` as just read: its tag, and the mark."""
    response["ETag"] = polls.etag(request.get_full_path(), event)
    polls.remember(event)
    return response
