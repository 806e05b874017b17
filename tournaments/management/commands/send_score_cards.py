"""E-mail the score cards of an event's final standings that have not gone yet.

    python manage.py send_score_cards EVENT_ID

Publishing final sends them by itself; this is for when the broker was down at that
moment (the console's "Send the cards not sent yet" does the same). A card already sent,
failed or skipped is left alone: no player gets one twice for the same standings.
"""

from django.core.management.base import BaseCommand, CommandError

from tournaments.mail import services
from tournaments.models import Event


class Command(BaseCommand):
    help = "E-mail the score cards of an event's final standings not sent yet."

    def add_arguments(self, parser):
        parser.add_argument("event", type=int, help="the event's id")

    def handle(self, *args, event: int, **options):
        found = Event.objects.filter(pk=event).first()
        if found is None:
            raise CommandError(f"there is no event {event}")
        if found.published != Event.Published.FINAL:
            raise CommandError(f"the standings of {found.name} are not final: score cards "
                               "are e-mailed once they are")
        waiting = services.score_cards_send(event=found)
        self.stdout.write(f"{waiting} score card(s) sent to the mail worker")
