"""python manage.py export_results EVENT_ID --format usebio|pbn > file: results sent out."""

from django.core.management.base import BaseCommand, CommandError

from tournaments.exports import FORMATS, ExportError, export_results
from tournaments.models import Event


class Command(BaseCommand):
    help = ("Write an event's results on standard output as USEBIO 1.2 XML or PBN 2.1 "
            "(docs/exports.md).")

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int, help="the event's id")
        parser.add_argument("--format", choices=FORMATS, required=True, dest="fmt",
                            help="usebio (XML) or pbn")

    def handle(self, *args, **options):
        try:
            event = Event.objects.get(pk=options["event_id"])
        except Event.DoesNotExist:
            raise CommandError(f"there is no event with id {options['event_id']}") from None
        try:
            exported = export_results(event, options["fmt"])
        except ExportError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(exported.content.decode("utf-8"), ending="")
