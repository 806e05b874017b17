"""The score pad's services: a rubber kept deal by deal, scored by the engine alone."""

import pytest

from scoring.engine import score_rubber
from tournaments.models import Rubber
from tournaments.services import (
    ServiceError,
    rubber_create,
    rubber_deal_add,
    rubber_deal_correct,
    rubber_deal_remove,
    rubber_preview,
    rubber_sheet,
)
from tournaments.services.rubbers import RubberDealChanged, RubberSheetMoved, RubberWonEarlier

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


def test_any_deal_can_be_corrected_and_the_rubber_is_scored_again():
    """Auction Law 60(e), Whist Laws 56-57: an erroneous score may be corrected. Deal 4
    (1NT by N, 8 tricks) was 7 tricks: N-S's second game now needs deal 6, and the rubber,
    won at deal 6 before, is open again (N-S 10 + 12 + 30 = 52 in one game)."""
    pad = auction_pad()
    row = rubber_deal_correct(rubber=pad, number=4, deal=dict(AUCTION[3], tricks=7))
    assert row.number == 4 and row.data["tricks"] == 7 and row.dealer == "W"
    sheet = rubber_sheet(rubber=pad)
    assert [p["winner"] for p in sheet["periods"] if p["ruled_off"]] == ["EW", "NS"]
    assert [d["number"] for d in sheet["periods"][1]["deals"]] == [3, 4, 5, 6]
    assert not sheet["complete"] and sheet["next_dealer"] == "S"
    pad.refresh_from_db()
    assert not pad.finished
    # A correction for a deal removed since (another phone took it off the sheet).
    with pytest.raises(RubberDealChanged, match=r"Deal 7 was removed on another phone since "
                       r"this correction was begun: the sheet now ends at deal 6\. Nothing "
                       r"was saved"):
        rubber_deal_correct(rubber=pad, number=7, deal=AUCTION[1])


def test_a_correction_that_would_end_the_rubber_early_names_the_deal_that_wins_it():
    """The engine takes no deal after the rubber's end: 3♦ × made (not 2 down) gives N-S
    game at deal 3 and the rubber at deal 5, with deal 6 played after it."""
    pad = auction_pad()
    with pytest.raises(RubberWonEarlier) as refused:
        rubber_deal_correct(rubber=pad, number=3, deal=dict(AUCTION[2], tricks=9))
    assert refused.value.message == (
        "With this correction the rubber would be won at deal 5 by Ann & Cy, but deal 6 "
        "follows it on the sheet: nothing was saved. Remove the deals after deal 5 first "
        "(the last first: they are a new rubber's), then correct deal 3 again")
    assert refused.value.won_at == 5
    assert pad.deals.get(number=3).data["tricks"] == 7  # nothing written
    # Once deal 6 is off the sheet (a new rubber's), the correction is saved.
    rubber_deal_remove(rubber=pad, number=6)
    rubber_deal_correct(rubber=pad, number=3, deal=dict(AUCTION[2], tricks=9))
    sheet = rubber_sheet(rubber=pad)
    assert sheet["complete"] and sheet["periods"][-1]["deals"][-1]["number"] == 5


def test_a_correction_begun_on_a_deal_changed_since_is_not_saved():
    """Two phones: each opened "Correct deal 2" on version v; the second to save had
    silently overwritten the first. Now it is refused, saying what the deal reads."""
    pad = auction_pad(AUCTION[:3])
    seen = pad.deals.get(number=2)
    rubber_deal_correct(rubber=pad, number=2, version=seen.version, deal_id=seen.pk,
                        deal=dict(AUCTION[1], tricks=10))  # the first phone
    with pytest.raises(RubberDealChanged) as refused:
        rubber_deal_correct(rubber=pad, number=2, version=seen.version, deal_id=seen.pk,
                            deal=dict(AUCTION[1], tricks=8))
    assert refused.value.message == (
        "Deal 2 was changed on another phone since this correction was begun: it now reads "
        "2NT by Di (W), 10 tricks. Nothing was saved; look at it again before you correct "
        "it")
    assert refused.value.now.number == 2 and pad.deals.get(number=2).data["tricks"] == 10


def test_a_deal_removed_and_entered_again_is_not_the_deal_a_correction_was_begun_on():
    pad = auction_pad(AUCTION[:3])
    seen = pad.deals.get(number=3)
    rubber_deal_remove(rubber=pad, number=3, version=seen.version, deal_id=seen.pk)
    rubber_deal_add(rubber=pad, number=3, deal=dict(AUCTION[2], tricks=6))
    for doing, call in (
            ("this correction was begun", lambda **kw: rubber_deal_correct(
                deal=AUCTION[2], **kw)),
            ("its removal was asked for", rubber_deal_remove)):
        with pytest.raises(RubberDealChanged) as refused:
            call(rubber=pad, number=3, version=seen.version, deal_id=seen.pk)
        assert refused.value.message.startswith(
            f"Deal 3 was removed on another phone, and entered again, since {doing}: it "
            "now reads 3♦ × by Ann (N), 6 tricks. Nothing was ")
        # The version alone tells it too (the API sends no row): it only ever grows.
        with pytest.raises(RubberDealChanged, match="was changed on another phone"):
            call(rubber=pad, number=3, version=seen.version)
    assert pad.deals.get(number=3).data["tricks"] == 6


def test_every_write_moves_the_rubbers_change_number_and_versions_the_deal():
    pad = rubber_create(game="auction", players=FOUR)
    first = rubber_deal_add(rubber=pad, deal=AUCTION[0])
    second = rubber_deal_add(rubber=pad, deal=AUCTION[1])
    assert (first.version, second.version) == (1, 2)
    assert rubber_deal_correct(rubber=pad, number=1, deal=AUCTION[0]).version == 3
    rubber_deal_remove(rubber=pad, number=2)
    pad.refresh_from_db()
    assert pad.seq == 4
    assert [d["version"] for d in rubber_sheet(rubber=pad)["deals"]] == [3]


@pytest.mark.parametrize(("number", "said"), [
    (1, "Deal 1 is on the sheet already (this form was sent before, or another phone "
        "entered it): this one was not saved. The sheet has it as 1♥ by Cy (S), 9 tricks; "
        "honours: simple (N–S)"),
    (4, "This form was for deal 4, but the sheet now ends at deal 2 (a deal was removed on "
        "another phone since the form was opened): it was not saved. Check the sheet, then "
        "enter the next deal played as deal 3"),
])
def test_a_new_deals_form_is_for_the_next_deal_only(number, said):
    pad = auction_pad(AUCTION[:2])
    with pytest.raises(RubberSheetMoved) as refused:
        rubber_deal_add(rubber=pad, number=number, deal=AUCTION[2])
    assert refused.value.message == said and refused.value.field == "number"
    assert pad.deals.count() == 2


def test_the_winning_deal_sent_twice_is_told_it_is_on_the_sheet_not_after_the_rubber():
    pad = auction_pad()
    with pytest.raises(RubberSheetMoved, match="Deal 6 is on the sheet already"):
        rubber_deal_add(rubber=pad, number=6, deal=AUCTION[5])
    with pytest.raises(RubberSheetMoved, match=r"The rubber was won at deal 6 by Ann & Cy: "
                       "this deal comes after the end of the rubber and was not saved"):
        rubber_deal_add(rubber=pad, number=7, deal=AUCTION[5])


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


def test_a_deals_line_says_its_revokes_honours_and_penalties():
    """Each number on the sheet can be checked from its line: the 3 tricks taken for the
    adversaries' revoke made 2R♠ score 45 (5 odd tricks at 9), unmentioned before."""
    pad = rubber_create(game="auction", players=FOUR)
    for d in ({"contract": {"level": 2, "denomination": "RS", "declarer": "S"}, "tricks": 8,
               "revokes": {"defending": 1, "first_penalty": "tricks"}},
              {"contract": {"level": 1, "denomination": "H", "declarer": "E"}, "tricks": 7,
               "honours": {"E": 4}, "revokes": {"declaring": 1},
               "penalties": [{"law": "90", "by": "S"}, {"law": "54-double-partner",
                                                        "by": "N"}]}):
        rubber_deal_add(rubber=pad, deal=d)
    deals = rubber_sheet(rubber=pad)["deals"]
    assert deals[0]["what"] == "2R♠ by Cy (S), 8 tricks; revoke by the adversaries: 3 tricks taken"
    assert deals[0]["above"]["NS"] == 45
    assert deals[1]["what"] == ("1♥ by Bob (E), 7 tricks; honours: 4 in one hand (E–W); "
                                "revoke by the declarer's side: 100 to the adversaries; "
                                "Law 90 by S; Law 54 by N (doubled partner)")
    assert deals[1]["notes"][0] == "honours: 4 in one hand (E–W)"

    whist = rubber_create(game="whist", players=FOUR)
    for d in ({"tricks_ns": 8, "revokes": {"NS": 1, "EW": 0}, "revoke_penalty": "add",
               "honours": {"NS": 1}},
              {"tricks_ns": 5, "revokes": {"NS": 0, "EW": 1}, "revoke_penalty": "tricks"},
              {"tricks_ns": 7, "revokes": {"NS": 0, "EW": 2}, "revoke_penalty": "deduct"}):
        rubber_deal_add(rubber=whist, deal=d)
    lines = [d["what"] for d in rubber_sheet(rubber=whist)["deals"]]
    assert lines == [
        "N–S 8 tricks, E–W 5; honours: E–W 3; revoke by N–S: 3 added to E–W",
        "N–S 5 tricks, E–W 8; revoke by E–W: 3 tricks taken",
        "N–S 7 tricks, E–W 6; 2 revokes by E–W: 0 deducted"]  # E–W had nothing to lose

    three = rubber_create(game="three-hand", players=["Ann", "Bob", "Cy"], rules="english")
    rubber_deal_add(rubber=three, deal={"contract": None, "tricks": 0,
                                        "penalties": [{"rule": "9", "by": "A"}]})
    rubber_deal_add(rubber=three, deal={
        "declarer": "B", "contract": {"level": 2, "denomination": "H", "doubled": ""},
        "tricks": 9, "honours": {"A": 1, "B": 2, "dummy": 2}})
    lines = [d["what"] for d in rubber_sheet(rubber=three)["deals"]]
    assert lines == ["Passed out; rule 9 by A",
                     "2♥ by Bob (B), 9 tricks; honours: A 1, B 2, dummy 2"]


def test_an_unfinished_rubber_says_what_it_settles_if_it_stops_here():
    """rules.md §10.1: an unfinished rubber's net is the N-S total less the E-W total;
    Three-Hand rule 15 settles each pair of players. The page had said only who deals."""
    pad = auction_pad(AUCTION[:1])  # N-S: 24 for tricks, 16 for simple honours
    sheet = rubber_sheet(rubber=pad)
    assert sheet["stop_here"] == "If the rubber stops here: Ann & Cy win 40 from Bob & Di."
    assert sheet["result"] == ("No game won yet. Bob deals next. If the rubber stops here: "
                               "Ann & Cy win 40 from Bob & Di.")
    assert rubber_sheet(rubber=auction_pad())["stop_here"] == ""  # won: its result says it
    three = rubber_create(game="three-hand", players=["Ann", "Bob", "Cy"])
    rubber_deal_add(rubber=three, deal={
        "declarer": "B", "contract": {"level": 2, "denomination": "H", "doubled": ""},
        "tricks": 9, "honours": {"A": 1, "B": 2, "C": 0, "dummy": 2},
        "penalties": [{"rule": "5", "by": "C"}]})
    sheet = rubber_sheet(rubber=three)
    assert sheet["stop_here"] == ("If the rubber stops here: Bob wins 48 from Ann, Ann wins 58 "
                                  "from Cy and Bob wins 106 from Cy.")
    whist = rubber_create(game="whist", players=FOUR)
    rubber_deal_add(rubber=whist, deal={"tricks_ns": 13})
    assert rubber_sheet(rubber=whist)["stop_here"] == (
        "If the rubber stops here: Ann & Cy win 3 from Bob & Di (game values).")
