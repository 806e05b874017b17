"""Every write goes through here: the table page, the director console, the API,
the night-file importer and the tests alike.

Each service is keyword-only and atomic. Writers to one event serialise on the
event row (``select_for_update``), always taken first, then the result rows:
one fixed order, so two writers never deadlock. An API write with an Idempotency-Key
claims its key (api/idempotency.py) before all of these, in the same transaction; a
request claims no key but its own, so the order stays one way: key, event, results.
Validation and scoring are pure and run before the lock is taken, which keeps the
locked part short.

The services live by concern: `base` (errors, the actor, the event lock, the audit),
`setup` (event, teams, pairs, boards, movement), `results` (entry, confirmation,
correction, rulings, undo), `event_state` (rounds agreed, status, closing, publishing,
the final standings) and `night_import` (the night file's writes). Callers use
`services.<name>` from this package.
"""

from .base import (
    AGREED_FOR_TABLES,
    Actor,
    Forbidden,
    ResultConflict,
    ServiceError,
    UnusualResult,
    _lock_event,
)
from .event_state import (
    FINAL_BY,
    FINAL_TASK,
    _schedule_final,
    correction_period_set,
    event_close,
    event_final_if_due,
    event_publish,
    event_reopen,
    event_set_status,
    events_final_due,
    round_agree,
)
from .night_import import (
    IMPORT_BATCH,
    HistoryRow,
    MeetingRow,
    ResultRow,
    SectionRow,
    results_import,
    sections_import,
)
from .results import (
    audit_undo,
    board_cancel,
    result_confirm,
    result_correct,
    result_record,
    result_void,
    ruling_award,
)
from .rubbers import (
    rubber_create,
    rubber_deal_add,
    rubber_deal_correct,
    rubber_preview,
    rubber_sheet,
)
from .setup import (
    boards_set,
    event_create,
    movement_and_boards_set,
    movement_generate,
    movement_meetings_set,
    pair_set,
    pairs_set,
    tables_needed,
    tables_words,
    teams_set,
)

__all__ = [
    "rubber_create",
    "rubber_deal_add",
    "rubber_deal_correct",
    "rubber_preview",
    "rubber_sheet",
    "_lock_event",
    "_schedule_final",
    "Actor",
    "AGREED_FOR_TABLES",
    "audit_undo",
    "board_cancel",
    "boards_set",
    "correction_period_set",
    "event_close",
    "event_create",
    "event_final_if_due",
    "event_publish",
    "event_reopen",
    "event_set_status",
    "events_final_due",
    "FINAL_BY",
    "FINAL_TASK",
    "Forbidden",
    "HistoryRow",
    "IMPORT_BATCH",
    "MeetingRow",
    "movement_and_boards_set",
    "movement_generate",
    "movement_meetings_set",
    "pair_set",
    "pairs_set",
    "result_confirm",
    "result_correct",
    "result_record",
    "result_void",
    "ResultConflict",
    "ResultRow",
    "results_import",
    "round_agree",
    "ruling_award",
    "SectionRow",
    "sections_import",
    "ServiceError",
    "tables_needed",
    "tables_words",
    "teams_set",
    "UnusualResult",
]
