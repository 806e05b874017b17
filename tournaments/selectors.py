"""Read-only queries: what the table pages, the director's console, the public pages,
the API and the printed reports read (the standings themselves are in ``standings``).

Nothing here writes. Terms: a *meeting* is one table in one round (two pairs and
the boards they play there); the *round grid* is every meeting of an event laid
out as rounds × tables, each cell counting its boards as missing, entered,
confirmed or agreed; the *seated meeting* of a table is the one its players are
at now: the lowest round there not yet agreed (or the last round, when all are);
a *traveller* is every result of one board, and a *score card* one pair's night
board by board, each with the plus/minus (or matchpoints) the standings gave it.
"""

from __future__ import annotations

import csv
import datetime
import functools
import io
import json
import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    JSONField,
    Model,
    OuterRef,
    Q,
    QuerySet,
    Value,
    When,
)
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init
from django.utils import timezone

from boards.movements import KINDS as MOVEMENT_KINDS
from boards.movements import (
    BoardsMove,
    Movement,
    PairCard,
    Seat,
    TableCard,
    board_range,
    boards_origin,
    movement_from_dict,
    movement_instructions,
    movement_title,
    pair_cards,
    table_cards,
    table_round,
)
from scoring.engine import (
    SEATS,
    ResultError,
    dealer_for_board,
    fraction_str,
    get_rules,
    honours_from_deal,
    parse_deal,
    rank,
)

from . import prepared, presenters, seam
from .models import (
    AuditEntry,
    Board,
    Event,
    Irregularity,
    Meeting,
    Pair,
    Player,
    Result,
    ScoreCardMail,
    Season,
    Section,
    Substitute,
    TableCode,
)
from .standings import (
    ROSTER_FIELDS,
    exact_scaled,
    pair_names,
    pair_state,
    pair_substitutes,
    roster_from_rows,
    shown_scaled,
    standings,
    team_awards,
)
from .tablecodes import normalise

# --- tables --------------------------------------------------------------------------------------


def table_by_code(code: str) -> TableCode | None:
    """The table a typed or scanned code opens, with its section and event; None if none."""
    code = normalise(code or "")
    if not code:
        return None
    # Codes are unique: no ordering to compile (this runs on every request of a table).
    return next(iter(TableCode.objects.select_related("section__event").filter(code=code)
                     .order_by()[:1]), None)


def table_meetings(section: Section | int, table: int) -> list[Meeting]:
    """Every round this table plays, in order, with the pairs' names; each meeting's
    `ns_players` and `ew_players` say who sits there that round, substitutes in."""
    meetings = list(
        Meeting.objects.filter(section=section, table=table)
        .select_related("ns_pair__player_1", "ns_pair__player_2",
                        "ew_pair__player_1", "ew_pair__player_2")
        .order_by("round")
    )
    pair_ids = {p for m in meetings for p in (m.ns_pair_id, m.ew_pair_id)}
    subs = list(Substitute.objects.filter(pair_id__in=pair_ids).select_related("player")
                .order_by("from_round", "id"))
    for m in meetings:
        for side, pair in (("ns", m.ns_pair), ("ew", m.ew_pair)):
            names = pair.names
            for sub in subs:
                if sub.pair_id == pair.pk and sub.from_round <= m.round:
                    names[sub.seat - 1] = sub.player.name
            setattr(m, f"{side}_players", presenters.pair_names(names))
    return meetings


def current_meeting(meetings: list[Meeting]) -> Meeting | None:
    """The lowest round not yet agreed; the last round once every round is agreed."""
    for meeting in meetings:
        if meeting.agreed_at is None:
            return meeting
    return meetings[-1] if meetings else None


def table_rounds(section: Section | int, table: int) -> list[Meeting]:
    """Every round this table plays, in order, without the pairs (what its state needs:
    which rounds are agreed, the boards, the director's leave to play late)."""
    return list(Meeting.objects.filter(section=section, table=table)
                .only("id", "section_id", "round", "table", "boards", "agreed_at", "late_boards")
                .order_by("round"))


@dataclass(frozen=True)
class TableStateInputs:
    """What a table's round state is made of (its event as the live polls know it, and
    round by round whether the table's meeting is agreed)."""

    event_id: int
    seq: int
    status: str
    published: str
    final_after: Any
    rounds: list[tuple[int, bool]]


def table_state_inputs(code: str) -> TableStateInputs | None:
    """What a table's round state is made of, by its code, in one query; None for a code
    no table has, or a table with no rounds."""
    code = normalise(code or "")
    if prepared.available():  # a statement planned once per connection: 1,000 phones poll
        rows = prepared.fetchall(_table_state_sql(), [code]) if code else []
    else:
        rows = list(Meeting.objects
                    .filter(section__table_codes__code=code,
                            table=F("section__table_codes__table"))
                    .order_by("round")
                    .values_list("section__event_id", "section__event__seq",
                                 "section__event__status", "section__event__published",
                                 "section__event__final_after", "round", "agreed_at"))
    if not rows:
        return None
    return TableStateInputs(*rows[0][:5], rounds=[(r[5], r[6] is not None) for r in rows])


@functools.cache
def _table_state_sql() -> str:
    """table_state_inputs's read, as the ORM writes it, for a prepared statement."""
    return (f"SELECT s.event_id, e.seq, e.status, e.published, e.final_after, m.round, "  # noqa: S608
            f"m.agreed_at FROM {TableCode._meta.db_table} c "
            f"JOIN {Section._meta.db_table} s ON s.id = c.section_id "
            f"JOIN {Event._meta.db_table} e ON e.id = s.event_id "
            f"JOIN {Meeting._meta.db_table} m "
            f'ON m.section_id = c.section_id AND m."table" = c."table" '
            "WHERE c.code = %s::text ORDER BY m.round")


def seated_meeting(section: Section | int, table: int) -> Meeting | None:
    """The meeting the players at this table are at now (current_meeting's rule)."""
    return current_meeting(table_meetings(section, table))


def seated_round(section: Section | int, table: int) -> Meeting | None:
    """seated_meeting's meeting with only its round and agreement read (one light query):
    what a write asks to know which round the table is at."""
    return current_meeting(list(Meeting.objects.filter(section=section, table=table)
                                .order_by("round").only("id", "round", "agreed_at")))


@dataclass(frozen=True)
class TableEntry:
    """What a table's entry of one board needs, read in one query: the meeting at this
    table in this round (its pairs and section; None if the table plays no such round)
    and the board (None if the event has no such board)."""

    meeting: Meeting | None
    board: Board | None


def table_entry(section: Section, table: int, round_number: int, board: int) -> TableEntry:
    """The meeting at `table` of `section` in `round_number`, with its section and pairs,
    and the event's board `board`, in one statement (a table's every entry runs it, so its
    SQL is made once, not compiled by the ORM each time)."""
    with connection.cursor() as cursor:
        cursor.execute(_table_entry_sql(), [board, section.pk, table, round_number])
        row = cursor.fetchone()
    if row is None:
        return TableEntry(None, None)
    return _entry_of(row, section.event_id, board)


def table_code_entry(code: str, round_number: int, board: int
                     ) -> tuple[TableCode | None, TableEntry]:
    """The table a code opens (with its section and event) and that table's entry of
    `board` in `round_number` (as table_entry gives it), in one statement: all a table's
    result entry reads before its write. (None, an empty entry) for a code no table has."""
    read = _code_read(_table_code_entry_sql(), [round_number, board], code)
    if read is None:
        return None, TableEntry(None, None)
    table_code, row = read
    event_id = table_code.section.event_id
    if row[0] is None:  # the table plays no such round
        found = None if row[-2] is None else Board(id=row[-2], event_id=event_id,
                                                   number=board, deal=row[-1])
        return table_code, TableEntry(None, found)
    return table_code, _entry_of(row, event_id, board)


def table_code_result(code: str, result_id: int) -> tuple[TableCode | None, Result | None]:
    """The table a code opens (with its section and event) and result `result_id` of that
    event, with its board, pairs, event and meeting (the meeting's section: the code's, when
    it is the table's own section; else the meeting is read without it), in one statement:
    all the opponents' confirm at a table reads before its write. (None, None) for a code
    no table has; (table code, None) for a result the event does not have."""
    read = _code_read(_table_code_result_sql(), [result_id], code)
    if read is None:
        return None, None
    table_code, row = read
    section, event = table_code.section, table_code.section.event
    if row[0] is None:
        return table_code, None
    (result, board, ns_pair, ew_pair), start = _instances(row, (Result, Board, Pair, Pair))
    # The result is found by its id alone, its event compared here: joined on its event
    # too, the planner could take the result's event index and filter the whole night's
    # results for the id (it did, on tables whose statistics had not caught up).
    if result.event_id != event.pk:
        return table_code, None
    result.event, result.board, result.ns_pair, result.ew_pair = event, board, ns_pair, ew_pair
    meeting_row = row[len(row) - len(Meeting._meta.concrete_fields):]
    if meeting_row[0] is not None:
        (meeting,), _ = _instances(meeting_row, (Meeting,))
        if meeting.section_id == section.pk:
            meeting.section = section
        result.meeting = meeting
    return table_code, result


def table_code_pair_result(code: str, round_number: int, board: int
                           ) -> tuple[TableCode | None, Meeting | None, Result | None]:
    """The table a code opens (with its section and event), its meeting of `round_number`
    (with its pairs and section) and the live result of `board` between those pairs,
    wherever it was entered (pair_result's; with its board, pairs, event, and its meeting
    when that is this one), in one statement: all the opponents' confirm on the table page
    reads before its write. Nones for what is not there."""
    read = _code_read(_table_code_pair_result_sql(), [round_number, board], code)
    if read is None:
        return None, None, None
    table_code, row = read
    section, event = table_code.section, table_code.section.event
    if row[0] is None:
        return table_code, None, None
    (meeting, ns_pair, ew_pair), start = _instances(row, (Meeting, Pair, Pair))
    meeting.section, meeting.ns_pair, meeting.ew_pair = section, ns_pair, ew_pair
    row = row[start:]
    if row[0] is None:
        return table_code, meeting, None
    (result, board_row), _ = _instances(row, (Result, Board))
    result.event, result.board, result.ns_pair, result.ew_pair = (event, board_row, ns_pair,
                                                                  ew_pair)
    if result.meeting_id == meeting.pk:
        result.meeting = meeting
    return table_code, meeting, result


def table_code_meeting(code: str, round_number: int
                       ) -> tuple[TableCode | None, Meeting | None]:
    """The table a code opens (with its section and event) and that table's meeting of
    `round_number` (without its pairs; its section set), in one statement: all a table's
    agreement of its round reads before its write. (None, None) for a code no table has;
    the meeting None when the table plays no such round."""
    read = _code_read(_table_code_meeting_sql(), [round_number], code)
    if read is None:
        return None, None
    table_code, row = read
    if row[0] is None:  # the table plays no such round
        return table_code, None
    (meeting,), _ = _instances(row, (Meeting,))
    meeting.section = table_code.section
    return table_code, meeting


def _code_read(sql: str, params: list, code: str) -> tuple[TableCode, tuple] | None:
    """One prepared read starting with the code's table, section and event (the code its
    last parameter): the table code (its section and event set) and the rest of the row;
    None for a code no table has."""
    code = normalise(code or "")
    if not code:
        return None
    row = prepared.fetchone(sql, [*params, code])
    if row is None:
        return None
    (table_code, section, event), start = _instances(row, (TableCode, Section, Event))
    table_code.section, section.event = section, event
    return table_code, row[start:]


def _instances(row: tuple, models: tuple) -> tuple[list, int]:
    """Model instances from a row holding each model's concrete columns in turn; the
    instances and where the row's next column is."""
    parts, start, db = [], 0, connections[DEFAULT_DB_ALIAS]
    for model in models:
        attnames, converters, plain = _model_columns(model)
        end = start + len(attnames)
        values = list(row[start:end])
        for i, convert in converters:
            values[i] = convert(values[i], None, db)
        if plain and not (pre_init.receivers or post_init.receivers):
            parts.append(_loaded(model, db.alias, attnames, values))
        else:
            parts.append(model.from_db(db.alias, attnames, values))
        start = end
    return parts, start


def _loaded(model: type[Model], alias: str, attnames: list[str], values: list) -> Model:
    """The instance ``model.from_db`` gives for a whole row, without ``Model.__init__``: each
    value put where __init__ puts it, the instance's ``__dict__`` (for a model whose every
    column is a plain attribute, as _model_columns says, and with no receiver of the
    init signals). A table's every write reads its table, section, event and meeting, and
    __init__ took about five times as long for each."""
    instance = model.__new__(model)
    instance._state = state = ModelState()
    state.adding, state.db = False, alias
    instance.__dict__.update(zip(attnames, values, strict=True))
    return instance


@functools.cache
def _model_columns(model) -> tuple[list[str], tuple[tuple[int, Callable], ...], bool]:
    """`model`'s concrete columns as _instances reads them: their attribute names, where a
    field converts the value read (its from_db_value), and whether _loaded may make its
    instances: its ``from_db`` is Django's own, and each column is a plain attribute (no
    descriptor of its own that would do more than keep the value)."""
    fields = model._meta.concrete_fields
    plain = model.from_db.__func__ is Model.from_db.__func__ and all(
        type(next(k.__dict__[f.attname] for k in model.__mro__ if f.attname in k.__dict__))
        in (DeferredAttribute, ForeignKeyDeferredAttribute) for f in fields)
    return ([f.attname for f in fields],
            tuple((i, f.from_db_value) for i, f in enumerate(fields)
                  if hasattr(f, "from_db_value")),
            plain)


def _entry_of(row: tuple, event_id: int, board: int) -> TableEntry:
    (meeting, meeting.section, meeting.ns_pair, meeting.ew_pair), start = _instances(
        row, (Meeting, Section, Pair, Pair))
    board_id, deal = row[start:]
    found = None if board_id is None else Board(id=board_id, event_id=event_id,
                                                number=board, deal=deal)
    return TableEntry(meeting, found)


def _columns(model, alias: str) -> str:
    return ", ".join(f"{alias}.{connection.ops.quote_name(f.column)}"
                     for f in model._meta.concrete_fields)


@functools.cache
def _table_entry_sql() -> str:
    table = connection.ops.quote_name("table")
    return (f"SELECT {_columns(Meeting, 'm')}, {_columns(Section, 's')}, "  # noqa: S608
            f"{_columns(Pair, 'np')}, {_columns(Pair, 'ep')}, b.id, b.deal "
            f"FROM {Meeting._meta.db_table} m "
            f"JOIN {Section._meta.db_table} s ON s.id = m.section_id "
            f"JOIN {Pair._meta.db_table} np ON np.id = m.ns_pair_id "
            f"JOIN {Pair._meta.db_table} ep ON ep.id = m.ew_pair_id "
            f"LEFT JOIN {Board._meta.db_table} b ON b.event_id = s.event_id AND b.number = %s "
            f"WHERE m.section_id = %s AND m.{table} = %s AND m.round = %s")


def _code_head(columns: str) -> str:
    """The start of a read from a table's code: the code's table, section and event, then
    `columns`, from the code's row joined to its section and event (aliases c, s, e)."""
    return (f"SELECT {_columns(TableCode, 'c')}, {_columns(Section, 's')}, "  # noqa: S608
            f"{_columns(Event, 'e')}, {columns} FROM {TableCode._meta.db_table} c "
            f"JOIN {Section._meta.db_table} s ON s.id = c.section_id "
            f"JOIN {Event._meta.db_table} e ON e.id = s.event_id ")


@functools.cache
def _table_code_pair_result_sql() -> str:
    m, r, b = Meeting._meta.db_table, Result._meta.db_table, Board._meta.db_table
    return _code_head(
        f"{_columns(Meeting, 'm')}, {_columns(Pair, 'np')}, {_columns(Pair, 'ep')}, "
        f"{_columns(Result, 'r')}, {_columns(Board, 'b')}"
    ) + (f"LEFT JOIN {m} m ON {_MEETING_OF_ROUND} " + _PAIRS_OF_MEETING +  # noqa: S608
         f"LEFT JOIN {b} b ON b.event_id = s.event_id AND b.number = %s::integer "
         f"LEFT JOIN {r} r ON r.board_id = b.id AND r.ns_pair_id = m.ns_pair_id "
         "AND r.ew_pair_id = m.ew_pair_id AND NOT r.voided WHERE c.code = %s::text")


@functools.cache
def _table_code_result_sql() -> str:
    p = Pair._meta.db_table
    return _code_head(
        f"{_columns(Result, 'r')}, {_columns(Board, 'b')}, {_columns(Pair, 'np')}, "
        f"{_columns(Pair, 'ep')}, {_columns(Meeting, 'm')}"
    ) + (f"LEFT JOIN {Result._meta.db_table} r ON r.id = %s::bigint "  # noqa: S608
         f"LEFT JOIN {Board._meta.db_table} b ON b.id = r.board_id "
         f"LEFT JOIN {p} np ON np.id = r.ns_pair_id LEFT JOIN {p} ep ON ep.id = r.ew_pair_id "
         f"LEFT JOIN {Meeting._meta.db_table} m ON m.id = r.meeting_id "
         "WHERE c.code = %s::text")


@functools.cache
def _table_code_entry_sql() -> str:
    return _code_head(
        f"{_columns(Meeting, 'm')}, {_columns(Section, 's')}, {_columns(Pair, 'np')}, "
        f"{_columns(Pair, 'ep')}, b.id, b.deal"
    ) + (f"LEFT JOIN {Meeting._meta.db_table} m ON {_MEETING_OF_ROUND} "  # noqa: S608
         + _PAIRS_OF_MEETING +
         f"LEFT JOIN {Board._meta.db_table} b ON b.event_id = s.event_id "
         "AND b.number = %s::integer WHERE c.code = %s::text")


@functools.cache
def _table_code_meeting_sql() -> str:
    return _code_head(f"{_columns(Meeting, 'm')}") + (  # noqa: S608
        f"LEFT JOIN {Meeting._meta.db_table} m ON {_MEETING_OF_ROUND} WHERE c.code = %s::text")


# The code's table's meeting of the round (the first parameter), and that meeting's pairs.
_MEETING_OF_ROUND = ('m.section_id = c.section_id AND m."table" = c."table" '
                     "AND m.round = %s::integer")
_PAIRS_OF_MEETING = (f"LEFT JOIN {Pair._meta.db_table} np ON np.id = m.ns_pair_id "
                     f"LEFT JOIN {Pair._meta.db_table} ep ON ep.id = m.ew_pair_id ")


def late_leave(late_boards: list | None, board: int | None) -> bool:
    """Has the director given leave to play `board` late (a meeting's `late_boards`)?"""
    return board is not None and board in (late_boards or [])


def table_sits_out(section: Section | int, table: int, meetings: list[Meeting]
                   ) -> int | None:
    """The round this table sits out now, or None. The table sits out the rounds between
    its last meeting and the one it is seated at (its pair meets the movement's missing
    pair then, or a pair that has left), while the section is still playing them."""
    seated = current_meeting(meetings)
    if seated is None or seated.agreed_at is not None:
        return None
    start = max((m.round for m in meetings if m.round < seated.round), default=None)
    if start is None:
        return None  # no game here yet: the table opens later (table_opens)
    if start + 1 >= seated.round:
        return None
    return (Meeting.objects.filter(section=section, round__gt=start, round__lt=seated.round,
                                   agreed_at__isnull=True)
            .order_by("round").values_list("round", flat=True).first())


def table_opens(section: Section | int, meetings: list[Meeting]) -> int | None:
    """The round a table first plays, while the section still plays an earlier one (a
    table a movement change or a late pair added): its page says it opens then, not that
    a pair sits out here. None once it is in play, or for a table playing from round 1."""
    seated = current_meeting(meetings)
    if (seated is None or seated.agreed_at is not None or seated.round == 1
            or any(m.round < seated.round for m in meetings)):
        return None
    earlier = Meeting.objects.filter(section=section, round__lt=seated.round,
                                     agreed_at__isnull=True).exists()
    return seated.round if earlier else None


def later_round_refusal(meeting: Meeting, seated: Meeting | None, board: int | None = None
                        ) -> str:
    """Why a table may not enter (or confirm, or change) `board` of `meeting` yet, or any
    board of it when `board` is None; "" if it may.

    A table enters the boards of the round it is at now (its seated meeting): the players
    have the boards of a later round not yet in front of them, so a result for one is a
    mistake, or a guess. Earlier rounds stay open until they are agreed (Duplicate Law E,
    checked apart). The director's own entries are not held to this, nor a board the
    director has given the table leave to play late (``Meeting.late_boards``).
    """
    if seated is None or meeting.round <= seated.round or late_leave(meeting.late_boards, board):
        return ""
    # The pairs of the next round may have sat down before the last was agreed: say what
    # finishes it, not only that this round is not open.
    then = (f"finish round {seated.round} first (its boards entered and confirmed, then "
            f"agreed on its page), or call the director.")
    if board is None:
        return (f"Round {meeting.round} is not played here yet: this table is still in "
                f"round {seated.round}. {presenters.sentence(then)}")
    return (f"Board {board} is played in round {meeting.round}: this table is still in "
            f"round {seated.round}. {presenters.sentence(then)}")


@dataclass(frozen=True)
class LatePlay:
    """A board a table has the director's leave to play late (out of order, at the end
    of the session), in one of its meetings."""

    round: int
    board: int
    ns: int
    ew: int

    def __str__(self) -> str:
        return (f"Late play: board {self.board} (round {self.round}, pair {self.ns} "
                f"against pair {self.ew})")


def late_play_boards(meetings: list[Meeting]) -> list[LatePlay]:
    """The boards these meetings (a table's) have leave to play late, by round: out of
    order, so not the round the table is at (a leave there, a new deal's under Duplicate
    Law B(3), is a board of its round like the others)."""
    seated = current_meeting(meetings)
    return [LatePlay(round=m.round, board=b, ns=m.ns_pair.number, ew=m.ew_pair.number)
            for m in sorted(meetings, key=lambda m: m.round)
            for b in m.boards if late_leave(m.late_boards, b) and not in_its_round(m, seated)]


def in_its_round(meeting: Meeting, seated: Meeting | None) -> bool:
    """Is `meeting` the round its table is at now (`seated`, current_meeting's), not yet
    agreed? A board of it is played in its round, with or without the director's leave (a
    new deal's, Duplicate Law B(3)): not late."""
    return seated is not None and seated.pk == meeting.pk and seated.agreed_at is None


@dataclass
class BoardLine:
    """One board of a meeting as the table page shows it."""

    number: int
    result: Result | None
    traveller: bool = False  # may the players now seated see its traveller?

    @property
    def status(self) -> str:
        """missing | entered | confirmed (a director's entry or ruling counts as confirmed)."""
        if self.result is None:
            return "missing"
        if self.result.status == Result.Status.ENTERED:
            return "entered"
        return "confirmed"


def meeting_boards(meeting: Meeting) -> list[BoardLine]:
    """The boards of a meeting with the live result of each (None where none yet)."""
    results = {
        r.board.number: r
        for r in Result.objects.filter(meeting=meeting, voided=False).select_related(
            "board", "ns_pair", "ew_pair")
    }
    return [BoardLine(number=n, result=results.get(n)) for n in meeting.boards]


def meeting_result(meeting: Meeting, board: int) -> Result | None:
    return (
        Result.objects.filter(meeting=meeting, voided=False, board__number=board)
        .select_related("board", "ns_pair", "ew_pair", "event")
        .first()
    )


def pair_result(event: Event, board: int, ns: int, ew: int) -> Result | None:
    """The live result of `board` between these two pairs, wherever it was entered."""
    return (
        Result.objects.filter(event=event, voided=False, board__number=board,
                              ns_pair__number=ns, ew_pair__number=ew)
        .select_related("board", "ns_pair", "ew_pair", "event")
        .first()
    )


# --- scores to show ------------------------------------------------------------------------------


def result_preview(event: Event, board: Board, data: Any, *, live: bool = False) -> dict:
    """Score a result as entered, without storing anything (the live preview).

    Returns {"ok": True, "score": <deal score of interfaces.md §1>, "honours": {...}
    or None, "honours_from_deal": bool, "warnings": [{code, field, message}]} or
    {"ok": False, "field": ..., "message": ...}. `live`: the rules of live entry (every
    honour given when the hand record does not give them; warnings for what is unusual),
    as the services apply them to a table or the director; off for a stored result.
    """
    rules = get_rules(event.rules)
    try:
        parsed, deal_score, warnings = seam.scored(
            rules_name=event.rules, board_number=board.number, deal=board.deal, data=data,
            live=live)
    except ResultError as exc:
        return {"ok": False, "field": exc.field, "message": presenters.sentence(exc.message)}
    score = deal_score.to_dict()
    for item in score["items"]:
        item["law_text"] = presenters.law_text(item["law"])
        item["side_text"] = presenters.side(item["side"])
        item["line"] = presenters.score_item(item, is_whist=rules.is_whist)
    honours = None
    if not rules.is_whist and parsed.contract is not None:
        honours = dict(zip(SEATS, parsed.honours, strict=True))
    return {
        "ok": True,
        "score": score,
        "honours": honours,
        "honours_from_deal": bool(board.deal) and honours is not None
        and "honours" not in data,
        "warnings": [w.to_dict() for w in warnings],
    }


def result_score(result: Result) -> dict | None:
    """A stored result's score with its items and laws (recomputed; None for a ruling)."""
    data = seam.engine_input(result, is_whist=result.event.is_whist)
    if data is None:
        return None
    preview = result_preview(result.event, result.board, data)
    return preview["score"] if preview["ok"] else None


def deal_honours(board: Board, denomination: str) -> dict[str, int] | None:
    """Honours each seat holds in `denomination`, from the hand record (None if no deal)."""
    if not board.deal or not denomination:
        return None
    return honours_from_deal(board.deal, denomination)


# A result and its score in the words of a page: written by the presenters (one place for
# how a contract, a ruling and a score read), kept here under the names the views use.
describe = presenters.result_line
describe_score = presenters.score_line


# --- travellers and score cards --------------------------------------------------------------


def _meetings_by_pairs(event: Event) -> dict[tuple[int, int], tuple[int, int]]:
    """Where each pairing met: (N-S pair, E-W pair) -> (round, table)."""
    meetings = Meeting.objects.filter(section__event=event).values_list(
        "ns_pair__number", "ew_pair__number", "round", "table")
    return {(ns, ew): (rnd, table) for ns, ew, rnd, table in meetings}


# What a traveller or a score card reads of each result: one query for a whole event.
RESULT_FIELDS = (
    "id", "board__number", "ns_pair_id", "ew_pair_id", "ns_pair__number", "ew_pair__number",
    "meeting_id", "ruling", "offending", "ns_adjust", "ew_adjust", "level", "denomination",
    "declarer", "doubled", "tricks", "passed_out", "ns_trick", "ns_honour", "ew_trick",
    "ew_honour", "ns_score", "ew_score", "status", "late_play",
    # The round each pair left after (decision 103), on the pairs already joined for
    # their numbers: a board not played because one left says so, with no query more.
    "ns_pair__left_after_round", "ew_pair__left_after_round",
)


def _results(event: Event, only: Q | None = None) -> list[dict]:
    """The event's live results as dicts of RESULT_FIELDS (board and pair numbers as
    "board", "ns", "ew"), by board, N-S pair and id; ``details`` only where an assigned
    score may keep E-W's own result in it, or the play had a revoke or a penalty, which
    the traveller names (the others do not need it, and reading every result's JSON is
    most of the cost of a big event).

    The rows come through a bare cursor, as the standings' (``standings._fetch``): the
    ORM builds the SQL, the driver alone turns a big event's rows into tuples."""
    rows = Result.objects.filter(event=event, voided=False)
    if only is not None:
        rows = rows.filter(only)
    sql, params = (rows.annotate(assigned_details=Case(
        When(Q(ruling="assigned") | Q(details__has_key="revokes")
             | Q(details__has_key="penalties"), then=F("details")),
        default=Value(None), output_field=JSONField()))
        .order_by("board__number", "ns_pair__number", "id")
        .values_list(*RESULT_FIELDS, "assigned_details").query.sql_with_params())
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    names = ("result_id", "board", *RESULT_FIELDS[2:4], "ns", "ew", *RESULT_FIELDS[6:-2],
             "ns_left", "ew_left", "details")
    out = [dict(zip(names, values, strict=True)) for values in fetched]
    for r in out:
        if isinstance(r["details"], str):  # the driver leaves JSON to the ORM: read it
            r["details"] = json.loads(r["details"])
    return out


def _net_ns(r: dict) -> int | None:
    # A split score's two sides come from two results: no one net.
    if r["ns_trick"] is None or _split(r):
        return None
    return r["ns_trick"] + r["ns_honour"] - (r["ew_trick"] + r["ew_honour"])


def travellers(event: Event, numbers: list[int] | None = None, *,
               progress: Callable[[int, int], None] | None = None) -> list[dict]:
    """Every board's traveller (``traveller``), in board order: one query for the results
    of all of them. `numbers`: only these boards; `progress(done, total)` is called as
    each board's traveller is made."""
    boards = event.boards.order_by("number")
    if numbers is not None:
        boards = boards.filter(number__in=numbers)
    return _travellers(event, list(boards.values_list("number", "deal")), progress)


def _travellers(event: Event, boards: list[tuple[int, str]],
                progress: Callable[[int, int], None] | None = None) -> list[dict]:
    state = pair_state(event) if event.kind == "pairs" else None
    names = state.names_for(event) if state else pair_names(event)
    # Compared within each section (Duplicate Law H, decision 125): each section's rows
    # together, each with its section's average (a result's section is its N-S pair's,
    # as the standings group it).
    by_section = (state is not None and event.compare_by_section
                  and len(set(state.sections.values())) > 1)
    # A team match's average or fouled board scores an award (Duplicate Law B(3) with Law
    # G): the traveller says it where the ruling stands, as the score cards add it.
    awards = team_awards(event) if event.kind == "teams" else {}
    teams = _teams_by_pair(event) if event.kind == "teams" else {}
    where = _meetings_by_pairs(event)
    only = Q(board__number=boards[0][0]) if len(boards) == 1 else None
    results = _results(event, only)
    left = _left_unplayed(results)  # a board not played, who left (read with them)
    by_board: dict[int, list[dict]] = defaultdict(list)
    for r in results:
        by_board[r["board"]].append(r)
    notes = board_notes(event, [number for number, _deal in boards])
    out = []
    for number, deal in boards:
        rows = []
        for r in by_board.get(number, ()):
            ns, ew = r["ns"], r["ew"]
            scaled = state.result_scaled(r["result_id"]) if state else None
            rnd, table = where.get((ns, ew), (None, None))
            rows.append({
                "result_id": r["result_id"], "ns": ns, "ew": ew,
                "ns_names": names.get(ns, []), "ew_names": names.get(ew, []),
                "ruling": r["ruling"], "offending": r["offending"],
                "ns_adjust": r["ns_adjust"], "ew_adjust": r["ew_adjust"],
                "adjustment": presenters.adjustment(r) if r["ruling"] else "",
                "level": r["level"], "denomination": r["denomination"],
                "declarer": r["declarer"], "doubled": r["doubled"], "tricks": r["tricks"],
                "passed_out": r["passed_out"],
                "ns_trick": r["ns_trick"], "ns_honour": r["ns_honour"],
                "ew_trick": r["ew_trick"], "ew_honour": r["ew_honour"],
                "net_ns": _net_ns(r),
                "ns_score": r["ns_score"], "ew_score": r["ew_score"],
                "ns_plus_minus": None if scaled is None else exact_scaled(scaled[1], scaled[0]),
                "ew_plus_minus": None if scaled is None else exact_scaled(scaled[2], scaled[0]),
                "ns_shown": None if scaled is None else shown_scaled(scaled[1], scaled[0]),
                "ew_shown": None if scaled is None else shown_scaled(scaled[2], scaled[0]),
                "status": r["status"], "round": rnd, "table": table,
                "late_play": r["late_play"],
                "marks": _row_marks(r, event.is_whist),
                "section": state.sections.get(ns, "") if by_section else "",
                "award": ([fraction_str(v) for v in awards[r["result_id"]]]
                          if r["ruling"] and awards.get(r["result_id"]) else None),
                "left": left.get(r["result_id"]),
            })
        if by_section:
            rows.sort(key=lambda row: row["section"])  # stable: each section's in N-S order
        # Played and assigned results enter the average (an assigned score is compared as
        # if played); rulings and adjusted scores do not. Only the pair contest against the
        # average (Duplicate Law H) has one: a team match (Law G) compares totals won, and
        # matchpoints compare the scores themselves.
        real = [r for r in rows if r["ruling"] in ("", "assigned") and r["ns_score"] is not None]
        average, section_averages = None, []
        if real and event.method == "plus-minus":
            groups: dict[str, list[dict]] = defaultdict(list)
            for r in real:
                groups[r["section"]].append(r)
            averages = [{"section": name,
                         "ns": fraction_str(Fraction(sum(r["ns_score"] for r in group),
                                                     len(group))),
                         "ew": fraction_str(Fraction(sum(r["ew_score"] for r in group),
                                                     len(group)))}
                        for name, group in sorted(groups.items())]
            if by_section:
                section_averages = averages  # no one average: each section has its own
            else:
                average = {"ns": averages[0]["ns"], "ew": averages[0]["ew"]}
        if state is not None:
            _artificial_awards(rows, real, event.method)
        out.append({
            "board": number,
            "dealer": dealer_for_board(number),
            "deal": deal,
            "hands": parse_deal(deal) if deal else None,
            "method": event.method,
            "average": average,
            "by_section": by_section,
            "section_averages": section_averages,
            "rows": rows,
            # Duplicate Law B: re-dealt, sent back, or the ruling at a table (a marked note).
            "notes": notes.get(number, []),
            "teams": _board_teams(rows, teams, awards) if teams else [],
            "factored": (_factored(real, state.expected)
                         if state is not None and event.method == "matchpoints" else []),
        })
        if progress is not None:
            progress(len(out), len(boards))
    return out


def _teams_by_pair(event: Event) -> dict[int, tuple[int, str, tuple[int, ...]]]:
    """A team event's pairs: each pair's team as (the team's place in the order the teams
    were entered, its name, its pairs' numbers)."""
    rows = list(Pair.objects.filter(event=event, team__isnull=False)
                .order_by("team_id", "number").values_list("number", "team_id", "team__name"))
    numbers: dict[int, list[int]] = defaultdict(list)
    for number, team, _name in rows:
        numbers[team].append(number)
    order = {team: i for i, team in enumerate(sorted(numbers))}
    return {number: (order[team], name, tuple(numbers[team]))
            for number, team, name in rows}


def _board_teams(rows: list[dict], teams: dict[int, tuple[int, str, tuple[int, ...]]],
                 awards: dict[int, tuple[Fraction, Fraction] | None]) -> list[list[dict]]:
    """A team match's board (Duplicate Law G): what each team's pairs won on it, match by
    match, each team as {"team", "pairs", "won"}; "won" is exact text (the totals, trick
    + honour, its pairs won at their tables, a ruled board's award counted as the
    standings count it), None for a board left out of the match (cancelled, or not
    played at one of its tables). The odd-pair average is the match's, not a board's."""
    matches: dict[frozenset, dict[tuple[int, str, tuple[int, ...]], Fraction | None]] = {}
    for r in rows:
        ns, ew = teams.get(r["ns"]), teams.get(r["ew"])
        if ns is None or ew is None or ns == ew:
            continue
        won = matches.setdefault(frozenset((ns, ew)), {ns: None, ew: None})
        award = awards.get(r["result_id"])
        if award is not None:
            won[ns] = (won[ns] or 0) + award[0]
            won[ew] = (won[ew] or 0) + award[1]
    return sorted(([{"team": name, "pairs": list(pairs),
                     "won": None if value is None else fraction_str(value)}
                    for (_i, name, pairs), value in sorted(won.items())]
                   for won in matches.values()), key=lambda match: match[0]["pairs"])


def _factored(real: list[dict], expected: int) -> list[dict]:
    """A matchpoint board played fewer times than the most played (a board not played at
    a table, an average ruling, a late pair): the standings factor its matchpoints up by
    Neuberg's formula to `expected` results (the engine's matchpoints_scaled, given
    PairState.expected). Per comparison group (each section, where each is compared
    alone; else one): {"section", "played", "top", "scaled_top"}, tops on the 2/1 scale;
    [] for a board played as often as the most."""
    played: dict[str, int] = defaultdict(int)
    for r in real:
        played[r["section"]] += 1
    return [{"section": name, "played": n, "top": 2 * (n - 1),
             "scaled_top": 2 * (expected - 1)}
            for name, n in sorted(played.items()) if expected and n != expected]


def _artificial_awards(rows: list[dict], real: list[dict], method: str) -> None:
    """A pair contest's average or fouled board (Duplicate Law B(3)): the score it gives, as
    ``award`` (N-S, E-W), so a director can check it by hand ("awarded N–S 4, E–W 9"). A
    fouled board gives the offending pair the lowest score made on the deal in its
    direction and its opponents the highest; an average gives each pair the average score
    (against the average, plus/minus; at matchpoints it scores half the top, no score).
    The real results are those the standings compare: played and assigned ones, of the
    row's section where each section is compared alone. None where no real result is there
    (the engine then scores a fouled board an average too)."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in real:
        groups[r["section"]].append(r)
    for row in rows:
        group = groups.get(row["section"])
        if row["ruling"] not in ("average", "fouled") or row["award"] or not group:
            continue
        ns = [r["ns_score"] for r in group]
        ew = [r["ew_score"] for r in group]
        if row["ruling"] == "fouled":
            # Law B(3): "his pair is given the lowest score and his opponents the highest".
            award = ((min(ns), max(ew)) if row["offending"] == "ns" else (max(ns), min(ew)))
        elif method == "plus-minus":
            award = (Fraction(sum(ns), len(ns)), Fraction(sum(ew), len(ew)))
        else:
            continue
        row["award"] = [fraction_str(v) for v in award]


def traveller(event: Event, board_number: int) -> dict:
    """Every result of one board: contract, tricks, both sides' columns, plus/minus."""
    board = event.boards.get(number=board_number)
    return _travellers(event, [(board.number, board.deal)])[0]


def _split(result: dict) -> bool:
    return result["ruling"] == "assigned" and "ew_result" in (result["details"] or {})


def _row_marks(r: dict, is_whist: bool) -> list[str]:
    """What a result row's line does not say but its score counts ("a revoke by E–W"), for
    the traveller and the score card alike: [] for a ruling, or a row with no details
    (``_results`` reads them only where there are revokes, penalties or an assignment)."""
    return (presenters.result_marks(r, is_whist=is_whist)
            if r["details"] and not r["ruling"] else [])


def _card_awards(event: Event, state: Any, results: list[dict],
                 team: dict[int, tuple[Fraction, Fraction] | None] | None, *,
                 whole: bool) -> dict[int, list[str]]:
    """The award of each ruled result among `results` as its traveller gives it (exact
    text, N-S and E-W), by result id, for the score cards: a team match's (``team_awards``)
    or a pair contest's average or fouled board (``_artificial_awards``, against the real
    results of the board, of the row's section where each section is compared alone).
    `whole`: `results` are all the event's; else those boards' results are read."""
    if team is not None:
        return {r["result_id"]: [fraction_str(v) for v in team[r["result_id"]]]
                for r in results if r["ruling"] and team.get(r["result_id"])}
    ruled = [r for r in results if r["ruling"] in ("average", "fouled")]
    if state is None or not ruled:
        return {}
    state.names_for(event)  # the pairs' sections, as the traveller reads them
    by_section = event.compare_by_section and len(set(state.sections.values())) > 1
    boards = {r["board"] for r in ruled}
    pool = results if whole else _results(event, Q(board__number__in=boards))
    by_board: dict[int, list[dict]] = defaultdict(list)
    for r in pool:
        if r["board"] not in boards:
            continue
        by_board[r["board"]].append({
            "result_id": r["result_id"], "ruling": r["ruling"], "offending": r["offending"],
            "ns_score": r["ns_score"], "ew_score": r["ew_score"], "award": None,
            "section": state.sections.get(r["ns"], "") if by_section else ""})
    out: dict[int, list[str]] = {}
    for board in boards:
        rows = by_board[board]
        _artificial_awards(rows, [r for r in rows if r["ruling"] in ("", "assigned")
                                  and r["ns_score"] is not None], event.method)
        out.update((r["result_id"], r["award"]) for r in rows if r["award"])
    return out


def _left_unplayed(results: list[dict]) -> dict[int, tuple[int, int]]:
    """The boards a pair that left did not play (decision 103: its later meetings went,
    each board a "not-played" ruling with no meeting): result id -> (that pair, the round
    it left after), for the travellers and score cards to say why. Read with the results
    (``_results``: "ns_left", "ew_left"), not a query a row."""
    out = {}
    for r in results:
        if r["ruling"] != "not-played" or r["meeting_id"] is not None:
            continue
        if r["ns_left"] is not None:
            out[r["result_id"]] = (r["ns"], r["ns_left"])
        elif r["ew_left"] is not None:
            out[r["result_id"]] = (r["ew"], r["ew_left"])
    return out


def scorecards(event: Event, numbers: list[int] | None = None, *,
               progress: Callable[[int, int], None] | None = None) -> list[dict]:
    """Every pair's score card (``scorecard``), in pair order: one query for the results
    of all of them. `numbers`: only these pairs (a number with no pair is left out);
    `progress(done, total)` is called as each pair's card is made. At matchpoints a card
    also has ``total_text``, its total as the standings give it ("12½ of 24 (52.08%)"),
    and ``total_note`` (under own-average, why that is more than the running total)."""
    # The pairs, their players and their substitutes in one query (a row per substitute).
    pairs = Pair.objects.filter(event=event)
    if numbers is not None:
        pairs = pairs.filter(number__in=numbers)
    found = list(pairs.order_by("number", "substitutes__from_round", "substitutes__seat")
                 .values_list("pk", "joined_round", "left_after_round", *ROSTER_FIELDS))
    if not found:
        return []
    names, subs = roster_from_rows(row[3:] for row in found)
    cards: dict[int, tuple[int, int | None, int | None, list]] = {}
    for pk, joined_round, left_after_round, number, *_rest in found:
        if pk not in cards:
            cards[pk] = (number, joined_round, left_after_round, [])
    state = pair_state(event) if event.kind == "pairs" else None
    # A team match's card adds what the pair won for its team (Duplicate Law G: the totals
    # won by its pairs, an average or fouled board's award), not the pair contest's net.
    awards = team_awards(event) if event.kind == "teams" else None
    only = None
    if len(cards) == 1:
        pk = next(iter(cards))
        only = Q(ns_pair_id=pk) | Q(ew_pair_id=pk)
    results = _results(event, only)
    notes = ruling_notes(event)
    # A ruled board's award, as its traveller gives it; a board not played, who left.
    ruled = _card_awards(event, state, results, awards, whole=only is None)
    left = _left_unplayed(results)
    # At matchpoints the card totals in the standings' own numbers (matchpoints, top and
    # the percentage that places the pair), and shows every board's matchpoints exactly:
    # nothing on it is rounded.
    matchpoints = event.method == "matchpoints" and state is not None
    standing = ({row["pair"]: row for ranking in standings(event)["rankings"]
                 for row in ranking["rows"]} if matchpoints else {})
    for r in results:
        scaled = state.result_scaled(r["result_id"]) if state else None
        award = awards.get(r["result_id"]) if awards is not None else None
        for side, pk, opponents, score in ((1, r["ns_pair_id"], r["ew"], r["ns_score"]),
                                           (2, r["ew_pair_id"], r["ns"], r["ew_score"])):
            card = cards.get(pk)
            if card is None:
                continue
            if awards is not None:
                won = None if award is None else award[side - 1]
                mine = None if won is None else (won.numerator, won.denominator)
                score = None
            else:
                mine = None if scaled is None else (scaled[side], scaled[0])
            card[3].append((r, "NS" if side == 1 else "EW", opponents, score, mine))
    out = []
    for number, joined_round, left_after_round, played in cards.values():
        # The running total as a whole number over the boards' common denominator.
        running, common = 0, 1
        rows = []
        rounded = False  # a board's score shown rounded: the running total adds the exact
        for r, direction, opponents, score, mine in played:
            if mine is not None:
                value, d = mine
                rounded = rounded or value % d != 0
                if d != common:
                    lcm = math.lcm(common, d)
                    running, common = running * (lcm // common), lcm
                running += value * (common // d)
            rows.append({
                "board": r["board"],
                "direction": direction,
                "opponents": opponents,
                "level": r["level"], "denomination": r["denomination"],
                "declarer": r["declarer"], "doubled": r["doubled"], "tricks": r["tricks"],
                "passed_out": r["passed_out"],
                "ruling": r["ruling"], "offending": r["offending"],
                "adjustment": presenters.adjustment(r) if r["ruling"] else "",
                "note": (notes.get((r["board"], r["meeting_id"]))
                         or notes.get((r["board"], None), "")) if r["ruling"] else "",
                "award": ruled.get(r["result_id"]),
                "left": left.get(r["result_id"]),
                "score": score,
                "plus_minus": None if mine is None else exact_scaled(*mine),
                "shown": None if mine is None else shown_scaled(*mine),
                "running": exact_scaled(running, common),
                "running_shown": shown_scaled(running, common),
                "late_play": r["late_play"],
                "marks": _row_marks(r, event.is_whist),
            })
        substitutes = subs.get(number, [])
        out.append({
            "pair": number,
            "names": names[number],
            "substitutes": substitutes,
            "names_text": presenters.pair_names(names[number], substitutes),
            "joined_round": joined_round,
            "left_after_round": left_after_round,
            "method": event.method,
            "rows": rows,
            "total": exact_scaled(running, common),
            "shown": shown_scaled(running, common),
            "rounded": rounded and not matchpoints,
        })
        if matchpoints:  # "12½ of 24 (52.08%)", and under own-average why it is more
            row, total = standing.get(number), exact_scaled(running, common)
            out[-1]["total_text"] = (  # no row: no board of the pair compared yet
                presenters.matchpoint_total(row["matchpoints"], row["top"], row["score"])
                if row else presenters.exact(total))
            out[-1]["total_note"] = (
                presenters.own_average_on_card(row, total)
                if row and row.get("not_played") and event.not_played_scoring == "own-average"
                else "")
        if progress is not None:
            progress(len(out), len(cards))
    return out


def scorecard(event: Event, pair_number: int) -> dict:
    """A pair's night board by board, with its running total."""
    cards = scorecards(event, [pair_number])
    if not cards:
        raise Pair.DoesNotExist(f"there is no pair {pair_number} in this event")
    return cards[0]


def late_pairs(event: Event, standings: dict | None = None) -> list[dict]:
    """The pairs that joined after round 1 (decision 102, or seated by a movement change:
    195), for the standings' Boards column ("10 of 14"): [{"pair", "joined_round",
    "missed"}], `missed` the boards of the rounds before it joined (each round's boards at
    a table of its section), by pair; [] for a night every pair began. Given the
    `standings` they are for, [] with no query where no pair of a ranking has fewer boards
    than another (presenters.some_pair_short): a night every pair played whole."""
    if standings is not None and not presenters.some_pair_short(standings):
        return []
    joined = list(Pair.objects.filter(event=event, joined_round__gt=1)
                  .order_by("number").values_list("number", "section_id", "joined_round"))
    if not joined:
        return []
    per_round: dict[tuple[int | None, int], int] = defaultdict(int)
    for section, rnd, boards in Meeting.objects.filter(
            section__event=event, round__lt=max(j for _n, _s, j in joined)).values_list(
            "section_id", "round", "boards"):
        for key in ((section, rnd), (None, rnd)):  # None: a pair with no section
            per_round[key] = max(per_round[key], len(boards))
    return [{"pair": number, "joined_round": j,
             "missed": sum(per_round[(section, rnd)] for rnd in range(1, j))}
            for number, section, j in joined]


# --- the director's round grid -------------------------------------------------------------------


# The event's states in which a table still enters, confirms and agrees on its phone. Once
# the event is agreed (Duplicate Law E) or closed the tables enter nothing: no phone to wait for.
TABLES_AT_WORK = (Event.Status.SETTING_UP, Event.Status.RUNNING)


def table_must_agree(meeting: Meeting, *, boards: int, confirmed: int, event_status: str) -> bool:
    """Must this table still agree its round on its phone?

    Yes when every one of the meeting's `boards` is in (`confirmed`: confirmed by the
    opponents, or entered or ruled by the director, a late pair's boards not played too)
    but the round is not agreed, while the event is setting up or running: the table's
    phone keeps it at that round until it agrees it (or the director agrees it for the
    table). The one rule for the director's grid (Cell.must_agree, its cells' hover text)
    and the page of one table's round (the `meeting` view).
    """
    return (meeting.agreed_at is None and boards > 0 and confirmed == boards
            and event_status in TABLES_AT_WORK)


@dataclass
class Cell:
    """One meeting on the grid and the state of its boards."""

    meeting: Meeting
    boards: int
    event_status: str  # the event's: no phone to wait for once it is agreed or closed
    entered: int = 0
    confirmed: int = 0
    irregular: list = field(default_factory=list)  # open reports found here (Law B)
    not_played: int = 0  # of the confirmed: boards the director marked not played
    late: int = 0  # of the confirmed and entered: results played late

    @property
    def late_leave(self) -> list[int]:
        """Boards the table has the director's leave to play late, not yet entered."""
        return list(self.meeting.late_boards or [])

    @property
    def agreed(self) -> int:
        # The boards ruled not played are counted apart ("2 not played"), never as agreed
        # (or confirmed) too: a table of two boards, both not played, is not four boards.
        return self.entered + self.played_confirmed if self.meeting.agreed_at else 0

    @property
    def played_confirmed(self) -> int:
        """Of the confirmed: those not ruled not played."""
        return self.confirmed - self.not_played

    @property
    def must_agree(self) -> bool:
        """Every board is in, the round is not agreed and the event is under way: the
        table agrees it on its phone before it may go on (see table_must_agree)."""
        return table_must_agree(self.meeting, boards=self.boards, confirmed=self.confirmed,
                                event_status=self.event_status)

    @property
    def title(self) -> str:
        """The hover text of the cell's link (the grid's page and its live repaint)."""
        rnd = self.meeting.round
        text = f"Round {rnd}, table {self.meeting.table}"
        if self.must_agree:
            text += f": every board is in; the table must still agree round {rnd} on its phone"
        return text

    @property
    def missing(self) -> int:
        return max(self.boards - self.entered - self.confirmed, 0)

    @property
    def status(self) -> str:
        """The cell's colour, as the legend above the grid names it: "agreed" (Duplicate
        Law E), "confirmed" (every board confirmed by the opponents or ruled by the
        director), "entered" (in progress: some boards in, others still to enter or to
        confirm, e.g. "2 missing · 1 confirmed") or "missing" (nothing in yet).

        The values stay as they are (data-status, the CSS classes and director.js use
        them); only the legend's words say "in progress" for "entered".
        """
        if self.meeting.agreed_at is not None:
            return "agreed"
        if self.boards and self.confirmed == self.boards:
            return "confirmed"
        if self.entered or self.confirmed:
            return "entered"
        return "missing"

    def as_json(self) -> dict:
        agreed = self.meeting.agreed_at is not None
        return {
            "id": self.meeting.pk,
            "section": self.meeting.section.name,
            "round": self.meeting.round,
            "table": self.meeting.table,
            "boards": self.boards,
            "missing": self.missing,
            "entered": 0 if agreed else self.entered,
            "confirmed": 0 if agreed else self.played_confirmed,
            "agreed": self.agreed,
            "status": self.status,
            "not_played": self.not_played,
            "late": self.late,
            "late_leave": self.late_leave,
            "must_agree": self.must_agree,
            "title": self.title,
        }


@dataclass
class SectionGrid:
    section: Section
    tables: list[int]
    rounds: list[tuple[int, list[Cell | None]]] = field(default_factory=list)
    # Rounds agreed at every table (Duplicate Law E): the grid offers no "Agree round" for
    # them. Worked out once with the rounds (the page reads it on every row).
    agreed_rounds: set[int] = field(default_factory=set)


def round_grid(event: Event) -> list[SectionGrid]:
    """Rounds × tables for each section: one query for the meetings, one for the counts."""
    meetings = list(
        Meeting.objects.filter(section__event=event)
        .select_related("section", "ns_pair", "ew_pair")
        .order_by("section__name", "round", "table")
    )
    counts: dict[int, dict[str, int]] = defaultdict(dict)
    rows = (
        Result.objects.filter(meeting__section__event=event, voided=False)
        .values("meeting_id")
        .annotate(
            entered=Count("id", filter=Q(status=Result.Status.ENTERED)),
            confirmed=Count("id", filter=~Q(status=Result.Status.ENTERED)),
            not_played=Count("id", filter=Q(ruling="not-played")),
            late=Count("id", filter=Q(late_play=True)),
        )
    )
    for row in rows:
        counts[row["meeting_id"]] = row
    grids: dict[int, SectionGrid] = {}
    cells: dict[int, dict[tuple[int, int], Cell]] = defaultdict(dict)
    for meeting in meetings:
        grid = grids.get(meeting.section_id)
        if grid is None:
            grid = grids[meeting.section_id] = SectionGrid(section=meeting.section, tables=[])
        got = counts.get(meeting.pk, {})
        cells[meeting.section_id][(meeting.round, meeting.table)] = Cell(
            meeting=meeting, boards=len(meeting.boards), event_status=event.status,
            entered=got.get("entered", 0), confirmed=got.get("confirmed", 0),
            not_played=got.get("not_played", 0), late=got.get("late", 0))
    for section_id, grid in grids.items():
        keyed = cells[section_id]
        grid.tables = sorted({table for _, table in keyed})
        rounds = sorted({rnd for rnd, _ in keyed})
        grid.rounds = [(rnd, [keyed.get((rnd, t)) for t in grid.tables]) for rnd in rounds]
        grid.agreed_rounds = {rnd for rnd, row in grid.rounds if all(
            cell.meeting.agreed_at is not None for cell in row if cell is not None)}
    return list(grids.values())


def grid_json(event: Event) -> dict:
    """The grid as the console's script polls it: every cell's counts and colour."""
    cells = [
        cell.as_json()
        for grid in round_grid(event)
        for _, row in grid.rounds
        for cell in row
        if cell is not None
    ]
    # Duplicate Law B: the reports still open, so the console can announce a new one.
    irregular = [{"id": irr.pk, "board": irr.board.number, "status": irr.status,
                  "table": irr.meeting.table if irr.meeting else None,
                  "round": irr.meeting.round if irr.meeting else None}
                 for irr in open_irregularities(event)]
    return {"event": event.pk, "seq": event.seq, "status": event.status, "cells": cells,
            "irregular": irregular}


@dataclass(frozen=True)
class Outstanding:
    """A board not yet in at one meeting: no result yet, or one the opponents have not
    confirmed (in a round not yet agreed)."""

    section: str
    round: int
    table: int
    board: int
    state: str  # "missing" | "unconfirmed"
    several: bool = False  # the event has several sections: name this one

    def __str__(self) -> str:
        what = "not entered" if self.state == "missing" else "not confirmed"
        where = presenters.table_label(self.table, self.section, several=self.several,
                                       capital=False)
        return f"Round {self.round}, {where}: board {self.board} {what}"


@dataclass(frozen=True)
class MeetingIn:
    """What a table agreeing its meeting must know, read in one query (round_agree):
    how many live results the meeting has, whether one still waits for the opponents'
    confirmation, and its boards not in yet (boards_outstanding's, for this meeting)."""

    played: int
    unconfirmed: bool
    outstanding: list[Outstanding]


def meeting_in(event: Event, section: Section, meeting: Meeting) -> MeetingIn:
    rows = list(Result.objects.filter(voided=False).filter(
        Q(meeting=meeting) | Q(event=event, board__number__in=meeting.boards,
                               ns_pair_id=meeting.ns_pair_id, ew_pair_id=meeting.ew_pair_id))
        .values_list("meeting_id", "board__number", "ns_pair_id", "ew_pair_id", "status"))
    own = [state for meeting_id, _, _, _, state in rows if meeting_id == meeting.pk]
    pairs = (meeting.ns_pair_id, meeting.ew_pair_id)
    status = {board: state for _, board, ns, ew, state in rows if (ns, ew) == pairs}
    missing = []
    for board in meeting.boards:
        state = status.get(board)
        if state is None:
            missing.append((board, "missing"))
        elif state == Result.Status.ENTERED and meeting.agreed_at is None:
            missing.append((board, "unconfirmed"))
    several = bool(missing) and Section.objects.filter(event=event).count() > 1
    return MeetingIn(
        played=len(own), unconfirmed=Result.Status.ENTERED in own,
        outstanding=[Outstanding(section.name, meeting.round, meeting.table, board, state,
                                 several) for board, state in missing])


def boards_outstanding(event: Event, *, section: Section | None = None,
                       round_number: int | None = None,
                       tables: list[int] | None = None) -> list[Outstanding]:
    """Every board of the movement that is not in yet (Duplicate Law E), in play order.

    A board is in when it has a live result that the opponents confirmed, that the
    director entered or ruled, or whose round is agreed. Results are matched by board
    and pairs, as the database keys them, so one entered without its meeting counts too.
    """
    meetings = Meeting.objects.filter(section__event=event).select_related("section")
    if section is not None:
        meetings = meetings.filter(section=section)
    if round_number is not None:
        meetings = meetings.filter(round=round_number)
    if tables is not None:
        meetings = meetings.filter(table__in=tables)
    meetings = list(meetings.order_by("section__name", "round", "table"))
    if not meetings:
        return []
    status = {
        (board, ns, ew): state
        for board, ns, ew, state in Result.objects.filter(event=event, voided=False)
        .values_list("board__number", "ns_pair_id", "ew_pair_id", "status")
    }
    outstanding = []
    several = (len({m.section_id for m in meetings}) > 1 if section is None
               else Section.objects.filter(event=event).count() > 1)
    for meeting in meetings:
        for board in meeting.boards:
            state = status.get((board, meeting.ns_pair_id, meeting.ew_pair_id))
            if state is None:
                missing = "missing"
            elif state == Result.Status.ENTERED and meeting.agreed_at is None:
                missing = "unconfirmed"
            else:
                continue
            outstanding.append(Outstanding(meeting.section.name, meeting.round,
                                           meeting.table, board, missing, several))
    return outstanding


# --- the director's other pages ------------------------------------------------------------------


def meeting_detail(event: Event, meeting_id: int) -> Meeting | None:
    return (
        Meeting.objects.filter(section__event=event, pk=meeting_id)
        .select_related("section", "ns_pair__player_1", "ns_pair__player_2",
                        "ew_pair__player_1", "ew_pair__player_2")
        .first()
    )


def event_tables(event: Event) -> int:
    """How many tables the event has, over all its sections."""
    return sum(event.sections.values_list("tables", flat=True))


def pairs_text(event: Event) -> str:
    """The event's pairs as the set-up textarea shows them, one a line, in number order."""
    lines = []
    for pair in Pair.objects.filter(event=event).select_related(
            "player_1", "player_2", "team").order_by("number"):
        label = presenters.player_label
        names = f"{label(pair.player_1)} & {label(pair.player_2)}"
        lines.append(f"{pair.team.name}: {names}" if pair.team else names)
    return "\n".join(lines)


def pair_changes(event: Event) -> list[str]:
    """The night's changes so far, one line each, for the pairs page."""
    lines = []
    pairs = Pair.objects.filter(event=event).select_related("player_1", "player_2")
    subs = pair_substitutes(event)
    for pair in pairs:
        names = presenters.pair_names(pair.names)
        if pair.joined_round:
            lines.append(f"Pair {pair.number} ({names}) joined from round {pair.joined_round}.")
        if pair.left_after_round is not None:
            lines.append(f"Pair {pair.number} ({names}) left after round "
                         f"{pair.left_after_round}.")
        for s in subs.get(pair.number, []):
            lines.append(f"Pair {pair.number}: {s['name']} plays for {s['for']} from round "
                         f"{s['from_round']}.")
    return lines


def table_links(event: Event) -> list[TableCode]:
    """The codes of the tables that play: in a section with a movement, those with a round
    in it (a code kept from an earlier movement for a table it leaves out is not one to
    hand out)."""
    seated = Meeting.objects.filter(section_id=OuterRef("section_id"), table=OuterRef("table"))
    playing = Meeting.objects.filter(section_id=OuterRef("section_id"))
    return list(TableCode.objects.filter(section__event=event)
                .filter(Exists(seated) | ~Exists(playing)).select_related("section")
                .order_by("section__name", "table"))


# --- guide cards and "where next" (one builder: boards.movements' cards) -----------------------

def section_movement(section: Section, meetings: list[Meeting] | None = None) -> Movement:
    """The section's movement rebuilt from its stored meetings, whichever made them.

    A pair of the section (one seated in any round) that has no seat in a round
    sits out that round.
    """
    if meetings is None:
        meetings = list(Meeting.objects.filter(section=section)
                        .select_related("ns_pair__team", "ew_pair__team"))
    rounds: dict[int, list[dict]] = defaultdict(list)
    teams: dict[str, set[int]] = defaultdict(set)
    for m in meetings:
        rounds[m.round].append({"table": m.table, "ns": m.ns_pair.number,
                                "ew": m.ew_pair.number, "boards": list(m.boards)})
        for pair in (m.ns_pair, m.ew_pair):
            if pair.team_id is not None:
                teams[pair.team.name].add(pair.number)
    pairs = sorted({p for tables in rounds.values() for t in tables for p in (t["ns"], t["ew"])})
    boards = [b for tables in rounds.values() for t in tables for b in t["boards"]]
    per_round = section.boards_per_round or next(
        (len(t["boards"]) for tables in rounds.values() for t in tables), 0)
    data = {
        "kind": section.movement,
        "variant": section.variant or None,
        "tables": max([section.tables, *(t["table"] for ts in rounds.values() for t in ts)]),
        "pairs": len(pairs),
        "boards": max(boards, default=0),
        "boards_per_round": per_round,
        "teams": {name: sorted(members) for name, members in
                  sorted(teams.items(), key=lambda item: min(item[1]))} or None,
        "rounds": [
            {"round": number,
             "tables": sorted(rounds[number], key=lambda t: t["table"]),
             "sit_out": sorted(set(pairs) - {p for t in rounds[number]
                                             for p in (t["ns"], t["ew"])})}
            for number in sorted(rounds)
        ],
    }
    return movement_from_dict(data)


def _next_text(seat: Seat | None) -> str:
    return "end of play" if seat is None else str(seat)


def _moves_text(moves: tuple[BoardsMove, ...], *, last: bool) -> str:
    if not moves:
        return "the director" if last else ""
    if len(moves) == 1:
        return str(moves[0])
    return "; ".join(f"{board_range(m.boards)}: {m}" for m in moves)


def _table_card_data(section: str, card: TableCard) -> dict:
    last = card.rows[-1].round if card.rows else None
    rounds = []
    for row in card.rows:
        if not row.in_play:
            rounds.append({"round": row.round, "in_play": False, "ns": None, "ew": None,
                           "boards": [], "boards_text": "", "shared_with": [],
                           "ns_next": "", "ew_next": "", "boards_next": "", "boards_from": ""})
            continue
        final = row.round == last
        rounds.append({
            "round": row.round, "in_play": True, "ns": row.ns, "ew": row.ew,
            "boards": list(row.boards), "boards_text": board_range(row.boards),
            "shared_with": list(row.shared_with),
            "ns_next": _next_text(row.ns_next), "ew_next": _next_text(row.ew_next),
            "boards_next": _moves_text(row.boards_next, last=final),
            "boards_from": boards_origin(row),
        })
    return {"section": section, "table": card.table, "rounds": rounds}


def _pair_card_data(section: str, card: PairCard, pair: Pair | None) -> dict:
    return {
        "section": section,
        "pair": card.pair,
        "names": f"{pair.player_1.name} & {pair.player_2.name}" if pair else "",
        "team": card.team,
        "rounds": [{
            "round": row.round, "table": row.table,
            "direction": presenters.side(row.direction),
            "opponents": row.opponents, "boards": list(row.boards),
            "boards_text": board_range(row.boards) if row.boards else "",
            "next": _next_text(row.next),
        } for row in card.rows],
        "left_after": card.left_after,
        "joined_from": card.joined_from,
    }


def guide_cards(event: Event) -> dict:
    """Every guide card of the event, from its stored meetings: the director's web page
    and the printed PDF both show exactly this.

    {"event", "date", "sections" (how many), "notes": [{"section", "title",
    "lines"}], "tables": [table card], "pairs": [pair card]}; a table card is
    {"section", "table", "rounds": [{"round", "in_play", "ns", "ew", "boards",
    "boards_text", "shared_with", "ns_next", "ew_next", "boards_next",
    "boards_from"}]} and a pair card {"section", "pair", "names", "team",
    "rounds": [{"round", "table", "direction", "opponents", "boards",
    "boards_text", "next"}], "left_after", "joined_from"}: "next" is "table 2 E–W",
    "stay at table 1, N–S", "sit out" or "end of play"; "boards_from" says where the
    round's boards come from ("from table 2", "shared with table 8"); a pair that left
    (decision 103) has no rounds after "left_after", the round after which it left; a
    late pair (decision 102) none before "joined_from", the round it joined in.
    """
    meetings = list(Meeting.objects.filter(section__event=event)
                    .select_related("section", "ns_pair__team", "ew_pair__team"))
    by_section: dict[int, list[Meeting]] = defaultdict(list)
    for m in meetings:
        by_section[m.section_id].append(m)
    pairs = {p.number: p for p in Pair.objects.filter(event=event).select_related(
        "player_1", "player_2")}
    sections = sorted({m.section for m in meetings}, key=lambda s: s.name)
    left = {n: p.left_after_round for n, p in pairs.items() if p.left_after_round is not None}
    joined = {n: p.joined_round for n, p in pairs.items() if (p.joined_round or 0) > 1}
    tables, pair_cards_data, notes = [], [], []
    for section in sections:
        movement = section_movement(section, by_section[section.pk])
        tables += [_table_card_data(section.name, c) for c in table_cards(movement, left)]
        pair_cards_data += [_pair_card_data(section.name, c, pairs.get(c.pair))
                            for c in pair_cards(movement, left, joined)]
        if movement.kind in MOVEMENT_KINDS:
            notes.append({"section": section.name, "title": movement_title(movement),
                          "lines": movement_instructions(movement)})
    return {"event": event.name, "date": event.date, "sections": len(sections),
            "notes": notes, "tables": tables, "pairs": pair_cards_data}


@dataclass
class WhereNext:
    """What the table page tells the players after a round (see ``where_next``)."""

    round: int
    last: bool  # the last round: everybody is done
    lines: list[tuple[str, str]]  # (who, what to do), in the table's words
    coming: str  # who plays here next round, on which boards ("": nobody)


def where_next(section: Section, table: int, round_number: int, *,
               movement: Movement | None = None) -> WhereNext | None:
    """Where each pair at this table and its boards go after this round, from the
    section's stored meetings (or `movement`, already rebuilt from them, when the caller
    asks about several rounds); None when the table is not in play that round."""
    movement = movement or section_movement(section)
    row = table_round(movement, table, round_number)
    if row is None:
        return None
    last = not [r for r in movement.rounds if r.number > round_number]
    leaving = set(Pair.objects.filter(event_id=section.event_id,
                                      left_after_round__lte=round_number)
                  .values_list("number", flat=True))
    lines: list[tuple[str, str]] = []
    for here, pair, seat in (("NS", row.ns, row.ns_next), ("EW", row.ew, row.ew_next)):
        if seat is None:
            continue  # after the last round nobody moves
        label = presenters.side(here)
        who = f"{label} pair {pair}"
        if pair in leaving:
            lines.append((who, "Your night ends here: thank you for playing."))
        elif seat.sits_out:
            lines.append((who, f"Sit out round {round_number + 1}."))
        elif seat.stays_from is not None:  # the card's words: "stay at table 3, sit E–W"
            lines.append((who, f"{str(seat)[0].upper()}{str(seat)[1:]}."))
        else:
            lines.append((who, f"Go to table {seat.table}, {presenters.side(seat.direction)}."))
    for move in row.boards_next or (BoardsMove(row.boards),):
        boards = f"Board{'s' if len(move.boards) > 1 else ''} {board_range(move.boards)}"
        lines.append((boards, "Go back to the director." if last else f"Go to {move}."))
    coming = ""
    nxt = None if last else table_round(movement, table, round_number + 1)
    if nxt is not None:
        coming = (f"N–S pair {nxt.ns} against E–W pair {nxt.ew}, "
                  f"board{'s' if len(nxt.boards) > 1 else ''} {board_range(nxt.boards)}")
        origin = boards_origin(nxt)  # the table card's words for where they come from
        coming += f" {origin}" if origin else ""
    return WhereNext(round=round_number, last=last, lines=lines, coming=coming)


# --- a movement changed between rounds ------------------------------------------------------


def first_changeable_round(section: Section) -> int:
    """The first round from which the movement may still change: the round after the
    last one with a result or agreed (1 when nothing is)."""
    meetings = Meeting.objects.filter(section=section)
    scored = Result.objects.filter(meeting__section=section, voided=False).values_list(
        "meeting__round", flat=True)
    agreed = meetings.filter(agreed_at__isnull=False).values_list("round", flat=True)
    return max([0, *scored, *agreed]) + 1


@dataclass
class ClosedTable:
    """A table the director took out of the movement: its page says so, and where its
    players and boards go (``closed_table``)."""

    after_round: int
    lines: list[tuple[str, str]]


def closed_table(table: TableCode) -> ClosedTable | None:
    """What a closed table's page tells the players; None for a table still in play."""
    after = table.closed_after_round
    if after is None:
        return None
    where = where_next(table.section, table.table, after)
    gone = set(Pair.objects.filter(section=table.section, left_after_round__lte=after)
               .values_list("number", flat=True))
    lines = []
    for who, what in (where.lines if where else []):
        number = who.rsplit(" ", 1)[-1]
        if who.startswith(("N–S pair", "E–W pair")) and number.isdigit() and int(number) in gone:
            what = "Your play is over for tonight: thank you for playing."
        if who.startswith("Board"):
            continue  # the boards' lines follow, from the new movement's next round
        lines.append((who, what))
    last = Meeting.objects.filter(section=table.section, table=table.table,
                                  round=after).first()
    if last is not None:
        held = {b: m.table for m in Meeting.objects.filter(section=table.section,
                                                           round=after + 1)
                for b in m.boards}
        places: dict[int | None, list[int]] = defaultdict(list)
        for board in last.boards:
            places[held.get(board)].append(board)
        for place, boards in places.items():
            what = f"Go to table {place}." if place else "Go back to the director."
            lines.append((f"Board{'s' if len(boards) > 1 else ''} {board_range(boards)}",
                          what))
    return ClosedTable(after_round=after, lines=lines)


def guide_cards_of_section(cards: dict, name: str) -> dict:
    """``guide_cards`` (or ``guide_cards_from``) kept to one section's notes and cards;
    "section_names" lists every section, "only" names the one kept."""
    names = sorted({c["section"] for c in cards["tables"]})
    if name not in names:
        return {**cards, "section_names": names, "only": ""}
    return {**cards, "section_names": names, "only": name,
            "notes": [n for n in cards.get("notes", []) if n["section"] == name],
            "tables": [c for c in cards["tables"] if c["section"] == name],
            "pairs": [c for c in cards["pairs"] if c["section"] == name]}


def guide_cards_from(event: Event, from_round: int) -> dict:
    """``guide_cards`` for the rounds from `from_round` on (the cards to hand out after
    the movement changed): each card keeps only those rounds, and a card with no seat
    in them (a table closed, a pair gone) is left out. The movement's notes, written
    for the night as one movement, are left out too: the page says what changed.

    Only the sections whose movement changed from that round get cards: the others'
    cards, handed out at the start, still hold. Added: "changed_sections" (named where
    the event has several), "unchanged_sections", "closed_tables" (closed after the
    round before, in a changed section) and "change_notes" (what each change's preview
    said: a stationary pair moved, boards out of play, rulings withdrawn)."""
    # The changes from this round, newest first: the latest of each section counts.
    latest: dict[str, dict] = {}
    for after in event.audit.filter(action="movement change", after__from_round=from_round
                                    ).order_by("-at", "-id").values_list("after", flat=True):
        if after:
            latest.setdefault(after.get("section", ""), after)
    changed = sorted(name for name in latest if name)
    cards = guide_cards(event)
    tables = []
    for card in cards["tables"]:
        rounds = [r for r in card["rounds"] if r["round"] >= from_round]
        if any(r["in_play"] for r in rounds):
            tables.append({**card, "rounds": rounds})
    pairs = []
    for card in cards["pairs"]:
        rounds = [r for r in card["rounds"] if r["round"] >= from_round]
        if any(r["table"] for r in rounds):
            pairs.append({**card, "rounds": rounds})
    names = sorted({c["section"] for c in (*tables, *pairs)})
    if changed:
        tables = [c for c in tables if c["section"] in changed]
        pairs = [c for c in pairs if c["section"] in changed]
    closed = [code.table for code in table_links(event)
              if code.closed_after_round is not None
              and code.closed_after_round == from_round - 1
              and (not changed or code.section.name in changed)]
    several = len(latest) > 1
    return {**cards, "notes": [], "tables": tables, "pairs": pairs,
            "changed_sections": changed if cards.get("sections", 1) > 1 else [],
            "unchanged_sections": [n for n in names if changed and n not in changed],
            "closed_tables": closed,
            "change_notes": [f"Section {name}: {note}" if several else note
                             for name, after in sorted(latest.items())
                             for note in after.get("notes", [])]}


# --- the audit trail -------------------------------------------------------------------------
#
# Terms: an *audit entry* is one change (who, when, before, after, why). The audit page
# narrows them by *table* (the table where the board was played, or the table that made the
# change), *board*, *who* (the director, a table, or a program such as the importer) and
# *kind* (the entry's action: enter, confirm, correct, rule, void, undo, agree round...).

AUDIT_WHO = {"director": "The director", "table": "The tables", "program": "Imports and programs"}
# Words for the kinds of change, in the order a night runs; an action not listed here
# (a newer kind) is shown with its own name.
AUDIT_KINDS = {
    "create event": "Event created", "pair": "Pairs", "remove pair": "Pairs removed",
    "teams": "Teams", "boards": "Boards", "movement": "Movement",
    "movement change": "Movement changed",
    "enter": "Scores entered", "confirm": "Scores confirmed", "correct": "Corrections",
    "rule": "Rulings", "club adjustment": "Club adjustments", "late play": "Played late",
    "late leave": "Leave to play late", "late leave withdrawn": "Leave to play late withdrawn",
    "void": "Results removed", "undo": "Changes undone",
    "agree round": "Rounds agreed", "status": "Event status", "publish": "Publishing",
    "club adjustments": "Club adjustments turned on or off",
    "late pair": "Late pairs", "pair leaves": "Pairs that left", "substitute": "Substitutes",
    "pair changes": "Pair changes (import)",
}


@dataclass(frozen=True)
class AuditFilter:
    """What the audit page shows: every field None shows everything."""

    section: str | None = None
    table: int | None = None
    board: int | None = None
    who: str | None = None
    kind: str | None = None


def audit_entries(event: Event, narrow: AuditFilter = AuditFilter()):  # noqa: B008 (frozen)
    """The event's audit entries that match `narrow`, newest first (a queryset, to page)."""
    entries = AuditEntry.objects.filter(event=event)
    if narrow.table is not None:
        at_table = Q(result__meeting__table=narrow.table)
        by_table = Q(result__isnull=True, actor__isnull=True,
                     actor_label__iexact=f"table {narrow.table}")
        if narrow.section is not None:
            at_table &= Q(result__meeting__section__name=narrow.section)
            by_table &= Q(after__section=narrow.section)
        entries = entries.filter(at_table | by_table)
    if narrow.board is not None:
        entries = entries.filter(
            Q(result__board__number=narrow.board)
            | Q(result__isnull=True, after__board=narrow.board)
            | Q(result__isnull=True, before__board=narrow.board))
    if narrow.who == "director":
        entries = entries.filter(actor__isnull=False)
    elif narrow.who == "table":
        entries = entries.filter(actor__isnull=True, actor_label__istartswith="table ")
    elif narrow.who == "program":
        entries = entries.filter(actor__isnull=True).exclude(actor_label__istartswith="table ")
    if narrow.kind is not None:
        entries = entries.filter(action=narrow.kind)
    return entries.select_related("result__board", "result__meeting__section", "undone_by",
                                  "undoes", "actor").order_by("-id")


def audit_choices(event: Event) -> dict[str, list[tuple[str, str]]]:
    """The values each audit filter offers for this event: (value, words) pairs.

    A table's value is its number, or "SECTION:number" when the event has several
    sections; the kinds are the actions this event's audit holds.
    """
    places = sorted(set(Meeting.objects.filter(section__event=event)
                        .values_list("section__name", "table")),
                    key=lambda place: (place[0], place[1]))
    several = len({name for name, _ in places}) > 1
    tables = [(f"{name}:{table}" if several else str(table),
               f"Section {name}, table {table}" if several else f"Table {table}")
              for name, table in places]
    boards = [(str(number), f"Board {number}")
              for number in event.boards.order_by("number").values_list("number", flat=True)]
    actions = set(AuditEntry.objects.filter(event=event).values_list("action", flat=True)
                  .distinct())
    order = list(AUDIT_KINDS)
    kinds = [(action, AUDIT_KINDS.get(action, action[:1].upper() + action[1:]))
             for action in sorted(actions, key=lambda a: (a not in AUDIT_KINDS,
                                                          order.index(a) if a in AUDIT_KINDS
                                                          else 0, a))]
    return {"table": tables, "board": boards, "who": list(AUDIT_WHO.items()), "kind": kinds}


# The reason every ruling on an irregular board found at the overplay begins with (Duplicate
# Law B(3): services.irregular's LAW). Such a ruling is undone with its report.
LAW_B_RULING = "Duplicate Law B(3)"


def law_b_ruling(entry: AuditEntry) -> bool:
    """Is this change a ruling that decided an irregular board's report?"""
    return entry.action == "rule" and entry.reason.startswith(LAW_B_RULING)


def audit_undoable(event: Event, entries: list[AuditEntry]) -> set[int]:
    """Which of `entries` the director may undo (as services.audit_undo would allow).

    A change to a result can be undone while it is in force and no later change to the
    same result is: among the event's entries (filtered out or on another page alike),
    it is the newest change of its result not undone, other than an undo.
    """
    results = {entry.result_id for entry in entries if entry.result_id is not None}
    newest: dict[int, int] = {}
    for result_id, pk in (AuditEntry.objects.filter(event=event, result_id__in=results,
                                                    undone_by__isnull=True)
                          .exclude(action="undo").values_list("result_id", "id")):
        newest[result_id] = max(pk, newest.get(result_id, 0))
    return {entry.pk for entry in entries
            if entry.result_id is not None and entry.undone_by_id is None
            and newest.get(entry.result_id, 0) <= entry.pk
            and not law_b_ruling(entry)}


def audit_law_b(event: Event, entries: list[AuditEntry]) -> dict[int, int]:
    """The irregular board each of `entries` that is a Law B ruling in force decided
    (entry id -> irregularity id): it is undone on that board's page, with its report."""
    rulings = {entry.pk: entry for entry in entries
               if entry.undone_by_id is None and law_b_ruling(entry)}
    if not rulings:
        return {}
    boards = dict(Result.objects.filter(pk__in={e.result_id for e in rulings.values()})
                  .values_list("pk", "board_id"))
    decided = {}
    for pk, board_id in (Irregularity.objects.filter(event=event, board_id__in=boards.values())
                         .exclude(status__in=OPEN_IRREGULAR).order_by("id")
                         .values_list("pk", "board_id")):
        decided[board_id] = pk  # the newest decision on the board
    return {pk: decided[boards[entry.result_id]] for pk, entry in rulings.items()
            if boards.get(entry.result_id) in decided}


def result_director(result: Result):
    """The director who last entered, corrected or ruled on `result` (a user), or None."""
    entry = (AuditEntry.objects.filter(result=result, actor__isnull=False)
             .select_related("actor").order_by("-id").first())
    return entry.actor if entry is not None else None


# --- irregular boards (Duplicate Law B) ----------------------------------------------------------

OPEN_IRREGULAR = (Irregularity.Status.REPORTED, Irregularity.Status.SENT_BACK)


def _irregular(queryset):
    return queryset.select_related("board", "meeting__section", "meeting__ns_pair",
                                   "meeting__ew_pair").order_by("reported_at", "id")


def open_irregularities(event: Event) -> list[Irregularity]:
    """Reports the director has still to settle: reported, or sent back (B(2)); each with
    `found`, when it was found in words."""
    reports = list(_irregular(Irregularity.objects.filter(event=event,
                                                          status__in=OPEN_IRREGULAR)))
    for irr in reports:
        irr.found = presenters.IRREGULAR_FOUND[irr.stage]
    return reports


def irregularities(event: Event) -> list[Irregularity]:
    """Every report of the event, open or settled, oldest first."""
    return list(_irregular(Irregularity.objects.filter(event=event)))


def board_irregularities(event: Event, number: int) -> list[Irregularity]:
    """The reports on one board the director has acted on (sent back, or settled), for its
    traveller: not those withdrawn, nor those still waiting for the director."""
    return list(_irregular(Irregularity.objects.filter(event=event, board__number=number)
                           .exclude(status__in=(Irregularity.Status.WITHDRAWN,
                                                Irregularity.Status.REPORTED))))


def meeting_irregular(meeting: Meeting) -> dict[int, Irregularity]:
    """The open reports of a meeting's boards, by board number (the table waits on them)."""
    return {irr.board.number: irr for irr in _irregular(
        Irregularity.objects.filter(meeting=meeting, status__in=OPEN_IRREGULAR))}


def sections_boards_differ(event: Event) -> str:
    """"" when every section with a movement plays the same boards; else how they differ,
    in words ("section A plays boards 1–12, section B boards 1–8"): then the whole field
    cannot be compared on the same boards (Duplicate Law H)."""
    played: dict[str, set[int]] = defaultdict(set)
    for name, boards in Meeting.objects.filter(section__event=event).values_list(
            "section__name", "boards"):
        played[name].update(boards)
    if len({frozenset(b) for b in played.values()}) <= 1:
        return ""
    parts = [f"section {name} plays boards {board_range(sorted(played[name]))}"
             if i == 0 else f"section {name} boards {board_range(sorted(played[name]))}"
             for i, name in enumerate(sorted(played))]
    return ", ".join(parts)


def pairs_left(section: Section, *, several: bool) -> list[tuple[int, int]]:
    """The pairs of `section`'s movement that have left: (number, after round); in an
    event of `several` sections, those of this section (or seated in it). One query."""
    left = Pair.objects.filter(event_id=section.event_id, left_after_round__isnull=False)
    if several:
        seated = Meeting.objects.filter(section=section)
        left = left.filter(Q(section=section) | Q(pk__in=seated.values("ns_pair"))
                           | Q(pk__in=seated.values("ew_pair")))
    return list(left.order_by("number").values_list("number", "left_after_round"))


def sent_back_to(section: Section | int, table: int) -> list[Irregularity]:
    """The boards sent back to this table to be put right (Duplicate Law B(2)) and not yet
    marked rectified: the table puts each right and returns it to the table that found
    it."""
    return list(_irregular(Irregularity.objects.filter(
        meeting__section=section, sent_to_table=table, status=Irregularity.Status.SENT_BACK)))


def irregular_refusal(meeting: Meeting, board: int) -> str:
    """Why the table of `meeting` may not enter `board` now (an open report on it), or ""."""
    irr = meeting_irregular(meeting).get(board)
    return presenters.irregular_wait(irr) if irr is not None else ""


def ruling_notes(event: Event) -> dict[tuple[int, int | None], str]:
    """The B(3) rulings' notes for the score cards: (board, meeting id) -> note; a board
    cancelled at both tables under (board, None)."""
    notes: dict[tuple[int, int | None], str] = {}
    for irr in _irregular(Irregularity.objects.filter(
            event=event, status=Irregularity.Status.RESOLVED,
            outcome__in=("average", "fouled", "cancelled"))):
        where = None if irr.outcome == "cancelled" else irr.meeting_id
        notes[(irr.board.number, where)] = presenters.irregular_note(irr)
    return notes


def irregular_notes(event: Event, number: int) -> list[str]:
    """The notes a traveller or a score card shows for board `number`."""
    return [presenters.irregular_note(irr) for irr in board_irregularities(event, number)]


def board_notes(event: Event, numbers: list[int]) -> dict[int, list[str]]:
    """``irregular_notes`` of several boards in one query: board number -> its notes."""
    notes: dict[int, list[str]] = defaultdict(list)
    for irr in _irregular(Irregularity.objects.filter(event=event, board__number__in=numbers)
                          .exclude(status__in=(Irregularity.Status.WITHDRAWN,
                                               Irregularity.Status.REPORTED))):
        notes[irr.board.number].append(presenters.irregular_note(irr))
    return notes


def grid_irregular(grids: list[SectionGrid], reports: list[Irregularity]) -> list[SectionGrid]:
    """The round grid with each open report on the cell of the meeting that found it."""
    by_meeting: dict[int, list[Irregularity]] = defaultdict(list)
    for irr in reports:
        if irr.meeting_id is not None:
            by_meeting[irr.meeting_id].append(irr)
    for grid in grids:
        for _, row in grid.rounds:
            for cell in row:
                if cell is not None:
                    cell.irregular = by_meeting.get(cell.meeting.pk, [])
    return grids


# --- results sent out (tournaments/exports.py) --------------------------------------------------


def pair_players(event: Event) -> dict[int, list[dict]]:
    """Each pair's two players as entered, by pair number: name and the club's member
    number (None for a visitor). Substitutes are not listed (the pair plays on as one)."""
    pairs = (Pair.objects.filter(event=event).select_related("player_1", "player_2")
             .order_by("number"))
    return {p.number: [{"name": pl.name, "number": pl.number}
                       for pl in (p.player_1, p.player_2)] for p in pairs}


def board_numbers(event: Event) -> list[int]:
    """The event's boards, in order."""
    return list(event.boards.order_by("number").values_list("number", flat=True))


@dataclass(frozen=True)
class MemberResult:
    """One line of a member's own results: one event they played in."""

    event: Event
    pair: int
    partner: str
    score: str
    place: str
    direction: str
    title: str = ""  # the exact score, where `score` shows it rounded


def member_results(player: Player, events) -> list[MemberResult]:
    """The player's line in each of ``events`` (already filtered by access.member_events),
    newest first: their pair, partner, score and place. A pairs event only (a team
    match ranks teams)."""
    lines: list[tuple[Pair, str]] = []  # (pair, partner in words)
    pairs = Pair.objects.filter(Q(player_1=player) | Q(player_2=player),
                                event__in=events, event__kind="pairs").select_related(
        "event", "player_1", "player_2")
    for pair in pairs:
        partner = pair.player_2 if pair.player_1_id == player.pk else pair.player_1
        lines.append((pair, partner.name))
    # A night played as a substitute: the pair's line, with whom they sat for.
    mine = {pair.pk for pair, _ in lines}
    for sub in (Substitute.objects.filter(player=player, pair__event__in=events,
                                          pair__event__kind="pairs")
                .select_related("pair__event", "pair__player_1", "pair__player_2")
                .order_by("pair_id", "from_round")):
        if sub.pair_id in mine:
            continue
        mine.add(sub.pair_id)
        pair = sub.pair
        seated = pair.player_1 if sub.seat == 1 else pair.player_2
        partner = pair.player_2 if sub.seat == 1 else pair.player_1
        lines.append((pair, f"{partner.name} (substitute for {seated.name} from round "
                            f"{sub.from_round})"))
    lines.sort(key=lambda line: (line[0].event.date, line[0].event_id), reverse=True)
    out = []
    for pair, partner in lines:
        row, direction = None, ""
        for ranking in standings(pair.event)["rankings"]:
            for line in ranking["rows"]:
                if line["pair"] == pair.number:
                    row, direction = line, ranking["direction"]
        score, title = _member_score(pair.event, row)
        out.append(MemberResult(
            event=pair.event, pair=pair.number, partner=partner, score=score, title=title,
            place=str(row["place"]) if row else "–",
            direction="" if direction in ("ALL", "") else presenters.side(direction)))
    return out


def _member_score(event: Event, row: dict | None) -> tuple[str, str]:
    """The night's score as its standings show it, and its exact value in words where
    that is rounded ("" where not): "exactly +394⁶⁄₇", "12½ matchpoints of 24"."""
    if row is None:
        return "–", ""
    if event.method == "matchpoints":
        shown, exact = presenters.percent(row["score"]), row.get("matchpoints")
        return shown, (f"{presenters.exact(exact)} matchpoints"
                       + (f" of {presenters.number(row['top'])}" if row.get("top") else "")
                       if exact is not None else "")
    shown = presenters.signed(row["score"])
    return shown, (f"exactly {presenters.signed_exact(row['exact'])}"
                   if presenters.is_rounded(row["score"], row["exact"]) else "")


# --- the club's member list ------------------------------------------------------------

MEMBER_EXPORT_COLUMNS = ["number", "first_name", "last_name", "email", "active"]


def members_export_csv(players=None) -> str:
    """The member list as CSV: number,first_name,last_name,email,active (members only;
    active is "yes" or "no"). It reads back in as it is (import_members)."""
    if players is None:
        players = Player.objects.exclude(number=None).order_by("last_name", "first_name",
                                                                 "number")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(MEMBER_EXPORT_COLUMNS)
    for p in players:
        writer.writerow([p.number, p.first_name, p.last_name, p.email,
                         "yes" if p.active else "no"])
    return out.getvalue()


def members_search(query: str, *, limit: int = 10, active_only: bool = True):
    """Members whose number starts with, or whose name contains, the query (a NUL, which no
    name holds and the database refuses, is dropped)."""
    query = query.replace("\x00", "").strip()
    found = Player.objects.exclude(number=None)
    if active_only:
        found = found.filter(active=True)
    if query:
        found = found.filter(Q(number__istartswith=query) | Q(name__icontains=query)
                             | Q(email__iexact=query))
    return found.order_by("name", "number")[:limit]


def member_event_ids(player: Player) -> list[int]:
    """The events the player played in: in a pair, or as a substitute."""
    ids = set(Pair.objects.filter(Q(player_1=player) | Q(player_2=player))
              .values_list("event_id", flat=True))
    ids |= set(Substitute.objects.filter(player=player).values_list("pair__event_id",
                                                                      flat=True))
    return sorted(ids)


# --- the score cards sent by e-mail ----------------------------------------------------------

SHOWN_MAIL_FAILURES = 10
# A card "sending" this long stopped (its process ended mid-send): a try takes at most
# EMAIL_TIMEOUT (seconds) a step of the mail server's conversation.
STUCK_AFTER = datetime.timedelta(minutes=10)


def stopped_sends(event: Event, publication: int) -> QuerySet[ScoreCardMail]:
    """The publication's cards whose sending stopped (``STUCK_AFTER``)."""
    return ScoreCardMail.objects.filter(
        event=event, publication=publication, status=ScoreCardMail.Status.SENDING,
        updated_at__lt=timezone.now() - STUCK_AFTER)


def score_card_mails(event: Event) -> dict | None:
    """How the latest publication's score cards went by e-mail (the console's counts):
    sent, failed, waiting to be sent, being sent, skipped for no address or an
    opt-out, and the failures with the mail server's words; None before any publication
    has recorded a card."""
    publication = (ScoreCardMail.objects.filter(event=event).order_by("-publication")
                   .values_list("publication", flat=True).first())
    if publication is None:
        return None
    mails = ScoreCardMail.objects.filter(event=event, publication=publication)
    counts = dict(mails.values_list("status").annotate(n=Count("id")).order_by())
    status = ScoreCardMail.Status
    failures = list(mails.filter(status=status.FAILED).select_related("player")
                    .order_by("pair_number", "player__name")[:SHOWN_MAIL_FAILURES])
    stopped = list(stopped_sends(event, publication).select_related("player")
                   .order_by("pair_number", "player__name"))
    return {
        "publication": publication,
        "sent": counts.get(status.SENT, 0),
        "failed": counts.get(status.FAILED, 0),
        "waiting": counts.get(status.PENDING, 0),
        # Claimed by a worker: being sent now, or for good if that worker died mid-send.
        "sending": counts.get(status.SENDING, 0),
        "no_address": counts.get(status.NO_ADDRESS, 0),
        "opted_out": counts.get(status.OPTED_OUT, 0),
        "failures": [{"name": m.player.name, "pair": m.pair_number, "address": m.address,
                      "error": m.error} for m in failures],
        # Being sent for so long that the sending stopped (a process ended mid-send).
        "stopped": [{"name": m.player.name, "pair": m.pair_number, "address": m.address,
                     "since": m.updated_at} for m in stopped],
    }

# --- seasons: a table across nights (docs/decisions.md) ------------------------------------


@dataclass(frozen=True)
class SeasonNight:
    """One entrant's line in one event of a season: the place they took in their ranking
    ("2=" shared), their exact score that night, and the club's points for that place."""

    event: int
    place: str
    score: Fraction
    points: Fraction


def place_points(place: str, tied: int, scale: list[int]) -> Fraction:
    """The club's points for a place: ``scale[0]`` for 1st, and so on, 0 beyond the scale.
    A place shared by `tied` entrants ("2=") shares the points of the places it covers:
    two tied 2nd share 2nd's and 3rd's points equally."""
    first = int(place.rstrip("="))
    covered = [scale[p - 1] if p <= len(scale) else 0 for p in range(first, first + tied)]
    return Fraction(sum(covered), tied)


def season_value(nights: list[Fraction], rule: str, best_of: int | None) -> tuple[
        Fraction, set[int]]:
    """An entrant's season value from their nights' values (in event order), and the
    indexes of the nights that count: every night for "total" and "average"; the best
    `best_of` for "best" (fewer nights: all of them; among equal values the earlier
    night counts, so the choice is the same on every page)."""
    counted = set(range(len(nights)))
    if rule == "best" and best_of is not None and len(nights) > best_of:
        order = sorted(range(len(nights)), key=lambda i: (-nights[i], i))
        counted = set(order[:best_of])
    total = sum((nights[i] for i in counted), Fraction(0))
    if rule == "average":
        return (total / len(nights) if nights else Fraction(0)), counted
    return total, counted


def season_rank(entrants: dict[Any, list[Fraction]], *, rule: str, best_of: int | None,
                min_events: int, names: dict[Any, str]) -> list[dict]:
    """Every entrant's season line, best first: those who played at least `min_events`
    nights placed by their value ("2=" for equal exact values, listed by name), then
    those who did not, by name, without a place. `names`: each entrant's name as the list
    is ordered by (season_table gives surname first: "Kip, Bessie")."""
    lines = {}
    for key, nights in entrants.items():
        value, counted = season_value(nights, rule, best_of)
        lines[key] = {"key": key, "value": value, "counted": counted,
                      "events": len(nights)}
    by_name = sorted(lines, key=lambda k: (names.get(k, "").casefold(), str(k)))
    order = {key: i for i, key in enumerate(by_name)}
    qualified = {order[k]: lines[k]["value"] for k in by_name
                 if lines[k]["events"] >= min_events}
    out = [{**lines[by_name[i]], "place": place} for i, place in rank(qualified)]
    out += [{**lines[k], "place": None} for k in by_name if lines[k]["events"] < min_events]
    return out


def season_nights(season: Season, *, director: bool) -> list[Event]:
    """The season's nights this caller is told of, in date order: the director every one;
    the public not a night left unpublished (decision 123: not counted, not named; its own
    pages are the site's 404). The one rule for the season's page, its list and the API
    (the season's events read once, so a prefetch serves them)."""
    return sorted((e for e in season.events.all()
                   if director or e.published != Event.Published.NONE),
                  key=lambda e: (e.date, e.pk))


def season_events(season: Season, *, director: bool) -> list[dict]:
    """The season's events in date order, each with whether it counts for this caller:
    the public counts only events whose standings are published final; the director
    counts every event (a provisional or unpublished one is marked as such).

    An unpublished event is not the public's at all: not counted, and not named either
    (decision 123, as access.member_events leaves it off a member's page; its own pages
    are the site's 404). The public sees a provisional one, named, counted once final."""
    return [{"event": e, "id": e.pk, "name": e.name, "date": e.date,
             "published": e.published,
             "final": e.published == Event.Published.FINAL,
             "counts": director or e.published == Event.Published.FINAL}
            for e in season_nights(season, director=director)]


def _season_nights(events: list[Event], entrants: str, scale: list[int]
                   ) -> tuple[dict[Any, list[SeasonNight]], dict[Any, list[Player]]]:
    """Each entrant's nights (a member, or a partnership of two members, by player ids),
    from the events' standings. A visitor (no member number) is not an entrant: a pair
    with a visitor gives its member a night as an individual, and no partnership."""
    players = {(p.event_id, p.number): (p.player_1, p.player_2)
               for p in Pair.objects.filter(event__in=events).select_related(
                   "player_1", "player_2")}
    nights: dict[Any, list[SeasonNight]] = defaultdict(list)
    who: dict[Any, list[Player]] = {}
    for event in events:
        for ranking in standings(event)["rankings"]:
            tied: dict[str, int] = defaultdict(int)
            for row in ranking["rows"]:
                tied[row["place"]] += 1
            for row in ranking["rows"]:
                pair = players.get((event.pk, row["pair"]))
                if pair is None:
                    continue
                night = SeasonNight(event=event.pk, place=row["place"],
                                    score=presenters.fraction(row["exact"]),
                                    points=place_points(row["place"], tied[row["place"]],
                                                        scale))
                members = [p for p in pair if p.number]
                if entrants == "individuals":
                    for member in members:
                        nights[member.pk].append(night)
                        who[member.pk] = [member]
                elif len(members) == 2:
                    key = tuple(sorted(p.pk for p in members))
                    nights[key].append(night)
                    who[key] = sorted(members, key=lambda p: p.pk)
    return nights, who


def _filed_name(player: Player) -> str:
    """A member as a club's list files them: "Kip, Bessie". A member whose first and last
    names were not kept apart is filed by the last word of the name."""
    last = player.last_name.strip()
    first = player.first_name.strip()
    if not last:
        first, _, last = player.name.strip().rpartition(" ")
    return f"{last}, {first}" if first else last


def season_table(season: Season, *, director: bool) -> dict:
    """The season's table as the caller may see it (season_events says which events
    count). Each row: place (None below the minimum attendance), member (the member's
    number; a partnership's two numbers), name, events (nights played), score (the exact
    value as a fraction string: "13/2"), and each night's place and score."""
    listed = season_events(season, director=director)
    counted = [e["event"] for e in listed if e["counts"]]
    scale = [int(p) for p in season.points_scale or []]
    nights, who = _season_nights(counted, season.entrants, scale)
    names = {k: presenters.pair_names([p.name for p in who[k]]) for k in nights}
    by_points = season.counts == "points"
    values = {k: [n.points if by_points else n.score for n in v] for k, v in nights.items()}
    # Ties and the unplaced are listed as a club's member list is: by surname, then first
    # name ("Kip, Bessie" before "Rutgers, Edna"), each partner in turn.
    filed = {k: " & ".join(_filed_name(p) for p in who[k]) for k in nights}
    lines = season_rank(values, rule=season.rule, best_of=season.best_of,
                        min_events=season.min_events, names=filed)
    methods = sorted({e.method for e in counted})
    # season_save refuses nights scored two ways in a season of scores; a night whose
    # method was changed since is named rather than silently added.
    warning = ""
    if season.counts == "score" and len(methods) > 1:
        warning = ("These nights are not all scored one way: a percentage and a plus/minus "
                   "cannot be added. The director counts points for places, or takes out "
                   "the nights scored the other way.")
    rows = []
    for line in lines:
        key = line["key"]
        people = who[key]
        rows.append({
            "place": line["place"],
            "member": people[0].number if season.entrants == "individuals"
            else [p.number for p in people],
            "name": names[key],
            "events": line["events"],
            "score": fraction_str(line["value"]),
            "players": [{"name": p.name, "number": p.number} for p in people],
            "nights": [{"event": n.event, "place": n.place,
                        "score": fraction_str(n.score), "points": fraction_str(n.points),
                        "counted": i in line["counted"]}
                       for i, n in enumerate(nights[key])],
        })
    return {
        "season": season.name,
        "id": season.pk,
        "entrants": season.entrants,
        "counts": season.counts,
        "rule": season.rule,
        "best_of": season.best_of,
        "min_events": season.min_events,
        "points_scale": scale,
        # What a night's score is: the events' method (one, when scores are added).
        "method": methods[0] if len(methods) == 1 else None,
        "published": season.published,
        "warning": warning,
        "events": [{"id": e["id"], "name": e["name"], "date": e["date"].isoformat(),
                    "published": e["published"], "final": e["final"],
                    "counts": e["counts"]} for e in listed],
        "rows": rows,
    }


def member_seasons(player: Player, seasons, *, director: bool) -> list[dict]:
    """The member's line in each of ``seasons`` (already those the caller may see) that
    holds a night they played: the season, their place ("–" below the minimum
    attendance), nights and shown score; a pairs season, each partnership's line."""
    played = set(member_event_ids(player))
    out = []
    for season in seasons.filter(events__in=played).distinct().order_by("-created_at"):
        table = season_table(season, director=director)
        for row in table["rows"]:
            if not any(p["number"] == player.number for p in row["players"]):
                continue
            partner = [p["name"] for p in row["players"] if p["number"] != player.number]
            shown = presenters.season_score(row["score"], counts=table["counts"],
                                            method=table["method"])
            exact = presenters.season_exact(row["score"], counts=table["counts"],
                                            method=table["method"])
            out.append({"season": season, "place": row["place"] or "–",
                        "partner": partner[0] if partner else "", "events": row["events"],
                        "score": shown, "exact": exact if exact not in shown else ""})
    return out
