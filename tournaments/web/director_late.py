"""The director's console: boards not played, and late play.

From a table's round (the meeting page): mark boards not played (slow play, time: no
comparison and no credit for either pair, Duplicate Law H), give the table leave to play
boards late (it then enters them itself, whatever its round), or withdraw that leave.
Each page validates its form, calls one service and reports; every change is audited,
and a board marked not played is undone from the audit page.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import pluralize
from django.views.decorators.http import require_http_methods

from .. import selectors, services
from ..forms import MeetingBoardsForm
from ..models import Event, Meeting
from ..services import ServiceError
from .director import _actor, _event, _meeting, _meeting_url, director_required

NOT_PLAYED = "not-played"


def _boards_text(boards: list[int]) -> str:
    return f"board{pluralize(len(boards))} {', '.join(map(str, boards))}"


def _open_boards(meeting: Meeting, *, keep_not_played: bool) -> list[int]:
    """The meeting's boards with no result yet (and, if asked, those marked not played)."""
    lines = selectors.meeting_boards(meeting)
    return [line.number for line in lines
            if line.result is None or (keep_not_played and line.result.ruling == NOT_PLAYED)]


def _initial(request: HttpRequest, boards: list[int]) -> dict:
    """?board=N preselects that board (the link from its line on the meeting page)."""
    chosen = request.GET.get("board", "")
    return {"boards": [int(chosen)]} if chosen.isdigit() and int(chosen) in boards else {}


def _page(request, event: Event, meeting: Meeting, form, *, kind: str) -> HttpResponse:
    return render(request, "tournaments/director/late.html", {
        "event": event, "meeting": meeting, "form": form, "kind": kind,
        "leave": list(meeting.late_boards or []),
    })


@director_required
@require_http_methods(["GET", "POST"])
def not_played(request: HttpRequest, event_id: int, meeting_id: int) -> HttpResponse:
    """Mark boards of a table's round not played (the boards without a result)."""
    event = _event(event_id)
    m = _meeting(event, meeting_id)
    boards = _open_boards(m, keep_not_played=False)
    form = MeetingBoardsForm(request.POST or None, boards=boards,
                             initial=_initial(request, boards))
    if request.method == "POST" and form.is_valid():
        chosen = form.cleaned_data["boards"]
        try:
            services.boards_not_played(meeting=m, boards=chosen, actor=_actor(request),
                                       reason=form.cleaned_data["reason"])
        except ServiceError as exc:
            form.add_error("reason" if exc.field == "reason" else None, exc.message)
        else:
            messages.success(request, f"{_boards_text(chosen).capitalize()} marked not played "
                                      f"at table {m.table}: no score for either pair. Undo it "
                                      "from the audit page, or give leave to play it late.")
            return redirect(_meeting_url(event, m))
    return _page(request, event, m, form, kind="not-played")


@director_required
@require_http_methods(["GET", "POST"])
def late_leave(request: HttpRequest, event_id: int, meeting_id: int) -> HttpResponse:
    """Give the table leave to play boards late (POST action=withdraw takes it back)."""
    event = _event(event_id)
    m = _meeting(event, meeting_id)
    withdraw = request.POST.get("action") == "withdraw"
    boards = (list(m.late_boards or []) if withdraw
              else _open_boards(m, keep_not_played=True))
    form = MeetingBoardsForm(request.POST or None, boards=boards,
                             initial=_initial(request, boards))
    if request.method == "POST" and form.is_valid():
        chosen = form.cleaned_data["boards"]
        try:
            if withdraw:
                services.late_play_withdraw(meeting=m, boards=chosen, actor=_actor(request),
                                            reason=form.cleaned_data["reason"])
                done = f"Leave to play {_boards_text(chosen)} late withdrawn."
            else:
                services.late_play_allow(meeting=m, boards=chosen, actor=_actor(request),
                                         reason=form.cleaned_data["reason"])
                done = (f"Table {m.table} may now enter {_boards_text(chosen)} of round "
                        f"{m.round} late, from its phone (or enter it yourself).")
        except ServiceError as exc:
            form.add_error("reason" if exc.field == "reason" else None, exc.message)
        else:
            messages.success(request, done)
            return redirect(_meeting_url(event, m))
    return _page(request, event, m, form, kind="withdraw" if withdraw else "late")
