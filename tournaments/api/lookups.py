"""Read-side lookups the API needs beyond tournaments.selectors. Nothing here writes."""

from typing import Any

from rest_framework.exceptions import NotFound

from boards.models import Board

from .. import selectors
from ..models import Event, Meeting, Result, Section, TableCode
from ..services import ServiceError
from ..standings import board_finished


def section_of(event: Event, name: str) -> Section:
    section = Section.objects.filter(event=event, name=name).first()
    if section is None:
        raise NotFound(f"there is no section {name} in this event")
    return section


def meeting_at(section: Section, table: int, round_number: int) -> Meeting:
    """The meeting at this table in this round; a player's message if there is none."""
    meeting = (
        Meeting.objects.filter(section=section, table=table, round=round_number)
        .select_related("ns_pair", "ew_pair", "section")
        .first()
    )
    if meeting is None:
        raise ServiceError(f"table {table} does not play a round {round_number}", field="round")
    return meeting


def meeting_for_pairs(event: Event, board: int, ns: int, ew: int) -> Meeting | None:
    """The meeting where pair `ns` sits N-S against `ew` and plays `board`, if any.

    The director's entries name pairs, not tables; linking them to the meeting keeps
    the round's count of entered boards right. Boards are a JSON list, filtered here
    rather than in SQL (SQLite has no JSON containment).
    """
    candidates = Meeting.objects.filter(
        section__event=event, ns_pair__number=ns, ew_pair__number=ew
    ).select_related("ns_pair", "ew_pair", "section")
    return next((m for m in candidates if board in m.boards), None)


def meeting_results(meeting: Meeting) -> dict[int, Result]:
    """The live results of a meeting, by board number."""
    rows = (
        Result.objects.filter(meeting=meeting, voided=False)
        .select_related("board", "ns_pair", "ew_pair", "meeting__section", "event")
    )
    return {r.board.number: r for r in rows}


def table_has_played(table: TableCode, board_number: int) -> bool:
    """Is this table's own result for the board stored? Only then may it see the traveller."""
    return Result.objects.filter(
        meeting__section_id=table.section_id,
        meeting__table=table.table,
        board__number=board_number,
        voided=False,
    ).exists()


def table_plays_now(table: TableCode, board_number: int) -> bool:
    """Is the board one of those being played at this table this round?

    The live score takes honours from the hand record, so previewing any other board
    would tell the players how the honours lie on a board they may still have to play.
    """
    seated = selectors.current_meeting(selectors.table_meetings(table.section, table.table))
    return seated is not None and board_number in seated.boards


def deal_visible(event: Event, board_number: int, *, director: bool) -> bool:
    """Deals are the director's until the board is finished and the standings published."""
    if director:
        return True
    return event.published != Event.Published.NONE and board_finished(event, board_number)


def board_of(event: Event, number: int) -> Board:
    board = Board.objects.filter(event=event, number=number).first()
    if board is None:
        raise ServiceError(f"board {number} is not in this event", field="board")
    return board


def score_preview(event: Event, board: Board, data: Any) -> dict:
    """The engine's deal score for a result not yet stored (the table page's live score)."""
    body = {k: v for k, v in data.items() if k != "board"} if isinstance(data, dict) else data
    preview = selectors.result_preview(event, board, body, live=True)
    if not preview["ok"]:
        field = f"result.{preview['field']}" if preview["field"] else "result"
        raise ServiceError(preview["message"], field=field)
    return {"board": board.number, **preview["score"], "honours": preview["honours"],
            "honours_from_deal": preview["honours_from_deal"],
            "warnings": preview["warnings"]}


def table_may_see_traveller(table: TableCode, board_number: int) -> bool:
    """A table sees a traveller once its own result for the board is stored, and only
    while both pairs now seated there have played the board: in a Mitchell the E-W
    pair arriving at a table may still have to play a board played there earlier.
    """
    if not table_has_played(table, board_number):
        return False
    seated = selectors.current_meeting(selectors.table_meetings(table.section, table.table))
    return selectors.may_see_traveller(seated, board_number)
