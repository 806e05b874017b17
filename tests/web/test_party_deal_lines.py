"""A party night's deal says its revokes, honours and penalties, in the score pad's words.

The club's night: 2R♠ by S made 8 tricks and scored 45 for N–S, with E–W's revoke paid
in three tricks; 1♥ by E scored 139 for E–W (4 honours in one hand, and N–S's Laws 90
and 54) and 100 for N–S (E–W's own revoke). The table's phone and the director's round
page said only "2R♠ by Bob (S), 8 tricks": neither number could be checked from its line,
where the pad's sheet has always said why (services.rubbers.deal_line words both).
"""

import datetime
import html

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Party
from tournaments.services import (
    Actor,
    party_create,
    party_deal_add,
    party_round,
    party_start,
    rubber_create,
    rubber_deal_add,
    rubber_sheet,
    table_actor,
)

pytestmark = pytest.mark.django_db

# Listed N, S, E, W at table 1 (party_start's first seating); a pad lists N, E, S, W.
NAMES = ["Ann", "Bob", "Cy", "Di"]
PAD_ORDER = {"auction": ["Ann", "Cy", "Bob", "Di"], "whist": ["Ann", "Cy", "Bob", "Di"],
             "three-hand": ["Ann", "Bob", "Cy"]}

REVOKE = "2R♠ by Bob (S), 8 tricks; revoke by the adversaries: 3 tricks taken"
PENALTIES = ("1♥ by Cy (E), 7 tricks; honours: 4 in one hand (E–W); revoke by the "
             "declarer's side: 100 to the adversaries; Law 90 by S; Law 54 by N (doubled "
             "partner)")


def tap(level, denomination, declarer, tricks, **more):
    return {"level": str(level), "denomination": denomination, "declarer": declarer,
            "doubled": "", "tricks": str(tricks), **more}


def new_party(director, game="auction", players=NAMES, rules="american-1913"):
    actor = Actor.director(director)
    party = party_create(name="Friday party", date=datetime.date(2026, 11, 27), game=game,
                         rules=rules, rounds=2,
                         deals_per_round=4, players=players, actor=actor)
    return party_start(party=party, actor=actor)


def test_the_tables_phone_and_the_round_page_name_revokes_honours_and_penalties(
        director, director_client):
    party = new_party(director)
    code = party.tables.get(number=1).code
    phone = Client()
    deal_url = reverse("party-table-deal", kwargs={"code": code})
    for sent in (tap(2, "RS", "S", 8, revokes_defending="1", first_penalty="tricks"),
                 tap(1, "H", "E", 7, honours_E="4", revokes_declaring="1", penalty_90="S",
                     penalty_54d="N")):
        assert phone.post(deal_url, sent).status_code == 302
    home = html.unescape(phone.get(reverse("party-table", kwargs={"code": code}))
                         .content.decode())
    rnd = html.unescape(director_client.get(reverse("director-party-round", kwargs={
        "party_id": party.pk, "round_number": 1})).content.decode())
    for page in (home, rnd):
        first = page.split('data-testid="party-deal-1-1"', 1)[1].split("</tr>", 1)[0]
        second = page.split('data-testid="party-deal-1-2"', 1)[1].split("</tr>", 1)[0]
        assert REVOKE in first and ">45<" in first  # 5 odd tricks at 9: 2 of them E-W's
        assert PENALTIES in second and ">100<" in second and ">139<" in second
    # The director's correction, and the table's, show the deal as the round page has it.
    correct = html.unescape(director_client.get(reverse("director-party-correct", kwargs={
        "party_id": party.pk, "round_number": 1, "table": 1, "number": 2})).content.decode())
    assert f"entered: {PENALTIES}" in correct


def pad_line(game, deal, revokes_by=None, rules="american-1913"):
    """The deal's line on a score pad of its own (its first deal: from love, as a party
    deal is scored)."""
    pad = rubber_create(game=game, players=PAD_ORDER[game], rules=rules)
    rubber_deal_add(rubber=pad, deal=deal, revokes_by=revokes_by)
    return rubber_sheet(rubber=pad)["deals"][0]


@pytest.mark.parametrize(("game", "deal", "revokes_by", "said"), [
    ("auction", {"contract": {"level": 2, "denomination": "RS", "declarer": "S"}, "tricks": 8,
                 "revokes": {"defending": 1, "first_penalty": "tricks"}}, None, REVOKE),
    ("auction", {"contract": {"level": 1, "denomination": "H", "declarer": "E"}, "tricks": 7,
                 "honours": {"E": 4}, "revokes": {"declaring": 1},
                 "penalties": [{"law": "90", "by": "S"},
                               {"law": "54-double-partner", "by": "N"}]}, None, PENALTIES),
    ("auction", {"contract": {"level": 3, "denomination": "NT", "declarer": "N"}, "tricks": 9,
                 "revokes": {"defending": 2, "first_penalty": "points"}}, None,
     "3NT by Ann (N), 9 tricks; 2 revokes by the adversaries: 200 taken"),
    ("whist", {"tricks_ns": 8, "revoke_penalty": "add", "honours": {"NS": 1}}, {"N": 1},
     "N–S 8 tricks, E–W 5; honours: E–W 3; revoke by N–S: 3 added to E–W"),
    ("whist", {"tricks_ns": 7, "revoke_penalty": "deduct"}, {"E": 2},
     "N–S 7 tricks, E–W 6; 2 revokes by E–W: 0 deducted"),  # nothing to lose from love
    ("three-hand", {"contract": None, "tricks": 0, "penalties": [{"rule": "9", "by": "A"}]},
     None, "Passed out; rule 9 by A"),
    ("three-hand", {"declarer": "B", "contract": {"level": 2, "denomination": "H",
                                                  "doubled": ""},
                    "tricks": 9, "honours": {"A": 1, "B": 2, "dummy": 2}}, None,
     "2♥ by Bob (B), 9 tricks; honours: A 1, B 2, dummy 2"),
])
def test_a_party_deal_reads_as_the_same_deal_on_the_pad(director, game, deal, revokes_by,
                                                        said):
    players = PAD_ORDER[game] if game == "three-hand" else NAMES
    rules = "english" if game == "three-hand" else "american-1913"  # English: a pass-out
    party = new_party(director, game=game, players=players, rules=rules)
    table = party.tables.get(number=1)
    party_deal_add(table=table, deal=deal, revokes_by=revokes_by, actor=table_actor(table))
    row = party_round(party=party)["tables"][0]["deals"][0]
    pad = pad_line(game, deal, revokes_by, rules=rules)
    assert row["what"] == pad["what"] == said
    assert row["notes"] == pad["notes"] and row["notes"]


def test_a_plain_deal_has_no_notes(director):
    party = new_party(director)
    table = party.tables.get(number=1)
    party_deal_add(table=table, deal={"contract": {"level": 1, "denomination": "NT",
                                                   "declarer": "N"}, "tricks": 8},
                   actor=table_actor(table))
    row = party_round(party=Party.objects.get())["tables"][0]["deals"][0]
    assert (row["what"], row["notes"]) == ("1NT by Ann (N), 8 tricks", [])
