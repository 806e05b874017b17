"""A real Celery worker whose travellers are slow, so a test can kill it mid-job.

Run as ``python -m tests.reports.slow_worker`` with DATABASE_URL, REDIS_URL and
MEDIA_ROOT set; SLOW_WORKER_DELAY seconds per board (0: normal speed),
SLOW_WORKER_STALL seconds at most at the first board this process gathers (a long
stretch without page progress), ended early when the file SLOW_WORKER_RELEASE appears,
with SLOW_WORKER_STALLFILE saying "stalling" while it lasts and "over" after it; and
SLOW_WORKER_PIDFILE, where the process working on a board writes its pid.
"""

import os
import sys
import time
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from config.celery import app  # noqa: E402
from tournaments import selectors  # noqa: E402

DELAY = float(os.environ.get("SLOW_WORKER_DELAY", "0"))
STALL = float(os.environ.get("SLOW_WORKER_STALL", "0"))
PIDFILE = os.environ.get("SLOW_WORKER_PIDFILE", "")
STALLFILE = os.environ.get("SLOW_WORKER_STALLFILE", "")
RELEASE = os.environ.get("SLOW_WORKER_RELEASE", "")
_traveller = selectors.traveller
_stalled = False


def slow_traveller(event, board_number):
    global _stalled
    if PIDFILE:
        Path(PIDFILE).write_text(str(os.getpid()))
    if STALL and not _stalled:
        _stalled = True
        _stall()
    time.sleep(DELAY)
    return _traveller(event, board_number)


def _stall() -> None:
    if STALLFILE:
        Path(STALLFILE).write_text("stalling")
    until = time.monotonic() + STALL
    while time.monotonic() < until and not (RELEASE and Path(RELEASE).exists()):
        time.sleep(0.05)
    if STALLFILE:
        Path(STALLFILE).write_text("over")


def slow_travellers(event, numbers=None, *, progress=None):
    """The print job's one-query gathering, made board by board again so each board can
    be slowed (the travellers are the same: a test compares the two ways)."""
    numbers = selectors.board_numbers(event) if numbers is None else numbers
    boards = []
    for done, number in enumerate(numbers, start=1):
        boards.append(slow_traveller(event, number))
        if progress is not None:
            progress(done, len(numbers))
    return boards


selectors.traveller = slow_traveller  # the prefork children inherit it
selectors.travellers = slow_travellers

if __name__ == "__main__":
    name = sys.argv[1] if len(sys.argv) > 1 else "slow"
    app.worker_main(["worker", "--pool=prefork", "--concurrency=1", "--loglevel=WARNING",
                     "--without-mingle", "--without-gossip", f"--hostname={name}@%h"])
