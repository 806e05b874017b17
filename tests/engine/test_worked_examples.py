"""rules.md §9: the seven worked examples, each number checked by hand.

Columns are (declaring trick, declaring honour, defenders' trick, defenders' honour).
"""

import pytest

from .util import deal

# Each: (id, deal, declaring side, expected columns, expected declaring items by law)
EXAMPLES = [
    # 1. 3H by S, 7 tricks: 2 undertricks x 50 (Law 47a); 3 honours = 2 x 8 (Law 3).
    pytest.param(
        {"contract": "3H S", "tricks": 7, "honours": {"N": 2, "S": 1}}, "ns",
        (0, 16, 0, 100), {"3": 16, "47a": 100},
        id="ex1_law_47a_law_3_simple_honours_for_a_failed_contract",
    ),
    # 2. 1NT by N, 9 tricks: 3 odd x 10 = 30 (Law 47); 3 aces = 30; premium 125 (Duplicate A).
    pytest.param(
        {"contract": "1NT N", "tricks": 9, "honours": {"N": 2, "S": 1}}, "ns",
        (30, 155, 0, 0), {"47": 30, "3": 30, "Duplicate A": 125},
        id="ex2_law_47_all_odd_tricks_count_duplicate_law_a_premium",
    ),
    # 3. 2H by W, 10 tricks: 4 odd x 8 = 32; 4 honours in one hand = 8 x 8 = 64; premium.
    pytest.param(
        {"contract": "2H W", "tricks": 10, "honours": {"W": 4, "E": 0}}, "ew",
        (32, 189, 0, 0), {"47": 32, "3": 64, "Duplicate A": 125},
        id="ex3_law_3_four_honours_in_one_hand",
    ),
    # 4. 2D X by E, 9 tricks: 3 odd x 7 x 2 = 42 (Law 53); bonus 50 + 50 x 1 (Law 56);
    #    premium (doubled values count toward 30); N-S 4 honours divided = 4 x 7 = 28.
    pytest.param(
        {"contract": "2DX E", "tricks": 9, "honours": {"N": 2, "S": 2}}, "ew",
        (42, 225, 0, 28), {"53": 42, "56": 100, "Duplicate A": 125, "3": 28},
        id="ex4_law_53_law_56_doubled_bonus_and_overtrick",
    ),
    # 5. 3H X by N, 7 tricks, defenders revoked once, declarer takes 3 tricks: T = 10,
    #    4 odd x 8 x 2 = 64 (16 in play + 48 transferred), premium, no doubled bonus.
    pytest.param(
        {"contract": "3HX N", "tricks": 7, "revokes": {"defending": 1, "first_penalty": "tricks"}},
        "ns", (64, 125, 0, 0), {"53": 16, "84b": 48, "Duplicate A": 125},
        id="ex5_law_84b_three_tricks_transferred_no_doubled_bonus",
    ),
    # 6. 1S by N on board 1 (N deals), 4 tricks: 3 undertricks = 150, limited to 100 (Law 48);
    #    simple honours 2 x 2 = 4.
    pytest.param(
        {"contract": "1S N", "tricks": 4, "honours": {"N": 2, "S": 1}, "board": 1}, "ns",
        (0, 4, 0, 100), {"3": 4, "48": 100},
        id="ex6_law_48_dealers_one_spade_limited_to_100",
    ),
    # 7. 7H by S, 12 tricks: 4 honours in one hand and the 5th in partner's = 9 x 8 = 72;
    #    little slam 20 although the contract fails; 1 undertrick 50 to E-W.
    pytest.param(
        {"contract": "7H S", "tricks": 12, "honours": {"S": 4, "N": 1}}, "ns",
        (0, 92, 0, 50), {"3": 92, "47a": 50},
        id="ex7_law_3_little_slam_on_a_failed_grand_slam_bid",
    ),
]


@pytest.mark.parametrize(("kw", "declaring", "expected", "by_law"), EXAMPLES)
def test_worked_example(kw, declaring, expected, by_law):
    kw = dict(kw)
    ds = deal(kw.pop("contract"), **kw)
    decl = ds.ns if declaring == "ns" else ds.ew
    dfn = ds.ew if declaring == "ns" else ds.ns
    assert (decl.trick_score, decl.honour_score, dfn.trick_score, dfn.honour_score) == expected
    got: dict[str, int] = {}
    for item in ds.items:
        got[item.law] = got.get(item.law, 0) + item.points
    assert got == by_law
    assert ds.net_ns == ds.ns.total - ds.ew.total


def test_ex1_matches_the_deal_score_of_interfaces_md():
    """interfaces.md §1 prints example 1 as a deal score: the same, item for item."""
    ds = deal("3H S", 7, {"N": 2, "S": 1})
    assert ds.to_dict() == {
        "ns": {"trick_score": 0, "honour_score": 16, "total": 16},
        "ew": {"trick_score": 0, "honour_score": 100, "total": 100},
        "net_ns": -84,
        "items": [
            {"side": "ns", "column": "honour", "points": 16, "what": "simple honours",
             "law": "3"},
            {"side": "ew", "column": "honour", "points": 100, "what": "2 undertricks",
             "law": "47a"},
        ],
    }


def test_ex4_totals():
    ds = deal("2DX E", 9, {"N": 2, "S": 2})
    assert ds.ew.total == 267
    assert ds.ns.total == 28


def test_ex5_total():
    assert deal("3HX N", 7, revokes={"defending": 1, "first_penalty": "tricks"}).ns.total == 189


def test_ex7_totals():
    ds = deal("7H S", 12, {"S": 4, "N": 1})
    assert (ds.ns.total, ds.ew.total) == (92, 50)
