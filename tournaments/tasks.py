"""Celery tasks. Each takes ids, loads rows, calls one service, returns something small."""

from celery import shared_task


@shared_task(name="tournaments.ping")
def ping() -> str:
    """The smallest real job: proves a worker takes work from the queue and answers."""
    return "pong"
