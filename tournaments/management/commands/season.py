"""python manage.py season SEASON_ID --format json|text (docs/season-command.md)."""

import json

from django.core.management.base import BaseCommand, CommandError

from tournaments import presenters
from tournaments.models import Season
from tournaments.selectors import season_table

ROW_FIELDS = ("place", "member", "name", "events", "score")


class Command(BaseCommand):
    help = "Print a season's table as JSON or as text (docs/season-command.md)."

    def add_arguments(self, parser):
        parser.add_argument("season_id", type=int)
        parser.add_argument("--format", choices=["json", "text"], default="text")

    def handle(self, *args, season_id: int, format: str, **options):
        season = Season.objects.filter(pk=season_id).first()
        if season is None:
            raise CommandError(f"there is no season {season_id}")
        # The operator's command, as `standings` is: every event of the season counts,
        # published or not; each event says whether its standings are final.
        data = season_table(season, director=True)
        if format == "json":
            self.stdout.write(json.dumps(as_json(data), indent=1, ensure_ascii=False))
        else:
            self.stdout.write(as_text(season, data))


def as_json(data: dict) -> dict:
    return {
        "season": data["season"],
        "entrants": data["entrants"],
        "counts": data["counts"],
        "rule": data["rule"],
        "best_of": data["best_of"],
        "min_events": data["min_events"],
        "points_scale": data["points_scale"],
        "method": data["method"],
        "events": [{k: e[k] for k in ("id", "name", "date", "final")} for e in data["events"]],
        "rows": [{k: row[k] for k in ROW_FIELDS} for row in data["rows"]],
    }


def as_text(season: Season, data: dict) -> str:
    # Text is for people: scores as the presenters write them ("6½", "+12" for 12⅓,
    # "54.17%" for 54⅙%), not exactly; the JSON has the exact value.
    lines = [data["season"], presenters.season_rule(season)]
    events = data["events"]
    lines.append(f"{len(events)} event{'s' if len(events) != 1 else ''}: " + "; ".join(
        f"{e['name']} ({e['date']}{'' if e['final'] else ', not final'})" for e in events))
    lines.append("")
    who = "Pair" if data["entrants"] == "pairs" else "Member"
    lines.append(f"{'Place':<6} {'Number':<12} {who:<40} {'Nights':>6} {'Score':>10}")
    for row in data["rows"]:
        member = row["member"]
        number = " & ".join(member) if isinstance(member, list) else member
        score = presenters.season_score(row["score"], counts=data["counts"],
                                        method=data["method"])
        lines.append(f"{row['place'] or '–':<6} {number:<12} {row['name']:<40} "
                     f"{row['events']:>6} {score:>10}")
    if not data["rows"]:
        lines.append("No member has played a night of this season yet.")
    return "\n".join(lines)
