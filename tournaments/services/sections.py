"""Several sections in one event (A, B, …): adding and removing a section, which pairs
play in which section, and whether pairs are compared within their section or across
the whole field on the same boards (Event.compare_by_section, Duplicate Law H)."""

from collections.abc import Iterable
from string import ascii_uppercase

from django.db import transaction
from django.db.models import Q

from .. import selectors
from ..models import Event, Meeting, Pair, Result, Section
from .base import Actor, Forbidden, ServiceError, _audit, _lock_event, _require_open

MAX_SECTIONS = 26  # A to Z


def _next_name(taken: set[str]) -> str:
    for letter in ascii_uppercase:
        if letter not in taken:
            return letter
    raise ServiceError(f"an event has at most {MAX_SECTIONS} sections", field="name")


@transaction.atomic
def section_add(*, event: Event, actor: Actor, name: str = "") -> Section:
    """Add a section to the event, named with the next free letter (or `name`)."""
    if not actor.directs:
        raise Forbidden("only the director adds a section")
    locked = _lock_event(event.pk)
    _require_open(locked)
    taken = set(Section.objects.filter(event=locked).values_list("name", flat=True))
    name = (name or "").strip().upper() or _next_name(taken)
    if len(name) > 10 or not name.isalnum():
        raise ServiceError("a section is named with a letter or two, like B", field="name")
    if name in taken:
        raise ServiceError(f"there is a section {name} already", field="name")
    section = Section.objects.create(event=locked, name=name)
    _audit(event=locked, actor=actor, action="add section", after={"section": name})
    return section


@transaction.atomic
def section_remove(*, section: Section, actor: Actor) -> Section:
    """Remove a section that has no movement yet; its pairs go to the first section left,
    which is returned."""
    if not actor.directs:
        raise Forbidden("only the director removes a section")
    locked = _lock_event(section.event_id)
    _require_open(locked)
    sections = list(Section.objects.filter(event=locked).order_by("name"))
    if len(sections) < 2:
        raise ServiceError("an event keeps at least one section", field="section")
    if Meeting.objects.filter(section=section).exists():
        raise ServiceError(f"section {section.name} has a movement: it cannot be removed",
                           field="section")
    first = next(s for s in sections if s.pk != section.pk)
    moved = list(Pair.objects.filter(section=section).values_list("number", flat=True))
    Pair.objects.filter(section=section).update(section=first)
    Event.objects.filter(pk=locked.pk).update(roster_seq=locked.seq)  # the standings' sections
    _audit(event=locked, actor=actor, action="remove section",
           before={"section": section.name, "pairs": sorted(moved)},
           after={"pairs to section": first.name})
    section.delete()
    return first


@transaction.atomic
def pairs_section_set(*, section: Section, numbers: Iterable[int], actor: Actor) -> list[Pair]:
    """Put pairs `numbers` in `section`. A pair seated in another section's movement, or
    one that has played there, stays where it is (the change is refused)."""
    if not actor.directs:
        raise Forbidden("only the director moves a pair to another section")
    locked = _lock_event(section.event_id)
    numbers = sorted(set(numbers))
    pairs = list(Pair.objects.select_for_update().filter(event=locked, number__in=numbers))
    unknown = sorted(set(numbers) - {p.number for p in pairs})
    if unknown:
        raise ServiceError("there is no pair " + ", ".join(map(str, unknown))
                           + ": enter it on the pairs page first", field="pairs")
    for pair in pairs:
        if pair.section_id == section.pk:
            continue
        busy = Q(ns_pair=pair) | Q(ew_pair=pair)
        if (Meeting.objects.filter(busy).exclude(section=section).exists()
                or Result.objects.filter(busy).exists()):
            raise ServiceError(f"pair {pair.number} is in the movement of another section: "
                               "change that section's movement first", field="pairs")
    moving = [p for p in pairs if p.section_id != section.pk]
    if moving:
        Pair.objects.filter(pk__in=[p.pk for p in moving]).update(section=section)
        Event.objects.filter(pk=locked.pk).update(roster_seq=locked.seq)
        _audit(event=locked, actor=actor, action="pairs to section",
               after={"section": section.name, "pairs": [p.number for p in moving]})
    return list(Pair.objects.filter(pk__in=[p.pk for p in pairs]))


@transaction.atomic
def pair_sections_set(*, event: Event, wanted: dict[int, str], actor: Actor
                      ) -> dict[str, list[int]]:
    """Each pair (by number) to the section named: the pairs page's picker, all the moves or
    none. Returns the moves made, {section name: [pair numbers]}; pairs already in the
    section named are left alone (pairs_section_set refuses the rest as it does)."""
    if not actor.directs:
        raise Forbidden("only the director moves a pair to another section")
    sections = {s.name: s for s in Section.objects.filter(event=event)}
    current = dict(Pair.objects.filter(event=event, number__in=list(wanted))
                   .values_list("number", "section__name"))
    moves: dict[str, list[int]] = {}
    for number, name in sorted(wanted.items()):
        if name not in sections:
            raise ServiceError(f"there is no section {name[:10]}: pick one from the list",
                               field="section")
        if number not in current:
            raise ServiceError(f"there is no pair {number}", field="pairs")
        if current[number] != name:
            moves.setdefault(name, []).append(number)
    for name in sorted(moves):
        pairs_section_set(section=sections[name], numbers=moves[name], actor=actor)
    return moves


@transaction.atomic
def compare_by_section_set(*, event: Event, by_section: bool, actor: Actor,
                           reason: str = "") -> Event:
    """Duplicate Law H: compare the pairs within each section, or across the whole field
    (every section plays the same boards). Not once the event is closed."""
    if not actor.directs:
        raise Forbidden("only the director chooses how the sections are compared")
    locked = _lock_event(event.pk)
    _require_open(locked)
    by_section = bool(by_section)
    if locked.compare_by_section == by_section:
        return locked
    differ = selectors.sections_boards_differ(locked)
    if not by_section and differ:
        # Across the field a pair's total is set beside totals over other boards (and a
        # different number of them): no comparison of the same cards (Duplicate Law H).
        raise ServiceError(f"the whole field is compared on the same boards, and {differ}: "
                           "compare within each section", field="compare")
    before = {"compare_by_section": locked.compare_by_section}
    locked.compare_by_section = by_section
    locked.save(update_fields=["compare_by_section", "updated_at"])
    _audit(event=locked, actor=actor, action="compare by section", before=before,
           after={"compare_by_section": by_section}, reason=reason.strip())
    return locked

