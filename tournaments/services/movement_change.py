"""Changing a section's movement between rounds, keeping every result already entered.

The director adds or removes a table, or switches a Mitchell to a skip or a relay, from
a round on. The rounds before it keep their meetings and results; the meetings from it
are replaced by the new movement's rounds from it, seated with the pairs playing now
(``boards.movements.fit``) and checked against what was played (``check_from``).

Terms: the *change round* (``from_round``) is the first round of the new movement; the
*history* is the section's meetings before it; a *plan* is the change worked out and
checked, not stored (the console's preview and the API's dry run show it).

Two functions are meant for other services that regenerate later rounds (a pair
joining or leaving): ``movement_plan`` (read, check, store nothing) and
``meetings_replace_from`` (write a plan's rounds, under the event lock the caller took).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q

from boards.movements import (
    Movement,
    Round,
    TableRound,
    board_range,
    check_from,
    fit,
    repeat_meetings,
)

from .. import seam
from ..models import AuditEntry, Board, Event, Meeting, Pair, Result, Section, TableCode
from ..tablecodes import new_code
from .base import (
    Actor,
    Forbidden,
    ServiceError,
    _audit,
    _lock_event,
    _require_open,
    _require_reason,
    _save_change,
)
from .setup import movement_generate


@dataclass
class MovementPlan:
    """A change of movement worked out: what goes, what comes, and what is wrong.

    ``problems`` refuse the change (plain words for the director); ``notes`` are worth
    reading but refuse nothing (pairs meeting again, boards to make, tables closing).
    ``before``/``after``: the meetings from the change round, as the audit keeps them.
    """

    section: Section
    from_round: int
    movement: Movement | None  # the new rounds only, with the night's pairs and boards
    pairs: list[int] = field(default_factory=list)
    before: list[dict] = field(default_factory=list)
    after: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    new_boards: list[int] = field(default_factory=list)
    closing: list[int] = field(default_factory=list)  # tables that close after the change
    opening: list[int] = field(default_factory=list)  # tables new to the section
    # The "not played" rulings a pair leaving wrote for its opponents in the rounds the
    # change replaces: withdrawn with them, as those pairs play the new rounds.
    withdrawn: list[int] = field(default_factory=list)

    @property
    def sound(self) -> bool:
        return self.movement is not None and not self.problems


def _meeting_dict(round_number: int, table: int, ns: int, ew: int, boards) -> dict:
    return {"round": round_number, "table": table, "ns": ns, "ew": ew, "boards": list(boards)}


def section_history(section: Section, from_round: int,
                    removed: dict[int, list[TableRound]] | None = None) -> list[Round]:
    """The section's rounds before `from_round`, as played (the pairs' own numbers), with
    the meetings a pair leaving took out, whose boards stand "not played" for both pairs
    (``removed_meetings``, or `removed` as it gave them): no pair may play those boards
    again."""
    rounds: dict[int, list[TableRound]] = {}
    for m in (Meeting.objects.filter(section=section, round__lt=from_round)
              .select_related("ns_pair", "ew_pair").order_by("round", "table")):
        rounds.setdefault(m.round, []).append(
            TableRound(m.table, m.ns_pair.number, m.ew_pair.number, tuple(m.boards)))
    if removed is None:
        removed, _withdrawn = removed_meetings(section, from_round)
    for number, tables in removed.items():
        rounds[number] = sorted([*rounds.get(number, ()), *tables], key=lambda t: t.table)
    return [Round(number, tuple(tables)) for number, tables in sorted(rounds.items())]


def removed_meetings(section: Section, from_round: int
                     ) -> tuple[dict[int, list[TableRound]], list[int]]:
    """The section's meetings that pairs leaving took out (each "pair leaves" audit entry
    keeps them), as far as their "not played" rulings stand: those before `from_round` by
    round, and the ids of the rulings from `from_round` on, which a change from that round
    withdraws (the pairs they sat out play the new rounds instead)."""
    numbers = set(Pair.objects.filter(section=section).values_list("number", flat=True))
    numbers |= set(Meeting.objects.filter(section=section).values_list(
        "ns_pair__number", flat=True))
    rulings = {(ns, ew, board): pk for pk, ns, ew, board in Result.objects.filter(
        event_id=section.event_id, meeting__isnull=True, voided=False,
        ruling="not-played").values_list(
        "pk", "ns_pair__number", "ew_pair__number", "board__number")}
    before: dict[int, list[TableRound]] = {}
    withdrawn: list[int] = []
    if not rulings:
        return before, withdrawn
    entries = AuditEntry.objects.filter(event_id=section.event_id, action="pair leaves",
                                        undone_by__isnull=True).values_list("before", flat=True)
    for entry in entries:
        for m in (entry or {}).get("meetings", ()):
            if m["ns"] not in numbers and m["ew"] not in numbers:
                continue
            standing = [b for b in m["boards"] if (m["ns"], m["ew"], b) in rulings]
            if not standing:
                continue
            if m["round"] < from_round:
                before.setdefault(m["round"], []).append(
                    TableRound(m["table"], m["ns"], m["ew"], tuple(standing)))
            else:
                withdrawn += [rulings[(m["ns"], m["ew"], b)] for b in standing]
    return before, sorted(set(withdrawn))


def pairs_playing(section: Section, from_round: int) -> list[int]:
    """The section's pairs still playing at `from_round` (not gone after an earlier
    round), by number."""
    return sorted(Pair.objects.filter(section=section)
                  .filter(Q(left_after_round__isnull=True)
                          | Q(left_after_round__gte=from_round))
                  .values_list("number", flat=True))


def started_refusal(section: Section, from_round: int) -> str:
    """Why the movement cannot change from `from_round`: a round from it on has a
    result, or is agreed (Duplicate Law E); "" when it can."""
    later = Meeting.objects.filter(section=section, round__gte=from_round)
    by_meeting = Result.objects.filter(meeting__in=later, voided=False).values_list(
        "meeting__round", flat=True)
    played = set(by_meeting)
    for m in later.select_related("ns_pair", "ew_pair"):
        # A result stored without its meeting (an import) still counts for its pairs.
        if Result.objects.filter(event_id=section.event_id, meeting__isnull=True,
                                 voided=False, ns_pair=m.ns_pair, ew_pair=m.ew_pair,
                                 board__number__in=m.boards).exists():
            played.add(m.round)
    agreed = set(later.filter(agreed_at__isnull=False).values_list("round", flat=True))
    if not played and not agreed:
        return ""
    last = max(played | agreed)
    first = min(played | agreed)
    what = "has scores already" if first in played else "is agreed (Duplicate Law E)"
    return f"round {first} {what}: change the movement from round {last + 1}"


def movement_plan(*, section: Section, from_round: int, kind: str, tables: int | None,
                  variant: str | None, boards_per_round: int,
                  pairs: list[int] | None = None) -> MovementPlan:
    """Work out (and store nothing of) the change of `section`'s movement to `kind` from
    `from_round` on: generate it for the pairs playing then (`pairs`, or else the
    section's pairs still playing), seat it with their numbers and the night's board
    sets so that nobody plays a board twice (``fit``), and check it against the rounds
    played (``check_from``). Everything wrong is in ``problems``; raises nothing for a
    movement the pairs cannot fill, which is a problem too."""
    plan = MovementPlan(section=section, from_round=from_round, movement=None)
    if from_round < 1:
        plan.problems.append("rounds are numbered from 1")
        return plan
    refusal = started_refusal(section, from_round)
    if refusal:
        plan.problems.append(refusal)
    previous = list(Meeting.objects.filter(section=section, round__gte=from_round)
                    .select_related("ns_pair", "ew_pair").order_by("round", "table"))
    plan.before = [_meeting_dict(m.round, m.table, m.ns_pair.number, m.ew_pair.number,
                                 m.boards) for m in previous]
    plan.pairs = pairs if pairs is not None else pairs_playing(section, from_round)
    try:
        generated, _ = movement_generate(event=section.event, kind=kind, tables=tables,
                                         variant=variant, boards_per_round=boards_per_round,
                                         pairs=len(plan.pairs))
        removed, plan.withdrawn = removed_meetings(section, from_round)
        history = section_history(section, from_round, removed)
        made = Board.objects.filter(event_id=section.event_id).order_by("-number").values_list(
            "number", flat=True).first() or 0
        plan.movement = fit(generated, from_round, history, plan.pairs, boards_made=made)
    except (ServiceError, ValueError) as exc:
        plan.problems.append(getattr(exc, "message", None) or str(exc))
        return plan
    movement = plan.movement
    plan.after = [_meeting_dict(r.number, t.table, t.ns, t.ew, t.boards)
                  for r in movement.rounds for t in r.tables]
    plan.problems += check_from(movement, from_round, history)
    plan.notes += repeat_meetings(movement, from_round, history)
    ends, ended = max((r.number for r in movement.rounds), default=0), max(
        (m["round"] for m in plan.before), default=0)
    if ended and ends != ended:
        plan.notes.append(f"the night now ends after round {ends} (it was to end after "
                          f"round {ended})")
    kept = {b for m in plan.after for b in m["boards"]}
    retired = sorted({b for m in plan.before for b in m["boards"]} - kept)
    if retired:
        plan.notes.append(f"board{'s' if len(retired) > 1 else ''} {board_range(retired)} "
                          f"{'are' if len(retired) > 1 else 'is'} not played from round "
                          f"{from_round} on: take {'them' if len(retired) > 1 else 'it'} "
                          "out of play")
    if plan.withdrawn:
        count = len(plan.withdrawn)
        plan.notes.append(
            f"{count} “not played” ruling{'s' if count != 1 else ''} from round {from_round} "
            "on, given when a pair left, " + ("are" if count != 1 else "is")
            + " withdrawn: the pairs that were to sit out play the new rounds")
    if kind == "mitchell" and section.movement == "mitchell":
        plan.notes += stationary_moves(history, movement, plan.pairs)
    plan.new_boards = list(range(made + 1, movement.boards + 1))
    if plan.new_boards:
        plan.notes.append(f"new boards to make: {board_range(plan.new_boards)} (deal them, or "
                          "upload their hands, before they are played)")
    in_play = movement.playing_tables
    known = set(TableCode.objects.filter(section=section).values_list("table", flat=True))
    seated = set(Meeting.objects.filter(section=section).values_list("table", flat=True))
    plan.closing = sorted(seated - in_play)
    plan.opening = sorted(in_play - known)
    plan.notes += [f"table {t} closes after round {from_round - 1}" for t in plan.closing]
    plan.notes += [f"table {t} is new: it gets a table code" for t in plan.opening]
    return plan


def stationary_moves(history: list[Round], movement: Movement, playing: list[int]
                     ) -> list[str]:
    """Each N–S pair of a Mitchell, stationary so far and `playing` on, that the new
    movement moves: the director tells them (``fit`` moves one only when no seating
    keeps them)."""
    if not history or not movement.rounds:
        return []
    first = movement.rounds[0]
    notes = []
    for t in history[-1].tables:
        if t.ns not in playing:
            continue
        now = next(((n.table, side) for n in first.tables
                    for side, pair in (("N–S", n.ns), ("E–W", n.ew)) if pair == t.ns), None)
        if now == (t.table, "N–S"):
            continue
        if now is None:
            where = f"has no game in round {first.number} (it sits out) and leaves table {t.table}"
        elif now[1] == "N–S":
            where = f"moves from table {t.table} to table {now[0]}"
        else:
            where = f"moves from table {t.table} to E–W at table {now[0]}"
        notes.append(f"pair {t.ns}, stationary N–S so far, {where}: tell them")
    return notes


def meetings_replace_from(*, event: Event, plan: MovementPlan, actor: Actor) -> list[Meeting]:
    """Store a sound plan: the section's meetings from the change round become the plan's
    rounds, the boards they need are made (none is removed), new tables get a code and
    tables left out are marked closed (their code keeps working). The caller holds the
    event lock (``_lock_event``) and has checked the plan; nothing is audited here."""
    section, movement = plan.section, plan.movement
    if movement is None or plan.problems:
        raise ServiceError("the change is not sound: " + "; ".join(plan.problems),
                           field="movement")
    pairs = {p.number: p for p in Pair.objects.filter(event=event, number__in=plan.pairs)}
    # A pair added on the Pairs page after play began, seated by this change: it joins
    # from the change round (its card and the night's changes say so), as a late pair
    # seated in the sit-out's place does.
    seated = {pk for m in Meeting.objects.filter(section=section).values_list(
        "ns_pair_id", "ew_pair_id") for pk in m}
    if plan.from_round > 1:
        Pair.objects.filter(pk__in=[p.pk for p in pairs.values() if p.pk not in seated
                                    and p.joined_round is None]
                            ).update(joined_round=plan.from_round)
    Meeting.objects.filter(section=section, round__gte=plan.from_round).delete()
    for ruling in Result.objects.select_for_update(of=("self",)).filter(
            pk__in=plan.withdrawn, voided=False).select_related("board", "ns_pair", "ew_pair"):
        before = seam.snapshot(ruling)
        ruling.voided = True
        _save_change(ruling, event=event, actor=actor, action="void", before=before,
                     reason=f"the movement changed from round {plan.from_round}: the pairs "
                            "that were to sit out play the new rounds")
    meetings = Meeting.objects.bulk_create([
        Meeting(section=section, round=r.number, table=t.table, ns_pair=pairs[t.ns],
                ew_pair=pairs[t.ew], boards=list(t.boards))
        for r in movement.rounds for t in r.tables])
    have = set(Board.objects.filter(event=event).values_list("number", flat=True))
    Board.objects.bulk_create([Board(event=event, number=n)
                               for n in range(1, movement.boards + 1) if n not in have])
    in_play = movement.playing_tables
    codes = {c.table: c for c in TableCode.objects.select_for_update().filter(section=section)}
    for table in sorted(in_play):
        if table not in codes:
            TableCode.objects.create(section=section, table=table, code=new_code())
        elif codes[table].closed_after_round is not None:
            TableCode.objects.filter(pk=codes[table].pk).update(closed_after_round=None)
    TableCode.objects.filter(section=section, table__in=plan.closing).update(
        closed_after_round=plan.from_round - 1)
    section.movement = movement.kind
    section.variant = movement.variant or ""
    section.tables = movement.tables
    section.boards_per_round = movement.boards_per_round
    section.save(update_fields=["movement", "variant", "tables", "boards_per_round"])
    Pair.objects.filter(event=event, number__in=plan.pairs).update(section=section)
    Event.objects.filter(pk=event.pk).update(roster_seq=event.seq)
    return meetings


@transaction.atomic
def movement_change(*, section: Section, from_round: int, kind: str, tables: int | None,
                    variant: str | None = None, boards_per_round: int, actor: Actor,
                    reason: str) -> MovementPlan:
    """Change `section`'s movement from `from_round` on, keeping every round before it
    and its results. Refused (ServiceError, every problem in plain words, nothing
    changed) when a round from `from_round` on has a result or is agreed, when the pairs
    playing cannot fill the movement, or when the new rounds would have a pair play a
    board again. Audited with the reason: before, the old meetings from that round;
    after, the new. Returns the plan stored."""
    if not actor.directs:
        raise Forbidden("only the director changes the movement")
    reason = _require_reason(reason) if actor.is_director else (reason or "")
    event = _lock_event(section.event_id)
    _require_open(event)
    section = Section.objects.get(pk=section.pk)
    plan = movement_plan(section=section, from_round=from_round, kind=kind, tables=tables,
                         variant=variant, boards_per_round=boards_per_round)
    if plan.problems:
        raise ServiceError("the movement cannot change: " + "; ".join(plan.problems),
                           field="movement")
    meetings_replace_from(event=event, plan=plan, actor=actor)
    movement = plan.movement
    assert movement is not None
    _audit(event=event, actor=actor, action="movement change", reason=reason,
           before={"section": section.name, "from_round": from_round,
                   "meetings": plan.before},
           after={"section": section.name, "from_round": from_round, "kind": movement.kind,
                  "variant": movement.variant, "tables": movement.tables,
                  "boards_per_round": movement.boards_per_round, "meetings": plan.after,
                  "new_boards": plan.new_boards, "closed_tables": plan.closing,
                  "new_tables": plan.opening, "notes": plan.notes})
    return plan
