"""python manage.py export_night EVENT_ID > night.json: write an event as a night file."""

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Event
from tournaments.nightfile import dumps, night_export


class Command(BaseCommand):
    help = "Write an event as a night file (JSON, interfaces.md §2) on standard output."

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int, help="the event's id")

    def handle(self, *args, **options):
        try:
            event = Event.objects.get(pk=options["event_id"])
        except Event.DoesNotExist:
            raise CommandError(f"there is no event with id {options['event_id']}") from None
        self.stdout.write(dumps(night_export(event)), ending="")
