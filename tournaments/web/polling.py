"""The polls of the live pages: a 304 from the cache when nothing has changed (tournaments.polls).

``LivePollMiddleware`` stands near the top of the middleware (config/settings.py), before
everything that reads the session, the user or the database, and before the work every
page's answer costs (the Content-Security-Policy header, the URL resolver). A poll to one
of ``POLL_PATHS`` bringing back a tag this site gave for that URL is answered there:

- 304, while the event is still at the tag's state (the cache alone);
- a public page's poll after a change, while the event is published: the live JSON from
  the cache (``polls.live_answer``);
- a phone's poll after a change elsewhere in the event (another table's score): what its
  round state is made of is read in one query, without the session, and while that is
  the same the answer is a 304 with a new tag (``polls.table_fingerprint``).

Any other request goes on as before: the poll views answer in full, and ``tagged`` gives
the answer its tag (and the cache the event's mark). tests/web/test_live_polls.py holds
that ``POLL_PATHS`` match the poll URLs (tournaments/web/urls.py) and nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse

from .. import polls, selectors
from ..models import Event

# The event's live JSON (public.live) and a table's round state (table.state).
POLL_PATHS = re.compile(r"(?P<live>/events/[0-9]+/live/)"
                        r"|(?P<state>/t/(?P<code>[^/]+)/round/[0-9]+/state\.json)")
# What django.views.decorators.cache.never_cache gives the full answers.
NEVER_CACHE = "max-age=0, no-cache, no-store, must-revalidate, private"


class LivePollMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        sent = request.META.get("HTTP_IF_NONE_MATCH")
        if not (sent and request.method in ("GET", "HEAD")):
            return self.get_response(request)
        matched = POLL_PATHS.fullmatch(request.path_info)
        if matched is None:
            return self.get_response(request)
        path = request.get_full_path()
        tag = polls.parse(path, sent)
        if tag is None:
            return self.get_response(request)
        if polls.unchanged(tag):
            response = not_modified(sent)
        elif matched["live"] and (answer := polls.live_answer(path, tag)):
            data, new_tag = answer
            response = JsonResponse(data)
            response["ETag"] = new_tag
        elif matched["state"] and not request.GET and (new_tag := _same_state(path, tag,
                                                                               matched["code"])):
            response = not_modified(new_tag)
        else:
            return self.get_response(request)
        response["Cache-Control"] = NEVER_CACHE
        return response


def not_modified(tag: str) -> HttpResponse:
    response = HttpResponseNotModified()
    response["ETag"] = tag
    return response


def _same_state(path: str, tag: polls.Tag, code: str) -> str | None:
    """After a change elsewhere in the event (another table's score, say), is this table's
    round state still the one its tag names? Then its new tag (one query, no session);
    None when the view must answer."""
    inputs = selectors.table_state_inputs(code)
    if inputs is None or inputs.event_id != tag.event:
        return None
    known = polls.current(inputs.event_id)
    if known is None or known.seq < inputs.seq:  # read just now: the cache may learn it
        polls.remember_mark(inputs.event_id, polls.Mark.of_values(
            inputs.seq, inputs.final_after, inputs.published, inputs.status))
    if polls.table_fingerprint(inputs.status, inputs.rounds) != tag.fingerprint:
        return None
    return polls.Tag(inputs.event_id, inputs.seq, tag.fingerprint).text(path)


def tagged(request: HttpRequest, response: HttpResponse, event: Event,
           fingerprint: str = "") -> HttpResponse:
    """A full answer to a poll, made from `event` as just read: its tag, and the mark."""
    response["ETag"] = polls.etag(request.get_full_path(), event, fingerprint)
    polls.remember(event)
    return response
