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
correction, rulings, undo), `late` (boards not played, late play), `event_state`
(rounds agreed, status, closing, publishing, the final standings), `movement_change` (a
new movement from a round on), `pair_changes` (late and leaving pairs, substitutes),
`irregular` (irregular boards, Duplicate Law B), `night_import` (the night file's writes)
and `adjustments` (club adjustments: adjusted and assigned scores, when the event turns
them on), `members` (the club's member list: CSV import and export, merging two
records). Callers use `services.<name>` from this package.
"""

from .adjustments import (
    CLUB_ADJUSTMENTS_OFF,
    adjusted_award,
    assigned_award,
    club_adjustments_set,
)
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
from .irregular import (
    IrregularityRow,
    irregularities_import,
    irregularity_cancel,
    irregularity_new_deal,
    irregularity_rectified,
    irregularity_report,
    irregularity_rule,
    irregularity_send_back,
    irregularity_undo,
    irregularity_withdraw,
)
from .late import boards_not_played, late_play_allow, late_play_withdraw
from .members import (
    CSV_COLUMNS,
    ImportReport,
    member_save,
    members_import,
    members_merge,
    members_parse_csv,
    player_for,
)
from .movement_change import (
    MovementPlan,
    meetings_replace_from,
    movement_change,
    movement_plan,
    pairs_playing,
    section_history,
    started_refusal,
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
from .pair_changes import (
    LatePairPlan,
    LeavePlan,
    PairChangeRow,
    late_pair_plan,
    meeting_key,
    movement_regenerate,
    pair_changes_import,
    pair_join_late,
    pair_leave,
    pair_leave_plan,
    substitute_set,
)
from .results import (
    Answer,
    audit_undo,
    board_cancel,
    result_confirm,
    result_correct,
    result_enter_at_table,
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
from .scoring_settings import not_played_scoring_set
from .sections import (
    compare_by_section_set,
    pairs_section_set,
    section_add,
    section_remove,
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
    "adjusted_award",
    "assigned_award",
    "CLUB_ADJUSTMENTS_OFF",
    "club_adjustments_set",
    "AGREED_FOR_TABLES",
    "audit_undo",
    "board_cancel",
    "boards_not_played",
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
    "irregularities_import",
    "IrregularityRow",
    "irregularity_cancel",
    "irregularity_new_deal",
    "irregularity_rectified",
    "irregularity_report",
    "irregularity_rule",
    "irregularity_send_back",
    "irregularity_undo",
    "irregularity_withdraw",
    "CSV_COLUMNS",
    "ImportReport",
    "member_save",
    "members_import",
    "members_merge",
    "members_parse_csv",
    "player_for",
    "late_play_allow",
    "late_play_withdraw",
    "MeetingRow",
    "meetings_replace_from",
    "LatePairPlan",
    "late_pair_plan",
    "LeavePlan",
    "meeting_key",
    "movement_regenerate",
    "movement_and_boards_set",
    "movement_change",
    "movement_generate",
    "movement_meetings_set",
    "not_played_scoring_set",
    "compare_by_section_set",
    "pairs_section_set",
    "section_add",
    "section_remove",
    "movement_plan",
    "MovementPlan",
    "pair_changes_import",
    "PairChangeRow",
    "pair_join_late",
    "pair_leave",
    "pair_leave_plan",
    "pair_set",
    "pairs_playing",
    "pairs_set",
    "result_confirm",
    "result_correct",
    "result_record",
    "result_enter_at_table",
    "Answer",
    "result_void",
    "ResultConflict",
    "ResultRow",
    "results_import",
    "round_agree",
    "ruling_award",
    "section_history",
    "SectionRow",
    "sections_import",
    "ServiceError",
    "started_refusal",
    "tables_needed",
    "tables_words",
    "substitute_set",
    "teams_set",
    "UnusualResult",
]
