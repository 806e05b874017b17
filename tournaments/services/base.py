"""What every service shares: the errors, the actor, the event lock and the audit.

The lock order the package's docstring states is kept here: `_lock_event` takes the
event's row first, then each service locks the rows it changes.
"""

import functools
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import F, Model

from scoring.engine import ResultError, Unusual

from .. import polls, prepared, seam, selectors
from ..models import (
    AuditEntry,
    Board,
    Event,
    Meeting,
    Pair,
    Result,
    Section,
)
from ..presenters import clock, sentence

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


class ResultChanged(ResultConflict):
    """The result was changed after the form or read that corrects it (its ``version``):
    the correction was made to what the caller no longer sees, so nothing is saved."""


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
        """The director by name where the log-in has one ("director Grace Holt"), else by
        the log-in ("director alice"): the label the rows they write keep (entered by,
        reported by), read where the log-in is not at hand."""
        name = (user.get_full_name() or "").strip() if hasattr(user, "get_full_name") else ""
        return cls(label=f"director {name or user.get_username()}", user=user)

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
    Once the change commits, the live pages' polls hear of it from the cache (polls).
    """
    events = list(Event.objects.raw(_BUMP_SQL, [event_id]))
    if not events:
        raise Event.DoesNotExist(f"there is no event {event_id}")
    polls.changed(events[0])
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


def _require_reason(reason: str, what: str = "a correction") -> str:
    """The reason, stripped; refused when empty, in the words of `what` needs it ("a
    ruling", "an adjusted score")."""
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(f"say why: {what} needs a reason for the audit trail",
                           field="reason")
    return reason


def _board(event: Event, number: int) -> Board:
    try:
        return Board.objects.get(event=event, number=number)
    except Board.DoesNotExist:
        raise ServiceError(f"board {number} is not in this event", field="board") from None


def _pairs(event: Event, ns: int, ew: int) -> tuple[Pair, Pair]:
    """Pairs `ns` and `ew` of the event, in one query. The same pair twice is refused
    here, for every write naming two pairs (a result, a ruling, an adjusted or assigned
    score): the database's check (result_two_different_pairs) would otherwise be a 500."""
    if ns == ew:
        raise ServiceError("a pair cannot play against itself", field="ew")
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
            f"at {where} pair {meeting.ns_pair.number} sits North–South against pair "
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


def _director_put(*, event: Event, board: int, ns: int, ew: int, fields: dict, actor: Actor,
                  action: str, reason: str, meeting: Meeting | None,
                  check: Callable[[Event], None] | None = None) -> Result:
    """Put the director's `fields` (a ruling, an adjusted or an assigned score) in place of
    the board's result at this meeting, or create it: under the event's lock, audited as
    `action`. `check` looks at the locked event first (a setting that may just have
    changed). The result is the director's: not played late, confirmed by no one."""
    board_row = _board(event, board)
    ns_pair, ew_pair = _pairs(event, ns, ew)
    if meeting is not None:
        _check_meeting(meeting, board, ns, ew)
    locked = _lock_event(event.pk)
    _require_open(locked)
    if check is not None:
        check(locked)
    existing = _existing_for(board_row, ns_pair, ew_pair)
    if existing is not None:
        before = seam.snapshot(existing)
        _apply(existing, fields)
        existing.late_play = False
        existing.status = Result.Status.DIRECTOR
        existing.confirmed_by = ""  # the opponents confirmed the old result, not this one
        _save_change(existing, event=locked, actor=actor, action=action, before=before,
                     reason=reason)
        return existing
    result = Result.objects.create(
        event=locked, board=board_row, ns_pair=ns_pair, ew_pair=ew_pair, meeting=meeting,
        entered_by=actor.label[:80], status=Result.Status.DIRECTOR, seq=locked.seq, **fields,
    )
    _audit(event=locked, actor=actor, action=action, result=result,
           after=seam.snapshot(result), reason=reason)
    return result


def _meeting_for_table(actor: Actor, meeting: Meeting | None, event: Event, board: int,
                       *, late: bool = False, seated: Meeting | None = None,
                       reported: bool = True) -> None:
    """A table writes only in its own meeting, at the round it is at now or an earlier one
    not yet agreed, or a board the director has given it leave to play late (in any round
    of its own, agreed or not; `late`: the opponents confirming that late result). Read
    under the event lock, which round_agree and the late play services take too.

    `seated`: the table's seated round, when the caller read it under the event lock with
    `meeting` itself (so `meeting`'s agreement and leave are as they are now): nothing is
    read again; `reported`: False when the caller's read found no open report on the
    board (selectors.OPEN_IRREGULAR), so none is looked for again."""
    if not actor.is_table:
        return
    _require_table_scoring(event)
    if meeting is None or meeting.section_id != actor.section_id or meeting.table != actor.table:
        raise Forbidden("a table can only enter the boards it plays")
    refusal = reported and selectors.irregular_refusal(meeting, board)  # Law B: wait for it
    if refusal:
        raise Forbidden(refusal, field="board")
    if seated is not None:
        agreed_at, late_boards = meeting.agreed_at, meeting.late_boards
    else:
        agreed_at, late_boards = Meeting.objects.values_list("agreed_at", "late_boards").get(
            pk=meeting.pk)
    if late or selectors.late_leave(late_boards, board):
        # Late play: the director's leave opens this board, whatever the round; and the
        # opponents confirm the late result it let the table enter (`late`).
        return
    if agreed_at is not None:
        raise Forbidden(
            f"round {meeting.round} at table {meeting.table} is agreed (Duplicate Law E): "
            "ask the director to correct a score"
        )
    if seated is None:
        seated = selectors.seated_round(actor.section_id, actor.table)
    refusal = selectors.later_round_refusal(meeting, seated, board)
    if refusal:
        raise Forbidden(refusal, field="round")


def _late_leave_use(meeting: Meeting | None, board: int) -> bool:
    """Was `board` of `meeting` on the director's late-play leave? If so the leave is used
    up now (one late result a leave). Called under the event lock, which every writer of
    `late_boards` takes first."""
    if meeting is None:
        return False
    locked = Meeting.objects.select_for_update().get(pk=meeting.pk)
    if not selectors.late_leave(locked.late_boards, board):
        return False
    locked.late_boards = [b for b in locked.late_boards if b != board]
    locked.save(update_fields=["late_boards"])
    meeting.late_boards = locked.late_boards
    return True


# --- the table's write functions: one statement each (migrations 0017, 0018) -----------


@dataclass
class Answer:
    """The answer to the request making a write, kept where a resend finds it (an
    IdempotencyRecord): the table's entry stores it in its own write statement.

    The key is claimed already (`record_id`, by the API's idempotent decorator) or is
    claimed by the write itself (`claim`: scope, key and request hash), so that the whole
    request is one statement. `render` gives the answer's JSON body (as stored: the
    rendered JSON read back) from the result in hand; `stored` says whether it was."""

    render: Callable[[Result], Any]
    record_id: int | None = None
    claim: tuple[str, str, str] | None = None
    status_code: int = 201
    body: Any = None
    stored: bool = False
    # The answer stored for the key `claim` found another request holding:
    # {"status_code", "hash", "response"} (nothing written).
    replay: dict | None = None


def _table_write(function: str, call: dict, answer: Answer | None, subject: Any, at,
                 fills: tuple[str, ...] = ()) -> dict | None:
    """Run one of the table's write functions (migrations 0017 and 0018) on `call`, with
    `answer`'s claim (made `at`) and its body rendered from `subject`; the function's
    answer (what it decided: the new id, the change number; `fills` name those it also
    puts in the stored answer, and so in `answer.body`), or None when it wrote nothing
    (for a key another request holds, its stored answer is then in `answer.replay`)."""
    if answer is not None:
        answer.body = answer.render(subject)  # the function fills in what it decides
        call.update(record=answer.record_id, status_code=answer.status_code,
                    answer=answer.body)
        if answer.claim is not None:
            scope, key, digest = answer.claim
            call["claim"] = {"scope": scope, "key": key, "hash": digest, "at": at}
    with prepared.cursor() as cursor:
        cursor.execute(f"SELECT {function}(%s::jsonb)", [json.dumps(call, default=_iso)])
        (stored,) = cursor.fetchone()
    if isinstance(stored, str):
        stored = json.loads(stored)
    if stored is not None and "replay" in stored:
        if answer is not None:
            answer.replay = stored["replay"]
        return None
    if stored is not None and answer is not None:
        answer.body.update({name: stored[name] for name in fills})
        answer.stored = True
    return stored


def _iso(value: Any) -> str:
    """A time in a row's JSON, to the microsecond (as the ORM writes it)."""
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"not JSON: {value!r}")


def _row(obj: Model) -> dict:
    """`obj`'s row as JSON for jsonb_populate_record: each column by name, the values as
    the ORM would write them (a JSON field's value as is; its id left out). A value that is
    None or already of its column's own type (a str for text, an int for a number, a bool
    for a flag) is what the ORM's preparing would give back, so it is taken as it is."""
    db = connections[DEFAULT_DB_ALIAS]
    row = {}
    for column, attname, prep, own in _row_columns(type(obj)):
        value = getattr(obj, attname)
        row[column] = (value if prep is None or value is None or type(value) is own
                       else prep(value, db))
    return row


@functools.cache
def _row_columns(model: type[Model]
                 ) -> tuple[tuple[str, str, Callable | None, type | None], ...]:
    """_row's columns of `model`: (column, attribute, how the ORM prepares its value to
    save it (None for a JSON field, whose value goes as it is), the type its preparing
    leaves unchanged (None: every value is prepared))."""
    return tuple((f.column, f.attname,
                  None if f.get_internal_type() == "JSONField" else f.get_db_prep_save,
                  _OWN_TYPES.get(f.target_field.get_internal_type() if f.is_relation
                                 else f.get_internal_type()))
                 for f in model._meta.concrete_fields if not f.primary_key)


# The Python type whose values a column's preparing gives back as they are.
_OWN_TYPES = {
    **dict.fromkeys(("CharField", "TextField", "SlugField", "EmailField"), str),
    **dict.fromkeys(("IntegerField", "BigIntegerField", "SmallIntegerField",
                     "PositiveIntegerField", "PositiveSmallIntegerField",
                     "PositiveBigIntegerField", "AutoField", "BigAutoField",
                     "SmallAutoField"), int),
    "BooleanField": bool,
}
