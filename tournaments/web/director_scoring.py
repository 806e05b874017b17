"""The director's console: how the event scores a board not played at a table.

Matchpoints only (plus/minus simply has no comparison for the pair, Duplicate Law H):
by Neuberg, over the boards the pair played, or with the pair's own average on the
boards it did not play (docs/decisions.md; docs/engine.md item 24).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from .. import services
from ..models import NOT_PLAYED_SCORING
from ..services import ServiceError
from .director import _actor, _back, _event, _fail, director_required

DONE = {
    "neuberg": "A board not played is now scored by Neuberg: each pair over the boards it "
               "played.",
    "own-average": "A board not played now gives the pair its own average on the boards "
                   "it played.",
}
CHOICES = dict(NOT_PLAYED_SCORING)


@director_required
@require_POST
def not_played_scoring(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    scoring = request.POST.get("not_played_scoring", "")
    if scoring not in CHOICES:
        messages.error(request, "Choose Neuberg or the pair's own average, then save.")
        return _back(event)
    try:
        event = services.not_played_scoring_set(event=event, scoring=scoring,
                                                actor=_actor(request))
    except ServiceError as exc:
        _fail(request, exc)
    else:
        messages.success(request, DONE[event.not_played_scoring])
    return _back(event)
