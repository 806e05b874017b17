"""The table's hot path: its result entry, the opponents' confirm and its agreement of a
round, each served in two statements, before DRF's dispatch.

On a busy night every table posts each board it plays, and all of a room's writes to an
event queue on the event's row lock. The common case, a table entering a new result for
its own round with an Idempotency-Key, is answered here: the body read and checked with
the API's own parser rules and input serializer, one read (the code's table, section and
event, the round's meeting, its pairs and the board: ``selectors.table_code_entry``),
the play scored, and one statement (``services.result_enter_at_table`` with the key's
claim) that claims the key, locks the event's row, checks and writes the result, its
audit entry and the stored answer, and commits. No transaction is opened around them:
the write is its own. The answer is the one DRF's view gives, byte for byte (its JSON,
status and headers; tests/api/test_hot_path.py holds them equal).

Anything else goes the full road, the DRF view (``ApiView.hot_path`` returns None):
a director, a code not yet known to this device's throttle, no key, a body the parser or
the serializer would refuse, a late-play flag, a round or board the table does not play,
another event's code, an unusual result not looked at again, a replay, a refusal under
the lock. Nothing is written on the way there (the write statement is all or nothing),
so the full road answers it exactly as it always has, in the players' words.

The opponents' confirm goes the same way: one read (the code's table and the result with
its board, pairs and meeting: ``selectors.table_code_result``), one statement
(``services.result_confirm_at_table``). A table agreeing its round (Duplicate Law E)
too: one read (the code's table, section and event, and its meeting of the round:
``selectors.table_code_meeting``) and one statement (``services.round_agree_at_table``
with the key's claim) that claims the key, locks the event's row, checks every board of
the meeting is in and confirmed, agrees it, audits it, takes the change number and
stores the answer. Anything else (a board missing or unconfirmed, the round agreed
already, the event agreed or closed, another table's or section's address, a round the
table does not play, a body other than ``{}``, and all that sends a result entry the
full road) goes to the DRF view, which answers as before.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable

from csp.constants import HEADER as CSP_HEADER
from csp.constants import HEADER_REPORT_ONLY as CSP_REPORT_ONLY_HEADER
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, URLResolver, get_resolver, reverse
from django.urls.resolvers import RegexPattern
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.utils.json import strict_constant

from .. import prepared, selectors, services
from ..inputs import unique_keys
from ..models import Event
from ..tablecodes import normalise
from ..throttle import CodeGate
from .auth import KEYWORD, table_scope
from .idempotency import HEADER, MAX_KEY_LENGTH, digest_of
from .parsers import MAX_DEPTH, nested_deeper_than, nul_at
from .serializers import AgreedOut, ConfirmIn, ResultIn, result_out, shared

JSON = "application/json"
# What DRF's content negotiation answers with JSON (its first renderer) for the hot path.
_ACCEPTS_JSON = {None, "", "*/*", JSON, "application/*"}
_OPEN = (Event.Status.SETTING_UP, Event.Status.RUNNING)
_KEY_META = "HTTP_" + HEADER.upper().replace("-", "_")


def table_code(request: HttpRequest) -> str | None:
    """The code in ``Authorization: Table <code>``, as auth.TableCodeAuthentication reads
    it; None for any other caller."""
    header = request.META.get("HTTP_AUTHORIZATION", "").split()
    if len(header) < 2 or header[0].lower() != KEYWORD.lower():
        return None
    return normalise(" ".join(header[1:]))


def json_body(request: HttpRequest) -> object | None:
    """The request's JSON body as BoundedJSONParser reads it; None where it would refuse
    it (or the request is not JSON), so that the full road says why."""
    if request.content_type != JSON or request.content_params.get("charset", "utf-8").lower() \
            not in ("utf-8", "utf8") or request.META.get("HTTP_ACCEPT") not in _ACCEPTS_JSON:
        return None
    try:
        text = request.body.decode("utf-8")
        if nested_deeper_than(text, MAX_DEPTH):
            return None
        data = json.loads(text, parse_constant=strict_constant, object_pairs_hook=unique_keys)
    except ValueError:
        return None
    return None if nul_at(data) else data


def json_answer(body: object, status: int, allow: str) -> HttpResponse:
    """The answer as DRF's view renders it: its JSON renderer, its headers."""
    response = HttpResponse(JSONRenderer().render(body), status=status, content_type=JSON)
    response["Vary"] = "Accept"
    response["Allow"] = allow
    return response


def _table_request(request: HttpRequest) -> tuple[str, str, object] | None:
    """A table's write as the hot path takes it: (its code, its Idempotency-Key, its JSON
    body), the code one this device holds (the throttle's memory: else the throttle's full
    road counts it); None for anything else."""
    if request.method != "POST":
        return None
    # (META, not request.headers: those are made from every header of the request.)
    code, key = table_code(request), request.META.get(_KEY_META, "").strip()
    if not code or not key or len(key) > MAX_KEY_LENGTH:
        return None
    data = json_body(request)
    if data is None or not CodeGate(request).holds(code):
        return None
    return code, key, data


def _valid(serializer_class, data) -> dict | None:
    """`data` as the view's input serializer validates it, None where it refuses it (the
    full road then says why). The shared serializer: its fields are built once, where a new
    one would copy them all for each request; validating keeps nothing on it."""
    try:
        return shared(serializer_class).run_validation(data)
    except ValidationError:
        return None


def _open_event(table, event_id: int) -> Event | None:
    """The event of the code's table, when it is the URL's and open to the tables."""
    if table is None or table.section.event_id != event_id:
        return None
    event = table.section.event
    return event if event.status in _OPEN else None


def _answer(request: HttpRequest, table, key: str, data, status: int,
            render: Callable) -> services.Answer:
    """The answer the write stores for the key it claims, rendered as the view's. The
    output serializers give JSON's own types only (strings, numbers, lists, mappings), so
    the body goes into the write's JSON as it is, where the full road renders it and reads
    it back (idempotency.answer_for); tests/api/test_hot_path.py holds the stored answer
    equal to the one sent."""
    return services.Answer(
        render=render, status_code=status,
        claim=(table_scope(table.pk), key, digest_of(request.method, request.path, data)))


def _answered(written, answer: services.Answer, allow: str) -> HttpResponse | None:
    """The write's answer; else the replay of the same request sent before (the key's
    stored answer); else None, for the full road."""
    if written is not None:
        return json_answer(answer.body, answer.status_code, allow)
    stored = answer.replay
    if stored is None or stored["status_code"] is None or stored["hash"] != answer.claim[2]:
        return None
    response = json_answer(stored["response"], stored["status_code"], allow)
    response["Idempotent-Replayed"] = "true"
    return response


def result_post(request: HttpRequest, allow: str, event_id: int, **kwargs
                ) -> HttpResponse | None:
    """``POST /api/events/<id>/results/`` from a table: a new result of its round, in two
    statements; None for anything else (the DRF view then answers)."""
    taken = _table_request(request)
    if taken is None:
        return None
    code, key, data = taken
    entry_in = _valid(ResultIn, data)
    if entry_in is None or "round" not in entry_in or entry_in["late_play"]:
        return None
    table, entry = selectors.table_code_entry(code, entry_in["round"], entry_in["board"])
    event = _open_event(table, event_id)
    if event is None or entry.meeting is None:
        return None
    answer = _answer(request, table, key, data, 201, result_out)
    try:
        result = services.result_enter_at_table(
            event=event, entry=entry, actor=services.Actor.at_table(table.section, table.table),
            data=entry_in["result"], ns=entry_in.get("ns"), ew=entry_in.get("ew"),
            as_entered=entry_in["as_entered"], answer=answer)
    except services.ServiceError:
        return None  # a result the engine refuses: the full road says why
    return _answered(result, answer, allow)


def result_confirm_post(request: HttpRequest, allow: str, event_id: int, result_id: int,
                        **kwargs) -> HttpResponse | None:
    """``POST /api/events/<id>/results/<id>/confirm/`` from a table: the opponents confirm
    a result it entered, in two statements; None for anything else."""
    taken = _table_request(request)
    if taken is None:
        return None
    code, key, data = taken
    confirm_in = _valid(ConfirmIn, data)
    if confirm_in is None:
        return None
    table, result = selectors.table_code_result(code, result_id)
    event = _open_event(table, event_id)
    if event is None or result is None or confirm_in.get("version", result.version) \
            != result.version:
        return None  # (a result changed since the opponents were shown it: a 409)
    answer = _answer(request, table, key, data, 200, result_out)
    confirmed = services.result_confirm_at_table(
        event=event, result=result, actor=services.Actor.at_table(table.section, table.table),
        by=confirm_in.get("by", ""), answer=answer)
    return _answered(confirmed, answer, allow)


def round_agree_post(request: HttpRequest, allow: str, event_id: int, section: str,
                     table: int, round: int) -> HttpResponse | None:
    """``POST /api/events/<id>/sections/<s>/tables/<t>/rounds/<r>/agree/`` from a table:
    its own meeting of the round agreed, every board in and confirmed, in two statements
    (one read, ``selectors.table_code_meeting``; one write, ``services.round_agree_at_table``
    with the key's claim); None for anything else (the DRF view then answers)."""
    taken = _table_request(request)
    if taken is None or taken[2] != {}:
        return None  # not a table's, or a body the view does not expect
    code, key, data = taken
    found, meeting = selectors.table_code_meeting(code, round)
    event = _open_event(found, event_id)
    if (event is None or meeting is None or found.section.name != section
            or found.table != table):
        return None
    answer = _answer(request, found, key, data, 200, agreed_out)
    agreed = services.round_agree_at_table(
        event=event, section=found.section, meeting=meeting,
        actor=services.Actor.at_table(found.section, found.table), answer=answer)
    if agreed is None and answer.replay is None:
        # Not the common case under the lock: the full road need not ask again.
        request.agree_not_common = True
    return _answered(agreed, answer, allow)


def agreed_out(agreed: int) -> dict:
    """The agree's answer (the DRF view's)."""
    return AgreedOut({"agreed": agreed}).data


class TableWriteMiddleware:
    """Serves the tables' hot writes (the views with a ``hot_path``: the result entry, the
    opponents' confirm, the round's agreement) right after the security headers, before
    the live polls, the Content-Security-Policy, the session, CSRF, authentication and
    messages, which a table's write with its code does not use. Only a POST with an
    Authorization header under the API's address is looked at (its URL matched against the
    hot routes alone, ``hot_resolver``); what the middleware passed over would add headers
    to such an answer (the Content-Security-Policy, ``csp_headers``, and X-Frame-Options),
    added here; a request the hot path does not answer goes on through all of it,
    unchanged. tests/api/test_hot_path.py holds the answers' headers equal to the DRF
    view's."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response
        self.root = reverse("api:root")
        self.hot = hot_resolver(self.root)
        self.allow: dict[type, str] = {}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (request.method == "POST" and "HTTP_AUTHORIZATION" in request.META
                and request.path_info.startswith(self.root) and prepared.available()):
            try:
                match = self.hot.resolve(request.path_info)
            except Resolver404:
                match = None
            if match is not None:
                view = match.func.cls
                allow = self.allow.get(view) or self.allow.setdefault(view, _allow(view))
                response = view.hot_path(request, allow, **match.kwargs)
                if response is not None:
                    for header, policy, excluded in csp_headers():
                        if not request.path_info.startswith(excluded):
                            response[header] = policy
                    response["X-Frame-Options"] = settings.X_FRAME_OPTIONS
                    return response
        return self.get_response(request)


@functools.cache
def csp_headers() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """The Content-Security-Policy headers django-csp's middleware gives an answer with no
    policy of its own view and no nonce, as every hot answer is: (header, policy, the
    address prefixes it is not given under). Built once, where the middleware builds both
    policies for each answer; again when a setting of theirs changes (tests)."""
    return tuple(
        (header, policy, tuple((getattr(settings, name, None) or {}).get(
            "EXCLUDE_URL_PREFIXES") or ()))
        for header, name, policy in (
            (CSP_HEADER, "CONTENT_SECURITY_POLICY", build_policy()),
            (CSP_REPORT_ONLY_HEADER, "CONTENT_SECURITY_POLICY_REPORT_ONLY",
             build_policy(report_only=True)))
        if policy)


def _policy_changed(*, setting: str, **kwargs) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        csp_headers.cache_clear()


setting_changed.connect(_policy_changed)


def hot_resolver(root: str) -> URLResolver:
    """A resolver of the API's own routes (its include in the URL conf, namespace "api") to
    the views with a ``hot_path``, the same route objects under the same root: it matches a
    table's write in three patterns, where the whole URL conf tries every route of the site
    before the API's results."""
    hot = [route for route in _api_routes(get_resolver())
           if getattr(getattr(route, "callback", None), "cls", None) is not None
           and getattr(route.callback.cls, "hot_path", None) is not None]
    return URLResolver(RegexPattern("^" + re.escape(root)), hot)


def _api_routes(resolver: URLResolver) -> list:
    """The routes of the API's include, wherever the URL conf puts it; [] without one."""
    for route in resolver.url_patterns:
        if isinstance(route, URLResolver):
            if route.app_name == "api":
                return route.url_patterns
            found = _api_routes(route)
            if found:
                return found
    return []


def _allow(view) -> str:
    """The Allow header DRF gives the view's answers (its methods, HEAD with GET)."""
    return ", ".join(m.upper() for m in view.http_method_names
                     if hasattr(view, m) or (m == "head" and hasattr(view, "get")))
