"""The director's console: the event's sections (A, B, …), which pairs play in each,
and whether pairs are compared within their section or across the whole field on the
same boards (Duplicate Law H). Each section's movement is set on the movement page
(?section=B); table links and guide cards list every section's tables."""

from __future__ import annotations

import re

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from .. import selectors, services
from ..models import Event, Meeting
from ..presenters import sentence
from ..services import ServiceError
from .director import _actor, _event, _fail, director_required

NUMBERS = re.compile(r"^\s*(\d+)\s*(?:[-–]\s*(\d+))?\s*$")


def parse_numbers(text: str) -> list[int]:
    """"11-20, 23" -> [11, …, 20, 23]; ValueError says what is wrong."""
    numbers: list[int] = []
    for part in filter(str.strip, text.replace(";", ",").split(",")):
        match = NUMBERS.match(part)
        if not match:
            raise ValueError(f"“{part.strip()}” is not a pair number or a range like 11-20")
        first, last = int(match[1]), int(match[2] or match[1])
        if last < first or last - first > 200:
            raise ValueError(f"“{part.strip()}” is not a range of pairs")
        numbers += range(first, last + 1)
    if not numbers:
        raise ValueError("type the pairs' numbers, like 11-20")
    return numbers


def _sections(event: Event) -> list[dict]:
    seated = set(Meeting.objects.filter(section__event=event)
                 .values_list("section_id", flat=True).distinct())
    return [{"section": s, "pairs": list(s.pairs.order_by("number")
                                          .values_list("number", flat=True)),
             "has_movement": s.pk in seated}
            for s in event.sections.order_by("name")]


@director_required
@require_http_methods(["GET", "POST"])
def sections(request: HttpRequest, event_id: int) -> HttpResponse:
    """The sections, their pairs and how they are compared. A change done is a redirect
    with its message; pairs refused for a section come back on the page as typed, beside
    that section's box with the reason, so the director corrects them rather than types
    them again (and reads which section they were for)."""
    event = _event(event_id)
    if request.method == "POST":
        action = request.POST.get("action", "")
        actor = _actor(request)
        try:
            if action == "add":
                section = services.section_add(event=event, actor=actor)
                messages.success(request, f"Section {section.name} added. Next: put its "
                                          "pairs in it below.")
            elif action == "remove":
                section = event.sections.filter(pk=request.POST.get("section_id")).first()
                if section is None:
                    messages.error(request, "That section is gone already.")
                else:
                    left = services.section_remove(section=section, actor=actor)
                    messages.success(request, f"Section {section.name} removed; its pairs "
                                              f"are now in section {left.name}.")
            elif action == "pairs":
                refused = _pairs_to_section(request, event)
                if refused is not None:
                    return _page(request, event, refused=refused, status=400)
            elif action == "compare":
                by_section = request.POST.get("compare") == "section"
                services.compare_by_section_set(event=event, by_section=by_section,
                                                actor=actor)
                messages.success(request, "Pairs are now compared within their own section."
                                 if by_section else
                                 "Pairs are now compared across the whole field.")
        except ServiceError as exc:
            _fail(request, exc)
        return redirect("director-sections", event_id=event.pk)
    return _page(request, event)


def _pairs_to_section(request: HttpRequest, event: Event) -> dict | None:
    """Put the pairs typed in the section posted; None when done (or the section is
    gone: a message says so), else what was refused: {"section": its id, "typed": the
    text as typed, "error": why, in words that name the section}."""
    section = event.sections.filter(pk=request.POST.get("section_id")).first()
    if section is None:
        messages.error(request, "That section is gone already.")
        return None
    typed = request.POST.get("pairs", "")
    try:
        numbers = parse_numbers(typed)
        services.pairs_section_set(section=section, numbers=numbers, actor=_actor(request))
    except (ValueError, ServiceError) as exc:
        words = exc.message if isinstance(exc, ServiceError) else str(exc)
        return {"section": section.pk, "typed": typed,
                "error": f"Section {section.name}: {words[:1].lower()}{words[1:]}."}
    messages.success(request, f"{len(numbers)} pair{'s' if len(numbers) != 1 else ''} now "
                              f"in section {section.name}. Next: its movement.")
    return None


def _page(request: HttpRequest, event: Event, *, refused: dict | None = None,
          status: int = 200) -> HttpResponse:
    rows = _sections(event)
    for row in rows:
        if refused is not None and row["section"].pk == refused["section"]:
            row["typed"], row["error"] = refused["typed"], refused["error"]
    return render(request, "tournaments/director/sections.html", {
        "event": event, "sections": rows,
        # Across the field needs the same boards everywhere (the movements may have been
        # made after the choice): say so where the choice is made.
        "boards_differ": selectors.sections_boards_differ(event),
    }, status=status)


@director_required
@require_POST
def pair_sections(request: HttpRequest, event_id: int) -> HttpResponse:
    """The pairs page's picker: each pair's section (`section-<number>`: the section's
    name). Only the pairs whose section changes move; a pair seated in another section's
    movement is refused with the service's words, and then nothing moves."""
    event = _event(event_id)
    numbers = event.pairs.values_list("number", flat=True)
    wanted = {n: request.POST[f"section-{n}"] for n in numbers
              if request.POST.get(f"section-{n}")}
    try:
        moves = services.pair_sections_set(event=event, wanted=wanted, actor=_actor(request))
    except ServiceError as exc:
        _fail(request, exc)
    else:
        if moves:
            messages.success(request, sentence("; ".join(
                f"pair{'s' if len(moves[name]) > 1 else ''} "
                f"{', '.join(map(str, moves[name]))} now in section {name}"
                for name in sorted(moves)) + "."))
        else:
            messages.info(request, "No pair changed section.")
    return redirect("director-pairs", event_id=event.pk)
