"""Seasons: small nights built through the services (tests/reports/night.py), their
pairs made of the club's members, so a season has someone to rank."""

import datetime

import pytest

from tests.reports.night import build_night, make_director
from tournaments import standings
from tournaments.models import Event, Pair, Player
from tournaments.services import Actor


@pytest.fixture(autouse=True)
def _fresh_standings():
    standings.clear_cache()
    yield
    standings.clear_cache()


@pytest.fixture
def night_director(db):
    return make_director()


@pytest.fixture
def actor(night_director):
    return Actor.director(night_director)


def member(number: int) -> Player:
    player, _ = Player.objects.get_or_create(number=str(number), defaults={
        "name": f"Member {number}", "first_name": "Member", "last_name": str(number)})
    return player


def seat_members(event: Event, lineup: dict[int, tuple[int | None, int | None]]) -> None:
    """Put members in the pairs: {pair number: (member number, member number)}; None
    leaves that seat's visitor."""
    for number, (a, b) in lineup.items():
        pair = Pair.objects.get(event=event, number=number)
        if a is not None:
            pair.player_1 = member(a)
        if b is not None:
            pair.player_2 = member(b)
        pair.save(update_fields=["player_1", "player_2"])
    Event.objects.filter(pk=event.pk).update(roster_seq=event.roster_seq + 1)
    standings.clear_cache()


# Six pairs of members, the same partnerships every night: 101 & 102 are pair 1, …
LINEUP = {n: (100 + 2 * n - 1, 100 + 2 * n) for n in range(1, 7)}


@pytest.fixture
def make_night(night_director):
    """A played 3-table Mitchell of members (pairs 1-3 N-S, 4-6 E-W), published."""
    made = []

    def make(name: str = "Night", *, published: str = "final", lineup=None,
             method: str = "plus-minus", day: int = 0) -> Event:
        night = build_night(night_director, name=name, published=published, method=method)
        Event.objects.filter(pk=night.event.pk).update(
            date=datetime.date(2026, 10, 6) + datetime.timedelta(weeks=day or len(made)))
        seat_members(night.event, LINEUP if lineup is None else lineup)
        night.event.refresh_from_db()
        made.append(night.event)
        return night.event

    return make
