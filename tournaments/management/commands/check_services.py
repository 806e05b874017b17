"""python manage.py check_services: check the cache and the job queue now, for /health/.

Run it every minute (cron or a systemd timer). Anyone's /health/ answers from what the
last check stored, at once, without talking to Redis or Celery; this command (and a
director's or a HEALTH_TOKEN's live /health/) keeps that answer fresh. Prints what it
found; exits 1 when something is down, so the scheduler can raise the alarm.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from tournaments.health import check_services, database_status


class Command(BaseCommand):
    help = "Check the cache and the job queue now and store the result for /health/."

    def handle(self, *args, **options):
        found = {"database": database_status(), **check_services()}
        self.stdout.write(json.dumps(found))
        down = sorted(name for name, state in found.items() if state == "unreachable")
        if down:
            raise CommandError(f"unreachable: {', '.join(down)}")
