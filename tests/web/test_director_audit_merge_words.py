"""The audit writes a merge of two records in words, never as program data.

The reviewer read "keep: {'id': 22, 'name': 'Amos Pell', 'number': '122'}, drop: {…
'number': None}". The entry keeps the records as data; the page says what happened.
"""

import datetime

import pytest

from tournaments import presenters, services
from tournaments.models import Pair, Player, Substitute
from tournaments.services import Actor

pytestmark = pytest.mark.django_db


class Line:
    def __init__(self, number, players):
        self.number, self.players, self.team = number, players, None


def test_the_reviewers_merge_reads_as_a_sentence(director, director_client):
    actor = Actor.director(director)
    event = services.event_create(name="Club pairs", date=datetime.date(2026, 11, 23),
                                  actor=actor)
    services.pairs_set(event=event, actor=actor, lines=[
        Line(1, ["Ann Lee", "Bob Ray"]), Line(2, ["Amos Pell", "Cy Dow"])])
    member = Player.objects.create(name="Amos Pell", number="122")
    visitor = Pair.objects.get(event=event, number=2).player_1
    services.members_merge(keep=member, drop=visitor, actor=actor, reason="spelt two ways")
    page = director_client.get(f"/director/events/{event.pk}/audit/").content.decode()
    assert ("Two records of one person: member 122, Amos Pell; the visitor Amos Pell"
            in page)
    assert ("Merged the visitor Amos Pell into member 122, Amos Pell: the seat in pair 2 is "
            "Amos Pell&#x27;s now") in page
    assert "{" not in page.split('id="audit"')[1] and "None" not in page


@pytest.mark.parametrize(("before", "after", "words"), [
    ({"keep": {"id": 1, "name": "Ann Lee", "number": "7"},
      "drop": {"id": 2, "name": "A. Lee", "number": None}},
     {"player": {"id": 1, "name": "Ann Lee", "number": "7"}, "pairs": [],
      "substitutes": 2, "score_cards": 1},
     ("Two records of one person: member 7, Ann Lee; the visitor A. Lee",
      "Merged the visitor A. Lee into member 7, Ann Lee: 2 substitutions and the score "
      "card are Ann Lee's now")),
    # The visitor kept takes the member's number: said so, not "member 7 into member 7".
    ({"keep": {"id": 1, "name": "Ann Lee", "number": None},
      "drop": {"id": 2, "name": "Ann Lee", "number": "7"}},
     {"player": {"id": 1, "name": "Ann Lee", "number": "7"}, "pairs": [3],
      "substitutes": 0},
     ("Two records of one person: the visitor Ann Lee; member 7, Ann Lee",
      "Merged member 7, Ann Lee into the visitor record of Ann Lee, now member 7: the "
      "seat in pair 3 is Ann Lee's now")),
    # Two visitors; nothing of this night's but the record itself.
    ({"keep": {"id": 1, "name": "Cy Dow", "number": None},
      "drop": {"id": 2, "name": "C. Dow", "number": None}},
     {"player": {"id": 1, "name": "Cy Dow", "number": None}, "pairs": [],
      "substitutes": 0},
     ("Two records of one person: the visitor Cy Dow; the visitor C. Dow",
      "Merged the visitor C. Dow into the visitor Cy Dow")),
    # A party night's own entry: the places moved at its tables.
    ({"keep": {"id": 1, "name": "Cy Dow", "number": "9"},
      "drop": {"id": 2, "name": "C. Dow", "number": None}},
     {"player": {"id": 1, "name": "Cy Dow", "number": "9"}, "party_players": [4, 7]},
     ("Two records of one person: member 9, Cy Dow; the visitor C. Dow",
      "Merged the visitor C. Dow into member 9, Cy Dow: 2 places at the party night are "
      "Cy Dow's now")),
    ({"keep": {"id": 1, "name": "Cy Dow", "number": "9"},
      "drop": {"id": 2, "name": "C. Dow", "number": None}},
     {"player": {"id": 1, "name": "Cy Dow", "number": "9"}, "party_players": [4]},
     ("Two records of one person: member 9, Cy Dow; the visitor C. Dow",
      "Merged the visitor C. Dow into member 9, Cy Dow: the place at the party night is "
      "Cy Dow's now")),
])
def test_merge_words(before, after, words):
    assert presenters.merge_words(before, after) == words


def test_a_substitution_merged_reads_too(director, director_client):
    actor = Actor.director(director)
    event = services.event_create(name="Club pairs", date=datetime.date(2026, 11, 23),
                                  actor=actor)
    services.pairs_set(event=event, actor=actor, lines=[
        Line(1, ["Ann Lee", "Bob Ray"]), Line(2, ["Di Eck", "Cy Dow"])])
    visitor = Player.objects.create(name="Eve Fay")
    Substitute.objects.create(pair=Pair.objects.get(event=event, number=1), seat=2,
                              player=visitor, from_round=2)
    member = Player.objects.create(name="Eve Fay", number="9")
    services.members_merge(keep=member, drop=visitor, actor=actor, reason="the same")
    page = director_client.get(f"/director/events/{event.pk}/audit/").content.decode()
    assert ("Merged the visitor Eve Fay into member 9, Eve Fay: the substitution is "
            "Eve Fay&#x27;s now") in page
