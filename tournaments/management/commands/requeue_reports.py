"""Send again the print jobs left waiting while Redis or the worker was down.

    python manage.py requeue_reports                 # jobs waiting 10 s or more
    python manage.py requeue_reports --stale-after 0 # also every running or sent job, now

A job asked for while the broker was down stays queued ("printing is waiting for
the print worker"). The job page and a starting worker send such jobs by
themselves; this command does it for every event at once, e.g. from cron or right
after Redis is restarted. It also re-sends jobs whose worker died mid-job (a running
job silent for four heartbeats, REPORTS_HEARTBEAT) and sent jobs no worker started in
two minutes. Sending a job twice is harmless: only the last task sent for a job runs.
"""

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Event
from tournaments.reports import services


class Command(BaseCommand):
    help = "Send again the PDF jobs waiting for the print worker (and those whose worker died)."

    def add_arguments(self, parser):
        parser.add_argument("--event", type=int, help="only this event's jobs")
        parser.add_argument(
            "--unsent-after", type=float, default=services.UNSENT_AFTER.total_seconds(),
            help="send a job that never reached the broker after this many seconds "
                 "(default %(default)s)")
        parser.add_argument(
            "--stale-after", type=float, default=None,
            help="a job sent or running this many seconds without a sign of life has lost "
                 "its worker or its message: send it again (default: a running job "
                 f"after {services.STALE_BEATS} heartbeats, now "
                 f"{services.stale_after().total_seconds():g}; a sent one after "
                 f"{services.LOST_AFTER.total_seconds():g})")

    def handle(self, *args, event=None, unsent_after=10.0, stale_after=None, **options):
        target = None
        if event is not None:
            target = Event.objects.filter(pk=event).first()
            if target is None:
                raise CommandError(f"there is no event {event}")
        if unsent_after < 0 or (stale_after is not None and stale_after < 0):
            raise CommandError("the waiting times are seconds, 0 or more")
        unsent = timedelta(seconds=unsent_after)
        waiting = services.unsent_jobs(event=target, older_than=unsent)
        quiet = {} if stale_after is None else {
            "stale": timedelta(seconds=stale_after), "lost_after": timedelta(seconds=stale_after)}
        sent = services.report_requeue(event=target, unsent_after=unsent, **quiet)
        # Without a broker the jobs run in threads of this process: finish them before
        # the command exits (a worker's jobs are the worker's).
        services.in_process.wait(timeout=None)
        if sent:
            self.stdout.write(f"sent {len(sent)} job(s) to the print worker (job ids: "
                              + ", ".join(map(str, sent)) + ")")
        elif waiting:
            raise CommandError(f"{waiting} job(s) wait, but the broker (Redis) cannot be "
                               "reached: start it, then run this again")
        else:
            self.stdout.write("no job is waiting")
