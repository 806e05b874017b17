"""python manage.py import_members FILE.csv: add or update the club's members.

Columns ``number,first_name,last_name,email`` with a header row, and optionally
``active`` (yes or no), as export_members writes it. Every row is checked first: a bad
row is named by its line number (``line 7: ...``), exit code 1, and nothing is written.
A number already known updates that member (names, e-mail) and marks them active (or as
the active column says); an empty e-mail cell keeps the address on file.
"""

import sys

from django.core.management.base import BaseCommand, CommandError

from tournaments.services import Actor, ServiceError, members_import


class Command(BaseCommand):
    help = ("Import the club's member list (CSV: number,first_name,last_name,email, "
            "optionally active).")

    def add_arguments(self, parser):
        parser.add_argument("file", help='the CSV file, or "-" to read standard input')

    def handle(self, *args, **options):
        path = options["file"]
        try:
            if path == "-":
                raw = sys.stdin.buffer.read()
            else:
                with open(path, "rb") as handle:
                    raw = handle.read()
            text = raw.decode("utf-8")
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise CommandError(f"{path} is not UTF-8 text: save it as CSV UTF-8") from None
        try:
            report = members_import(text=text, actor=Actor.system("import_members"))
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(report.words)
