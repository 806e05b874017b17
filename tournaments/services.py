"""Every write goes through here: the table page, the director console, the API,
the night-file importer and the tests alike.

Each service is keyword-only and atomic. Writers to one event serialise on the
event row (``select_for_update``), always taken first, then the result rows:
one fixed order, so two writers never deadlock. An API write with an Idempotency-Key
claims its key (api/idempotency.py) before all of these, in the same transaction; a
request claims no key but its own, so the order stays one way: key, event, results.
Validation and scoring are pure and run before the lock is taken, which keeps the
locked part short.
"""

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from boards.movements import Movement, check, generate
from config.celery import app
from scoring.engine import RULINGS, SIDES, ResultError, Unusual, deal_from_north, parse_deal

from . import seam, selectors
from .models import (
    MAX_CORRECTION_MINUTES,
    AuditEntry,
    Board,
    Event,
    Meeting,
    Pair,
    Player,
    Result,
    Section,
    Team,
)
from .presenters import clock, sentence
from .tablecodes import new_code

log = logging.getLogger(__name__)


class ServiceError(Exception):
    """A request the laws or the night's state do not allow, in a player's words."""

    def __init__(self, message: str, *, field: str | None = None):
        # Shown alone (a banner, a form's error, the API's "error"): a sentence. The one
        # place every service message passes, the engine's ResultError text included.
        message = sentence(message)
        super().__init__(message)
        self.message = message
        self.field = field


class ResultConflict(ServiceError):
    """A different result is already stored for this board at this meeting."""

    def __init__(self, message: str, *, existing: Result):
        super().__init__(message, field="result")
        self.existing = existing


class UnusualResult(ServiceError):
    """A result the laws allow but a table almost never has (scoring.engine.unusual): the
    table looks again, then saves it as entered (``as_entered=True``)."""

    def __init__(self, warnings: Sequence[Unusual]):
        super().__init__("Please look again before saving: "
                         + " ".join(w.message for w in warnings), field="as_entered")
        self.warnings = tuple(warnings)


class Forbidden(ServiceError):
    """The caller may not make this change (a table after its round is agreed, say)."""


@dataclass(frozen=True)
class Actor:
    """Who makes a change: a director (a staff user), a table (by its code), or a program."""

    label: str
    user: Any = None
    section_id: int | None = None
    table: int | None = None

    @property
    def is_director(self) -> bool:
        return self.user is not None and self.user.is_staff

    @property
    def is_table(self) -> bool:
        return self.table is not None

    @property
    def is_system(self) -> bool:
        """A program the operator runs on the server (the importer, the demo): trusted."""
        return self.user is None and self.table is None

    @property
    def directs(self) -> bool:
        """May run the event: the director, or the operator's own programs."""
        return self.is_director or self.is_system

    @classmethod
    def director(cls, user) -> "Actor":
        return cls(label=f"director {user.get_username()}", user=user)

    @classmethod
    def at_table(cls, section: Section, table: int) -> "Actor":
        return cls(label=f"table {table}", section_id=section.pk, table=table)

    @classmethod
    def system(cls, label: str = "import") -> "Actor":
        return cls(label=label)


# --- helpers -------------------------------------------------------------------------


_BUMP_SQL = (f"UPDATE {Event._meta.db_table} SET seq = seq + 1 WHERE id = %s "  # noqa: S608
             "RETURNING *")


def _lock_event(event_id: int) -> Event:
    """Lock the event row and take the next change number (Event.seq), in one statement.

    The UPDATE takes the row lock, held to the end of the transaction, so writers to
    one event run one at a time and their changes commit in seq order (the standings
    rely on it). RETURNING gives the row as it is now (SQLite 3.35+ and PostgreSQL).
    """
    events = list(Event.objects.raw(_BUMP_SQL, [event_id]))
    if not events:
        raise Event.DoesNotExist(f"there is no event {event_id}")
    return events[0]


def _audit(
    *,
    event: Event,
    actor: Actor,
    action: str,
    result: Result | None = None,
    before: dict | None = None,
    after: dict | None = None,
    reason: str = "",
) -> AuditEntry:
    return AuditEntry.objects.create(
        event=event,
        result=result,
        action=action,
        actor=actor.user if actor.user is not None and actor.user.pk else None,
        actor_label=actor.label[:80],
        before=before,
        after=after,
        reason=reason,
    )


def _save_change(result: Result, *, event: Event, actor: Actor, action: str,
                 before: dict | None, reason: str = "") -> AuditEntry:
    """Store a change to an existing result: bump its version, stamp it with the event's
    change number, save, read the new version back and audit the change."""
    result.version = F("version") + 1
    result.seq = event.seq
    result.save()
    result.refresh_from_db(fields=["version"])
    return _audit(event=event, actor=actor, action=action, result=result, before=before,
                  after=seam.snapshot(result), reason=reason)


def _require_open(event: Event) -> None:
    if event.status == Event.Status.CLOSED:
        if event.in_correction_period:
            raise Forbidden(
                "the event is closed: to correct a score the director reopens it, until "
                f"{clock(event.final_after)} (the correction period)")
        raise Forbidden("the event is closed: its scores are final")


AGREED_FOR_TABLES = ("The director has agreed the event's scores (Duplicate Law E): "
                     "only the director can change a score now")


def _require_table_scoring(event: Event) -> None:
    """Duplicate Law E: once the event's scores are agreed, the tables enter nothing more."""
    if event.status == Event.Status.AGREED:
        raise Forbidden(AGREED_FOR_TABLES)


def _require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("say why: a correction needs a reason for the audit trail",
                           field="reason")
    return reason


def _board(event: Event, number: int) -> Board:
    try:
        return Board.objects.get(event=event, number=number)
    except Board.DoesNotExist:
        raise ServiceError(f"board {number} is not in this event", field="board") from None


def _pairs(event: Event, ns: int, ew: int) -> tuple[Pair, Pair]:
    """Pairs `ns` and `ew` of the event, in one query."""
    found = {p.number: p for p in Pair.objects.filter(event=event, number__in=(ns, ew))}
    for number, field in ((ns, "ns"), (ew, "ew")):
        if number not in found:
            raise ServiceError(f"pair {number} is not in this event", field=field)
    return found[ns], found[ew]


def _check_meeting(meeting: Meeting, board: int, ns: int, ew: int) -> None:
    where = f"table {meeting.table} in round {meeting.round}"
    if board not in meeting.boards:
        raise ServiceError(f"board {board} is not played at {where}", field="board")
    if (meeting.ns_pair.number, meeting.ew_pair.number) != (ns, ew):
        raise ServiceError(
            f"at {where} pair {meeting.ns_pair.number} sits North-South against pair "
            f"{meeting.ew_pair.number}",
            field="ns",
        )


def _played_fields(event: Event, board: Board, data: Any, actor: Actor
                   ) -> tuple[dict, tuple[Unusual, ...]]:
    """The fields to store, and the warnings to look at again before storing them.

    A person typing a result (a table, the director) is held to live entry's rules: every
    honour accounted for when the hand record does not give them (Law 3), and a second
    look at anything unusual. The operator's programs (an import) keep interfaces.md §1's
    rules, as the night file does.
    """
    try:
        if actor.is_system:
            return seam.result_fields(rules_name=event.rules, board_number=board.number,
                                      deal=board.deal, data=data), ()
        return seam.live_result(rules_name=event.rules, board_number=board.number,
                                deal=board.deal, data=data)
    except ResultError as exc:
        field = f"result.{exc.field}" if exc.field else "result"
        raise ServiceError(exc.message, field=field) from None


def _same_play(result: Result, fields: dict) -> bool:
    return all(getattr(result, name) == value for name, value in fields.items())


def _apply(result: Result, fields: dict) -> None:
    for name, value in fields.items():
        setattr(result, name, value)


def _existing_for(board: Board, ns_pair: Pair, ew_pair: Pair) -> Result | None:
    """The live result of this board at this meeting of the two pairs, locked."""
    return (
        Result.objects.select_for_update(of=("self",))
        .filter(board=board, ns_pair=ns_pair, ew_pair=ew_pair, voided=False)
        .select_related("board", "ns_pair", "ew_pair")
        .first()
    )


def _meeting_for_table(actor: Actor, meeting: Meeting | None, event: Event, board: int
                       ) -> None:
    """A table writes only in its own meeting, at the round it is at now or an earlier one
    not yet agreed. Read under the event lock, which round_agree takes too."""
    if not actor.is_table:
        return
    _require_table_scoring(event)
    if meeting is None or meeting.section_id != actor.section_id or meeting.table != actor.table:
        raise Forbidden("a table can only enter the boards it plays")
    if Meeting.objects.filter(pk=meeting.pk, agreed_at__isnull=False).exists():
        raise Forbidden(
            f"round {meeting.round} at table {meeting.table} is agreed (Duplicate Law E): "
            "ask the director to correct a score"
        )
    refusal = selectors.later_round_refusal(
        meeting, selectors.seated_meeting(actor.section_id, actor.table), board)
    if refusal:
        raise Forbidden(refusal, field="round")


# --- event set-up ----------------------------------------------------------------------


@transaction.atomic
def event_create(
    *,
    name: str,
    date,
    rules: str = "american-1913",
    kind: str = "pairs",
    method: str | None = None,
    actor: Actor,
) -> Event:
    method = method or ("total-points" if kind == "teams" else "plus-minus")
    if kind == "teams" and method != "total-points":
        raise ServiceError("a team match is scored by total points (Duplicate Law G)",
                           field="method")
    if kind == "pairs" and method not in ("plus-minus", "matchpoints"):
        raise ServiceError("a pair contest is scored by plus/minus or matchpoints",
                           field="method")
    event = Event.objects.create(name=name, date=date, rules=rules, kind=kind, method=method)
    Section.objects.create(event=event, name="A")
    _audit(event=event, actor=actor, action="create event", after={"name": name})
    return event


@transaction.atomic
def teams_set(*, event: Event, names: Sequence[str], actor: Actor) -> list[Team]:
    return _teams_store(_lock_event(event.pk), names, actor)


def _teams_store(locked: Event, names: Sequence[str], actor: Actor) -> list[Team]:
    """teams_set once the event is locked."""
    teams = [Team.objects.get_or_create(event=locked, name=name.strip())[0] for name in names]
    _audit(event=locked, actor=actor, action="teams", after={"teams": list(names)})
    return teams


@transaction.atomic
def pair_set(
    *,
    event: Event,
    number: int,
    players: Sequence[str],
    team: Team | None = None,
    section: Section | None = None,
    actor: Actor,
) -> Pair:
    """Create pair `number`, or rename its players; returns the pair."""
    locked = _lock_event(event.pk)
    pair = _pair_store(locked, number, players, team, section, actor)
    Event.objects.filter(pk=locked.pk).update(roster_seq=locked.seq)
    return pair


def _pair_store(event: Event, number: int, players: Sequence[str], team: Team | None,
                section: Section | None, actor: Actor) -> Pair:
    """pair_set once the event is locked (the caller marks the roster changed)."""
    names = [p.strip() for p in players]
    if len(names) != 2 or not all(names):
        raise ServiceError(f"pair {number} needs two players' names", field="players")
    if number < 1:
        raise ServiceError("pair numbers start at 1", field="number")
    pair = Pair.objects.filter(event=event, number=number).select_related(
        "player_1", "player_2").first()
    if pair is None:
        pair = Pair.objects.create(
            event=event,
            number=number,
            player_1=Player.objects.create(name=names[0]),
            player_2=Player.objects.create(name=names[1]),
            team=team,
            section=section or event.sections.first(),
        )
    else:
        for player, name in ((pair.player_1, names[0]), (pair.player_2, names[1])):
            if player.name != name:
                player.name = name
                player.save(update_fields=["name"])
        if team is not None and pair.team_id != team.pk:
            pair.team = team
            pair.save(update_fields=["team"])
    _audit(event=event, actor=actor, action="pair", after={"pair": number, "players": names})
    return pair


@transaction.atomic
def pairs_set(*, event: Event, lines: Sequence[Any], actor: Actor) -> list[Pair]:
    """Store the whole list of pairs at once: each line has .number, .players and .team
    (a team name, or None). Teams named are created; pairs not in the list are removed,
    unless they have played or sit in the movement. One list, one change: a line the
    services refuse leaves nothing stored. The event is locked once, for the whole list."""
    event = _lock_event(event.pk)
    teams = {}
    names = list(dict.fromkeys(line.team for line in lines if line.team))
    if names:
        teams = {t.name: t for t in _teams_store(event, names, actor)}
    stored = [_pair_store(event, line.number, line.players,
                          teams.get(line.team) if line.team else None, None, actor)
              for line in lines]
    if stored:
        Event.objects.filter(pk=event.pk).update(roster_seq=event.seq)
    keep = {line.number for line in lines}
    extra = Pair.objects.filter(event=event).exclude(number__in=keep)
    for pair in extra.order_by("number"):
        played = Result.objects.filter(Q(ns_pair=pair) | Q(ew_pair=pair)).exists()
        seated = Meeting.objects.filter(Q(ns_pair=pair) | Q(ew_pair=pair)).exists()
        if played or seated:
            raise ServiceError(
                f"pair {pair.number} is in the movement or has played: it cannot be removed",
                field="pairs")
        _audit(event=event, actor=actor, action="remove pair",
               before={"pair": pair.number, "players": pair.names})
        pair.delete()
        Event.objects.filter(pk=event.pk).update(roster_seq=F("seq"))
    return stored


@transaction.atomic
def boards_set(*, event: Event, count: int, deals: dict[int, str] | None = None,
               actor: Actor) -> list[Board]:
    """Make sure boards 1..count exist; set the deals given (PBN Deal notation)."""
    event = _lock_event(event.pk)
    deals = deals or {}
    for number, deal in deals.items():
        if deal:
            try:
                parse_deal(deal)
            except ValueError as exc:
                raise ServiceError(f"board {number}: {exc}", field="deal") from None
    existing = {b.number: b for b in Board.objects.filter(event=event)}
    boards = []
    for number in range(1, count + 1):
        board = existing.get(number)
        deal = _normalise_deal(deals.get(number, ""))
        if board is None:
            board = Board.objects.create(event=event, number=number, deal=deal)
        elif deal and board.deal != deal:
            if board.results.filter(voided=False).exists():
                raise ServiceError(
                    f"board {number} has results already: its deal cannot change", field="deal"
                )
            board.deal = deal
            board.save(update_fields=["deal"])
        boards.append(board)
    _audit(event=event, actor=actor, action="boards", after={"boards": count,
                                                              "deals": len(deals)})
    return boards


def _normalise_deal(deal: str) -> str:
    """Store every deal from North, whichever hand the PBN text starts with."""
    if not deal:
        return ""
    return deal_from_north(parse_deal(deal))


@transaction.atomic
def movement_meetings_set(
    *,
    section: Section,
    movement: Movement,
    actor: Actor,
) -> list[Meeting]:
    """Store a generated movement as the section's meetings, with a code for each table.
    The boards are left as they are (movement_and_boards_set makes them too)."""
    problems = check(movement)
    if problems:
        raise ServiceError("the movement is not sound: " + "; ".join(problems), field="movement")
    event = _lock_event(section.event_id)
    if Result.objects.filter(meeting__section=section).exists():
        raise ServiceError("scores have been entered: the movement cannot change now",
                           field="movement")
    pairs = {p.number: p for p in Pair.objects.filter(event=event)}
    missing = sorted(set(range(1, movement.pairs + 1)) - set(pairs))
    if missing:
        raise ServiceError(
            f"the movement needs pairs 1 to {movement.pairs}; missing: "
            + ", ".join(map(str, missing)),
            field="pairs",
        )
    Meeting.objects.filter(section=section).delete()
    meetings = [
        Meeting(section=section, round=rnd.number, table=t.table, ns_pair=pairs[t.ns],
                ew_pair=pairs[t.ew], boards=list(t.boards))
        for rnd in movement.rounds
        for t in rnd.tables
    ]
    Meeting.objects.bulk_create(meetings)
    section.movement = movement.kind
    section.variant = movement.variant or ""
    section.tables = movement.tables
    section.boards_per_round = movement.boards_per_round
    section.save()
    Pair.objects.filter(event=event, number__lte=movement.pairs).update(section=section)
    have = set(section.table_codes.values_list("table", flat=True))
    for table in range(1, movement.tables + 1):
        if table not in have:
            section.table_codes.create(table=table, code=new_code())
    _audit(event=event, actor=actor, action="movement",
           after={"kind": movement.kind, "tables": movement.tables, "boards": movement.boards})
    return meetings


@transaction.atomic
def movement_and_boards_set(*, section: Section, movement: Movement,
                            actor: Actor) -> list[Meeting]:
    """Store a movement with the boards it needs (boards 1..movement.boards)."""
    boards_set(event=section.event, count=movement.boards, actor=actor)
    return movement_meetings_set(section=section, movement=movement, actor=actor)


def tables_needed(kind: str, pairs: int) -> int:
    """The tables in play for `pairs` pairs: a Mitchell seats the odd pair's partner-less
    N–S pair at a table of its own (it sits out when the missing pair is due); a Howell
    leaves the missing pair's table out, so 9 pairs play at 4 tables and one sits out."""
    if kind == "mitchell":
        return max((pairs + 1) // 2, 1)
    return max(pairs // 2, 1)


def tables_words(kind: str, pairs: int, needed: int) -> str:
    """"10 pairs need 5 tables"; "9 pairs need 4 tables and one pair sits out each round"."""
    text = f"{pairs} pairs need {needed} table{'s' if needed != 1 else ''}"
    if pairs % 2:
        text += " and one pair sits out each round"
    return text


def movement_generate(
    *,
    event: Event,
    kind: str,
    boards_per_round: int,
    tables: int | None = None,
    variant: str | None = None,
    pairs_per_team: int | None = None,
    pairs: int | None = None,
) -> tuple[Movement, list[str]]:
    """The movement the director asks for, fitted to the pairs (`pairs`, or else the
    pairs entered), and what is wrong with it; stores nothing. The console and the API
    both build their movements here.

    An odd number of pairs makes a sit-out movement: its last pair is missing and whoever
    is due to meet it sits out. A request the pairs cannot fill ("10 pairs need 5
    tables") raises ServiceError.
    """
    pair_count = pairs if pairs is not None else event.pairs.count()
    options: dict = {"boards_per_round": boards_per_round}
    if kind == "team-match":
        options.update({k: v for k, v in (("pairs_per_team", pairs_per_team),
                                          ("tables", tables), ("variant", variant),
                                          ("pairs", pairs)) if v is not None})
    elif tables is not None:
        needed = tables_needed(kind, pair_count)
        if pair_count % 2 and kind != "mitchell" and tables == needed + 1:
            tables = needed  # the Howell's table of the missing pair, counted in
        if pair_count >= 2 and tables != needed:
            raise ServiceError(tables_words(kind, pair_count, needed), field="tables")
        if pair_count % 2:
            # A Howell keeps the missing pair still at an extra, empty table.
            tables = tables if kind == "mitchell" else tables + 1
            options["pairs"] = pair_count
        options["tables"] = tables
    if kind != "team-match":
        if tables is None and pairs is not None:
            options["pairs"] = pairs
        if variant is not None:
            options["variant"] = variant
        if pairs_per_team is not None:
            options["pairs_per_team"] = pairs_per_team  # generate says it is for team matches
    try:
        movement = generate(kind, **options)
    except (ValueError, TypeError) as exc:  # MovementError says what is wrong
        raise ServiceError(str(exc), field="movement") from None
    problems = check(movement)
    warning = _team_warning(event, movement)
    if warning:
        problems = [*problems, warning]
    return movement, problems


def _team_warning(event: Event, movement: Movement) -> str:
    """A team match seats team A as pairs 1..k and team B as k+1..2k: do the pairs fit?"""
    if not movement.teams:
        return ""
    teams = {p.number: p.team_id for p in event.pairs.all()}
    for side, numbers in movement.teams.items():
        if len({teams.get(n) for n in numbers}) != 1 or None in {teams.get(n) for n in numbers}:
            return (f"team {side} of the movement is pairs {', '.join(map(str, numbers))}: "
                    "list one team's pairs first, then the other's, on the pairs page")
    return ""


# --- results -----------------------------------------------------------------------------


@transaction.atomic
def result_record(
    *,
    event: Event,
    board: int,
    ns: int,
    ew: int,
    data: Any,
    actor: Actor,
    meeting: Meeting | None = None,
    as_entered: bool = False,
) -> tuple[Result, bool]:
    """Store the result of `board` played by pair `ns` (N-S) against pair `ew` (E-W).

    Returns (result, created). Sending the same result again returns the stored
    one with created=False; a different result for the same board and pairs
    raises ResultConflict carrying the stored one. An unusual result raises
    UnusualResult unless `as_entered` (the table has looked again).
    """
    if ns == ew:
        raise ServiceError("a pair cannot play against itself", field="ew")
    board_row = _board(event, board)
    ns_pair, ew_pair = _pairs(event, ns, ew)
    if meeting is not None:
        _check_meeting(meeting, board, ns, ew)
    fields, warnings = _played_fields(event, board_row, data, actor)

    locked = _lock_event(event.pk)
    _require_open(locked)
    _meeting_for_table(actor, meeting, locked, board)
    existing = _existing_for(board_row, ns_pair, ew_pair)
    if existing is not None:
        if not existing.ruling and _same_play(existing, fields):
            return existing, False
        raise ResultConflict(
            f"board {board} between pairs {ns} and {ew} has a different result already",
            existing=existing,
        )
    if warnings and not as_entered:
        raise UnusualResult(warnings)
    # No savepoint: under the event lock the unique constraint cannot be hit here, and
    # if it were, the IntegrityError would roll the whole service back.
    result = Result.objects.create(
        event=locked,
        board=board_row,
        ns_pair=ns_pair,
        ew_pair=ew_pair,
        meeting=meeting,
        entered_by=actor.label[:80],
        status=Result.Status.DIRECTOR if actor.is_director else Result.Status.ENTERED,
        seq=locked.seq,
        **fields,
    )
    _audit(event=locked, actor=actor, action="enter", result=result,
           after=seam.snapshot(result))
    return result, True


@transaction.atomic
def result_confirm(*, result: Result, actor: Actor, by: str = "") -> Result:
    """The opponents (or the director) confirm a result entered at the table."""
    event = _lock_event(result.event_id)
    _require_open(event)
    result = Result.objects.select_for_update(of=("self",)).select_related(
        "board", "ns_pair", "ew_pair", "meeting").get(pk=result.pk)
    if result.voided:
        raise ServiceError("this result has been removed", field="result")
    _meeting_for_table(actor, result.meeting, event, result.board.number)
    if result.status in (Result.Status.CONFIRMED, Result.Status.DIRECTOR):
        return result  # a director's result needs no confirming by the table
    before = seam.snapshot(result)
    result.status = Result.Status.CONFIRMED
    result.confirmed_by = (by or actor.label)[:80]
    result.seq = event.seq
    result.save(update_fields=["status", "confirmed_by", "seq", "updated_at"])
    _audit(event=event, actor=actor, action="confirm", result=result, before=before,
           after=seam.snapshot(result))
    return result


@transaction.atomic
def result_correct(
    *,
    result: Result,
    actor: Actor,
    data: Any = None,
    ruling: str = "",
    offending: str = "",
    reason: str = "",
    as_entered: bool = False,
) -> Result:
    """Change a stored result: the play (`data`) or a ruling in its place.

    A table may change its own result until its round is agreed (Duplicate Law E);
    after that, and always with a reason, only the director. An unusual result raises
    UnusualResult unless `as_entered`.
    """
    if actor.is_director:
        reason = _require_reason(reason)
    elif not actor.is_table:
        raise Forbidden("only the director or the table that played the board may correct it")
    current = Result.objects.select_related("board", "ns_pair", "ew_pair", "event").get(
        pk=result.pk)
    warnings: tuple[Unusual, ...] = ()
    if ruling:
        fields = _ruling_fields(current.event, ruling, offending)
    else:
        fields, warnings = _played_fields(current.event, current.board, data, actor)
    event = _lock_event(current.event_id)
    _require_open(event)
    result = Result.objects.select_for_update(of=("self",)).select_related(
        "board", "ns_pair", "ew_pair", "meeting").get(pk=result.pk)
    if result.voided:
        raise ServiceError("this result has been removed; undo the removal first",
                           field="result")
    if not actor.is_director:
        _meeting_for_table(actor, result.meeting, event, result.board.number)
        if ruling:
            raise Forbidden("only the director gives rulings")
        if result.ruling or result.status == Result.Status.DIRECTOR:
            raise Forbidden("the director has set this result: ask the director to change it")
    if warnings and not as_entered:
        raise UnusualResult(warnings)
    before = seam.snapshot(result)
    _apply(result, fields)
    result.status = Result.Status.DIRECTOR if actor.is_director else Result.Status.ENTERED
    result.confirmed_by = ""  # the opponents confirmed the old result, not this one
    _save_change(result, event=event, actor=actor, action="rule" if ruling else "correct",
                 before=before, reason=reason)
    return result


def _ruling_fields(event: Event, kind: str, offending: str) -> dict:
    if kind not in RULINGS:
        raise ServiceError("a ruling is average, fouled or cancelled (Duplicate Law B)",
                           field="ruling")
    if kind == "fouled" and offending not in SIDES:
        raise ServiceError("a fouled board names the side whose player was short: N–S or E–W",
                           field="offending")
    return seam.ruling_fields(kind=kind, offending=offending)


@transaction.atomic
def ruling_award(
    *,
    event: Event,
    board: int,
    ns: int,
    ew: int,
    kind: str,
    actor: Actor,
    offending: str = "",
    reason: str = "",
    meeting: Meeting | None = None,
) -> Result:
    """Duplicate Law B(3): an artificial result in place of play at one meeting."""
    if not actor.directs:
        raise Forbidden("only the director gives rulings")
    if actor.is_director:
        reason = _require_reason(reason)  # a program's ruling comes from a file: no reason
    fields = _ruling_fields(event, kind, offending)
    board_row = _board(event, board)
    ns_pair, ew_pair = _pairs(event, ns, ew)
    if meeting is not None:
        _check_meeting(meeting, board, ns, ew)
    locked = _lock_event(event.pk)
    _require_open(locked)
    existing = _existing_for(board_row, ns_pair, ew_pair)
    if existing is not None:
        before = seam.snapshot(existing)
        _apply(existing, fields)
        existing.status = Result.Status.DIRECTOR
        _save_change(existing, event=locked, actor=actor, action="rule", before=before,
                     reason=reason)
        return existing
    result = Result.objects.create(
        event=locked, board=board_row, ns_pair=ns_pair, ew_pair=ew_pair, meeting=meeting,
        entered_by=actor.label[:80], status=Result.Status.DIRECTOR, seq=locked.seq, **fields,
    )
    _audit(event=locked, actor=actor, action="rule", result=result, after=seam.snapshot(result),
           reason=reason)
    return result


@transaction.atomic
def board_cancel(*, event: Event, board: int, actor: Actor, reason: str = "") -> list[Result]:
    """Duplicate Law B(3): in two-table duplicate a board fouled after the overplay began
    is a new deal, so it is cancelled at both tables (every meeting that plays it)."""
    meetings = [m for m in Meeting.objects.filter(section__event=event)
                .select_related("section", "ns_pair", "ew_pair").order_by("round", "table")
                if board in m.boards]
    if not meetings:
        raise ServiceError(f"board {board} is not played at any table", field="board")
    return [ruling_award(event=event, board=board, ns=m.ns_pair.number, ew=m.ew_pair.number,
                         kind="cancelled", actor=actor, reason=reason, meeting=m)
            for m in meetings]


@transaction.atomic
def result_void(*, result: Result, actor: Actor, reason: str) -> Result:
    """The director removes a result (audited; undo brings it back)."""
    if not actor.is_director:
        raise Forbidden("only the director removes a result")
    reason = _require_reason(reason)
    event = _lock_event(result.event_id)
    _require_open(event)
    result = Result.objects.select_for_update(of=("self",)).select_related(
        "board", "ns_pair", "ew_pair").get(pk=result.pk)
    if result.voided:
        return result
    before = seam.snapshot(result)
    result.voided = True
    _save_change(result, event=event, actor=actor, action="void", before=before,
                 reason=reason)
    return result


@transaction.atomic
def audit_undo(*, entry: AuditEntry, actor: Actor, reason: str = "") -> Result:
    """Put a result back as it was before an audited change."""
    if not actor.is_director:
        raise Forbidden("only the director undoes a change")
    reason = reason.strip() or f"undo of change #{entry.pk}"
    event = _lock_event(entry.event_id)
    _require_open(event)
    entry = AuditEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.result_id is None:
        raise ServiceError("only changes to a result can be undone", field="entry")
    if entry.undone_by_id is not None:
        raise ServiceError("this change has been undone already", field="entry")
    result = Result.objects.select_for_update(of=("self",)).select_related(
        "board", "ns_pair", "ew_pair").get(pk=entry.result_id)
    if _later_changes(result, entry):
        raise ServiceError("the result has changed again since; undo the later change first",
                           field="entry")
    before = seam.snapshot(result)
    if entry.before is None:  # the change created the result: undoing it removes it
        result.voided = True
    else:
        restore = {name: entry.before[name] for name in seam.SNAPSHOT_FIELDS}
        if not restore["voided"] and result.voided:
            _ensure_free(result)
        _apply(result, restore)
    undo = _save_change(result, event=event, actor=actor, action="undo", before=before,
                        reason=reason)
    entry.undone_by = undo
    entry.save(update_fields=["undone_by"])
    return result


def _later_changes(result: Result, entry: AuditEntry) -> bool:
    """Has the result been changed by a later entry that is still in force?"""
    return result.audit.filter(pk__gt=entry.pk, undone_by__isnull=True).exclude(
        action="undo").exists()


def _ensure_free(result: Result) -> None:
    clash = (Result.objects.filter(board=result.board, voided=False, ns_pair=result.ns_pair,
                                   ew_pair=result.ew_pair)
             .exclude(pk=result.pk).exists())
    if clash:
        raise ServiceError("another result now stands for this board and pairs", field="entry")


# --- rounds and the event's state ------------------------------------------------------------


@transaction.atomic
def round_agree(
    *, section: Section, round_number: int, actor: Actor, tables: Iterable[int] | None = None
) -> int:
    """Duplicate Law E: the round's scores are agreed; the table can no longer change them.

    A table agrees its own meeting once every board there has a result; the
    director may agree a whole round (or some tables of it) at any time.
    Returns how many meetings became agreed.
    """
    event = _lock_event(section.event_id)
    _require_open(event)
    meetings = Meeting.objects.select_for_update().filter(
        section=section, round=round_number, agreed_at__isnull=True)
    if actor.is_table:
        meetings = meetings.filter(table=actor.table)
        if actor.section_id != section.pk:
            raise Forbidden("a table can only agree its own round")
        _require_table_scoring(event)
    elif not actor.directs:
        raise Forbidden("only the director or the table agrees a round")
    if tables is not None:
        meetings = meetings.filter(table__in=list(tables))
    meetings = list(meetings)
    if actor.is_table:
        for meeting in meetings:
            played = Result.objects.filter(meeting=meeting, voided=False).count()
            if played < len(meeting.boards):
                raise ServiceError(
                    f"enter all {len(meeting.boards)} boards before agreeing the round "
                    f"({played} entered)", field="round")
            if Result.objects.filter(meeting=meeting, voided=False,
                                     status=Result.Status.ENTERED).exists():
                raise ServiceError("the opponents must confirm every board first",
                                   field="round")
    if meetings:
        # The director may agree a round that is not all in (a table gone home, say):
        # the audit keeps what was still outstanding at that moment.
        outstanding = [str(o) for o in selectors.boards_outstanding(
            event, section=section, round_number=round_number,
            tables=[m.table for m in meetings])]
        after = {"section": section.name, "round": round_number,
                 "tables": [m.table for m in meetings]}
        if outstanding:
            after["outstanding"] = outstanding
        now = timezone.now()
        for meeting in meetings:
            meeting.agreed_at = now
            meeting.save(update_fields=["agreed_at"])
        _audit(event=event, actor=actor, action="agree round", after=after)
    return len(meetings)


_NEXT_STATUS = {
    Event.Status.SETTING_UP: {Event.Status.RUNNING},
    Event.Status.RUNNING: {Event.Status.AGREED, Event.Status.SETTING_UP},
    Event.Status.AGREED: {Event.Status.CLOSED, Event.Status.RUNNING},
    # Reopening, during the correction period only, and with a reason.
    Event.Status.CLOSED: {Event.Status.AGREED},
}
# The task that publishes final standings when a correction period ends (tasks.py). Sent by
# name, so this module does not import the tasks (the tasks import the services).
FINAL_TASK = "tournaments.publish_final_if_due"
FINAL_BY = "end of the correction period"


def _outstanding_text(outstanding: list) -> str:
    shown = "; ".join(str(o) for o in outstanding[:3])
    more = len(outstanding) - 3
    return shown + (f"; and {more} more" if more > 0 else "")


@transaction.atomic
def event_set_status(*, event: Event, status: str, actor: Actor, reason: str = "",
                     publish_final: bool = False) -> Event:
    """setting up → running → agreed → closed → final (a closed event's scores are final).

    Agreed (Duplicate Law E): the scores are agreed; the tables enter and confirm nothing
    more, and only the director changes a score. The director agrees the event when every
    board is in, or says why not (the reason and what was outstanding go to the audit).
    Closed: see ``event_close``. Reopening a closed event (back to agreed) is possible
    only in its correction period, with a reason.
    """
    if not actor.directs:
        raise Forbidden("only the director changes the event's state")
    if status not in Event.Status.values:
        raise ServiceError("the event is setting up, running, agreed or closed", field="status")
    reason = (reason or "").strip()
    locked = _final_if_due(_lock_event(event.pk))
    if status == locked.status:
        return locked
    if status not in _NEXT_STATUS[Event.Status(locked.status)] or (
            locked.status == Event.Status.CLOSED and not locked.in_correction_period):
        if locked.status == Event.Status.CLOSED:
            raise Forbidden("the event is closed and its correction period is over: "
                            "the scores are final")
        raise ServiceError(
            f"an event that is {locked.get_status_display().lower()} cannot become "
            f"{Event.Status(status).label.lower()}", field="status")
    before: dict[str, Any] = {"status": locked.status}
    after: dict[str, Any] = {"status": status}
    if status == Event.Status.AGREED and locked.status == Event.Status.RUNNING:
        outstanding = selectors.boards_outstanding(locked)
        # The operator's programs (the importer) record a night as it was played.
        if outstanding and not actor.is_system:
            if not reason:
                raise ServiceError(
                    f"{len(outstanding)} board{'s are' if len(outstanding) > 1 else ' is'} "
                    f"not in yet ({_outstanding_text(outstanding)}): say why the scores "
                    "are agreed without them", field="reason")
            after["outstanding"] = [str(o) for o in outstanding]
    if locked.status == Event.Status.CLOSED:
        if not reason:
            raise ServiceError("say why the event is reopened: the reason goes in the audit",
                               field="reason")
        before["final_after"] = locked.final_after.isoformat()
        locked.final_after = None
    fields = ["status", "updated_at", "final_after"]
    if status == Event.Status.CLOSED:
        fields.append("published")
        if (publish_final or not locked.correction_minutes
                or locked.published == Event.Published.FINAL):
            _publish_final(locked, actor)
        else:
            locked.final_after = timezone.now() + timedelta(minutes=locked.correction_minutes)
            after["final_after"] = locked.final_after.isoformat()
            event_id, eta = locked.pk, locked.final_after
            transaction.on_commit(lambda: _schedule_final(event_id, eta))
    locked.status = status
    locked.save(update_fields=fields)
    _audit(event=locked, actor=actor, action="status", before=before, after=after,
           reason=reason)
    return locked


def event_close(*, event: Event, actor: Actor, reason: str = "", publish_final: bool = False,
                correction_minutes: int | None = None) -> Event:
    """Close the event: a running one is agreed first (every board in, or a reason).

    Closing starts the correction period (Duplicate Law E, and every club's practice):
    the standings are still provisional; the director can reopen the event, with a
    reason, until it ends; then the standings are published final (``event_final_if_due``,
    run by a scheduled task and whenever the event is read). ``publish_final`` ends it at
    once. Nothing changes after.
    """
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if correction_minutes is not None:
            event = correction_period_set(event=event, minutes=correction_minutes, actor=actor)
        if event.status == Event.Status.RUNNING:
            event = event_set_status(event=event, status=Event.Status.AGREED, actor=actor,
                                     reason=reason)
        if event.status == Event.Status.SETTING_UP:
            raise ServiceError("an event that has not started cannot be closed", field="status")
        if event.status == Event.Status.CLOSED and publish_final:
            return event_publish(event=event, level=Event.Published.FINAL, actor=actor)
        return event_set_status(event=event, status=Event.Status.CLOSED, actor=actor,
                                reason=reason, publish_final=publish_final)


def event_reopen(*, event: Event, actor: Actor, reason: str) -> Event:
    """Reopen a closed event in its correction period, to correct a score (back to agreed)."""
    return event_set_status(event=event, status=Event.Status.AGREED, actor=actor,
                            reason=reason)


@transaction.atomic
def correction_period_set(*, event: Event, minutes: int, actor: Actor) -> Event:
    """How long the correction period after closing lasts (0: final at closing)."""
    if not actor.directs:
        raise Forbidden("only the director sets the correction period")
    if not isinstance(minutes, int) or not 0 <= minutes <= MAX_CORRECTION_MINUTES:
        raise ServiceError(f"A correction period is from 0 to {MAX_CORRECTION_MINUTES} "
                           "minutes", field="correction_minutes")
    locked = _lock_event(event.pk)
    if locked.correction_minutes == minutes:
        return locked
    before = {"correction_minutes": locked.correction_minutes}
    locked.correction_minutes = minutes
    locked.save(update_fields=["correction_minutes", "updated_at"])
    _audit(event=locked, actor=actor, action="correction period", before=before,
           after={"correction_minutes": minutes})
    return locked


@transaction.atomic
def event_publish(*, event: Event, level: str, actor: Actor) -> Event:
    """Publish standings as provisional or final, or take them down ("none").

    Publishing final during the correction period ends it.
    """
    if not actor.directs:
        raise Forbidden("only the director publishes standings")
    if level not in Event.Published.values:
        raise ServiceError("publish as none, provisional or final", field="published")
    locked = _final_if_due(_lock_event(event.pk))
    if level == Event.Published.FINAL:
        if locked.published != level or locked.final_after is not None:
            _publish_final(locked, actor)
            locked.save(update_fields=["published", "final_after", "updated_at"])
        return locked
    before = {"published": locked.published}
    locked.published = level
    locked.save(update_fields=["published", "updated_at"])
    _audit(event=locked, actor=actor, action="publish", before=before, after={"published": level})
    return locked


# --- a whole night from a file (the night-file importer) -----------------------------------


@dataclass(frozen=True)
class MeetingRow:
    """One meeting of a section as a night file writes it (pairs and boards by number)."""

    round: int
    table: int
    ns: int
    ew: int
    boards: tuple[int, ...]
    agreed_at: Any = None  # an aware datetime, or None while the round is not agreed


@dataclass(frozen=True)
class SectionRow:
    name: str
    movement: str = "none"
    variant: str = ""
    tables: int = 0
    boards_per_round: int = 0
    meetings: tuple[MeetingRow, ...] = ()


@dataclass(frozen=True)
class HistoryRow:
    """An audit entry as a night file carries it; `before`/`after` are snapshots
    (seam.snapshot's shape); `undone_by` is the index of the undo in the same history."""

    action: str
    by: str
    at: Any  # an aware datetime
    reason: str = ""
    before: dict | None = None
    after: dict | None = None
    undone_by: int | None = None


@dataclass(frozen=True)
class ResultRow:
    """A result (or ruling) as a night file writes it: board and pairs by number, the
    Result fields already checked and scored, and, when known, its meeting
    (section name, round, table) and its history."""

    board: int
    ns: int
    ew: int
    fields: dict
    meeting: tuple[str, int, int] | None = None
    status: str = Result.Status.DIRECTOR
    entered_by: str = ""
    confirmed_by: str = ""
    voided: bool = False
    history: tuple[HistoryRow, ...] = ()


@transaction.atomic
def sections_import(*, event: Event, sections: Sequence[SectionRow],
                    pair_sections: dict[int, str | None], compare_by_section: bool = False,
                    actor: Actor) -> list[Section]:
    """Replace a new event's sections with the given ones, meetings and all.

    For the importer: the meetings are a record of what was played, stored as written
    (movement_meetings_set is the way to make a movement; it checks it is sound). Each table
    gets a new code: codes open a table's page and are never carried by a file.
    """
    if not actor.directs:
        raise Forbidden("only the director sets up an event")
    locked = _lock_event(event.pk)
    if Result.objects.filter(event=locked).exists():
        raise ServiceError("scores have been entered: the sections cannot change now",
                           field="sections")
    Section.objects.filter(event=locked).delete()
    pairs = {p.number: p for p in Pair.objects.filter(event=locked)}
    stored = []
    for row in sections:
        section = Section.objects.create(
            event=locked, name=row.name, movement=row.movement, variant=row.variant,
            tables=row.tables, boards_per_round=row.boards_per_round)
        Meeting.objects.bulk_create(
            Meeting(section=section, round=m.round, table=m.table, ns_pair=pairs[m.ns],
                    ew_pair=pairs[m.ew], boards=list(m.boards), agreed_at=m.agreed_at)
            for m in row.meetings)
        tables = sorted({m.table for m in row.meetings} | set(range(1, row.tables + 1)))
        for table in tables:
            section.table_codes.create(table=table, code=new_code())
        stored.append(section)
    by_name = {section.name: section for section in stored}
    members: dict[str | None, list[int]] = {}
    for number, name in pair_sections.items():
        members.setdefault(name, []).append(number)
    for name, numbers in members.items():
        Pair.objects.filter(event=locked, number__in=numbers).update(
            section=by_name[name] if name else None)
    if locked.compare_by_section != compare_by_section:
        locked.compare_by_section = compare_by_section
        locked.save(update_fields=["compare_by_section", "updated_at"])
    _audit(event=locked, actor=actor, action="sections",
           after={"sections": [s.name for s in stored],
                  "meetings": sum(len(row.meetings) for row in sections),
                  "compare_by_section": compare_by_section})
    return stored


IMPORT_BATCH = 1000


def _bulk(model, rows: Iterable) -> list:
    stored: list = []
    batch: list = []
    for row in rows:
        batch.append(row)
        if len(batch) >= IMPORT_BATCH:
            stored += model.objects.bulk_create(batch)
            batch = []
    if batch:
        stored += model.objects.bulk_create(batch)
    return stored


@transaction.atomic
def results_import(*, event: Event, rows: Sequence[ResultRow], actor: Actor,
                   event_history: Sequence[HistoryRow] = (), summary: dict | None = None
                   ) -> int:
    """Store a night file's results, rulings and removed results under the event lock.

    Rows are checked and scored by the caller (tournaments.nightfile); tens of thousands
    are stored with bulk_create. Each row's history becomes its audit entries, as they
    were (who, when, why, before and after); `event_history` the event's own entries
    that gave a reason. One "import" entry (with `summary`) records the import itself.
    Returns the number of rows stored.
    """
    if not actor.directs:
        raise Forbidden("only the director imports a night")
    locked = _lock_event(event.pk)
    _require_open(locked)
    boards = dict(Board.objects.filter(event=locked).values_list("number", "pk"))
    pairs = dict(Pair.objects.filter(event=locked).values_list("number", "pk"))
    meetings = {(section, rnd, table): pk for section, rnd, table, pk in
                Meeting.objects.filter(section__event=locked).values_list(
                    "section__name", "round", "table", "pk")}
    label = actor.label[:80]
    results = _bulk(Result, (
        Result(event=locked, board_id=boards[row.board], ns_pair_id=pairs[row.ns],
               ew_pair_id=pairs[row.ew],
               meeting_id=meetings[row.meeting] if row.meeting else None,
               entered_by=(row.entered_by or label)[:80], confirmed_by=row.confirmed_by[:80],
               status=row.status, voided=row.voided, seq=locked.seq, **row.fields)
        for row in rows))

    def entries(result: Result | None, history: Sequence[HistoryRow]):
        for item in history:
            yield AuditEntry(event=locked, result=result, action=item.action[:24],
                             actor_label=item.by[:80], before=item.before, after=item.after,
                             reason=item.reason)

    histories = [(None, event_history)] + [(result, row.history)
                                           for result, row in zip(results, rows, strict=True)
                                           if row.history]
    stored = _bulk(AuditEntry, (e for result, history in histories
                                for e in entries(result, history)))
    # `at` is set on creation (auto_now_add): put back each entry's own time, and link
    # each undone change to its undo, now that both have ids.
    start = 0
    for _, history in histories:
        block = stored[start:start + len(history)]
        start += len(history)
        for entry, item in zip(block, history, strict=True):
            entry.at = item.at
            if item.undone_by is not None:
                entry.undone_by_id = block[item.undone_by].pk
    AuditEntry.objects.bulk_update(stored, ["at", "undone_by"], batch_size=IMPORT_BATCH)
    _audit(event=locked, actor=actor, action="import", after=summary or {"results": len(rows)})
    return len(results)

def _publish_final(locked: Event, actor: Actor) -> None:
    """Final standings (the caller saves the row): the correction period, if any, is over."""
    before = {"published": locked.published}
    if locked.final_after is not None:
        before["final_after"] = locked.final_after.isoformat()
    locked.published = Event.Published.FINAL
    locked.final_after = None
    _audit(event=locked, actor=actor, action="publish", before=before,
           after={"published": Event.Published.FINAL})


def _due(event: Event, now=None) -> bool:
    return (event.status == Event.Status.CLOSED and event.final_after is not None
            and event.final_after <= (now or timezone.now()))


def _final_if_due(locked: Event) -> Event:
    if _due(locked):
        _publish_final(locked, Actor.system(FINAL_BY))
        locked.save(update_fields=["published", "final_after", "updated_at"])
    return locked


def event_final_if_due(*, event: Event) -> Event:
    """Publish final standings if the event's correction period is over; the event as it is.

    Idempotent and cheap when nothing is due (no query): the scheduled task calls it,
    and so does every page and API call that reads an event, so neither a lost task
    (a restart, no worker) nor an in-process set-up without Redis can miss the moment.
    """
    if not _due(event):
        return event
    with transaction.atomic():
        return _final_if_due(_lock_event(event.pk))


def events_final_due() -> int:
    """Publish final every event whose correction period is over; how many there were."""
    due = list(Event.objects.filter(status=Event.Status.CLOSED,
                                    final_after__lte=timezone.now()).values_list("pk", flat=True))
    for pk in due:
        with transaction.atomic():
            _final_if_due(_lock_event(pk))
    return len(due)


def _schedule_final(event_id: int, eta) -> None:
    """Ask a worker to publish final at the end of the correction period.

    In-process (no Redis) there is no worker and an eta would be ignored, so nothing is
    sent: the reads publish it (``event_final_if_due``). A broker that is down is no
    loss for the same reason.
    """
    if app.conf.task_always_eager:
        return
    try:
        app.send_task(FINAL_TASK, args=[event_id], eta=eta, ignore_result=True, retry=True,
                      retry_policy={"max_retries": 2, "interval_start": 0,
                                    "interval_step": 0.2, "interval_max": 0.2})
    except Exception:  # the broker is down: the next read of the event publishes it
        log.warning("could not schedule the final standings of event %s", event_id,
                    exc_info=True)
