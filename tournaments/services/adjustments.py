"""Club adjustments: the adjusted and assigned scores of modern club practice.

Terms:
    club adjustments  an event's setting (Event.club_adjustments), off by default: the
                      1913 laws give only Duplicate Law B's average and fouled board.
    adjusted score    each side graded average-plus, average or average-minus (ruling
                      "adjusted"; matchpoints 60 % / 50 % / 40 % of the top; plus/minus
                      ±1/10 of the direction's spread, docs/engine.md item 26). It never
                      enters the average nor the matchpoint field, and counts as played.
    assigned score    a deal result the director gives in place of play, scored by the
                      engine as if played and compared like a real result (ruling
                      "assigned"). A split score gives N-S and E-W different results:
                      N-S's board score comes from one, E-W's from the other.

Every change is the director's, with a reason, audited as a "club adjustment" (not a
law), and undone from the audit page like any other.
"""

from typing import Any

from django.db import transaction

from scoring.engine import ADJUST_GRADES

from .. import seam
from ..models import Event, Meeting, Result
from .base import (
    Actor,
    Forbidden,
    ServiceError,
    _audit,
    _board,
    _director_put,
    _lock_event,
    _played_fields,
    _require_open,
    _require_reason,
)

CLUB_ADJUSTMENTS_OFF = ("Club adjustments are off for this event: the 1913 laws have no "
                        "adjusted scores. Turn them on in the event's settings.")
# The audit's word for these changes: a club's practice, not a law.
ACTION = "club adjustment"
SETTING_ACTION = "club adjustments"


def _require_on(event: Event, *, fresh: bool = False) -> None:
    """Refuse unless the event has club adjustments on; `fresh` reads the setting from the
    database (the caller's event may be older than the director's last change)."""
    on = event.club_adjustments
    if fresh:
        on = Event.objects.filter(pk=event.pk).values_list("club_adjustments", flat=True).first()
    if not on:
        raise ServiceError(CLUB_ADJUSTMENTS_OFF, field="club_adjustments")


def _require_director(actor: Actor, what: str) -> None:
    if not actor.directs:
        raise Forbidden(f"only the director gives {what}")


@transaction.atomic
def club_adjustments_set(*, event: Event, on: bool, actor: Actor, reason: str = "") -> Event:
    """Turn the event's club adjustments on or off (audited).

    Off is refused while an adjusted or assigned score stands: the director changes those
    first, so the standings never hold a score the event's settings do not allow.
    """
    _require_director(actor, "the event's settings")
    if not isinstance(on, bool):
        raise ServiceError("club adjustments are on or off", field="club_adjustments")
    locked = _lock_event(event.pk)
    _require_open(locked)
    if locked.club_adjustments == on:
        return locked
    if not on:
        standing = Result.objects.filter(event=locked, voided=False,
                                         ruling__in=("adjusted", "assigned")).count()
        if standing:
            raise ServiceError(
                f"{standing} board{'s' if standing != 1 else ''} of this event "
                f"{'have' if standing != 1 else 'has'} an adjusted or assigned score: correct "
                "or remove them first, then turn club adjustments off",
                field="club_adjustments")
    before = {"club_adjustments": locked.club_adjustments}
    locked.club_adjustments = on
    locked.save(update_fields=["club_adjustments", "updated_at"])
    _audit(event=locked, actor=actor, action=SETTING_ACTION, before=before,
           after={"club_adjustments": on}, reason=(reason or "").strip())
    return locked


def _store(*, event: Event, board: int, ns: int, ew: int, fields: dict, actor: Actor,
           reason: str, meeting: Meeting | None) -> Result:
    """Put `fields` in place of the board's result at this meeting (or create it), audited
    as a club adjustment; the setting is read again under the event's lock (it may just
    have changed)."""
    return _director_put(event=event, board=board, ns=ns, ew=ew, fields=fields, actor=actor,
                         action=ACTION, reason=reason, meeting=meeting, check=_require_on)


@transaction.atomic
def adjusted_award(
    *,
    event: Event,
    board: int,
    ns: int,
    ew: int,
    ns_grade: str,
    ew_grade: str,
    actor: Actor,
    reason: str,
    meeting: Meeting | None = None,
) -> Result:
    """An adjusted score for the board at this meeting: each side average-plus ("plus"),
    average ("average") or average-minus ("minus"). Club practice, when the event has
    club adjustments on; pair contests only (a team match adds real totals)."""
    _require_director(actor, "adjusted scores")
    reason = _require_reason(reason, "an adjusted score")
    _require_on(event, fresh=True)
    if event.kind == "teams":
        raise ServiceError("adjusted scores are for a pair contest: a team match adds up "
                           "the totals its pairs won (Duplicate Law G). Give an assigned "
                           "score instead", field="ns_grade")
    for grade, field in ((ns_grade, "ns_grade"), (ew_grade, "ew_grade")):
        if grade not in ADJUST_GRADES:
            raise ServiceError(f"{'N–S' if field == 'ns_grade' else 'E–W'} gets average-plus, "
                               "average or average-minus", field=field)
    fields = seam.adjusted_fields(ns_grade=ns_grade, ew_grade=ew_grade)
    return _store(event=event, board=board, ns=ns, ew=ew, fields=fields, actor=actor,
                  reason=reason, meeting=meeting)


def _scored(event: Event, board: int, data: Any, actor: Actor, field: str) -> dict:
    """A deal result scored as the director's typed result is (warnings are not asked
    about: the director assigns it on purpose); errors name `field` first."""
    try:
        fields, _warnings = _played_fields(event, _board(event, board), data, actor)
    except ServiceError as exc:
        raise ServiceError(exc.message,
                           field=(exc.field or "result").replace("result", field, 1)) from None
    return fields


@transaction.atomic
def assigned_award(
    *,
    event: Event,
    board: int,
    ns: int,
    ew: int,
    ns_result: Any,
    actor: Actor,
    reason: str,
    ew_result: Any = None,
    meeting: Meeting | None = None,
) -> Result:
    """An assigned score for the board at this meeting: the deal result `ns_result`
    (interfaces.md §1, without the board) scored as if played. With `ew_result` it is a
    split score: N-S's board score from `ns_result`, E-W's from `ew_result`. Compared like
    a real result (it enters the average and the matchpoint field). Club practice, when
    the event has club adjustments on."""
    _require_director(actor, "assigned scores")
    reason = _require_reason(reason, "an assigned score")
    _require_on(event, fresh=True)
    ns_fields = _scored(event, board, ns_result, actor, "ns_result")
    ew_fields = None
    if ew_result is not None:
        ew_fields = _scored(event, board, ew_result, actor, "ew_result")
    fields = seam.assigned_fields(ns_fields=ns_fields, ew_fields=ew_fields, ew_data=ew_result)
    return _store(event=event, board=board, ns=ns, ew=ew, fields=fields, actor=actor,
                  reason=reason, meeting=meeting)
