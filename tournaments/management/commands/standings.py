"""python manage.py standings EVENT_ID --format json|text (interfaces.md §3); with
--overall, the overall standings of an event of several sessions (any session's id)."""

import json

from django.core.management.base import BaseCommand, CommandError

from tournaments import presenters, selectors
from tournaments.models import Event
from tournaments.standings import overall_standings, standings


class Command(BaseCommand):
    help = "Print an event's standings as JSON (interfaces.md §3) or as text."

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int)
        parser.add_argument("--format", choices=["json", "text"], default="text")
        parser.add_argument("--overall", action="store_true",
                            help="the overall standings of the event's sessions")

    def handle(self, *args, event_id: int, format: str, overall: bool = False, **options):
        try:
            event = Event.objects.get(pk=event_id)
        except Event.DoesNotExist:
            raise CommandError(f"there is no event {event_id}") from None
        if overall:
            if event.kind == "teams":
                raise CommandError("a team match has no sessions: leave out --overall")
            data = overall_standings(event)
            self.stdout.write(json.dumps(data, indent=1, ensure_ascii=False)
                              if format == "json" else overall_text(data))
            return
        data = standings(event)
        if format == "json":
            data = {k: v for k, v in data.items() if k not in ("published", "seq")}
            self.stdout.write(json.dumps(data, indent=1, ensure_ascii=False))
        else:
            # A late pair's Boards read "5 of 14", as on the page and the PDF (decision 102).
            late = selectors.late_pairs(event, data)
            self.stdout.write(as_text(data, late))


def as_text(data: dict, late_pairs: list[dict] | None = None) -> str:
    # Text is for people (interfaces.md §3 pins only the JSON): numbers as the presenters
    # write them ("+7", "−40⅓", "733⅓"), never "-121/3". `late_pairs`: selectors.late_pairs,
    # for a late pair's Boards ("5 of 14") and the note saying what that means.
    lines = [f"{data['event']} — {presenters.method(data['method'])}", ""]
    if data["kind"] == "teams":
        for match in data["matches"]:
            (a, b), (sa, sb) = match["teams"], match["scores"]
            result = "tied" if match["winner"] is None else f"won by {match['winner']}"
            if match["by_fraction"]:
                result += " by the fraction of a point"
            exact = " — ".join(presenters.exact(e) for e in match["exact"])
            lines.append(f"{a} {presenters.number(sa)} — {b} {presenters.number(sb)}: {result} "
                         f"(exact {exact})")
        lines.append("")
        lines.append(f"{'Place':<6} {'Team':<30} {'Won':>5} {'Points':>8}")
        for row in data["rankings"][0]["rows"]:
            lines.append(f"{row['place']:<6} {row['team']:<30} "
                         f"{presenters.number(row['matches_won']):>5} "
                         f"{presenters.number(row['points']):>8}")
        return "\n".join(lines)
    mp = data["method"] == "matchpoints"
    # The score is the nearest whole, as every page shows it; where a pair's exact score
    # has a fraction, text has no tap to show it, so an Exact column gives it ("−⅓", not
    # a bare "0").
    exact = not mp and any("/" in row["exact"] for ranking in data["rankings"]
                           for row in ranking["rows"])
    # The players' column as wide as the longest pair's names, so every row lines up.
    wide = max([40, *(len(presenters.pair_names(row["names"], row.get("substitutes")))
                      for ranking in data["rankings"] for row in ranking["rows"])])
    for ranking in data["rankings"]:
        # The field's ranking of several sections: each pair's section beside its number.
        sectioned = bool(ranking["rows"]) and "section" in ranking["rows"][0]
        heading = presenters.side_name(ranking["direction"])
        lines.append(f"Section {ranking['section']}, {heading}" if ranking.get("section")
                     else heading)
        lines.append(f"{'Place':<6} {'Pair':>4}  " + (f"{'Section':<8} " if sectioned else "")
                     + f"{'Players':<{wide}} {'Score':>8} "
                     + (f"{'Exact':>8} " if exact else "") + f"{'Boards':>6}")
        for row in ranking["rows"]:
            names = presenters.pair_names(row["names"], row.get("substitutes"))
            score = presenters.percent(row["score"]) if mp else presenters.signed(row["score"])
            score = f"{score:>8}"
            if exact:
                score += f" {presenters.signed_exact(row['exact']):>8}"
            boards = presenters.row_boards_played(row, late_pairs)
            section = f"{row['section']:<8} " if sectioned else ""
            lines.append(f"{row['place']:<6} {row['pair']:>4}  {section}{names:<{wide}} "
                         f"{score} {boards:>6}")
        lines.append("")
    lines += [note for note in [presenters.not_played_note(data),
                                *presenters.late_pairs_notes(data, late_pairs)] if note]
    return "\n".join(lines)


def overall_text(data: dict) -> str:
    """The overall standings as text: a column per session ("—" where a pair did not play),
    then the total, exact ("+2½", "56.25%")."""
    mp = data["method"] == "matchpoints"

    def shown(cell: dict | None) -> str:
        if cell is None:
            return "—"
        return (presenters.percent(cell["score"]) if mp
                else presenters.signed_exact(cell["exact"]))

    heads = [f"S{s['session']}" + ("" if s["counted"] == "100"
                                   else f" ({presenters.number(s['counted'])}%)")
             for s in data["sessions"]]
    lines = [f"{data['event']} — overall, {presenters.method(data['method'])}", "",
             f"{'Place':<6} {'Pair':>4}  {'Players':<40} "
             + " ".join(f"{h:>10}" for h in heads) + f" {'Overall':>10}"]
    for row in data["rankings"][0]["rows"]:
        total = shown({"score": row["score"], "exact": row["exact"]})
        names = presenters.pair_names(row["names"], row.get("substitutes"))
        lines.append(f"{row['place']:<6} {row['pair']:>4}  {names:<40} "
                     + " ".join(f"{shown(c):>10}" for c in row["sessions"])
                     + f" {total:>10}")
    return "\n".join(lines)
