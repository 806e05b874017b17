"""The score pad's services: a rubber kept deal by deal, scored by the engine alone."""

import pytest

from scoring.engine import score_rubber
from tournaments.models import Rubber
from tournaments.services import (
    ServiceError,
    rubber_create,
    rubber_deal_add,
    rubber_deal_correct,
    rubber_preview,
    rubber_sheet,
)

pytestmark = pytest.mark.django_db

FOUR = ["Ann", "Bob", "Cy", "Di"]
# rules.md §10.1's worked rubber (docs/scoring-command.md): E-W, then N-S twice.
AUCTION = [
    {"contract": {"level": 1, "denomination": "H", "declarer": "S"}, "tricks": 9,
     "honours": {"N": 2, "S": 1}},
    {"contract": {"level": 2, "denomination": "NT", "declarer": "W"}, "tricks": 9},
    {"contract": {"level": 3, "denomination": "D", "declarer": "N", "doubled": "X"},
     "tricks": 7},
    {"contract": {"level": 1, "denomination": "NT", "declarer": "N"}, "tricks": 8},
    {"contract": {"level": 1, "denomination": "C", "declarer": "S"}, "tricks": 8},
    {"contract": {"level": 2, "denomination": "NT", "declarer": "N"}, "tricks": 9,
     "honours": {"N": 4}},
]


def auction_pad(deals=AUCTION):
    pad = rubber_create(game="auction", players=FOUR)
    for d in deals:
        rubber_deal_add(rubber=pad, deal=d)
    return pad


def test_a_rubber_stores_its_input_and_scores_through_the_engine():
    pad = auction_pad()
    pad.refresh_from_db()
    assert pad.finished
    stored = [d.data for d in pad.deals.order_by("number")]
    assert [d["dealer"] for d in stored] == ["N", "E", "S", "W", "N", "E"]  # to the left
    engine = score_rubber("auction", stored).to_dict()
    sheet = rubber_sheet(rubber=pad)
    assert sheet["totals"] == engine["totals"] == {"NS": 452, "EW": 230}
    assert sheet["winner"] == "NS" and sheet["complete"]
    assert [p["winner"] for p in sheet["periods"]] == ["EW", "NS", "NS"]
    assert all(p["ruled_off"] for p in sheet["periods"])
    assert sheet["periods"][0]["deals"][0]["above"] == {"NS": 24, "EW": 0}
    assert any("Rubber" in r["what"] or "rubber" in r["what"] for r in sheet["below"])
    assert sheet["next_dealer"] is None
    assert sheet["result"].startswith("Rubber to Ann & Cy")
    assert "Ann & Cy win 222 from Bob & Di" in sheet["result"]


def test_a_deal_after_the_rubber_is_won_is_refused_in_the_engines_words():
    pad = auction_pad()
    with pytest.raises(ServiceError) as err:
        rubber_deal_add(rubber=pad, deal=AUCTION[0])
    assert "after the end of the rubber" in err.value.message
    assert "Start a new rubber" in err.value.message
    assert pad.deals.count() == 6


def test_a_bad_deal_is_refused_and_nothing_stored():
    pad = rubber_create(game="auction", players=FOUR)
    with pytest.raises(ServiceError) as err:
        rubber_deal_add(rubber=pad, deal={"contract": {"level": 8, "denomination": "H",
                                                        "declarer": "S"}, "tricks": 9})
    assert err.value.field
    assert pad.deals.count() == 0


def test_only_the_last_deal_can_be_corrected():
    pad = auction_pad(AUCTION[:3])
    with pytest.raises(ServiceError, match=r"Deal 2 is no longer the last deal \(deal 3 was "
                       r"entered after it\), so this correction was not saved"):
        rubber_deal_correct(rubber=pad, number=2, deal=AUCTION[1])
    # A correction for a deal removed since (another phone took it off the sheet).
    with pytest.raises(ServiceError, match=r"Deal 4 is no longer the last deal \(it was "
                       r"removed: deal 3 is the last one\)"):
        rubber_deal_correct(rubber=pad, number=4, deal=AUCTION[1])
    fixed = dict(AUCTION[2], tricks=10)
    row = rubber_deal_correct(rubber=pad, number=3, deal=fixed)
    assert row.number == 3 and row.data["tricks"] == 10 and row.dealer == "S"
    sheet = rubber_sheet(rubber=pad)
    assert sheet["deals"][-1]["above"]["NS"] == 56  # 3♦ × made with one over: 4 × 7 × 2
    assert sheet["periods"][1]["winner"] == "NS"


def test_correcting_the_winning_deal_reopens_the_rubber():
    pad = auction_pad()
    rubber_deal_correct(rubber=pad, deal=dict(AUCTION[5], tricks=7))
    pad.refresh_from_db()
    assert not pad.finished
    assert rubber_sheet(rubber=pad)["next_dealer"] == "S"


def test_create_checks_the_players_and_the_game():
    with pytest.raises(ServiceError, match="4 players"):
        rubber_create(game="auction", players=["Ann", "Bob", "Cy"])
    with pytest.raises(ServiceError, match="name for South"):
        rubber_create(game="auction", players=["Ann", "Bob", " ", "Di"])
    with pytest.raises(ServiceError, match="Choose the game"):
        rubber_create(game="poker", players=FOUR)
    with pytest.raises(ServiceError, match="one of each side"):
        rubber_create(game="whist", players=FOUR, form="double-dummy", dummy="NS")
    pad = rubber_create(game="whist", players=FOUR, form="dummy", dummy="s")
    assert pad.dummy == "S" and pad.first_dealer == "S"  # dummy deals first
    assert pad.rules == "" and len(pad.code) >= 16
    assert Rubber.objects.count() == 1


def test_three_hand_settles_each_player():
    pad = rubber_create(game="three-hand", players=["Ann", "Bob", "Cy"])
    rubber_deal_add(rubber=pad, deal={
        "declarer": "B", "contract": {"level": 2, "denomination": "H", "doubled": ""},
        "tricks": 9, "honours": {"A": 1, "B": 2, "C": 0, "dummy": 2},
        "penalties": [{"rule": "5", "by": "C"}]})
    sheet = rubber_sheet(rubber=pad)
    assert sheet["deals"][0]["dealer"] == "A"
    assert sheet["totals"] == {"A": 58, "B": 106, "C": 0}
    assert sheet["net"] == {"A": 10, "B": 154, "C": -164}
    assert sheet["next_dealer"] == "B"
    assert {s["words"] for s in sheet["settlement"]} >= {"Bob wins 48 from Ann"}


def test_whist_dummy_is_never_liable_for_a_revoke():
    pad = rubber_create(game="whist", players=FOUR, form="dummy", dummy="S")
    with pytest.raises(ServiceError, match="never liable for a revoke") as err:
        rubber_deal_add(rubber=pad, deal={"tricks_ns": 7}, revokes_by={"S": 1})
    assert err.value.field == "revokes_by.S"
    row = rubber_deal_add(rubber=pad, deal={"tricks_ns": 7, "revoke_penalty": "add"},
                          revokes_by={"E": 1})
    assert row.data["revokes"] == {"NS": 0, "EW": 1}
    assert row.dealer == "S"
    sheet = rubber_sheet(rubber=pad)
    assert sheet["deals"][0]["above"] == {"NS": 4, "EW": 0}  # 3 added + 1 trick; stops at 4


@pytest.mark.parametrize("count", [1.5, -1, "1.0", "x", True])
def test_a_whist_revoke_count_must_be_a_whole_number(count):
    """-1 had been read as 0 and 1.5 as 1: a revoke lost, or one made up."""
    pad = rubber_create(game="whist", players=FOUR)
    with pytest.raises(ServiceError, match="East's revokes: a whole number, 0 or more") as err:
        rubber_deal_add(rubber=pad, deal={"tricks_ns": 7, "revoke_penalty": "add"},
                        revokes_by={"E": count})
    assert err.value.field == "revokes_by.E" and not pad.deals.exists()


def test_whist_rubber_sheet_rules_off_games_with_their_values():
    pad = rubber_create(game="whist", players=FOUR)
    for d in [{"tricks_ns": 9, "honours": {"NS": 3}}, {"tricks_ns": 5, "honours": {"NS": 1}},
              {"tricks_ns": 6, "revokes": {"NS": 1, "EW": 0}, "revoke_penalty": "add"},
              {"tricks_ns": 10, "honours": {"NS": 4}}]:
        rubber_deal_add(rubber=pad, deal=d)
    sheet = rubber_sheet(rubber=pad)
    assert [p["value"] for p in sheet["periods"]] == [3, 3, 3]
    assert sheet["net"] == {"NS": 5, "EW": -5}
    assert sheet["complete"]


def test_preview_stores_nothing_and_says_what_is_wrong():
    pad = auction_pad(AUCTION[:1])
    ok = rubber_preview(rubber=pad, deal=AUCTION[1])
    assert ok["ok"] and ok["deal"]["above"] == {"NS": 0, "EW": 30}
    assert ok["deal"]["game_won_by"] == "Bob & Di"
    assert ok["deal"]["dealer"] == "E"
    bad = rubber_preview(rubber=pad, deal={"contract": {"level": 1}, "tricks": 3})
    assert not bad["ok"] and bad["message"]
    again = rubber_preview(rubber=pad, deal=dict(AUCTION[0], tricks=10), replace_last=True)
    assert again["deal"]["number"] == 1 and again["deal"]["above"]["NS"] == 32
    assert pad.deals.count() == 1


def test_the_laws_are_named_as_players_read_them():
    pad = auction_pad()
    sheet = rubber_sheet(rubber=pad)
    assert any(r["what"] == "Rubber (two games won; Whist Club 1913)" for r in sheet["below"])
    three = rubber_create(game="three-hand", players=["Ann", "Bob", "Cy"])
    rubber_deal_add(rubber=three, deal={
        "declarer": "B", "contract": {"level": 2, "denomination": "H", "doubled": ""},
        "tricks": 8, "honours": {"B": 2}})
    laws = {it["law"] for it in rubber_sheet(rubber=three)["deals"][0]["items"]}
    assert "Three-Hand rule 13" in laws and "Law 47" in laws


def test_the_first_dealer_may_be_chosen_but_at_dummy_whist_it_is_the_dummy():
    assert rubber_create(game="auction", players=FOUR, first_dealer="W").first_dealer == "W"
    with pytest.raises(ServiceError, match="one of A, B, C"):
        rubber_create(game="three-hand", players=["Ann", "Bob", "Cy"], first_dealer="N")
    with pytest.raises(ServiceError, match="Dummy Whist rule 1") as refused:
        rubber_create(game="whist", players=FOUR, form="dummy", dummy="S", first_dealer="E")
    assert refused.value.field == "first_dealer" and "(South)" in refused.value.message
    pad = rubber_create(game="whist", players=FOUR, form="dummy", dummy="S", first_dealer="S")
    assert pad.first_dealer == "S"
