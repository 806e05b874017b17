"""python manage.py purge_idempotency: forget submission keys older than two days.

Run it daily (cron or a scheduler): a retried submission arrives within seconds,
so old keys only take space.
"""

from django.core.management.base import BaseCommand

from tournaments.api.idempotency import purge


class Command(BaseCommand):
    help = "Delete idempotency records older than two days."

    def handle(self, *args, **options):
        self.stdout.write(f"{purge()} old submission keys removed.")
