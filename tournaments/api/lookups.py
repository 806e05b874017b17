"""Read-side lookups the API needs beyond tournaments.selectors. Nothing here writes."""

from typing import Any

from rest_framework.exceptions import NotFound

from .. import selectors
from ..models import Board, Event, Meeting, Result, Section
from ..services import ServiceError


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


def entry_meeting(table, round_number: int, entry: selectors.TableEntry) -> Meeting:
    """The meeting of a table's entry (meeting_at's, read with the board); a player's
    message if there is none."""
    if entry.meeting is None:
        raise ServiceError(f"table {table.table} does not play a round {round_number}",
                           field="round")
    return entry.meeting


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
