"""Boards not played, and late play.

Terms. A board is *not played* at a meeting when the table never played it (slow play,
the time ran out): the director marks it so, a Result with the ruling "not-played", which
the engine leaves out of the comparison and credits to neither pair (Duplicate Law H: a
pair is compared only with the pairs who played the same hands). *Late play* is a board
played at the end of the session, out of order: the director gives the table *leave*
(``Meeting.late_boards``) to enter it whatever round it is at, even a round already agreed,
or enters the late result itself. A late result is flagged ``Result.late_play`` and takes
the place of a "not-played" ruling for the same board and pairs (services.result_record).

Every change here is the director's and audited: marking boards not played is one
"rule" entry per board (undo removes the ruling), a leave given or withdrawn one entry
for the meeting.
"""

from collections.abc import Iterable

from django.db import transaction

from ..models import Event, Meeting, Result
from .base import (
    Actor,
    Forbidden,
    ServiceError,
    _audit,
    _lock_event,
    _require_open,
    _require_reason,
)
from .results import NOT_PLAYED, ruling_award


def _numbers(meeting: Meeting, boards: Iterable[int]) -> list[int]:
    """The boards asked for, each once and in order, every one played at this meeting."""
    numbers = sorted(set(boards))
    if not numbers:
        raise ServiceError("choose the boards", field="boards")
    where = f"table {meeting.table} in round {meeting.round}"
    for number in numbers:
        if number not in meeting.boards:
            raise ServiceError(f"board {number} is not played at {where}", field="boards")
    return numbers


def _live(meeting: Meeting, numbers: list[int]) -> dict[int, Result]:
    """The live result of each of these boards between the meeting's two pairs."""
    return {r.board.number: r for r in Result.objects.filter(
        board__event_id=meeting.section.event_id, board__number__in=numbers, voided=False,
        ns_pair=meeting.ns_pair, ew_pair=meeting.ew_pair).select_related("board")}


def _require_director(actor: Actor, what: str) -> None:
    if not actor.directs:
        raise Forbidden(f"only the director {what}")


@transaction.atomic
def boards_not_played(*, meeting: Meeting, boards: Iterable[int], actor: Actor,
                      reason: str = "") -> list[Result]:
    """Mark these boards of a meeting not played (slow play, time): a "not-played" ruling
    for each, no comparison and no credit for either pair (Duplicate Law H).

    A board already marked not played is left as it is; a board with a result is
    refused (a ruling in place of a score is the ruling page's). Each board is its own
    audited "rule" change, undone from the audit page.
    """
    _require_director(actor, "marks a board not played")
    if actor.is_director:
        reason = _require_reason(reason)
    meeting = (Meeting.objects.select_related("section", "ns_pair", "ew_pair")
               .get(pk=meeting.pk))
    numbers = _numbers(meeting, boards)
    event = _lock_event(meeting.section.event_id)
    _require_open(event)
    live = _live(meeting, numbers)
    for number in numbers:
        result = live.get(number)
        if result is not None and result.ruling != NOT_PLAYED:
            raise ServiceError(
                f"board {number} has a result at table {meeting.table} in round "
                f"{meeting.round}: remove it or give a ruling on it instead", field="boards")
    marked = []
    for number in numbers:
        if number in live:
            marked.append(live[number])
            continue
        marked.append(ruling_award(
            event=event, board=number, ns=meeting.ns_pair.number, ew=meeting.ew_pair.number,
            kind=NOT_PLAYED, actor=actor, reason=reason, meeting=meeting))
    return marked


def _leave_state(meeting: Meeting, late_boards: list[int]) -> dict:
    return {"section": meeting.section.name, "round": meeting.round, "table": meeting.table,
            "late_boards": list(late_boards)}


@transaction.atomic
def late_play_allow(*, meeting: Meeting, boards: Iterable[int], actor: Actor,
                    reason: str = "") -> Meeting:
    """Give the table leave to play these boards late and enter them itself, whatever its
    round, even an agreed one (the leave is used up when the table saves the result).

    Refused for a board that has a played result already (correct it instead); a board
    marked not played may be given leave: its late result replaces the ruling.
    """
    _require_director(actor, "gives leave to play a board late")
    if actor.is_director:
        reason = _require_reason(reason)
    meeting = (Meeting.objects.select_related("section", "ns_pair", "ew_pair")
               .get(pk=meeting.pk))
    numbers = _numbers(meeting, boards)
    event = _lock_event(meeting.section.event_id)
    _require_open(event)
    if event.status == Event.Status.AGREED:
        raise Forbidden("the event's scores are agreed, so the tables enter nothing more: "
                        "enter the late result yourself")
    live = _live(meeting, numbers)
    for number in numbers:
        result = live.get(number)
        if result is not None and result.ruling != NOT_PLAYED:
            raise ServiceError(f"board {number} has a result at table {meeting.table} in "
                               f"round {meeting.round} already: correct it instead",
                               field="boards")
    locked = Meeting.objects.select_for_update().get(pk=meeting.pk)
    before = list(locked.late_boards or [])
    after = sorted(set(before) | set(numbers))
    if after != before:
        locked.late_boards = after
        locked.save(update_fields=["late_boards"])
        _audit(event=event, actor=actor, action="late leave",
               before=_leave_state(meeting, before), after=_leave_state(meeting, after),
               reason=reason)
    meeting.late_boards = after
    return meeting


@transaction.atomic
def late_play_withdraw(*, meeting: Meeting, actor: Actor, boards: Iterable[int] | None = None,
                       reason: str = "") -> Meeting:
    """Withdraw the leave to play boards late (all of the meeting's when `boards` is None)."""
    _require_director(actor, "withdraws leave to play a board late")
    if actor.is_director:
        reason = _require_reason(reason)
    meeting = (Meeting.objects.select_related("section", "ns_pair", "ew_pair")
               .get(pk=meeting.pk))
    event = _lock_event(meeting.section.event_id)
    _require_open(event)
    locked = Meeting.objects.select_for_update().get(pk=meeting.pk)
    before = list(locked.late_boards or [])
    gone = set(before) if boards is None else set(boards)
    after = [b for b in before if b not in gone]
    if after != before:
        locked.late_boards = after
        locked.save(update_fields=["late_boards"])
        _audit(event=event, actor=actor, action="late leave withdrawn",
               before=_leave_state(meeting, before), after=_leave_state(meeting, after),
               reason=reason)
    meeting.late_boards = after
    return meeting

