"""The pairs page's advice about a visitor named as a member never leads to a refusal.

The reviewer's list: ``105 & 106`` and ``Edith Wharton & Dorothy Parker``, where 105 is
member Edith Wharton. The warning told the director to write "Edith Wharton #105" to credit
the member, and the list so written was refused: "Edith Wharton (member 105) is in pairs 2
and 3". A member seated that night is not offered: the visitor is someone else.
"""

from types import SimpleNamespace

import pytest
from django.test import Client

from tests.factories import make_pairs_event
from tournaments import services
from tournaments.models import Player
from tournaments.services import Actor, ServiceError
from tournaments.services.members import visitors_named_as_members

pytestmark = pytest.mark.django_db


def _lines(*pairs):
    return [SimpleNamespace(number=n, players=list(p), team=None)
            for n, p in enumerate(pairs, start=1)]


@pytest.fixture
def club(db):
    for number, name in (("105", "Edith Wharton"), ("106", "Willa Cather"),
                         ("107", "Dorothy Parker"), ("207", "Dorothy Parker")):
        Player.objects.create(name=name, number=number)


def follow_every_advice(lines, actor) -> int:
    """Save the list on a night of its own, then, for each warning and each number it
    offers, write "Name #number" into that seat of a fresh copy and save it: it must be
    taken. How many pieces of advice were followed."""
    event = make_pairs_event(pairs=0, boards=1)
    services.pairs_set(event=event, lines=lines, actor=actor)
    followed = 0
    for namesake in visitors_named_as_members(event=event):
        for number in namesake.numbers:
            advised = [list(line.players) for line in lines]
            seat = next(i for i, name in enumerate(advised[namesake.pair - 1])
                        if name.strip().lower() == namesake.name.strip().lower())
            advised[namesake.pair - 1][seat] = f"{namesake.name} #{number}"
            night = make_pairs_event(pairs=0, boards=1)
            services.pairs_set(event=night, lines=lines, actor=actor)
            services.pairs_set(event=night, lines=_lines(*advised), actor=actor)
            followed += 1
    return followed


def test_a_member_seated_that_night_is_not_offered(club, as_director, director):
    event = make_pairs_event(pairs=0, boards=1)
    lines = _lines(["105", "106"], ["Edith Wharton", "Dorothy Parker"])
    services.pairs_set(event=event, lines=lines, actor=as_director)
    namesakes = visitors_named_as_members(event=event)
    # Edith Wharton is seated in pair 1: only Dorothy Parker's two members are offered.
    assert [(n.pair, n.name, n.numbers) for n in namesakes] == [
        (2, "Dorothy Parker", ("107", "207"))]
    assert follow_every_advice(lines, as_director) == 2
    # The page's words: no "#105" advice, whose list the page would refuse.
    client = Client()
    client.force_login(director)
    url = f"/director/events/{event.pk}/pairs/"
    page = client.post(url, {"pairs": "105 & 106\nEdith Wharton & Dorothy Parker"},
                       follow=True).content.decode()
    assert "#105" not in page and "Edith Wharton (pair 2)" not in page
    assert "Dorothy Parker (pair 2) is the name of members #107 and #207" in page
    with pytest.raises(ServiceError, match=r"Edith Wharton \(member 105\) is in pairs 1 "
                                           r"and 2"):
        services.pairs_set(event=event, actor=as_director, lines=_lines(
            ["105", "106"], ["Edith Wharton #105", "Dorothy Parker"]))


def test_a_member_seated_in_the_visitors_own_pair_is_not_offered(club, as_director):
    event = make_pairs_event(pairs=0, boards=1)
    lines = _lines(["105", "Edith Wharton"], ["Ann Lee", "Bob Ray"])
    services.pairs_set(event=event, lines=lines, actor=as_director)
    assert visitors_named_as_members(event=event) == []


def test_a_member_not_seated_is_still_offered_and_the_advice_is_taken(club, as_director):
    event = make_pairs_event(pairs=0, boards=1)
    lines = _lines(["Edith Wharton", "Willa Cather"], ["Dorothy Parker", "107"])
    services.pairs_set(event=event, lines=lines, actor=as_director)
    assert [(n.pair, n.name, n.numbers) for n in visitors_named_as_members(event=event)] == [
        (1, "Edith Wharton", ("105",)), (1, "Willa Cather", ("106",)),
        (2, "Dorothy Parker", ("207",))]
    assert follow_every_advice(lines, Actor.system("test")) == 3
