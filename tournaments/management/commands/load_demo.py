"""python manage.py load_demo [--if-empty]: load the demo club night (used by ``make run``).

With DEBUG on, also creates the director log-in "director" / "director" (staff and
superuser), never otherwise.
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tournaments.demo import demo_load
from tournaments.models import Event
from tournaments.services import Actor, ServiceError

DIRECTOR = "director"


class Command(BaseCommand):
    help = ("Load the demo night: a two-section Mitchell in progress and a finished team "
            "match.")

    def add_arguments(self, parser):
        parser.add_argument("--if-empty", action="store_true",
                            help="load only when there are no events yet")

    def handle(self, *args, **options):
        if options["if_empty"] and Event.objects.exists():
            self.stdout.write("There are events already: the demo was not loaded.")
            return
        try:
            night = demo_load(director=self._director())
        except ServiceError as exc:
            raise CommandError(f"the demo could not be loaded: {exc.message}") from None
        mitchell, match = night.mitchell, night.match
        self.stdout.write(
            f"Loaded event {mitchell.pk}: {mitchell.name} - section A a "
            f"{mitchell.sections.get(name='A').tables}-table Mitchell in round 4, section B "
            f"a {mitchell.sections.get(name='B').tables}-table Mitchell finished; "
            f"{mitchell.pairs.count()} pairs, {mitchell.boards.count()} boards; standings "
            "published as provisional.")
        self.stdout.write(
            f"Loaded event {match.pk}: {match.name} - {match.pairs.count() // 2} pairs a side, "
            f"{match.boards.count()} boards, closed; standings final.")
        if night.season is not None:
            self.stdout.write(
                f"Loaded season {night.season.pk}: {night.season.name} - three nights "
                "(two earlier nights closed and final, and tonight's).")
        self.stdout.write(f"{night.results} results entered at the tables; {night.awaiting} "
                          "waiting for the opponents to confirm.")

    def _director(self) -> Actor:
        User = get_user_model()
        if not settings.DEBUG:
            # No log-in is made outside DEBUG; the audit trail names the demo program.
            return Actor.system("demo")
        user = User.objects.filter(username=DIRECTOR).first()
        if user is None:
            # A person's name, as a club's director has: the pages say "reported by
            # director Grace Holt", not "director director".
            user = User.objects.create_superuser(DIRECTOR, email="", password=DIRECTOR,
                                                 first_name="Grace", last_name="Holt")
            self.stdout.write('DEBUG is on: created the director log-in "director", '
                              'password "director".')
        else:
            self.stdout.write('DEBUG is on: the director log-in "director" exists already.')
        return Actor.director(user)
