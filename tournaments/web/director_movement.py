"""The director's console: change the movement between rounds.

Choose the round and the new movement; "Show the change" previews it (the meetings
that go, the ones that come, and the check against the rounds played); "Change the
movement" makes it through ``services.movement_change`` and shows the new guide cards
from that round, to hand out again.
"""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from .. import selectors, services
from ..forms import MovementChangeForm
from ..presenters import movement as movement_name
from ..presenters import variant as variant_name
from ..services import ServiceError
from .director import _actor, _event, _section, director_required


def _rounds(meetings: list[dict]) -> list[dict]:
    """Meetings (dicts of the plan) grouped by round, for the preview's tables."""
    rounds: dict[int, list[dict]] = {}
    for m in meetings:
        rounds.setdefault(m["round"], []).append(m)
    return [{"round": n, "tables": ts} for n, ts in sorted(rounds.items())]


@director_required
@require_http_methods(["GET", "POST"])
def movement_change(request: HttpRequest, event_id: int) -> HttpResponse:
    """Preview, then make, a change of movement from a round on."""
    event = _event(event_id)
    section = _section(event, request)
    start = selectors.first_changeable_round(section)
    form = MovementChangeForm(request.POST or None, initial={
        "from_round": start, "kind": section.movement if section.movement != "none"
        else "mitchell", "tables": section.tables or None, "variant": section.variant,
        "boards_per_round": section.boards_per_round or 3})
    plan = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        options = {"section": section, "from_round": data["from_round"],
                   "kind": data["kind"], "tables": data["tables"],
                   "variant": data["variant"] or None,
                   "boards_per_round": data["boards_per_round"]}
        previewed = request.POST.get("previewed", "")
        if request.POST.get("action") == "change" and previewed != _previewed(options):
            # The form was changed after its preview: nothing is made that was not shown.
            form.add_error(None, "The form changed after the preview, so nothing was changed. "
                                 "Here is the change it makes now: check it, then press the "
                                 "button again.")
        elif request.POST.get("action") == "change":
            try:
                plan = services.movement_change(**options, actor=_actor(request),
                                                reason=data["reason"])
            except ServiceError as exc:
                if exc.field == "reason":
                    form.add_error("reason", "Say why the movement changes (for the audit "
                                             "trail).")
                else:
                    form.add_error(None, "Nothing was changed: see the problems below.")
            else:
                messages.success(request, f"The movement changed from round {plan.from_round}: "
                                          "hand out these guide cards.")
                return redirect("director-guide-cards-from", event_id=event.pk,
                                round_number=plan.from_round)
        plan = services.movement_plan(**options)
    return render(request, "tournaments/director/movement_change.html", {
        "event": event, "section": section, "form": form, "plan": plan, "start": start,
        "last_round": section.meetings.aggregate(last=Max("round"))["last"],
        "several": event.sections.count() > 1,
        "current": "" if section.movement == "none" else movement_name(section.movement) + (
            f" ({variant_name(section.variant)})" if section.variant else ""),
        "before": _rounds(plan.before) if plan else [],
        "after": _rounds(plan.after) if plan else [],
        "previewed": _previewed(options) if plan else "",
        "new_variant": variant_name(plan.movement.variant)
        if plan and plan.movement and plan.movement.variant else "",
    })


def _previewed(options: dict) -> str:
    """What a preview showed, carried by its form: the change is made only as shown."""
    return "|".join(str(options[k] or "") for k in (
        "from_round", "kind", "tables", "variant", "boards_per_round"))


@director_required
@require_GET
def guide_cards_from(request: HttpRequest, event_id: int, round_number: int) -> HttpResponse:
    """The guide cards of the rounds from a change of movement, with a notice."""
    event = _event(event_id)
    return render(request, "tournaments/director/guide_cards.html", {
        **selectors.guide_cards_from(event, round_number), "event": event,
        "changed_from": round_number})
