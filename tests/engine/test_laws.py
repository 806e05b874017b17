"""One deal of Duplicate Auction, law by law (rules.md §1–§3). Test names cite the law."""

import pytest

from scoring.engine import (
    RULE_SET_NAMES,
    SIDE_OF_SEAT,
    SIDE_SEATS,
    ResultError,
    dealer_for_board,
    get_rules,
    partner,
)

from .util import cols, deal, laws

# --- §1, §2: vocabulary and rule sets -----------------------------------------------------


@pytest.mark.parametrize(("board", "dealer"), [(1, "N"), (2, "E"), (3, "S"), (4, "W"),
                                               (5, "N"), (16, "W"), (33, "N")])
def test_rules_1_dealer_of_board(board, dealer):
    assert dealer_for_board(board) == dealer


@pytest.mark.parametrize("bad", [0, -1, True, 1.0, "1"])
def test_rules_1_dealer_needs_a_board_number(bad):
    with pytest.raises(ValueError):
        dealer_for_board(bad)


@pytest.mark.parametrize(("seat", "across"), [("N", "S"), ("E", "W"), ("S", "N"), ("W", "E")])
def test_rules_1_partners_sit_across_the_table(seat, across):
    assert partner(seat) == across
    assert SIDE_OF_SEAT[seat] == SIDE_OF_SEAT[across]
    assert seat in SIDE_SEATS[SIDE_OF_SEAT[seat]]


def test_rules_1_the_seats_of_each_side():
    assert dict(SIDE_SEATS) == {"ns": ("N", "S"), "ew": ("E", "W")}


def test_rules_2_rule_set_names():
    assert RULE_SET_NAMES == ("american-1913", "english", "duplicate-whist")
    assert [get_rules(n).is_whist for n in RULE_SET_NAMES] == [False, False, True]
    assert get_rules().name == "american-1913"
    with pytest.raises(ValueError, match="unknown rule set"):
        get_rules("contract")


@pytest.mark.parametrize(("denomination", "value"), [("S", 2), ("C", 6), ("D", 7), ("H", 8),
                                                     ("RS", 9), ("NT", 10)])
def test_law_3_trick_values(denomination, value):
    # One odd trick undoubled, declared at the one level: the trick value.
    ds = deal(f"1{denomination} N", 7, board=2)
    assert ds.ns.trick_score == value


def test_law_3_english_rule_spades_are_royals():
    assert deal("1S N", 7, rules="english").ns.trick_score == 9
    assert get_rules("english").trick_values["S"] == 9
    assert "RS" not in get_rules("english").trick_values


# --- Law 47: odd tricks --------------------------------------------------------------------


def test_law_47_all_odd_tricks_count_not_only_those_bid():
    # 1C by S making 11: 5 odd tricks x 6 = 30 (and so the premium).
    ds = deal("1C S", 11)
    assert ds.ns.trick_score == 30
    assert laws(ds) == {"47": 30, "Duplicate A": 125}


def test_law_47_exactly_made():
    assert cols(deal("4H E", 10)) == (0, 0, 32, 125)


def test_law_47_no_trick_score_for_a_failed_contract():
    ds = deal("4H E", 9)
    assert ds.ew.trick_score == 0
    assert ds.ns.trick_score == 0


# --- Law 47a: undertricks ------------------------------------------------------------------


@pytest.mark.parametrize(("contract", "tricks", "points"), [
    ("4H E", 9, 50), ("4H E", 7, 150), ("4HX E", 7, 300), ("4HXX E", 7, 600),
    ("7NT S", 0, 650), ("7NTXX S", 0, 2600),
])
def test_law_47a_undertricks_50_100_200_each(contract, tricks, points):
    ds = deal(contract, tricks)
    defenders = ds.ns if contract.split()[1] in "EW" else ds.ew
    assert defenders.honour_score - _slams(ds) == points
    assert laws(ds)["47a"] == points


def _slams(ds):
    return sum(i.points for i in ds.items if i.what.endswith("slam"))


def test_law_47a_undertricks_in_the_honour_column():
    ds = deal("3NT N", 7)
    assert ds.ew.trick_score == 0
    assert ds.ew.honour_score == 100


# --- Law 48: the dealer's one spade --------------------------------------------------------


@pytest.mark.parametrize(("board", "declarer", "doubled", "tricks", "ew_points"), [
    (1, "N", "", 4, 100),     # dealer N, 3 down = 150 -> 100
    (1, "N", "X", 4, 100),    # doubled: 300 -> 100 ("whether doubled or not")
    (1, "N", "XX", 4, 600),   # redoubled: no limit
    (1, "N", "", 6, 50),      # 1 down: under the limit
    (3, "S", "X", 2, 100),    # S deals board 3: 5 down doubled = 500 -> 100
    (1, "S", "", 4, 150),     # S is not the dealer of board 1 (a declaration out of turn)
])
def test_law_48_one_spade_limit(board, declarer, doubled, tricks, ew_points):
    ds = deal(f"1S{doubled} {declarer}", tricks, board=board)
    assert ds.ew.honour_score == ew_points


def test_law_48_honours_are_scored_as_held():
    ds = deal("1S N", 0, {"E": 5}, board=1)  # 7 down, limited; E-W hold 5 honours in one hand
    assert laws(ds) == {"48": 100, "3": 20 + 40}
    assert ds.ew.honour_score == 100 + 10 * 2 + 40  # limit, 5 honours x 2, grand slam in play


def test_law_48_not_under_the_english_rule():
    ds = deal("1S N", 4, board=1, rules="english")
    assert ds.ew.honour_score == 150
    assert "48" not in laws(ds)


def test_law_48_not_for_royal_spades():
    assert deal("1RS N", 4, board=1).ew.honour_score == 150


def test_law_48_not_for_two_spades():
    assert deal("2S N", 4, board=1).ew.honour_score == 200


# --- Law 53: doubling ----------------------------------------------------------------------


@pytest.mark.parametrize(("doubled", "trick_score"), [("", 24), ("X", 48), ("XX", 96)])
def test_law_53_doubling_doubles_redoubling_quadruples(doubled, trick_score):
    ds = deal(f"2H{doubled} N", 9, board=2)
    assert ds.ns.trick_score == trick_score


def test_law_53_honours_are_never_doubled():
    plain = deal("4S E", 10, {"N": 3})
    doubled = deal("4SXX E", 10, {"N": 3})
    assert plain.ns.honour_score == doubled.ns.honour_score == 4


# --- Law 56: doubled bonus -----------------------------------------------------------------


@pytest.mark.parametrize(("contract", "tricks", "bonus"), [
    ("2DX E", 8, 50), ("2DX E", 9, 100), ("2DX E", 13, 300),
    ("2DXX E", 8, 100), ("2DXX E", 10, 300),
    ("2D E", 10, 0),
])
def test_law_56_doubled_bonus(contract, tricks, bonus):
    assert laws(deal(contract, tricks)).get("56", 0) == bonus


def test_law_56_no_bonus_when_the_doubled_contract_fails():
    assert "56" not in laws(deal("4HX N", 9))


# --- Law 3 honours table -------------------------------------------------------------------


@pytest.mark.parametrize(("honours", "multiple"), [
    ({"N": 1, "S": 1}, 0),          # 2 honours score nothing
    ({"N": 3}, 2),                  # simple honours
    ({"N": 2, "S": 1}, 2),
    ({"N": 2, "S": 2}, 4),          # 4 divided
    ({"N": 3, "S": 1}, 4),          # 4 divided (3 + 1)
    ({"N": 3, "S": 2}, 5),          # 5 divided
    ({"N": 4}, 8),                  # 4 in one hand
    ({"N": 4, "E": 1}, 8),          # 4 in one hand, partner has not the 5th
    ({"N": 4, "S": 1}, 9),          # 4 in one hand, 5th in partner's
    ({"S": 5}, 10),                 # 5 in one hand
])
def test_law_3_honours_suit(honours, multiple):
    # Hearts, value 8; the declarer E-W make exactly so N-S have only honours.
    ds = deal("1H E", 7, honours, board=2)
    assert ds.ns.honour_score == multiple * 8


@pytest.mark.parametrize(("honours", "points"), [
    ({"N": 2}, 0), ({"N": 2, "S": 1}, 30), ({"N": 3}, 30), ({"N": 2, "S": 2}, 40),
    ({"N": 3, "S": 1}, 40), ({"S": 4}, 100),
])
def test_law_3_honours_no_trump_aces(honours, points):
    ds = deal("1NT E", 7, honours, board=2)
    assert ds.ns.honour_score == points


def test_law_3_honours_for_each_side_whatever_the_result():
    # E-W hold 3 honours while N-S declare and go down; both score in their honour column.
    ds = deal("4C N", 8, {"E": 2, "W": 1, "N": 2}, board=2)
    assert ds.ew.honour_score == 12 + 100  # simple honours (2 x 6) + 2 undertricks


@pytest.mark.parametrize(("rules", "value"), [("american-1913", 2), ("english", 9)])
def test_law_3_spade_honours_use_the_trick_value(rules, value):
    assert deal("1S E", 7, {"N": 3}, board=2, rules=rules).ns.honour_score == 2 * value


def test_law_3_royal_spades_honours():
    assert deal("1RS E", 7, {"N": 4, "S": 1}, board=2).ns.honour_score == 81


def test_law_3_no_chicane():
    # A void in trumps scores nothing (chicane abolished in November 1913).
    assert deal("1H E", 7, {"E": 0}, board=2).ns.honour_score == 0


# --- Slams (Law 3, Law 84) -----------------------------------------------------------------


@pytest.mark.parametrize(("contract", "tricks", "ns_slam"), [
    ("6H N", 12, 20), ("6H N", 13, 40), ("7H N", 13, 40), ("7H N", 12, 20),
    ("1C N", 12, 20), ("6H N", 11, 0),
])
def test_law_3_slams_for_the_declarer_made_or_not(contract, tricks, ns_slam):
    ds = deal(contract, tricks, board=2)
    assert sum(i.points for i in ds.items if i.side == "ns" and "slam" in i.what) == ns_slam


@pytest.mark.parametrize(("tricks", "ew_slam"), [(1, 20), (0, 40), (2, 0)])
def test_law_3_slams_for_the_defenders(tricks, ew_slam):
    ds = deal("3NT N", tricks, board=2)
    assert sum(i.points for i in ds.items if i.side == "ew" and "slam" in i.what) == ew_slam


@pytest.mark.parametrize(("tricks", "slam"), [(12, 50), (13, 100)])
def test_english_rule_slams_50_and_100(tricks, slam):
    ds = deal("6D S", tricks, board=2, rules="english")
    assert sum(i.points for i in ds.items if "slam" in i.what) == slam


# --- Duplicate Law A: the premium ----------------------------------------------------------


@pytest.mark.parametrize(("contract", "tricks", "premium"), [
    ("1S N", 13, 0),      # 7 x 2 = 14 for tricks: no premium
    ("2C N", 11, 125),    # 5 x 6 = 30
    ("1D N", 10, 0),      # 4 x 7 = 28
    ("1DX N", 9, 125),    # 3 x 7 x 2 = 42: doubled values count toward the 30
    ("1SXX N", 11, 125),  # 5 x 2 x 4 = 40
    ("3NT N", 9, 125),
    ("3NT N", 8, 0),      # failed
])
def test_duplicate_law_a_premium(contract, tricks, premium):
    assert laws(deal(contract, tricks, board=2)).get("Duplicate A", 0) == premium


def test_duplicate_law_a_no_games_or_rubbers():
    # A deal's score is the same whatever was scored before: nothing carries over.
    assert deal("4S N", 10, board=2).to_dict() == deal("4S N", 10, board=2).to_dict()


# --- Law 84(a): the declaring side revoked --------------------------------------------------


def test_law_84a_declarer_revoke_scores_only_honours():
    ds = deal("4H N", 11, {"N": 4, "S": 1}, revokes={"declaring": 1}, board=2)
    assert cols(ds) == (0, 72, 0, 100)
    assert laws(ds) == {"3": 72, "84a": 100}


def test_law_84a_defenders_also_take_the_undertricks():
    ds = deal("4HX N", 8, revokes={"declaring": 1}, board=2)
    assert ds.ew.honour_score == 100 + 200
    assert laws(ds) == {"84a": 100, "47a": 200}


def test_law_84a_no_slam_for_the_revoking_declarer():
    ds = deal("6H N", 13, revokes={"declaring": 1}, board=2)
    assert ds.ns.total == 0


def test_law_84a_non_revoking_defenders_keep_their_slam():
    ds = deal("3NT N", 1, revokes={"declaring": 1}, board=2)
    assert ds.ew.honour_score == 100 + 400 + 20  # revoke, 8 undertricks, little slam


def test_law_84a_law_48_still_limits_the_undertricks():
    ds = deal("1S N", 3, revokes={"declaring": 1}, board=1)
    assert ds.ew.honour_score == 100 + 100


# --- Law 84(b): the defenders revoked -------------------------------------------------------


def test_law_84b_declarer_takes_100_points():
    ds = deal("4H N", 10, revokes={"defending": 1, "first_penalty": "points"}, board=2)
    assert cols(ds) == (32, 225, 0, 0)
    assert laws(ds) == {"47": 32, "84b": 100, "Duplicate A": 125}


def test_law_84b_points_no_undertricks_for_revoking_defenders():
    ds = deal("4H N", 8, {"E": 3}, revokes={"defending": 1, "first_penalty": "points"},
              board=2)
    assert cols(ds) == (0, 100, 0, 16)  # the defenders keep only their honours


def test_law_84b_three_tricks_make_the_contract():
    ds = deal("4H N", 7, revokes={"defending": 1, "first_penalty": "tricks"}, board=2)
    assert ds.ns.trick_score == 32  # 7 + 3 = 10 tricks: 4 odd x 8
    assert laws(ds) == {"47": 8, "84b": 24, "Duplicate A": 125}


def test_law_84b_transferred_tricks_still_short():
    ds = deal("5H N", 7, revokes={"defending": 1, "first_penalty": "tricks"}, board=2)
    assert cols(ds) == (0, 0, 0, 0)  # 10 < 11, but the revoking defenders take nothing


@pytest.mark.parametrize(("tricks", "moved"), [(10, 3), (11, 2), (12, 1), (13, 0)])
def test_law_84b_pinned_never_more_than_the_defenders_won(tricks, moved):
    ds = deal("1C N", tricks, revokes={"defending": 1, "first_penalty": "tricks"}, board=2)
    assert ds.ns.trick_score == (tricks + moved - 6) * 6


def test_law_84b_footnote_22_transferred_tricks_at_the_doubled_value():
    ds = deal("2CXX S", 5, revokes={"defending": 1, "first_penalty": "tricks"}, board=2)
    assert ds.ns.trick_score == 2 * 6 * 4  # 5 + 3 = 8: 2 odd tricks redoubled, both moved
    assert laws(ds)["84b"] == 48


def test_law_84b_no_doubled_bonus_from_transferred_tricks():
    ds = deal("4SX E", 9, revokes={"defending": 1, "first_penalty": "tricks"}, board=2)
    assert "56" not in laws(ds)
    assert ds.ew.trick_score == 6 * 2 * 2


def test_law_84b_doubled_bonus_when_made_in_play():
    ds = deal("2DX E", 9, revokes={"defending": 1, "first_penalty": "tricks"}, board=2)
    # 9 + 3 = 12 tricks for the trick score; the bonus counts only tricks won in play.
    assert ds.ew.trick_score == 6 * 7 * 2
    assert laws(ds)["56"] == 100
    assert not any("slam" in i.what for i in ds.items)


def test_law_84b_no_slam_from_transferred_tricks():
    ds = deal("6H N", 10, revokes={"defending": 1, "first_penalty": "tricks"}, board=2)
    assert ds.ns.trick_score == 7 * 8
    assert not any("slam" in i.what for i in ds.items)


def test_law_84b_slam_won_in_play_still_counts():
    ds = deal("6H N", 12, revokes={"defending": 1, "first_penalty": "points"}, board=2)
    assert laws(ds) == {"47": 48, "84b": 100, "3": 20, "Duplicate A": 125}


def test_law_84b_transferred_tricks_count_for_the_premium():
    ds = deal("1D N", 7, revokes={"defending": 1, "first_penalty": "tricks"}, board=2)
    assert ds.ns.trick_score == 28  # no premium
    ds = deal("1C N", 9, revokes={"defending": 1, "first_penalty": "tricks"}, board=2)
    assert ds.ns.trick_score == 36
    assert laws(ds)["Duplicate A"] == 125


def test_law_84b_defenders_keep_their_honours():
    ds = deal("4H N", 10, {"E": 4, "W": 1}, revokes={"defending": 1, "first_penalty": "points"},
              board=2)
    assert ds.ew.honour_score == 72


# --- Law 84(c): further revokes by the same side --------------------------------------------


def test_law_84c_further_declarer_revokes():
    ds = deal("3C N", 9, revokes={"declaring": 3}, board=2)
    assert laws(ds) == {"84a": 100, "84c": 200}
    assert ds.ew.honour_score == 300


def test_law_84c_further_defender_revokes():
    ds = deal("3C N", 9, revokes={"defending": 2, "first_penalty": "tricks"}, board=2)
    # 9 + 3 = 12 tricks: 3 odd in play (18) and 3 moved (18); 100 for the second revoke.
    assert laws(ds) == {"47": 18, "84b": 18, "84c": 100, "Duplicate A": 125}


# --- Law 89: both sides revoked ------------------------------------------------------------


def test_law_89_both_revoke_only_honours():
    ds = deal("4HX N", 12, {"N": 3, "E": 2}, board=2,
              revokes={"declaring": 1, "defending": 1, "first_penalty": "tricks"})
    assert cols(ds) == (0, 16, 0, 0)


def test_law_89_extra_revokes_are_100_each():
    ds = deal("2NT E", 5, {"E": 4}, board=2, revokes={"declaring": 3, "defending": 2})
    # E-W (declaring) revoked 3 times: N-S take 200; N-S revoked twice: E-W take 100.
    assert cols(ds) == (0, 200, 0, 100 + 100)
    assert laws(ds) == {"89": 300, "3": 100}


def test_law_89_no_undertricks_slam_or_premium():
    ds = deal("7NT S", 0, board=2, revokes={"declaring": 1, "defending": 1})
    assert ds.items == ()


# --- Procedural penalties (Duplicate Law F, Laws 81, 90, 54) --------------------------------


@pytest.mark.parametrize(("code", "law", "points"), [
    ("F-declaration-out-of-turn", "Duplicate F", 50),
    ("F-law-81", "Duplicate F, 81", 50),
    ("90", "90", 25),
    ("54-redouble-more-than-once", "54", 100),
    ("54-double-partner", "54", 50),
])
def test_duplicate_law_f_law_81_law_90_law_54_penalties(code, law, points):
    base = deal("3NT N", 9, board=2)
    ds = deal("3NT N", 9, board=2, penalties=[{"law": code, "by": "S"}])
    assert ds.ew.honour_score == base.ew.honour_score + points
    assert ds.ns.total == base.ns.total
    assert ds.items[-1].law == law and ds.items[-1].side == "ew"


def test_penalties_go_to_the_offenders_adversaries_whatever_happened():
    ds = deal("2H E", 8, board=2, revokes={"declaring": 1, "defending": 1},
              penalties=[{"law": "90", "by": "E"}, {"law": "F-law-81", "by": "N"},
                         {"law": "90", "by": "W"}])
    assert cols(ds) == (0, 50, 0, 50)


# --- §3.8 passed-out deal, Law 42 ---------------------------------------------------------


def test_rules_3_8_english_passed_out_scores_nothing():
    ds = deal(None, rules="english")
    assert cols(ds) == (0, 0, 0, 0)
    assert ds.items == ()
    assert ds.net_ns == 0


def test_law_42_american_dealer_must_bid():
    with pytest.raises(ResultError) as exc:
        deal(None)
    assert exc.value.field == "contract"
    assert str(exc.value) == ("the dealer must bid under the American rule: "
                              "a deal cannot be passed out")


def test_english_rule_no_royal_spades():
    with pytest.raises(ResultError) as exc:
        deal("1RS N", 7, rules="english")
    assert exc.value.field == "contract.denomination"
    assert "royal spades do not exist under the English rule" in exc.value.message


# --- the score's shape -----------------------------------------------------------------------


def test_items_add_up_and_net_ns():
    ds = deal("5DX W", 10, {"N": 2, "S": 1}, board=4,
              penalties=[{"law": "54-double-partner", "by": "N"}])
    for side, score in (("ns", ds.ns), ("ew", ds.ew)):
        for column, total in (("trick", score.trick_score), ("honour", score.honour_score)):
            assert sum(i.points for i in ds.items
                       if i.side == side and i.column == column) == total
    assert ds.net_ns == ds.ns.total - ds.ew.total
    d = ds.to_dict()
    assert d["net_ns"] == ds.net_ns
    assert d["ns"]["total"] == ds.ns.total
