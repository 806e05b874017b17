"""The director's console: an event of several sessions (an afternoon and an evening, or
two weeks). Each session is an event of its own, set up on its own pages (boards,
movement, table codes); this page lists the sessions, adds the next one with the last
one's pairs, and sets the carry-over the overall standings count earlier sessions at."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from .. import services
from ..forms import CarryOverForm, SessionForm
from ..services import ServiceError
from .director import _actor, _event, _fail, director_required


@director_required
@require_http_methods(["GET", "POST"])
def sessions(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    series = list(event.session_events())
    first = series[0]
    add_form = SessionForm(request.POST if request.POST.get("action") == "add" else None)
    carry_form = CarryOverForm(request.POST if request.POST.get("action") == "carry" else None,
                               initial={"carry_over": first.carry_over})
    if request.method == "POST":
        actor = _actor(request)
        try:
            if add_form.is_bound and add_form.is_valid():
                session = services.session_add(event=event, date=add_form.cleaned_data["date"],
                                               actor=actor)
                messages.success(request, f"Session {session.session_number} added with "
                                          f"{session.pairs.count()} pairs. Next: its boards "
                                          "and movement.")
                return redirect("director-movement", event_id=session.pk)
            if carry_form.is_bound and carry_form.is_valid():
                first = services.carry_over_set(
                    event=event, percent=carry_form.cleaned_data["carry_over"], actor=actor)
                messages.success(request, f"Earlier sessions now count at {first.carry_over}% "
                                          "in the overall standings.")
                return redirect("director-sessions", event_id=event.pk)
        except ServiceError as exc:
            _fail(request, exc)
            return redirect("director-sessions", event_id=event.pk)
    return render(request, "tournaments/director/sessions.html", {
        "event": event, "series": series, "first": first, "last": series[-1],
        "add_form": add_form, "carry_form": carry_form,
        "teams": event.kind == "teams",
    })
