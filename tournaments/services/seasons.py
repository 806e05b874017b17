"""Seasons: the director groups events into a season (or championship) and picks the
rule its table ranks by (docs/decisions.md). The table itself is read, never stored
(``selectors.season_table``), so a correction on any night moves it at once.

A season touches no event's scores: saving one locks only the season's own row (a
concurrent edit of the same season waits for the first), and is not audited, as a
member-list edit is not.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from ..models import Event, Season, SeasonEvent
from .base import Actor, Forbidden, ServiceError
from .event_state import event_final_if_due

RULES = tuple(code for code, _ in Season.RULES)
COUNTS = tuple(code for code, _ in Season.COUNTS)
ENTRANTS = tuple(code for code, _ in Season.ENTRANTS)
MAX_POINTS = 10_000  # points a scale may give one place


def _require_director(actor: Actor) -> None:
    if not actor.directs:
        raise Forbidden("only the director sets up a season")


def _check_scale(scale: Sequence[int]) -> list[int]:
    if len(scale) > Season.MAX_SCALE:
        raise ServiceError(f"a points scale names at most {Season.MAX_SCALE} places",
                           field="points_scale")
    out = []
    for place, points in enumerate(scale, start=1):
        if isinstance(points, bool) or not isinstance(points, int) or not (
                0 <= points <= MAX_POINTS):
            raise ServiceError(f"the points for place {place} must be a whole number from "
                               f"0 to {MAX_POINTS}", field="points_scale")
        if out and points > out[-1]:
            raise ServiceError(f"place {place} would score more than place {place - 1}: "
                               "write the points from 1st place down", field="points_scale")
        out.append(points)
    return out


def _check_events(event_ids: Sequence[int], counts: str) -> list[Event]:
    ids = list(dict.fromkeys(event_ids))
    if len(ids) > Season.MAX_EVENTS:
        raise ServiceError(f"a season has at most {Season.MAX_EVENTS} events", field="events")
    events = list(Event.objects.filter(pk__in=ids).order_by("date", "id"))
    missing = set(ids) - {e.pk for e in events}
    if missing:
        raise ServiceError(f"there is no event {min(missing)}", field="events")
    for event in events:
        if event.kind != "pairs":
            raise ServiceError(f"{event.name} is a team match: a season ranks players, and a "
                               "team match ranks teams, so it cannot count", field="events")
    methods = {e.method for e in events}
    if counts == "score" and len(methods) > 1:
        mp = next(e for e in events if e.method == "matchpoints")
        pm = next(e for e in events if e.method == "plus-minus")
        raise ServiceError(
            f"{mp.name} is scored by matchpoints and {pm.name} by plus/minus: a percentage "
            "and a plus/minus cannot be added, so a season of scores takes nights scored "
            "one way (or count points for places, which any night gives)", field="events")
    return events


@transaction.atomic
def season_save(*, season: Season | None = None, name: str, entrants: str = "pairs",
                counts: str = "score", rule: str = "total", best_of: int | None = None,
                points_scale: Sequence[int] = (), min_events: int = 1,
                published: bool = False, event_ids: Sequence[int] = (),
                actor: Actor) -> Season:
    """Create a season (season=None) or change one: its name, who it ranks (pairs or
    individuals), what a night gives (its score, or points for the place), the rule
    (total, average, best N nights), the minimum attendance, whether the public sees it,
    and its events (the list given replaces the old one). Checked whole before anything
    is written."""
    _require_director(actor)
    name = name.strip()
    if not name:
        raise ServiceError("a season needs a name", field="name")
    if len(name) > 120:
        raise ServiceError("a season's name is at most 120 characters", field="name")
    if entrants not in ENTRANTS:
        raise ServiceError("a season ranks pairs or individuals", field="entrants")
    if counts not in COUNTS:
        raise ServiceError("a night gives its score or points for the place", field="counts")
    if rule not in RULES:
        raise ServiceError("the rule is total, average or best", field="rule")
    if rule == "best":
        if best_of is None or best_of < 1 or best_of > Season.MAX_EVENTS:
            raise ServiceError("say how many nights count: the best N nights, N from 1 to "
                               f"{Season.MAX_EVENTS}", field="best_of")
    else:
        best_of = None
    scale = _check_scale(list(points_scale))
    if counts == "points" and not any(scale):
        raise ServiceError("points for places need the club's scale: the points for 1st, "
                           "2nd, 3rd … (like 10, 8, 6, 5, 4, 3, 2, 1)", field="points_scale")
    if min_events < 1 or min_events > Season.MAX_EVENTS:
        raise ServiceError(f"the minimum attendance is from 1 to {Season.MAX_EVENTS} nights",
                           field="min_events")
    events = _check_events(event_ids, counts)
    fields = {"name": name, "entrants": entrants, "counts": counts, "rule": rule,
              "best_of": best_of, "points_scale": scale, "min_events": min_events,
              "published": bool(published)}
    if season is None:
        season = Season.objects.create(**fields)
    else:
        season = Season.objects.select_for_update().get(pk=season.pk)
        for key, value in fields.items():
            setattr(season, key, value)
        season.save()
    season.season_events.exclude(event__in=events).delete()
    have = set(season.season_events.values_list("event_id", flat=True))
    SeasonEvent.objects.bulk_create([SeasonEvent(season=season, event=e) for e in events
                                     if e.pk not in have])
    return season


@transaction.atomic
def season_delete(*, season: Season, actor: Actor) -> None:
    """Remove a season (its events and their scores stay as they are)."""
    _require_director(actor)
    Season.objects.filter(pk=season.pk).delete()



def season_events_final_if_due(*, season: Season) -> None:
    """Publish final the season's nights whose correction period is over (as every page
    that reads an event does), so the public table counts them the moment they are."""
    due = season.events.filter(status=Event.Status.CLOSED).exclude(
        published=Event.Published.FINAL).exclude(final_after=None)
    for event in due:
        event_final_if_due(event=event)
