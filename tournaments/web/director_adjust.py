"""The director's console for club adjustments: the event's setting, adjusted scores
(average-plus / average / average-minus for each side) and assigned scores (the usual
result form once, or twice for a split score). Shown only when the event turns club
adjustments on; each page validates, calls one service, and reports."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from .. import selectors, services
from ..forms import AdjustedForm, director_result_form
from ..models import Board, Event, Meeting
from ..presenters import deal_outcome
from ..services import ServiceError
from .director import (
    _actor,
    _back,
    _event,
    _fail,
    _meeting,
    _meeting_url,
    _reason,
    director_required,
)

SPLIT_SESSION = "assigned-ns:{event}:{meeting}:{board}"


def _board_of(event: Event, meeting: Meeting, board: int) -> Board:
    if board not in meeting.boards:
        raise Http404(f"board {board} is not played at this table in this round")
    return get_object_or_404(Board, event=event, number=board)


def _require_on(request: HttpRequest, event: Event) -> HttpResponse | None:
    if event.club_adjustments:
        return None
    messages.error(request, services.CLUB_ADJUSTMENTS_OFF)
    return _back(event)


def _current(event: Event, board: int, meeting: Meeting) -> str:
    result = selectors.pair_result(event, board, meeting.ns_pair.number,
                                   meeting.ew_pair.number)
    return selectors.describe(result, is_whist=event.is_whist) if result else ""


@director_required
@require_POST
def club_adjustments(request: HttpRequest, event_id: int) -> HttpResponse:
    """Turn club adjustments on or off (the event's settings)."""
    event = _event(event_id)
    try:
        event = services.club_adjustments_set(event=event, actor=_actor(request),
                                              on=request.POST.get("club_adjustments") == "on",
                                              reason=_reason(request))
    except ServiceError as exc:
        _fail(request, exc)
    else:
        messages.success(request, "Club adjustments are on: adjusted and assigned scores "
                                  "can be given on a table's page." if event.club_adjustments
                         else "Club adjustments are off: the 1913 laws' rulings only.")
    return _back(event)


@director_required
@require_http_methods(["GET", "POST"])
def adjusted_score(request: HttpRequest, event_id: int, meeting_id: int, board: int
                   ) -> HttpResponse:
    event = _event(event_id)
    m = _meeting(event, meeting_id)
    _board_of(event, m, board)
    refused = _require_on(request, event)
    if refused:
        return refused
    form = AdjustedForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            result = services.adjusted_award(
                event=event, board=board, ns=m.ns_pair.number, ew=m.ew_pair.number,
                ns_grade=data["ns_grade"], ew_grade=data["ew_grade"], reason=data["reason"],
                actor=_actor(request), meeting=m)
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, f"Board {board}: "
                                      f"{selectors.describe(result)}. Undo it from the audit "
                                      "page if needed.")
            return redirect(_meeting_url(event, m))
    return render(request, "tournaments/director/adjusted.html", {
        "event": event, "meeting": m, "board": board, "form": form,
        "current": _current(event, board, m),
    })


@director_required
@require_http_methods(["GET", "POST"])
def assigned_score(request: HttpRequest, event_id: int, meeting_id: int, board: int
                   ) -> HttpResponse:
    """The usual result form once; for a split score, N–S's result first, then E–W's
    (?side=ew), N–S's kept in the session between the two."""
    event = _event(event_id)
    m = _meeting(event, meeting_id)
    board_row = _board_of(event, m, board)
    refused = _require_on(request, event)
    if refused:
        return refused
    key = SPLIT_SESSION.format(event=event.pk, meeting=m.pk, board=board)
    second = request.GET.get("side") == "ew" and key in request.session
    # The second step of a split starts from the reason given with N–S's result.
    initial = {"reason": request.session[key].get("reason", "")} if second else None
    form = director_result_form(event.rules, deal=board_row.deal, data=request.POST or None,
                                initial=initial)
    if not second:
        form.fields["split"] = forms.BooleanField(required=False)
    if request.method == "POST" and form.is_valid():
        data = form.result_data()
        reason = form.cleaned_data.get("reason", "")
        if not second and form.cleaned_data.get("split"):
            check = selectors.result_preview(event, board_row, data, live=True)
            if check["ok"]:
                request.session[key] = {"ns_result": data, "reason": reason}
                return redirect(reverse("director-assigned", kwargs={
                    "event_id": event.pk, "meeting_id": m.pk, "board": board}) + "?side=ew")
            form.add_service_error(ServiceError(check["message"],
                                                field=f"result.{check['field'] or ''}"))
        else:
            stored = request.session.get(key, {}) if second else {}
            try:
                result = services.assigned_award(
                    event=event, board=board, ns=m.ns_pair.number, ew=m.ew_pair.number,
                    ns_result=stored["ns_result"] if second else data,
                    ew_result=data if second else None,
                    reason=reason or stored.get("reason", ""), actor=_actor(request),
                    meeting=m)
            except ServiceError as exc:
                field = (exc.field or "").split(".", 1)
                exc.field = f"result.{field[1]}" if len(field) == 2 else exc.field
                form.add_service_error(exc)
            else:
                request.session.pop(key, None)
                messages.success(request, f"Board {board}: {selectors.describe(result)}. "
                                          "Undo it from the audit page if needed.")
                return redirect(_meeting_url(event, m))
    ns_words = ""
    if second:
        ns_words = deal_outcome(request.session[key]["ns_result"])
    return render(request, "tournaments/director/assigned.html", {
        "event": event, "meeting": m, "board": board_row, "form": form,
        "is_whist": event.is_whist, "second": second, "ns_words": ns_words,
        "preview_url": reverse("director-preview", kwargs={"event_id": event.pk,
                                                           "board": board}),
        "current": _current(event, board, m),
    })
