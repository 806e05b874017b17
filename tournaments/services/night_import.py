"""A whole night from a file: the night-file importer's writes (sections, results, history)."""


from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from ..models import (
    AuditEntry,
    Board,
    Event,
    Meeting,
    Pair,
    Result,
    Section,
)
from ..tablecodes import new_code
from .base import (
    Actor,
    Forbidden,
    ServiceError,
    _audit,
    _lock_event,
    _require_open,
)

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
