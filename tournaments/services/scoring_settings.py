"""How the event scores what the laws leave to the club: a board not played at a table
under matchpoints (Event.not_played_scoring; docs/decisions.md, docs/engine.md item 24)."""

from django.db import transaction

from scoring.engine import NOT_PLAYED_SCORINGS

from ..models import Event
from .base import Actor, Forbidden, ServiceError, _audit, _lock_event, _require_open


@transaction.atomic
def not_played_scoring_set(*, event: Event, scoring: str, actor: Actor,
                           reason: str = "") -> Event:
    """Matchpoints: score a pair on a board it did not play by Neuberg ("neuberg": over
    the boards it played) or by its own average ("own-average": over its whole session).

    Not once the event is closed: the standings the players have checked stay as they
    are (reopen the event in the correction period to change it)."""
    if not actor.directs:
        raise Forbidden("only the director chooses how a board not played is scored")
    if scoring not in NOT_PLAYED_SCORINGS:
        raise ServiceError("A board not played is scored by Neuberg or by the pair's own "
                           "average", field="not_played_scoring")
    locked = _lock_event(event.pk)
    _require_open(locked)
    if locked.not_played_scoring == scoring:
        return locked
    before = {"not_played_scoring": locked.not_played_scoring}
    locked.not_played_scoring = scoring
    locked.save(update_fields=["not_played_scoring", "updated_at"])
    _audit(event=locked, actor=actor, action="not played scoring", before=before,
           after={"not_played_scoring": scoring}, reason=reason.strip())
    return locked
