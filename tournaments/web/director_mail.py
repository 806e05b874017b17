"""The director's console: the score cards e-mailed after publishing final.

The event page shows how the latest publication's cards went (``selectors.
score_card_mails``). Here one button sends what it has not sent yet: after the broker
was down when the standings went final, or a card that was waiting. Never a card twice
(``mail.services``), but for the director's own choice: another button sends again a card
whose sending stopped (it may have gone).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.template.defaultfilters import pluralize
from django.views.decorators.http import require_POST

from ..mail import services as mail
from ..models import Event
from ..reports.services import BROKER_ERRORS
from .director import _back, _event, director_required


@director_required
@require_POST
def score_cards_send(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    if event.published != Event.Published.FINAL:
        messages.error(request, "Score cards are e-mailed once the standings are final.")
        return _back(event)
    try:
        if request.POST.get("stopped"):  # the director's choice: they may have gone
            again = mail.score_cards_resend_stopped(event=event)
            messages.success(request, f"Sending {again} score card{pluralize(again)} again."
                             if again else "No card's sending has stopped: nothing to send "
                                           "again.")
            return _back(event)
        waiting = mail.score_cards_send(event=event)
    except BROKER_ERRORS:
        messages.error(request, "The mail waits for the worker, which cannot be reached: "
                                "try again in a moment.")
        return _back(event)
    if waiting:
        messages.success(request, f"Sending {waiting} score card{pluralize(waiting)}.")
    else:
        messages.success(request, "Every score card of the final standings has been dealt "
                                  "with: nothing is waiting.")
    return _back(event)
