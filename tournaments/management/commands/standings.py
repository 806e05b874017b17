"""python manage.py standings EVENT_ID --format json|text (interfaces.md §3)."""

import json

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Event
from tournaments.standings import standings


class Command(BaseCommand):
    help = "Print an event's standings as JSON (interfaces.md §3) or as text."

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int)
        parser.add_argument("--format", choices=["json", "text"], default="text")

    def handle(self, *args, event_id: int, format: str, **options):
        try:
            event = Event.objects.get(pk=event_id)
        except Event.DoesNotExist:
            raise CommandError(f"there is no event {event_id}") from None
        data = standings(event)
        if format == "json":
            data = {k: v for k, v in data.items() if k not in ("published", "seq")}
            self.stdout.write(json.dumps(data, indent=1, ensure_ascii=False))
        else:
            self.stdout.write(as_text(data))


def as_text(data: dict) -> str:
    lines = [f"{data['event']} — {data['method']}", ""]
    if data["kind"] == "teams":
        for match in data["matches"]:
            (a, b), (sa, sb) = match["teams"], match["scores"]
            result = "tied" if match["winner"] is None else f"won by {match['winner']}"
            if match["by_fraction"]:
                result += " by the fraction of a point"
            lines.append(f"{a} {sa} — {b} {sb}: {result} (exact {' — '.join(match['exact'])})")
        lines.append("")
        lines.append(f"{'Place':<6} {'Team':<30} {'Won':>5} {'Points':>8}")
        for row in data["rankings"][0]["rows"]:
            lines.append(f"{row['place']:<6} {row['team']:<30} {row['matches_won']:>5} "
                         f"{row['points']:>8}")
        return "\n".join(lines)
    for ranking in data["rankings"]:
        title = {"NS": "North–South", "EW": "East–West", "ALL": "All pairs"}[ranking["direction"]]
        lines.append(title)
        lines.append(f"{'Place':<6} {'Pair':>4}  {'Players':<40} {'Score':>8} {'Boards':>6}")
        for row in ranking["rows"]:
            names = " & ".join(row["names"])
            lines.append(f"{row['place']:<6} {row['pair']:>4}  {names:<40} {row['score']:>8} "
                         f"{row['boards']:>6}")
        lines.append("")
    return "\n".join(lines)
