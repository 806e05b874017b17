"""The director's console for irregular boards (Duplicate Law B): the list of reports, a
report typed by the director, and the walk-through of one report by the law of its stage.

Each view validates its form, calls one service and reports with django.contrib.messages.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from scoring.engine import dealer_for_board, parse_deal

from .. import presenters, selectors, services
from ..irregular_forms import (
    DEALT,
    STAGE_FOUND,
    STAGE_HELP,
    DirectorReportForm,
    StepForm,
    dealt_default,
    new_deal_how,
)
from ..models import Event, Irregularity, Meeting
from ..services import ServiceError
from ..services.irregular import LAW, board_meetings, came_from
from .director import _actor, _event, director_required
from .public import hand_diagram


def _meetings(event: Event) -> list[Meeting]:
    meetings = list(Meeting.objects.filter(section__event=event).select_related("section")
                    .order_by("section__name", "round", "table"))
    several = len({m.section_id for m in meetings}) > 1
    for m in meetings:
        m.several = several
    return meetings


@director_required
@require_http_methods(["GET", "POST"])
def irregular_list(request: HttpRequest, event_id: int) -> HttpResponse:
    """Every report, the open ones first, and the director's own report form."""
    event = _event(event_id)
    meetings = _meetings(event)
    initial = {}
    if request.GET.get("meeting"):
        initial["meeting"] = request.GET["meeting"]
    if request.GET.get("board"):
        initial["board"] = request.GET["board"]
    form = DirectorReportForm(request.POST or None, meetings=meetings, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        meeting = next((m for m in meetings if str(m.pk) == data["meeting"]), None)
        try:
            irr = services.irregularity_report(
                event=event, board=data["board"], stage=data["stage"], actor=_actor(request),
                meeting=meeting, short_seat=data["short_seat"],
                surplus_seat=data["surplus_seat"], misplaced_card=data["misplaced_card"],
                note=data["note"])
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, f"Board {irr.board.number} reported. Now decide it "
                                      f"by {LAW[irr.stage]}.")
            return redirect("director-irregular", event_id=event.pk, irregularity_id=irr.pk)
    everything = selectors.irregularities(event)
    open_ones = [i for i in everything if i.status in selectors.OPEN_IRREGULAR]
    settled = [i for i in everything if i.status not in selectors.OPEN_IRREGULAR]
    return render(request, "tournaments/director/irregular_list.html", {
        "event": event, "form": form, "stage_help": STAGE_HELP,
        "open": [_row(i) for i in open_ones], "settled": [_row(i) for i in settled],
        "closed": event.status == Event.Status.CLOSED,
    })


def _row(irr: Irregularity) -> dict:
    return {"irr": irr, "note": presenters.irregular_note(irr), "law": LAW[irr.stage]}


def _steps(event: Event, irr: Irregularity) -> dict:
    """What the law offers for this report now, with the facts the director needs."""
    tables = len(board_meetings(event, irr.board.number))
    origin = came_from(irr.meeting, irr.board.number) if irr.meeting else None
    has_results = irr.board.results.filter(voided=False).exists()
    open_ = irr.status in selectors.OPEN_IRREGULAR
    stage = irr.stage
    ruling = ""
    if irr.short_seat and irr.surplus_seat:
        kind, offending = services.irregular.ruling_for(irr.short_seat, irr.surplus_seat)
        ruling = (presenters.ruling(kind, offending))
    return {
        "tables": tables,
        "origin": origin,
        "has_results": has_results,
        "can_new_deal": open_ and (stage == "original" or (stage == "overplay" and tables == 2)),
        "can_cancel": open_ and stage == "overplay" and tables == 2,
        "can_send_back": irr.status == "reported" and stage == "before-overplay",
        "can_rectify": irr.status == "sent-back",
        "can_rule": open_ and stage == "overplay" and tables > 2,
        "can_withdraw": open_,
        "can_undo": irr.status in ("sent-back", "resolved"),
        "ruling": ruling,
    }


def _new_deal_made(event: Event, irr: Irregularity) -> dict:
    """After a new deal: its hands, for the director to make the board up from (none when
    it was re-dealt at the table by hand)."""
    if irr.outcome != "new-deal" or irr.status != Irregularity.Status.RESOLVED:
        return {}
    deal = irr.board.deal
    return {"new_deal": {"deal": deal, "hands": hand_diagram(parse_deal(deal)) if deal else None,
                         "dealer": dealer_for_board(irr.board.number)}}


@director_required
@require_http_methods(["GET"])
def irregular_detail(request: HttpRequest, event_id: int, irregularity_id: int) -> HttpResponse:
    """One report and the law's steps for it."""
    event = _event(event_id)
    irr = get_object_or_404(Irregularity.objects.select_related(
        "board", "meeting__section", "meeting__ns_pair", "meeting__ew_pair"),
        pk=irregularity_id, event=event)
    return render(request, "tournaments/director/irregular.html", {
        "event": event, "irr": irr, "law": LAW[irr.stage], "help": STAGE_HELP[irr.stage],
        "found": STAGE_FOUND[irr.stage],
        "note": presenters.irregular_note(irr), "form": StepForm(),
        "seats": presenters.SEATS, "closed": event.status == Event.Status.CLOSED,
        "dealt_choices": DEALT, "dealt_default": dealt_default(irr.board),
        **_steps(event, irr), **_new_deal_made(event, irr),
    })


STEP_DONE = {
    "new-deal": "Board {n} re-dealt: the table(s) play the new deal.",
    "new-deal-hand": "Board {n} is re-dealt at the table by hand: no hands are recorded for "
                     "it, and the table gives the honours.",
    "new-deal-here": "Board {n} is dealt here: make the board up from the hands below before "
                     "it goes to the table.",
    "send-back": "Board {n} sent back to table {t}. Mark it rectified when it is put right.",
    "rectified": "Board {n} rectified: the table that found it can play it now.",
    "rule": "Board {n}: the ruling is given.",
    "cancel": "Board {n} cancelled at both tables.",
    "withdraw": "Report on board {n} withdrawn.",
    "undo": "Decision on board {n} undone: the report stands again.",
}


@director_required
@require_POST
def irregular_step(request: HttpRequest, event_id: int, irregularity_id: int) -> HttpResponse:
    event = _event(event_id)
    irr = get_object_or_404(Irregularity, pk=irregularity_id, event=event)
    form = StepForm(request.POST)
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        messages.error(request, errors[0])
        return redirect("director-irregular", event_id=event.pk, irregularity_id=irr.pk)
    data = form.cleaned_data
    actor, reason, action = _actor(request), data["reason"], data["action"]
    done = action
    try:
        if action == "new-deal":
            how, deal = new_deal_how(data["dealt"], data["deal"], irr.board)
            irr = services.irregularity_new_deal(
                irregularity=irr, actor=actor, deal=deal, by_hand=how == "hand", reason=reason)
            done = {"hand": "new-deal-hand", "here": "new-deal-here"}.get(how, action)
        elif action == "send-back":
            irr = services.irregularity_send_back(irregularity=irr, actor=actor, reason=reason)
        elif action == "rectified":
            irr = services.irregularity_rectified(irregularity=irr, actor=actor, reason=reason)
        elif action == "rule":
            irr = services.irregularity_rule(irregularity=irr, actor=actor, reason=reason,
                                             short_seat=data["short_seat"],
                                             surplus_seat=data["surplus_seat"])
        elif action == "cancel":
            irr = services.irregularity_cancel(irregularity=irr, actor=actor, reason=reason)
        elif action == "withdraw":
            irr = services.irregularity_withdraw(irregularity=irr, actor=actor, reason=reason)
        else:
            irr = services.irregularity_undo(irregularity=irr, actor=actor, reason=reason)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        irr.refresh_from_db()
        messages.success(request, STEP_DONE[done].format(n=irr.board.number,
                                                         t=irr.sent_to_table))
    return redirect("director-irregular", event_id=event.pk, irregularity_id=irr.pk)
