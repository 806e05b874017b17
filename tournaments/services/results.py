"""Results: a table's entry and confirmation, the director's corrections, rulings, voids
and undo."""


import copy
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from scoring.engine import RULINGS, SIDES, Unusual

from .. import polls, prepared, presenters, seam, selectors
from ..models import (
    CLUB_ADJUSTMENTS,
    AuditEntry,
    Event,
    Irregularity,
    Meeting,
    Result,
)
from .base import (
    Actor,
    Answer,
    Forbidden,
    ResultChanged,
    ResultConflict,
    ServiceError,
    UnusualResult,
    _apply,
    _audit,
    _board,
    _check_meeting,
    _director_put,
    _existing_for,
    _late_leave_use,
    _lock_event,
    _meeting_for_table,
    _pairs,
    _played_fields,
    _require_open,
    _require_reason,
    _row,
    _same_play,
    _save_change,
    _table_write,
)

NOT_PLAYED = "not-played"  # a ruling: the board was not played at this meeting

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
    late_play: bool = False,
) -> tuple[Result, bool]:
    """Store the result of `board` played by pair `ns` (N-S) against pair `ew` (E-W).

    Returns (result, created). Sending the same result again returns the stored
    one with created=False; a different result for the same board and pairs
    raises ResultConflict carrying the stored one. An unusual result raises
    UnusualResult unless `as_entered` (the table has looked again).

    Late play (the board played at the end of the session, out of order): the result is
    flagged ``late_play`` when the director says so (`late_play`), when the table has the
    director's leave for the board (``Meeting.late_boards``; the leave is used up), and
    when it replaces a "not-played" ruling, which the director's entry, or the table's
    with leave, does (audited as "late play"; undo brings the ruling back).
    """
    if late_play and not actor.directs:
        raise Forbidden("only the director marks a result as played late; ask the director "
                        "for leave to play the board late")
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
        if existing.ruling == NOT_PLAYED and (actor.directs or _has_leave(meeting, board)):
            if warnings and not as_entered:
                raise UnusualResult(warnings)
            return _late_replace(existing, fields, event=locked, actor=actor,
                                 meeting=meeting), True
        raise ResultConflict(
            f"board {board} between pairs {ns} and {ew} has a different result already",
            existing=existing,
        )
    if warnings and not as_entered:
        raise UnusualResult(warnings)
    # With the director's leave (used up now), the board is played late unless it is one
    # of the round the table is at: a new deal's leave (Duplicate Law B(3)) played at once.
    if _late_leave_use(meeting, board) and not (
            meeting is not None and selectors.in_its_round(
                meeting, selectors.seated_round(meeting.section_id, meeting.table))):
        late_play = True
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
        late_play=late_play,
        **fields,
    )
    _audit(event=locked, actor=actor, action="enter", result=result,
           after=seam.snapshot(result))
    return result, True


# --- a table's entry: the common case in one write statement -----------------------------


def result_enter_at_table(*, event: Event, entry: selectors.TableEntry, actor: Actor,
                          data: Any, ns: int | None = None, ew: int | None = None,
                          as_entered: bool = False, answer: Answer | None = None
                          ) -> Result | None:
    """A table enters a board of its own meeting: result_record's common case, the
    result new, in ONE statement (PostgreSQL: the function tournaments_table_enter, made
    by migration 0017), its own transaction when no other is open.

    Before it, the play is checked and scored (`entry`, one read, gave the meeting, its
    pairs and the board). The statement claims the answer's Idempotency-Key if it is to,
    locks the event's row, checks under the lock what result_record checks there (the
    event open to the tables; the round not agreed nor later than the one the table is at;
    no open irregular report on the board; no result stored yet; the meeting as read) and,
    only if all hold, stores the result, its audit entry, the event's next change number
    (Event.seq: live pages see the change) and `answer`. A board on the director's leave
    goes to result_record, which uses the leave up and marks it played late or not. Nothing is
    read back: the result is what was in hand, its id and change number the statement's
    answer. The event's row lock is held for that one statement.

    Returns the stored result, or None when this is not the common case (a refusal, a
    result already stored, an unusual result not yet looked at again, a leave given or
    taken back since the meeting was read, a closed or agreed event, a key another request
    holds, not PostgreSQL): nothing is written then, and the caller runs result_record
    (through the API's full road for a key it did not claim), which answers each of those
    as it always has. A key another request holds puts that request's stored answer in
    `answer.replay`, for the caller to replay.
    """
    meeting, board_row = entry.meeting, entry.board
    if (not prepared.available() or not actor.is_table or meeting is None
            or board_row is None or meeting.section_id != actor.section_id
            or meeting.table != actor.table or board_row.number not in meeting.boards):
        return None
    ns_pair, ew_pair = meeting.ns_pair, meeting.ew_pair
    if (ns_pair.number if ns is None else ns, ew_pair.number if ew is None else ew) != (
            ns_pair.number, ew_pair.number):
        return None
    fields, warnings = _played_fields(event, board_row, data, actor)
    if warnings and not as_entered:
        return None  # result_record says which: a stored result first, else the warnings
    if selectors.late_leave(meeting.late_boards, board_row.number):
        # The director's leave: result_record uses it up, and says whether the board was
        # played late or in its own round (a new deal's leave, Duplicate Law B(3)).
        return None
    result = Result(
        event=event, board=board_row, ns_pair=ns_pair, ew_pair=ew_pair, meeting=meeting,
        entered_by=actor.label[:80], status=Result.Status.ENTERED, late_play=False, **fields)
    audit = AuditEntry(event=event, result=result, action="enter", actor=None,
                       actor_label=actor.label[:80], after=seam.snapshot(result))
    result.created_at = result.updated_at = audit.at = timezone.now()
    call = {"result": _row(result), "audit": _row(audit), "board": board_row.number,
            "leave": False, "section": meeting.section_id, "table": meeting.table,
            "shut": [Event.Status.CLOSED, Event.Status.AGREED],
            "open": [str(s) for s in selectors.OPEN_IRREGULAR]}
    stored = _table_write("tournaments_table_enter", call, answer, result, result.created_at,
                          fills=("id", "seq"))
    if stored is None:
        return None
    result.id, result.seq = stored["id"], stored["seq"]
    result._state.adding = False
    event.seq = result.seq
    # The live pages' polls hear of it once it commits (at once, with no transaction
    # open), as from every other change (_lock_event's work: this path locks the row).
    polls.changed(event)
    return result


def result_confirm_at_table(*, event: Event, result: Result, actor: Actor, by: str = "",
                            answer: Answer | None = None) -> Result | None:
    """The opponents confirm at the table a result it entered: result_confirm's common case
    in ONE statement (PostgreSQL: the function tournaments_table_confirm, migration 0017),
    its own transaction when no other is open.

    `result` is as read, with its board, pairs and meeting (and `event`, its event). The
    statement claims the answer's key if it is to, locks the event's row, and checks under
    the lock what result_confirm checks there: the event open to the tables, the result
    entered (not confirmed, not the director's, not removed) and unchanged since it was
    read, of the table's own meeting, in a round it may still write, no open report on
    the board. Only then it marks it confirmed with the event's next change number, writes
    the audit entry (before and after, as result_confirm does) and `answer`.

    Returns the confirmed result (changed in place), or None when this is not the common
    case: nothing is written, and the caller runs result_confirm, which answers it as it
    always has. A key another request holds puts its stored answer in `answer.replay`.
    """
    meeting = result.meeting
    if (not prepared.available() or not actor.is_table or meeting is None
            or meeting.section_id != actor.section_id or meeting.table != actor.table):
        return None
    if (result.voided or result.status != Result.Status.ENTERED) and (
            answer is None or answer.claim is None):
        return None  # (with a key to claim, the statement still finds a resend's answer)
    before = seam.snapshot(result)
    confirmed = copy.copy(result)
    confirmed.status = Result.Status.CONFIRMED
    confirmed.confirmed_by = (by or actor.label)[:80]
    confirmed.updated_at = timezone.now()
    audit = AuditEntry(event=event, result=confirmed, action="confirm", actor=None,
                       actor_label=actor.label[:80], before=before,
                       after=seam.snapshot(confirmed), at=confirmed.updated_at)
    call = {"event": event.pk, "result": result.pk, "updated_at": result.updated_at,
            "at": confirmed.updated_at, "by": confirmed.confirmed_by,
            "from": Result.Status.ENTERED, "to": Result.Status.CONFIRMED,
            "section": meeting.section_id, "table": meeting.table, "audit": _row(audit),
            "shut": [Event.Status.CLOSED, Event.Status.AGREED],
            "open": [str(s) for s in selectors.OPEN_IRREGULAR]}
    stored = _table_write("tournaments_table_confirm", call, answer, confirmed,
                          confirmed.updated_at, fills=("seq",))
    if stored is None:
        return None
    confirmed.seq = event.seq = stored["seq"]
    polls.changed(event)
    return confirmed


def _has_leave(meeting: Meeting | None, board: int) -> bool:
    return meeting is not None and selectors.late_leave(
        Meeting.objects.values_list("late_boards", flat=True).get(pk=meeting.pk), board)


def _late_replace(existing: Result, fields: dict, *, event: Event, actor: Actor,
                  meeting: Meeting | None) -> Result:
    """The board marked not played was played late after all: its result takes the
    ruling's place (audited "late play"; undo puts the ruling back). Under the event lock."""
    before = seam.snapshot(existing)
    _late_leave_use(meeting or existing.meeting, existing.board.number)
    _apply(existing, fields)
    existing.late_play = True
    existing.status = Result.Status.DIRECTOR if actor.is_director else Result.Status.ENTERED
    existing.entered_by = actor.label[:80]
    existing.confirmed_by = ""
    if existing.meeting_id is None and meeting is not None:
        existing.meeting = meeting
    _save_change(existing, event=event, actor=actor, action="late play", before=before,
                 reason="" if actor.is_table else "played late, in place of 'not played'")
    return existing


def _table_rounds(rounds: QuerySet) -> Subquery:
    return Subquery(rounds.filter(section_id=OuterRef("meeting__section_id"),
                                  table=OuterRef("meeting__table")).values("round")[:1])


# The round the result's table is at (selectors.current_meeting): its lowest round not yet
# agreed, or its last once every round is agreed.
_SEATED_ROUND = Coalesce(
    _table_rounds(Meeting.objects.filter(agreed_at__isnull=True).order_by("round")),
    _table_rounds(Meeting.objects.order_by("-round")))

# An open report on the result's board at its meeting (selectors.meeting_irregular).
_REPORTED = Exists(Irregularity.objects.filter(
    meeting_id=OuterRef("meeting_id"), board_id=OuterRef("board_id"),
    status__in=selectors.OPEN_IRREGULAR))


@transaction.atomic
def result_confirm(*, result: Result, actor: Actor, by: str = "",
                   version: int | None = None) -> Result:
    """The opponents (or the director) confirm a result entered at the table. Given the
    `version` they were shown, a result changed since (the other phone's Change) raises
    ResultChanged and nothing is confirmed: they confirm only what they saw."""
    event = _lock_event(result.event_id)
    _require_open(event)
    # One read under the lock: the result with what its answer shows (its meeting's
    # section; the event is the row just locked) and, for a table, the round it is at.
    rows = Result.objects.select_for_update(of=("self",)).select_related(
        "board", "ns_pair", "ew_pair", "meeting__section")
    if actor.is_table:
        rows = rows.annotate(seated=_SEATED_ROUND, reported=_REPORTED)
    result = rows.get(pk=result.pk)
    result.event = event
    if result.voided:
        raise ServiceError("this result has been removed", field="result")
    if version is not None and result.version != version:
        now = presenters.result_line(result, is_whist=event.is_whist)
        raise ResultChanged(
            f"board {result.board.number} was changed after you looked at it: it now reads "
            f"{now}. Nothing was confirmed; look at it again and confirm it if it is right.",
            existing=result)
    # A late result the table entered with leave is confirmed by the opponents at once,
    # even in a round agreed since (the leave was used up by the entry).
    seated = getattr(result, "seated", None)
    _meeting_for_table(actor, result.meeting, event, result.board.number,
                       late=result.late_play and result.status == Result.Status.ENTERED,
                       seated=None if seated is None else Meeting(round=seated),
                       reported=getattr(result, "reported", True))
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
    version: int | None = None,
) -> Result:
    """Change a stored result: the play (`data`) or a ruling in its place.

    A table may change its own result until its round is agreed (Duplicate Law E);
    after that, and always with a reason, only the director. An unusual result raises
    UnusualResult unless `as_entered`. Given the `version` the caller's form was made
    from, a result changed since (another tab, another phone, the table while the
    director looked) raises ResultChanged and nothing is saved. The table's play saved
    unchanged is no change: the result is returned as it was (its version the same).
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
    if version is not None and result.version != version:
        now = presenters.result_line(result, is_whist=event.is_whist)
        raise ResultChanged(
            f"board {result.board.number} was changed after this correction was begun: it "
            f"now reads {now}. Nothing was saved; look at it again and correct it if it is "
            "still wrong.", existing=result)
    if not actor.is_director:
        _meeting_for_table(actor, result.meeting, event, result.board.number)
        if ruling:
            raise Forbidden("only the director gives rulings")
        if result.ruling or result.status == Result.Status.DIRECTOR:
            raise Forbidden("the director has set this result: ask the director to change it")
        if _same_play(result, fields):
            # Saved unchanged: nothing to audit, and the opponents' confirmation stands.
            return result
    if warnings and not as_entered:
        raise UnusualResult(warnings)
    before = seam.snapshot(result)
    if ruling:
        result.late_play = False
    elif result.ruling == NOT_PLAYED:
        result.late_play = True  # the board marked not played was played late after all
    _apply(result, fields)
    result.status = Result.Status.DIRECTOR if actor.is_director else Result.Status.ENTERED
    result.confirmed_by = ""  # the opponents confirmed the old result, not this one
    _save_change(result, event=event, actor=actor, action="rule" if ruling else "correct",
                 before=before, reason=reason)
    return result


def _ruling_fields(event: Event, kind: str, offending: str) -> dict:
    if kind in CLUB_ADJUSTMENTS:
        # They carry grades or a deal result: services/adjustments.py gives them.
        raise ServiceError("an adjusted or assigned score is a club adjustment: give it as "
                           "an adjusted or an assigned score, not as a ruling",
                           field="ruling")
    if kind not in RULINGS:
        raise ServiceError("a ruling is average, fouled, cancelled (Duplicate Law B) or "
                           "not played",
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
        # A program's ruling comes from a file: no reason.
        reason = _require_reason(reason, "a ruling")
    fields = _ruling_fields(event, kind, offending)
    return _director_put(event=event, board=board, ns=ns, ew=ew, fields=fields, actor=actor,
                         action="rule", reason=reason, meeting=meeting)


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
    reason = _require_reason(reason, "removing a result")
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


LAW_B_UNDO = ("this ruling decided an irregular board (Duplicate Law B): undo the decision "
              "on that board's page under Irregular boards, which puts the table's report "
              "back as it was made")


def audit_undo(*, entry: AuditEntry, actor: Actor, reason: str = "") -> Result:
    """Put a result back as it was before an audited change. A ruling that decided an
    irregular board is undone with its report (services.irregularity_undo), not here:
    undone alone, the report stayed decided while the table was sent to play the board."""
    if not actor.is_director:
        raise Forbidden("only the director undoes a change")
    if selectors.law_b_ruling(entry):
        raise ServiceError(LAW_B_UNDO, field="entry")
    return _audit_undo(entry=entry, actor=actor, reason=reason)


@transaction.atomic
def _audit_undo(*, entry: AuditEntry, actor: Actor, reason: str = "") -> Result:
    """audit_undo's work, for any ruling too (irregularity_undo's, with its report)."""
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
        restore = seam.snapshot_fields(entry.before)
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
