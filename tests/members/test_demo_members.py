"""The demo club has a member list, and its pairs night uses it."""

import io

import pytest
from django.core.management import call_command

from tournaments.demo import MITCHELL_PLAYERS, member_list
from tournaments.models import Event, Pair, Player


@pytest.fixture
def demo(db, settings):
    settings.DEBUG = True
    call_command("load_demo", "--if-empty", stdout=io.StringIO())
    return Event.objects.get(kind="pairs", status=Event.Status.RUNNING)


def test_the_demo_night_pairs_are_members_but_one_visiting_pair(demo):
    members = Player.objects.exclude(number=None)
    assert members.count() == len(member_list()) == 2 * (len(MITCHELL_PLAYERS) - 1) + 2
    assert members.exclude(email="").count() >= 5
    assert members.filter(active=False).count() == 1
    pairs = Pair.objects.filter(event=demo).select_related("player_1", "player_2")
    numbered = [p for p in pairs if p.player_1.number and p.player_2.number]
    assert len(numbered) == len(MITCHELL_PLAYERS) - 1
    last = pairs.get(number=len(MITCHELL_PLAYERS))
    assert last.player_1.number is None and last.player_2.number is None
    # The names on every page are the plain names, without the number.
    assert pairs.get(number=1).player_1.name == "Cornelia Van Dusen"
