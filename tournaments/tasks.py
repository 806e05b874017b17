"""Celery tasks. Each takes ids, loads rows, calls one service, returns something small."""

from celery import shared_task

from . import services
from .models import Event


@shared_task(name="tournaments.ping")
def ping() -> str:
    """The smallest real job: proves a worker takes work from the queue and answers."""
    return "pong"


@shared_task(name=services.FINAL_TASK, acks_late=True, ignore_result=True)
def publish_final_if_due(event_id: int) -> str:
    """At the end of a correction period: publish the event's standings final, if due.

    Sent with an eta by ``services.event_close``. Idempotent: a second delivery (Redis
    hands an eta task out again after its visibility timeout), a reopened event or one
    published final by hand meanwhile find nothing due. The same service runs whenever
    the event is read, so a lost task costs nothing.
    """
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return "gone"
    event = services.event_final_if_due(event=event)
    return event.published


# The report and mail tasks live beside their services; importing them here lets
# autodiscovery find them.
from .mail.tasks import *  # noqa: E402, F403
from .reports.tasks import *  # noqa: E402, F403
