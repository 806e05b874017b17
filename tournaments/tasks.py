"""Celery tasks. Each takes ids, loads rows, calls one service, returns something small."""

from celery import shared_task


@shared_task(name="tournaments.ping")
def ping() -> str:
    """The smallest real job: proves a worker takes work from the queue and answers."""
    return "pong"


# The report tasks live beside the reports; importing them here lets autodiscovery find them.
from .reports.tasks import *  # noqa: E402, F403
