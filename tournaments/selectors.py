"""Read-only queries for the table pages and the director's console.

Nothing here writes. Terms: a *meeting* is one table in one round (two pairs and
the boards they play there); the *round grid* is every meeting of an event laid
out as rounds × tables, each cell counting its boards as missing, entered,
confirmed or agreed; the *seated meeting* of a table is the one its players are
at now: the lowest round there not yet agreed (or the last round, when all are).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q

from boards.models import Board
from scoring.engine import (
    ResultError,
    get_rules,
    honours_from_deal,
    parse_result,
    score_result,
)

from . import presenters, seam
from .models import AuditEntry, Event, Meeting, Pair, Result, Section, TableCode
from .tablecodes import normalise

# --- tables --------------------------------------------------------------------------------------


def table_by_code(code: str) -> TableCode | None:
    """The table a typed or scanned code opens, with its section and event; None if none."""
    code = normalise(code or "")
    if not code:
        return None
    return TableCode.objects.select_related("section__event").filter(code=code).first()


def table_meetings(section: Section, table: int) -> list[Meeting]:
    """Every round this table plays, in order, with the pairs' names."""
    return list(
        Meeting.objects.filter(section=section, table=table)
        .select_related("ns_pair__player_1", "ns_pair__player_2",
                        "ew_pair__player_1", "ew_pair__player_2")
        .order_by("round")
    )


def current_meeting(meetings: list[Meeting]) -> Meeting | None:
    """The lowest round not yet agreed; the last round once every round is agreed."""
    for meeting in meetings:
        if meeting.agreed_at is None:
            return meeting
    return meetings[-1] if meetings else None


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


def may_see_traveller(seated: Meeting | None, board: int) -> bool:
    """May the players now at this table see the traveller of `board`?

    Only when both pairs sitting there have played it: a pair that has yet to
    play a board must never see how it went elsewhere. (In a Mitchell the E-W
    pair now at a table may still meet a board an earlier round played there.)
    """
    if seated is None:
        return False
    played = (
        Result.objects.filter(event_id=seated.section.event_id, board__number=board,
                              voided=False)
        .filter(Q(ns_pair_id__in=[seated.ns_pair_id, seated.ew_pair_id])
                | Q(ew_pair_id__in=[seated.ns_pair_id, seated.ew_pair_id]))
        .values_list("ns_pair_id", "ew_pair_id")
    )
    pairs = {pair for row in played for pair in row}
    return seated.ns_pair_id in pairs and seated.ew_pair_id in pairs


# --- scores to show ------------------------------------------------------------------------------


def result_preview(event: Event, board: Board, data: Any) -> dict:
    """Score a result as entered, without storing anything (the live preview).

    Returns {"ok": True, "score": <deal score of interfaces.md §1>, "honours": {...}
    or None, "honours_from_deal": bool} or {"ok": False, "field": ..., "message": ...}.
    """
    rules = get_rules(event.rules)
    try:
        parsed = parse_result(data, rules, board=board.number, deal=board.deal or None)
    except ResultError as exc:
        return {"ok": False, "field": exc.field, "message": presenters.sentence(exc.message)}
    score = score_result(parsed, rules).to_dict()
    for item in score["items"]:
        item["law_text"] = law_text(item["law"])
    honours = None
    if not rules.is_whist and parsed.contract is not None:
        honours = dict(zip("NESW", parsed.honours, strict=True))
    return {
        "ok": True,
        "score": score,
        "honours": honours,
        "honours_from_deal": bool(board.deal) and honours is not None
        and "honours" not in data,
    }


def law_text(law: str) -> str:
    """The engine's law code as players read it: "47a" -> "Law 47a", "Duplicate F" ->
    "Duplicate Law F", "Duplicate F, 81" -> "Duplicate Law F, Law 81"."""
    parts = []
    for part in str(law).split(","):
        part = part.strip()
        if part.startswith("Duplicate "):
            parts.append("Duplicate Law " + part.removeprefix("Duplicate ").strip())
        elif part:
            parts.append("Law " + part)
    return ", ".join(parts)


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


# --- the director's round grid -------------------------------------------------------------------


@dataclass
class Cell:
    """One meeting on the grid and the state of its boards."""

    meeting: Meeting
    boards: int
    entered: int = 0
    confirmed: int = 0

    @property
    def agreed(self) -> int:
        return self.entered + self.confirmed if self.meeting.agreed_at else 0

    @property
    def missing(self) -> int:
        return max(self.boards - self.entered - self.confirmed, 0)

    @property
    def status(self) -> str:
        """The cell's colour: agreed, all confirmed, something entered, or nothing yet."""
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
            "confirmed": 0 if agreed else self.confirmed,
            "agreed": self.agreed,
            "status": self.status,
        }


@dataclass
class SectionGrid:
    section: Section
    tables: list[int]
    rounds: list[tuple[int, list[Cell | None]]] = field(default_factory=list)


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
            meeting=meeting, boards=len(meeting.boards),
            entered=got.get("entered", 0), confirmed=got.get("confirmed", 0))
    for section_id, grid in grids.items():
        keyed = cells[section_id]
        grid.tables = sorted({table for _, table in keyed})
        rounds = sorted({rnd for rnd, _ in keyed})
        grid.rounds = [(rnd, [keyed.get((rnd, t)) for t in grid.tables]) for rnd in rounds]
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
    return {"event": event.pk, "seq": event.seq, "status": event.status, "cells": cells}


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
        names = f"{pair.player_1.name} & {pair.player_2.name}"
        lines.append(f"{pair.team.name}: {names}" if pair.team else names)
    return "\n".join(lines)


def table_links(event: Event) -> list[TableCode]:
    return list(TableCode.objects.filter(section__event=event).select_related("section")
                .order_by("section__name", "table"))


@dataclass
class CardLine:
    round: int
    table: int | None
    direction: str
    opponents: int | None
    boards: list[int]


def guide_cards(event: Event) -> dict:
    """Guide cards from the stored meetings: one per table and one per pair.

    A table card lists each round's N-S and E-W pairs and boards; a pair card
    lists each round's table, direction, opponents and boards ("sit out" where
    the pair has no table that round).
    """
    meetings = list(
        Meeting.objects.filter(section__event=event)
        .select_related("section", "ns_pair", "ew_pair")
        .order_by("section__name", "round", "table")
    )
    rounds = sorted({m.round for m in meetings})
    tables: dict[tuple[str, int], list[Meeting]] = defaultdict(list)
    by_pair: dict[int, dict[int, CardLine]] = defaultdict(dict)
    for m in meetings:
        tables[(m.section.name, m.table)].append(m)
        by_pair[m.ns_pair.number][m.round] = CardLine(m.round, m.table, "N-S",
                                                      m.ew_pair.number, m.boards)
        by_pair[m.ew_pair.number][m.round] = CardLine(m.round, m.table, "E-W",
                                                      m.ns_pair.number, m.boards)
    pairs = list(Pair.objects.filter(event=event).select_related("player_1", "player_2")
                 .order_by("number"))
    pair_cards = []
    for pair in pairs:
        lines = [by_pair[pair.number].get(rnd) or CardLine(rnd, None, "sit out", None, [])
                 for rnd in rounds]
        pair_cards.append({"pair": pair, "lines": lines})
    table_cards = [
        {"section": section, "table": table, "meetings": ms}
        for (section, table), ms in sorted(tables.items())
    ]
    return {"tables": table_cards, "pairs": pair_cards, "rounds": rounds,
            "sections": len({m.section_id for m in meetings})}


def audit_entries(event: Event, limit: int = 500) -> list[AuditEntry]:
    return list(
        AuditEntry.objects.filter(event=event)
        .select_related("result__board", "undone_by", "undoes", "actor")
        .order_by("-at", "-id")[:limit]
    )


def result_director(result: Result):
    """The director who last entered, corrected or ruled on `result` (a user), or None."""
    entry = (AuditEntry.objects.filter(result=result, actor__isnull=False)
             .select_related("actor").order_by("-id").first())
    return entry.actor if entry is not None else None
