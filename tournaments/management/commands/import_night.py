"""python manage.py import_night FILE: create an event from a night file (interfaces.md §2).

Prints the new event's id and nothing else on stdout. A bad file is refused with
one line naming the place (``results[17].result.tricks: tricks must be between 0
and 13``), exit code 1, and nothing is written.
"""

import sys

from django.core.management.base import BaseCommand, CommandError

from tournaments.nightfile import NightFileError, loads, night_import
from tournaments.services import Actor, ServiceError


class Command(BaseCommand):
    help = "Import a night file (JSON) as a new event and print the event's id."

    def add_arguments(self, parser):
        parser.add_argument("file", help='the night file, or "-" to read standard input')

    def handle(self, *args, **options):
        path = options["file"]
        try:
            if path == "-":
                raw = sys.stdin.buffer.read()
            else:
                with open(path, "rb") as handle:
                    raw = handle.read()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
        try:
            event = night_import(data=loads(raw), actor=Actor.system("import"))
        except NightFileError as exc:
            raise CommandError(str(exc)) from None
        except ServiceError as exc:
            # The file is checked before writing, so this is unexpected; still a message.
            where = f"{exc.field}: " if exc.field else ""
            raise CommandError(f"{where}{exc.message}") from None
        self.stdout.write(str(event.pk))
