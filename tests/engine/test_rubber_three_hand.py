"""Three-Hand Auction (seed 000, rules (1)-(15); rules.md §10.2): hand-checked cases."""

import pytest

from scoring.engine import (
    RubberError,
    get_rules,
    parse_three_hand_deal,
    score_three_hand_deal,
    three_hand_rubber,
)


def th(declarer: str | None, contract: str | None, tricks: int | None = None, *,
       dealer: str = "A", honours: dict | None = None, **kw) -> dict:
    """A three-hand deal from "2H" / "1SX" (level, denomination, doubling)."""
    data: dict = {"dealer": dealer, "declarer": declarer}
    if contract is None:
        data["contract"] = None
    else:
        doubled = "XX" if contract.endswith("XX") else "X" if contract.endswith("X") else ""
        data["contract"] = {"level": int(contract[0]),
                            "denomination": contract[1:len(contract) - len(doubled)],
                            "doubled": doubled}
    if tricks is not None:
        data["tricks"] = tricks
    if honours is not None:
        data["honours"] = honours
    data.update(kw)
    return data


def one(data: dict, rules: str = "american-1913"):
    r = get_rules(rules)
    return score_three_hand_deal(parse_three_hand_deal(data, r), r)


def totals(ts) -> dict:
    return {p: s.total for p, s in ts.players.items()}


def test_interfaces_example_deal():
    # B plays 2H with the dummy and wins 9: 3 odd tricks at 8 (Law 47). Rule 13: A's one
    # honour 8, B's two 16, the dummy's two counted by B 16. Rule 5: C declared out of turn,
    # 50 to A and to B.
    ts = one(th("B", "2H", 9, honours={"A": 1, "B": 2, "C": 0, "dummy": 2},
                penalties=[{"rule": "5", "by": "C"}]))
    assert totals(ts) == {"A": 8 + 50, "B": 24 + 16 + 16 + 50, "C": 0}
    assert ts.players["B"].trick_score == 24
    assert {(i.player, i.law) for i in ts.items if i.points == 16} == {("B", "Three-Hand 13")}


@pytest.mark.parametrize(("count", "points"), [(1, 8), (2, 16), (3, 24), (4, 64), (5, 80)])
def test_rule_13_each_hand_scores_its_own_honours(count, points):
    ts = one(th("A", "1H", 7, honours={"C": count}))
    assert totals(ts)["C"] == points


@pytest.mark.parametrize(("count", "points"), [(1, 10), (2, 20), (3, 30), (4, 100)])
def test_rule_13_no_trump_each_ace_ten_four_in_one_hand_100(count, points):
    ts = one(th("A", "1NT", 6, honours={"B": count}))
    assert totals(ts)["B"] == points + 50  # B also takes the undertrick (rule 12)


def test_rule_13_the_declarer_counts_the_dummys_honours_separately():
    # Declarer 2 + dummy 2 in hearts: 16 + 16 = 32, not four honours together (64).
    ts = one(th("B", "1H", 7, honours={"B": 2, "dummy": 2}))
    assert [(i.player, i.points, i.what) for i in ts.items if i.law == "Three-Hand 13"] == [
        ("B", 16, "2 honours"), ("B", 16, "dummy's 2 honours")]
    # Four aces in the dummy: 100 to the declarer.
    ts = one(th("C", "1NT", 7, honours={"dummy": 4}))
    assert totals(ts)["C"] == 100 + 10


def test_rule_12_declarer_fails_each_adversary_scores_the_undertricks():
    ts = one(th("B", "4H", 8))  # 2 undertricks: 100 to A and 100 to C
    assert totals(ts) == {"A": 100, "B": 0, "C": 100}
    ts = one(th("B", "4HX", 8))  # doubled: 200 each
    assert totals(ts) == {"A": 200, "B": 0, "C": 200}
    assert {i.law for i in ts.items} == {"47a, Three-Hand 12"}


def test_rule_12_declarer_fulfils_scores_as_in_auction():
    ts = one(th("A", "2DX", 9))  # 3 odd x 7 x 2 = 42; Law 56: 50 + 50
    assert (ts.players["A"].trick_score, ts.players["A"].honour_score) == (42, 100)
    assert totals(ts)["B"] == totals(ts)["C"] == 0


def test_law_48_capped_at_100_for_each_adversary():
    # 1S by the dealer, 4 tricks: 150 capped at 100, for each adversary.
    assert totals(one(th("A", "1S", 4, dealer="A"))) == {"A": 0, "B": 100, "C": 100}
    # Not the dealer: no cap.
    assert totals(one(th("A", "1S", 4, dealer="B"))) == {"A": 0, "B": 150, "C": 150}


def test_pinned_slams_go_to_the_side_that_made_them():
    # The declarer with the dummy wins 12 of 7H: little slam 20, his alone.
    ts = one(th("B", "7H", 12))
    assert [(i.player, i.points) for i in ts.items if "slam" in i.what] == [("B", 20)]
    assert totals(ts) == {"A": 50, "B": 20, "C": 50}
    # The two adversaries win 13: each scores the grand slam.
    ts = one(th("B", "1C", 0))
    assert [(i.player, i.points) for i in ts.items if "slam" in i.what] == [("A", 40),
                                                                            ("C", 40)]


def test_pinned_revokes_adversaries_as_one_side():
    # Declarer revoked (Law 84(a)): 100 to each adversary.
    ts = one(th("C", "1H", 8, revokes={"declaring": 1, "defending": 0}))
    assert totals(ts) == {"A": 100, "B": 100, "C": 0}
    # An adversary revoked; declarer takes 100 (Law 84(b)).
    ts = one(th("C", "1H", 8, revokes={"declaring": 0, "defending": 1,
                                        "first_penalty": "points"}))
    assert totals(ts) == {"A": 0, "B": 0, "C": 16 + 100}
    # Law 89, both revoked twice: 100 for the second revoke of each side, in full to each.
    ts = one(th("C", "1H", 8, revokes={"declaring": 2, "defending": 2}))
    assert totals(ts) == {"A": 100, "B": 100, "C": 100}


@pytest.mark.parametrize(("rule", "points"), [("5", 50), ("9", 50), ("10", 100)])
def test_rules_5_9_10_penalties_go_to_each_of_the_other_players(rule, points):
    ts = one(th("A", "1C", 7, penalties=[{"rule": rule, "by": "B"}]))
    assert totals(ts) == {"A": 6 + points, "B": 0, "C": points}  # A made 1C: 6
    assert [i.law for i in ts.items if i.column == "honour"] == [f"Three-Hand {rule}"] * 2


GAME = {p: th(p, "3NT", 9) for p in "ABC"}  # 30 for tricks: game


def test_rule_14_125_a_game_and_250_for_the_rubber():
    r = three_hand_rubber([GAME["B"], GAME["A"], GAME["B"]])
    assert [(g.winner, g.deals) for g in r.games] == [("B", (0,)), ("A", (1,)), ("B", (2,))]
    assert (r.winner, r.complete) == ("B", True)
    assert [(b.to, b.points, b.what) for b in r.bonuses] == [
        ("B", 125, "first game won"), ("A", 125, "first game won"),
        ("B", 125, "second game won"), ("B", 250, "rubber (two games won)")]
    assert r.totals == {"A": 30 + 125, "B": 60 + 500, "C": 0}


def test_rule_11_a_rubber_may_have_four_games():
    r = three_hand_rubber([GAME["A"], GAME["B"], GAME["C"], GAME["A"]])
    assert [g.winner for g in r.games] == ["A", "B", "C", "A"]
    assert r.winner == "A"
    with pytest.raises(RubberError) as caught:
        three_hand_rubber([GAME["A"], GAME["A"], GAME["B"]])
    assert (caught.value.index, caught.value.field) == (2, "")


def test_a_game_wipes_every_players_part_score():
    # A has 16 toward game, C 12; B wins a game: both are wiped.
    r = three_hand_rubber([th("A", "1H", 8), th("C", "1C", 8), GAME["B"], th("A", "1H", 8)])
    assert r.games[0].points == {"A": 16, "B": 30, "C": 12}
    assert r.part_scores == {"A": 16, "B": 0, "C": 0}


def test_rule_15_settlement_each_pair_settles_the_difference():
    # A wins a game (30 + 125); B takes 100 from C's failed 4H (A takes it too).
    r = three_hand_rubber([GAME["A"], th("C", "4H", 8)])
    assert r.totals == {"A": 155 + 100, "B": 100, "C": 0}
    assert r.settlement == {"A-B": 155, "A-C": 255, "B-C": 100}
    # "A player may win from both the others, lose to one and win from the other, or lose
    # to both": A wins from both, B loses to A and wins from C, C loses to both.
    assert r.net == {"A": 410, "B": -55, "C": -355}
    assert sum(r.net.values()) == 0


def test_english_rules_a_deal_may_be_passed_out():
    r = three_hand_rubber([th(None, None, penalties=[{"rule": "9", "by": "A"}]),
                           th("B", "2S", 8)], "english")
    assert r.totals == {"A": 0, "B": 50 + 18, "C": 50}  # spades at 9 (English rule)
    with pytest.raises(RubberError) as caught:
        three_hand_rubber([th(None, None)])  # Law 42: the American dealer must bid
    assert caught.value.field == "contract"


@pytest.mark.parametrize(("data", "field"), [
    (th("D", "1H", 7), "declarer"),
    (th("A", "1H", 7, dealer="N"), "dealer"),
    ({**th("A", "1H", 7), "contract": {"level": 1, "denomination": "H", "declarer": "A"}},
     "contract.declarer"),
    (th("A", "8H", 7), "contract.level"),
    (th("A", "1RS", 14), "tricks"),
    (th("A", "1H", 7, honours={"A": 3, "dummy": 3}), "honours"),
    (th("A", "1NT", 7, honours={"N": 1}), "honours.N"),
    (th("A", "1H", 7, penalties=[{"rule": "90", "by": "B"}]), "penalties.0.rule"),
    (th("A", "1H", 7, penalties=[{"law": "5", "by": "B"}]), "penalties.0.law"),
    (th("A", "1H", 7, penalties=[{"rule": "5", "by": "N"}]), "penalties.0.by"),
    (th("A", "1H", 7, revokes={"declaring": 0, "defending": 1}), "revokes.first_penalty"),
    (th("A", None), "contract"),
    ({"dealer": "A", "declarer": "A", "contract": {"level": 1, "denomination": "H"}},
     "tricks"),
])
def test_a_bad_deal_names_its_field(data, field):
    with pytest.raises(RubberError) as caught:
        three_hand_rubber([GAME["A"], data])
    assert (caught.value.index, caught.value.field) == (1, field)


def test_pinned_a_passed_out_deal_has_no_declarer_honours_or_revokes():
    for data, field in ((th("A", None), "declarer"),
                        (th(None, None, honours={"A": 1}), "honours"),
                        (th(None, None, revokes={"declaring": 1}), "revokes")):
        with pytest.raises(RubberError) as caught:
            three_hand_rubber([data], "english")
        assert caught.value.field == field


def test_pinned_game_bonuses_count_in_an_unfinished_rubber():
    r = three_hand_rubber([GAME["C"]])
    assert (r.complete, r.totals) == (False, {"A": 0, "B": 0, "C": 30 + 125})
    assert r.settlement == {"A-B": 0, "A-C": -155, "B-C": -155}
