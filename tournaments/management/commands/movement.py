"""``manage.py movement KIND ...``: a movement as JSON or as guide cards (interfaces.md §4).

    python manage.py movement mitchell --tables 7 --boards-per-round 3 --format json
    python manage.py movement mitchell --tables 8 --boards-per-round 3 --variant skip
    python manage.py movement team-match --pairs-per-team 3 --boards-per-round 4 --format text

A movement that cannot be made is a ``CommandError`` with the director's message
(exit code 1, no traceback).
"""

import json

from django.core.management.base import BaseCommand, CommandError

from boards.movements import KINDS, MovementError, generate, guide_cards_text

FORMATS = ("json", "text")


class Command(BaseCommand):
    help = "Print a movement (Mitchell, Howell, three-quarter Howell, team match) as JSON or text."

    def add_arguments(self, parser) -> None:
        parser.add_argument("kind", help=f"one of {', '.join(KINDS)}")
        parser.add_argument("--tables", type=int, help="number of tables")
        parser.add_argument("--boards-per-round", type=int, required=True,
                            help="boards each table plays in a round")
        parser.add_argument("--variant", help="even-table Mitchell: skip or relay")
        parser.add_argument("--pairs", type=int,
                            help="number of pairs (2 × tables − 1 gives a sit-out each round)")
        parser.add_argument("--pairs-per-team", type=int, help="team match: pairs in each team")
        parser.add_argument("--format", default="json", help="json (default) or text")

    def handle(self, *args, kind: str, **options) -> None:
        output = options["format"]
        if output not in FORMATS:
            raise CommandError(f"unknown format {output!r}: use json or text")
        try:
            movement = generate(
                kind,
                tables=options["tables"],
                boards_per_round=options["boards_per_round"],
                variant=options["variant"],
                pairs=options["pairs"],
                pairs_per_team=options["pairs_per_team"],
            )
        except MovementError as exc:
            raise CommandError(str(exc)) from exc
        if output == "json":
            self.stdout.write(json.dumps(movement.to_dict(), indent=1))
        else:
            self.stdout.write(guide_cards_text(movement), ending="")
