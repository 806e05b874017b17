"""python manage.py export_members: the club's member list as CSV on standard output
(number,first_name,last_name,email,active; active is "yes" or "no")."""

from django.core.management.base import BaseCommand

from tournaments.selectors import members_export_csv


class Command(BaseCommand):
    help = "Write the club's member list as CSV (number,first_name,last_name,email,active)."

    def handle(self, *args, **options):
        self.stdout.write(members_export_csv(), ending="")
