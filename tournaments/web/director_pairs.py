"""The director's console for pairs who come late, leave early, or change a player.

Each change is two steps: the director fills the form and sees what will happen (the
services' plan, which stores nothing); then confirms, and one service makes the change
under the event lock, audited with the reason given.
"""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from boards.movements import board_range

from .. import presenters, services
from ..forms import LatePairForm, PairLeaveForm, SubstituteForm
from ..models import Event, Pair, Result, Section
from ..services import ServiceError
from ..services.members import Namesake, members_named, visitors_named_as_members
from ..standings import pair_substitutes
from .director import _actor, _event, director_required, namesakes_words

TEMPLATE = "tournaments/director/pair_change.html"


def _meeting_line(key: tuple) -> str:
    rnd, table, ns, ew, boards = key
    many = "s" if len(boards) > 1 else ""
    return (f"Round {rnd}, table {table}: N–S pair {ns} against E–W pair {ew}, "
            f"board{many} {board_range(boards)}")


def next_round(event: Event, section: Section | None = None) -> int:
    """The first round of `section` (None: the event's first) after the last with a
    result (1 if none): sections of one night may be at different rounds."""
    section = section or event.sections.order_by("name").first()
    begun = (Result.objects.filter(meeting__section=section)
             .values_list("meeting__round", flat=True).order_by("-meeting__round").first())
    return (begun or 0) + 1


def _pair_section(event: Event, number: str) -> Section | None:
    """The section of the pair a link asks for (?pair=N), None for none."""
    if not (number.isascii() and number.isdigit() and len(number) <= 4):
        return None  # not a pair's number (a pair number is at most 4 digits)
    pair = Pair.objects.filter(event=event, number=number).select_related("section").first()
    return pair.section if pair is not None else None


def _late_initial(event: Event) -> dict:
    """The late pair form's defaults: of several sections, the first with a sit-out to
    fill at its next round, that round."""
    sections = list(event.sections.order_by("name"))
    for section in sections:
        from_round = next_round(event, section)
        try:
            services.late_pair_plan(event=event, from_round=from_round, section=section)
        except ServiceError:
            continue
        return {"section": section.name, "from_round": from_round}
    return {"from_round": next_round(event, sections[0] if sections else None)}


def _late_section(event: Event, data: dict) -> Section | None:
    """The section a late pair joins: the form's choice (asked only when the event has
    more than one), else None, the services' own default (the event's one section)."""
    return services.section_named(event, data.get("section", ""))


def _late_lines(event: Event, data: dict) -> list[str]:
    plan = services.late_pair_plan(event=event, from_round=data["from_round"],
                                   section=_late_section(event, data))
    names = f"{data['player_1'].strip()} & {data['player_2'].strip()}"
    lines = [f"{names} become pair {plan.number} and take the sit-out's place from round "
             f"{plan.from_round}."]
    lines += [_meeting_line(k) for k in plan.meetings]
    if plan.missed_rounds:
        rounds = ", ".join(map(str, plan.missed_rounds))
        lines.append(f"They miss round{'s' if len(plan.missed_rounds) > 1 else ''} {rounds}: "
                     "those boards are simply not played by them (no comparison).")
    lines += [f"Table {t} is new: print its table card (Table links & QR)."
              for t in plan.new_tables]
    lines.append("The guide cards and table cards show the new meetings.")
    return lines


def _leave_lines(event: Event, data: dict) -> list[str]:
    plan = services.pair_leave_plan(event=event, number=data["pair"],
                                    after_round=data["after_round"])
    pair = Pair.objects.select_related("player_1", "player_2").get(event=event,
                                                                   number=plan.number)
    lines = [f"Pair {plan.number} ({presenters.pair_names(pair.names)}) leaves after round "
             f"{plan.after_round}. These meetings are taken out:"]
    lines += [_meeting_line(k) for k in plan.meetings]
    lines += [f"Round {rnd}: pair {other} sits out." for rnd, other in plan.opponents]
    lines.append(f"Their {plan.boards} board{'s' if plan.boards != 1 else ''} are marked "
                 "not played for both pairs: no comparison, no credit.")
    return lines


def _substitute_lines(event: Event, data: dict) -> list[str]:
    pair = Pair.objects.filter(event=event, number=data["pair"]).select_related(
        "player_1", "player_2").first()
    if pair is None:
        raise ServiceError(f"pair {data['pair']} is not in this event", field="pair")
    replaced = pair.names[data["seat"] - 1]
    subs = [*pair_substitutes(event).get(pair.number, []),
            {"name": data["player"].strip(), "for": replaced, "from_round": data["from_round"]}]
    return [f"{data['player'].strip()} plays for {replaced} in pair {pair.number} from round "
            f"{data['from_round']}.",
            "The score card and the standings will show: "
            + presenters.pair_names(pair.names, subs) + "."]


def _change_page(request: HttpRequest, event: Event, *, form_class, title: str, intro: str,
                 describe, apply, done: str, initial: dict | None = None) -> HttpResponse:
    """The two steps of every pair change: check (show what will happen), then confirm."""
    form = form_class(request.POST or None, initial=initial or {})
    lines: list[str] = []
    confirming = False
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if data["confirm"]:
                done_text = apply(event, data)
                messages.success(request, done_text or done)
                return redirect("director-pairs", event_id=event.pk)
            lines = describe(event, data)
            confirming = True
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
    # A pair asked for by number is offered with its players' names (the box's list).
    pairs = ([(p.number, presenters.pair_names(p.names)) for p in Pair.objects.filter(event=event)
              .select_related("player_1", "player_2").order_by("number")]
             if "pair" in form.fields and not confirming else [])
    return render(request, TEMPLATE, {
        "event": event, "form": form, "title": title, "intro": intro, "lines": lines,
        "confirming": confirming, "pairs": pairs,
    }, status=400 if request.method == "POST" and form.errors else 200)


@director_required
@require_http_methods(["GET", "POST"])
def late_pair(request: HttpRequest, event_id: int) -> HttpResponse:
    def apply(event, data):
        pair = services.pair_join_late(
            event=event, players=[data["player_1"], data["player_2"]],
            from_round=data["from_round"], actor=_actor(request), reason=data["reason"],
            section=_late_section(event, data))
        namesakes = [n for n in visitors_named_as_members(event=event)
                     if n.pair == pair.number]
        if namesakes:  # as the pairs page warns (a name alone is a visitor)
            messages.warning(request, namesakes_words(namesakes))
        return (f"Pair {pair.number} ({presenters.pair_names(pair.names)}) plays from round "
                f"{pair.joined_round}. Print the new guide cards if you use them.")
    event = _event(event_id)
    sections = tuple(event.sections.order_by("name").values_list("name", flat=True))
    return _change_page(
        request, event, form_class=partial(LatePairForm, sections=sections),
        title="A late pair arrives",
        intro="A late pair takes the place of the pair that sits out, from a round that has "
              "not begun. The boards it missed are not played by it.",
        describe=_late_lines, apply=apply, done="", initial=_late_initial(event))


@director_required
@require_http_methods(["GET", "POST"])
def pair_leaves(request: HttpRequest, event_id: int) -> HttpResponse:
    def apply(event, data):
        pair = services.pair_leave(event=event, number=data["pair"],
                                   after_round=data["after_round"], actor=_actor(request),
                                   reason=data["reason"])
        return (f"Pair {pair.number} left after round {pair.left_after_round}; its opponents "
                "sit out those rounds.")
    event, pair = _event(event_id), request.GET.get("pair", "")
    return _change_page(
        request, event, form_class=PairLeaveForm, title="A pair leaves",
        intro="A pair that leaves plays no more rounds: its opponents sit out instead, and "
              "the boards they would have played are not played (no comparison).",
        describe=_leave_lines, apply=apply, done="",
        initial={"after_round": max(next_round(event, _pair_section(event, pair)) - 1, 0),
                 "pair": pair})


@director_required
@require_http_methods(["GET", "POST"])
def substitute(request: HttpRequest, event_id: int) -> HttpResponse:
    def apply(event, data):
        sub = services.substitute_set(event=event, number=data["pair"], seat=data["seat"],
                                      player=data["player"], from_round=data["from_round"],
                                      actor=_actor(request), reason=data["reason"])
        # As the pairs page warns: a visitor (as saved) named as a member is.
        numbers = () if sub.player.number else members_named(sub.player.name)
        if numbers:
            messages.warning(request, namesakes_words(
                [Namesake(pair=data["pair"], name=sub.player.name, numbers=numbers)]))
        return (f"{data['player'].strip()} plays in pair {data['pair']} from round "
                f"{data['from_round']}.")
    event, pair = _event(event_id), request.GET.get("pair", "")
    return _change_page(
        request, event, form_class=SubstituteForm, title="A substitute",
        intro="A substitute takes one player's seat from a round to the end. Both names "
              "show on the score card and in the standings.",
        describe=_substitute_lines, apply=apply, done="",
        initial={"from_round": next_round(event, _pair_section(event, pair)), "pair": pair})

