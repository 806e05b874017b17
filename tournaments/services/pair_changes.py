"""Pairs who come late, leave early, or change a player during the night.

Terms: the *phantom* is pair 2n of a movement for 2n − 1 pairs (n tables): its meetings
are simply absent, and whoever is due to meet it *sits out* that round. A *late pair*
takes the phantom's seat from a round not yet begun (and its number, 2n; in an event of
several sections, whose pairs are numbered across the event, the event's next number); a
pair that *leaves*
after a round loses its later meetings, and its would-be opponents sit out instead; a
*substitute* takes one seat of a pair from a given round to the end.

The laws are silent on all three (docs/decisions.md): a board a pair did not play has
no comparison and credits nobody (the engine's "not-played"); the boards a late pair
missed are simply not on its card.

Each change shows what it will do first (`late_pair_plan`, `pair_leave_plan`: they
store nothing), then the service does exactly that under the event lock.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max, Q

from boards.movements import Movement, TableRound, generate

from .. import selectors
from ..models import Event, Meeting, Pair, Result, Section, Substitute
from ..tablecodes import new_code
from .base import Actor, Forbidden, ServiceError, _audit, _lock_event, _require_open
from .members import player_for
from .movement_change import pairs_playing
from .results import ruling_award
from .setup import _one_pair_each, _pair_store

SIT_OUT_KINDS = ("mitchell", "howell", "three-quarter-howell")
LAW = "the laws are silent: club practice (docs/decisions.md)"


# --- the movement, made again ----------------------------------------------------------------


def movement_regenerate(section: Section, *, pairs: int | None = None) -> Movement:
    """The section's movement made again from its stored shape: the same kind, variant,
    tables and boards a round (Section's fields, which movement_meetings_set keeps),
    for `pairs` pairs (None: the full 2 × tables, no phantom). Stores nothing.

    The schedule does not depend on the number of pairs: a movement for 2n − 1 pairs is
    the one for 2n pairs with pair 2n's meetings taken out. So the meetings regenerated
    for the full count are the stored ones plus the phantom's. Raises ServiceError when
    the section has no movement to make again (none, or a team match).
    """
    if section.movement not in (*SIT_OUT_KINDS, "team-match") or not section.tables:
        raise ServiceError(f"section {section.name} has no movement", field="movement")
    if section.movement == "team-match":
        return generate("team-match", boards_per_round=section.boards_per_round,
                        pairs_per_team=section.tables, variant=section.variant or None)
    full = 2 * section.tables
    return generate(section.movement, tables=section.tables,
                    boards_per_round=section.boards_per_round,
                    variant=section.variant or None,
                    pairs=full if pairs is None else pairs, as_stored=True)


def meeting_key(m: Meeting | TableRound, rnd: int | None = None) -> tuple:
    """(round, table, N–S pair, E–W pair, boards) of a stored or generated meeting."""
    if isinstance(m, Meeting):
        return (m.round, m.table, m.ns_pair.number, m.ew_pair.number, tuple(m.boards))
    return (rnd, m.table, m.ns, m.ew, tuple(m.boards))


def _unseated(key: tuple) -> tuple:
    rnd, table, ns, ew, boards = key
    return (rnd, table, frozenset((ns, ew)), boards)


def _meeting_dict(key: tuple) -> dict:
    rnd, table, ns, ew, boards = key
    return {"round": rnd, "table": table, "ns": ns, "ew": ew, "boards": list(boards)}


# --- a late pair ------------------------------------------------------------------------------


@dataclass(frozen=True)
class LatePairPlan:
    """What adding a late pair from `from_round` will do: it becomes pair `number` and
    plays `meetings` (round, table, ns, ew, boards); it misses rounds before."""

    section: Section
    number: int
    from_round: int
    meetings: tuple[tuple, ...]
    missed_rounds: tuple[int, ...] = field(default=())
    new_tables: tuple[int, ...] = field(default=())

    def as_dict(self) -> dict:
        return {"section": self.section.name, "pair": self.number,
                "from_round": self.from_round,
                "meetings": [_meeting_dict(k) for k in self.meetings],
                "missed_rounds": list(self.missed_rounds),
                "new_tables": list(self.new_tables)}


def _section(event: Event, section: Section | None) -> Section:
    if section is not None:
        return section
    found = event.sections.order_by("name").first()
    if found is None:
        raise ServiceError("this event has no section", field="section")
    return found


def section_named(event: Event, name: str) -> Section | None:
    """The event's section a director names for a late pair (as written, in either
    case); None for no name, the services' own default (the event's one section)."""
    name = (name or "").strip()
    if not name:
        return None
    found = event.sections.filter(name=name.upper()).first()
    if found is None:
        raise ServiceError(f"there is no section {name} in this event", field="section")
    return found


def _numbered(t: TableRound, rnd: int, number_of: dict[int, int]) -> tuple:
    """meeting_key of a regenerated meeting, its places given as the pairs' own numbers
    (0 for a place no pair holds)."""
    return (rnd, t.table, number_of.get(t.ns, 0), number_of.get(t.ew, 0), tuple(t.boards))


def _round_begun(section: Section, rnd: int) -> bool:
    """A round has begun once any table of it has a result (or has agreed it)."""
    return (Result.objects.filter(meeting__section=section, meeting__round=rnd).exists()
            or Meeting.objects.filter(section=section, round=rnd,
                                      agreed_at__isnull=False).exists())


def late_pair_plan(*, event: Event, from_round: int, section: Section | None = None
                   ) -> LatePairPlan:
    """What a late pair joining from `from_round` would do (stores nothing), or a
    ServiceError saying plainly why it cannot: no sit-out in the movement, or the round
    has already begun ("from the next round")."""
    section = _section(event, section)
    if section.movement not in SIT_OUT_KINDS or not section.tables:
        raise ServiceError("a late pair takes the place of the pair that sits out, and this "
                           "movement has no sit-out: make a new movement for the new number "
                           "of pairs instead", field="movement")
    stored = list(Meeting.objects.filter(section=section)
                  .select_related("ns_pair", "ew_pair").order_by("round", "table"))
    phantom = 2 * section.tables  # the movement's place of the pair that sits out
    seated_pairs = sorted({p for m in stored for p in (m.ns_pair.number, m.ew_pair.number)})
    several = event.sections.count() > 1
    if several:
        # The movement's pairs 1, 2, … are the section's own pairs in number order
        # (movement_meetings_set's rule); the late pair takes the event's next number.
        number_of = dict(enumerate(seated_pairs, start=1))
        full_up = len(seated_pairs) >= phantom
        late = (Pair.objects.filter(event=event).aggregate(n=Max("number"))["n"] or 0) + 1
    else:
        number_of = {n: n for n in range(1, phantom)}
        full_up, late = phantom in seated_pairs, phantom
    number_of[phantom] = late
    if full_up:
        whose = f"section {section.name}'s movement" if several else "the movement"
        # The pairs playing on, as the movement change counts them, and the late pair: a
        # Mitchell's tables for them.
        playing = len(pairs_playing(section, from_round))
        need = -(-(playing + 1) // 2)
        left = selectors.pairs_left(section, several=several)
        made = (f"its {section.tables} tables were made for all {phantom} pairs, so it has "
                "no sit-out for a late pair to fill")
        if left:
            # The seats a pair that left had are not the movement's sit-out: a new
            # movement from the round seats the pairs playing on, the late pair with them.
            gone = ", ".join(f"pair {n} left after round {r}" for n, r in left)
            whose_place = ("its opponents sit out, but the movement keeps its place"
                           if len(left) == 1 else
                           "their opponents sit out, but the movement keeps their places")
            made += f" ({gone}: {whose_place})"
        raise ServiceError(
            f"{whose} has no place for a late pair: {made}. To seat one more pair, add it "
            "on the Pairs page, then change the movement from the next round (Movement, "
            f"“change the movement from a round on”): it seats the {playing + 1} pairs then "
            f"playing at {need} tables, the new pair with them", field="movement")
    full = movement_regenerate(section)
    last = len(full.rounds)
    if not 1 <= from_round <= last:
        raise ServiceError(f"the movement has rounds 1 to {last}: a late pair joins in one "
                           "of them", field="from_round")
    if _round_begun(section, from_round):
        raise ServiceError(f"round {from_round} has already begun: a late pair joins from the "
                           f"next round not yet started", field="from_round")
    left = dict(Pair.objects.filter(event=event, left_after_round__isnull=False)
                .values_list("number", "left_after_round"))
    taken = {(m.round, m.table) for m in stored}
    seated = {(m.round, p) for m in stored for p in (m.ns_pair.number, m.ew_pair.number)}
    # A Howell balances each pair's directions over the meetings it has, so which pair
    # sits N–S may differ once the phantom's meetings are in: compare who meets where.
    regenerated = {_unseated(_numbered(t, rnd.number, number_of)) for rnd in full.rounds
                   for t in rnd.tables}
    adds = []
    for rnd in full.rounds[from_round - 1:]:
        for t in rnd.tables:
            if phantom not in (t.ns, t.ew):
                continue
            other = number_of.get(t.ew if t.ns == phantom else t.ns, 0)
            if other in left and left[other] < rnd.number:
                continue  # its opponent has left: the late pair sits out this round
            if (rnd.number, t.table) in taken or (rnd.number, other) in seated:
                raise ServiceError(
                    f"the section's movement has changed since it was made (round "
                    f"{rnd.number}, table {t.table} is not where the sit-out would be): "
                    "seat the late pair by making a new movement", field="movement")
            adds.append(_numbered(t, rnd.number, number_of))
    if any(_unseated(meeting_key(m)) not in regenerated
           for m in stored if m.round >= from_round):
        raise ServiceError("the section's movement has changed since it was made: seat the "
                           "late pair by making a new movement", field="movement")
    codes = set(section.table_codes.values_list("table", flat=True))
    new_tables = tuple(sorted({k[1] for k in adds} - codes))
    return LatePairPlan(section=section, number=late, from_round=from_round,
                        meetings=tuple(adds), missed_rounds=tuple(range(1, from_round)),
                        new_tables=new_tables)


@transaction.atomic
def pair_join_late(*, event: Event, players: list[str], from_round: int, actor: Actor,
                   reason: str = "", section: Section | None = None) -> Pair:
    """A late pair joins `section`'s movement (None: the event's first section) from
    `from_round`, in the sit-out's place: it becomes the phantom pair (late_pair_plan's
    number) and gets the phantom's meetings of that round and later. The boards it missed
    are simply not played by it."""
    if not actor.directs:
        raise Forbidden("only the director seats a late pair")
    reason = _reason(actor, reason)
    locked = _lock_event(event.pk)
    _require_open(locked)
    plan = late_pair_plan(event=locked, from_round=from_round, section=section)
    pair = _pair_store(locked, plan.number, players, None, plan.section, actor)
    _one_pair_each(locked)
    pair.joined_round = from_round
    pair.section = plan.section
    pair.save(update_fields=["joined_round", "section"])
    pairs = {p.number: p for p in Pair.objects.filter(event=locked)}
    Meeting.objects.bulk_create([
        Meeting(section=plan.section, round=rnd, table=table, ns_pair=pairs[ns],
                ew_pair=pairs[ew], boards=list(boards))
        for rnd, table, ns, ew, boards in plan.meetings])
    for table in plan.new_tables:
        plan.section.table_codes.create(table=table, code=new_code())
    Event.objects.filter(pk=locked.pk).update(roster_seq=locked.seq)
    _audit(event=locked, actor=actor, action="late pair", reason=reason,
           after={"pair": plan.number, "players": pair.names, **plan.as_dict()})
    return pair


# --- a pair that leaves ---------------------------------------------------------------------


@dataclass(frozen=True)
class LeavePlan:
    """What pair `number` leaving after round `after_round` will do: `meetings` (its
    later ones) are removed, their `opponents` sit out those rounds, and every board of
    them is "not played" for both."""

    number: int
    after_round: int
    meetings: tuple[tuple, ...]

    @property
    def opponents(self) -> list[tuple[int, int]]:
        """(round, pair) of each would-be opponent, who sits out that round."""
        return [(k[0], k[3] if k[2] == self.number else k[2]) for k in self.meetings]

    @property
    def boards(self) -> int:
        return sum(len(k[4]) for k in self.meetings)

    def as_dict(self) -> dict:
        return {"pair": self.number, "after_round": self.after_round,
                "meetings": [_meeting_dict(k) for k in self.meetings]}


def _pair(event: Event, number: int) -> Pair:
    pair = Pair.objects.filter(event=event, number=number).select_related(
        "player_1", "player_2").first()
    if pair is None:
        raise ServiceError(f"pair {number} is not in this event", field="pair")
    return pair


def pair_leave_plan(*, event: Event, number: int, after_round: int) -> LeavePlan:
    """What pair `number` leaving after round `after_round` would do (stores nothing), or
    a ServiceError: it has results in a later round, or it has already left."""
    pair = _pair(event, number)
    if after_round < 0:
        raise ServiceError("a pair leaves after a round: 0 (before play) or more",
                           field="after_round")
    if pair.left_after_round is not None:
        raise ServiceError(f"pair {number} has already left after round "
                           f"{pair.left_after_round}", field="pair")
    later = list(Meeting.objects.filter(Q(ns_pair=pair) | Q(ew_pair=pair),
                                        round__gt=after_round)
                 .select_related("ns_pair", "ew_pair").order_by("round", "table"))
    if not later:
        raise ServiceError(f"pair {number} plays no round after round {after_round}: "
                           "nothing to change", field="after_round")
    # A result of any of those boards between those pairs, with its meeting or without.
    where = {(m.ns_pair.number, m.ew_pair.number, b): m.round for m in later for b in m.boards}
    entered = (Result.objects.filter(Q(ns_pair=pair) | Q(ew_pair=pair), voided=False)
               .values_list("ns_pair__number", "ew_pair__number", "board__number"))
    played = min((where[key] for key in entered if key in where), default=None)
    if played is not None:
        raise ServiceError(f"pair {number} has results in round {played}: it can only leave "
                           f"after round {played} or later (remove those results first if "
                           "they are wrong)", field="after_round")
    return LeavePlan(number=number, after_round=after_round,
                     meetings=tuple(meeting_key(m) for m in later))


@transaction.atomic
def pair_leave(*, event: Event, number: int, after_round: int, actor: Actor,
               reason: str = "") -> Pair:
    """Pair `number` leaves after round `after_round`: its later meetings are removed
    (the audit entry keeps them), their opponents sit out those rounds, and every board
    of them gets a "not-played" result for both pairs (no comparison, no credit)."""
    if not actor.directs:
        raise Forbidden("only the director records a pair leaving")
    reason = _reason(actor, reason)
    locked = _lock_event(event.pk)
    _require_open(locked)
    plan = pair_leave_plan(event=locked, number=number, after_round=after_round)
    meetings = list(Meeting.objects.select_for_update(of=("self",))
                    .filter(section__event=locked, round__gt=after_round)
                    .filter(Q(ns_pair__number=number) | Q(ew_pair__number=number))
                    .select_related("ns_pair", "ew_pair", "section"))
    why = reason or f"pair {number} left after round {after_round}"
    for m in meetings:
        for board in m.boards:
            ruling_award(event=locked, board=board, ns=m.ns_pair.number, ew=m.ew_pair.number,
                         kind="not-played", actor=actor, reason=why, meeting=m)
    Meeting.objects.filter(pk__in=[m.pk for m in meetings]).delete()
    pair = _pair(locked, number)
    pair.left_after_round = after_round
    pair.save(update_fields=["left_after_round"])
    Event.objects.filter(pk=locked.pk).update(roster_seq=locked.seq)
    _audit(event=locked, actor=actor, action="pair leaves", reason=reason,
           before={"meetings": plan.as_dict()["meetings"]},
           after={"pair": number, "after_round": after_round})
    return pair


# --- a substitute -------------------------------------------------------------------------------


@transaction.atomic
def substitute_set(*, event: Event, number: int, seat: int, player: str, from_round: int,
                   actor: Actor, reason: str = "") -> Substitute:
    """`player` takes seat `seat` (1 or 2) of pair `number` from round `from_round` to
    the end; the score card and the standings show both names."""
    if not actor.directs:
        raise Forbidden("only the director records a substitute")
    reason = _reason(actor, reason)
    name = (player or "").strip()
    if not name:
        raise ServiceError("give the substitute's name", field="player")
    if len(name) > 80:
        raise ServiceError("a name is at most 80 characters", field="player")
    if seat not in (1, 2):
        raise ServiceError("a substitute takes the first or the second player's seat (1 or 2)",
                           field="seat")
    if from_round < 1:
        raise ServiceError("rounds start at 1", field="from_round")
    locked = _lock_event(event.pk)
    _require_open(locked)
    pair = _pair(locked, number)
    if pair.left_after_round is not None and from_round > pair.left_after_round:
        raise ServiceError(f"pair {number} left after round {pair.left_after_round}",
                           field="from_round")
    replaced = pair.names[seat - 1]
    existing = Substitute.objects.select_for_update().filter(
        pair=pair, seat=seat, from_round=from_round).select_related("player").first()
    before = None
    if existing is not None:
        before = {"pair": number, "seat": seat, "from_round": from_round,
                  "player": existing.player.name}
        existing.player = player_for(name)
        existing.save(update_fields=["player"])
        substitute = existing
    else:
        # A member by number ("1234", "Ann Lee #1234") or a visitor by name (members.py).
        substitute = Substitute.objects.create(pair=pair, seat=seat, from_round=from_round,
                                               player=player_for(name))
    Event.objects.filter(pk=locked.pk).update(roster_seq=locked.seq)
    _audit(event=locked, actor=actor, action="substitute", reason=reason, before=before,
           after={"pair": number, "seat": seat, "from_round": from_round,
                  "player": substitute.player.name, "for": replaced})
    return substitute


def _reason(actor: Actor, reason: str) -> str:
    """The director says why (for the audit trail); a program's change comes from a file."""
    reason = (reason or "").strip()
    if actor.is_director and not reason:
        raise ServiceError("say why: the change needs a reason for the audit trail",
                           field="reason")
    return reason


# --- the night file ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PairChangeRow:
    """A pair's changes as a night file records them (docs/night-file.md, `pairs`)."""

    joined_round: int | None = None
    left_after_round: int | None = None
    substitutes: tuple[tuple[int, str, int], ...] = ()  # (seat, name, from round)
    # Each substitute's member number (None: a visitor), in the order of `substitutes`.
    substitute_numbers: tuple[str | None, ...] = ()


@transaction.atomic
def pair_changes_import(*, event: Event, changes: dict[int, PairChangeRow],
                        actor: Actor) -> None:
    """For the importer: store each pair's late start, early leaving and substitutes as
    the file records them. The meetings and results come from the file as they were
    played, so nothing is regenerated here."""
    if not actor.directs:
        raise Forbidden("only the director sets up an event")
    if not changes:
        return
    locked = _lock_event(event.pk)
    pairs = {p.number: p for p in Pair.objects.filter(event=locked, number__in=changes)}
    for number, row in changes.items():
        pair = pairs[number]
        pair.joined_round, pair.left_after_round = row.joined_round, row.left_after_round
        pair.save(update_fields=["joined_round", "left_after_round"])
        numbers = row.substitute_numbers or (None,) * len(row.substitutes)
        for (seat, name, from_round), member in zip(row.substitutes, numbers, strict=True):
            Substitute.objects.create(pair=pair, seat=seat, from_round=from_round,
                                      player=player_for(name, number=member))
    Event.objects.filter(pk=locked.pk).update(roster_seq=locked.seq)
    _audit(event=locked, actor=actor, action="pair changes",
           after={"pairs": sorted(changes)})
