"""Four-hand Auction rubber (rules.md §10.1): hand-checked cases naming their law."""

import pytest

from scoring.engine import (
    RubberError,
    auction_rubber,
    get_rules,
    parse_auction_deal,
    score,
    score_auction_deal,
)

from .util import result


def deal(dealer: str, contract: str | None, tricks: int | None = None,
         honours: dict | None = None, **kw) -> dict:
    """A rubber deal: a §1 deal result whose board is replaced by the dealer."""
    data = result(contract, tricks, honours, **kw)
    del data["board"]
    return {"dealer": dealer, **data}


GAME_NS = deal("N", "3NT N", 9, {"N": 2, "S": 1})  # 30 for tricks, 30 for 3 aces
GAME_EW = deal("E", "4H E", 10)  # 32 for tricks


def test_section_10_1_the_deal_is_scored_as_section_3_without_the_premium():
    # rules.md §9 example 2: 1NT by N, 9 tricks, N 2 aces + S 1. Duplicate: trick 30,
    # honour 30 + 125 premium (185). In a rubber the premium is not scored (Duplicate Law A
    # gives it because duplicate has no games).
    ex2 = deal("N", "1NT N", 9, {"N": 2, "S": 1})
    duplicate = score({**result("1NT N", 9, {"N": 2, "S": 1})}, get_rules())
    assert duplicate.ns.total == 185
    rubber = auction_rubber([ex2])
    (ds,) = rubber.deals
    assert (ds.ns.trick_score, ds.ns.honour_score, ds.ns.total) == (30, 30, 60)
    assert all(i.law != "Duplicate A" for i in ds.items)
    assert rubber.totals == {"NS": 60, "EW": 0}


def test_a_two_game_rubber_wins_250():
    r = auction_rubber([GAME_NS, GAME_EW, GAME_NS])
    assert [(g.winner, g.deals) for g in r.games] == [("NS", (0,)), ("EW", (1,)), ("NS", (2,))]
    assert (r.winner, r.complete) == ("NS", True)
    assert r.rubber_bonus == {"NS": 250, "EW": 0}
    assert r.totals == {"NS": 60 + 60 + 250, "EW": 32}
    assert r.net == {"NS": 338, "EW": -338}
    assert [(b.to, b.points, b.deal) for b in r.bonuses] == [("NS", 250, 2)]


def test_two_straight_games_end_the_rubber():
    r = auction_rubber([GAME_NS, GAME_NS])
    assert (r.winner, len(r.games), r.totals["NS"]) == ("NS", 2, 370)


def test_game_is_30_for_tricks_since_the_last_game_part_scores_add_up():
    # 1H made with 8 tricks: 16; 1C with 8: 12 (28); 1S with 7: 2 (30) -> game.
    deals = [deal("N", "1H N", 8), deal("E", "1C S", 8), deal("S", "1S S", 7)]
    r = auction_rubber(deals)
    assert [(g.winner, g.deals, dict(g.points)) for g in r.games] == [
        ("NS", (0, 1, 2), {"NS": 30, "EW": 0})]
    assert r.part_scores == {"NS": 0, "EW": 0}
    short = auction_rubber(deals[:2])
    assert short.games == () and short.part_scores == {"NS": 28, "EW": 0}


def test_a_game_wipes_both_part_scores():
    # N-S have 24 toward game; E-W win a game; N-S's 24 no longer counts.
    deals = [deal("N", "1C N", 10), GAME_EW, deal("S", "1C N", 8)]
    r = auction_rubber(deals)
    assert [g.winner for g in r.games] == ["EW"]
    assert r.part_scores == {"NS": 12, "EW": 0}


def test_the_deal_that_wins_the_game_counts_whole_nothing_carries_over():
    # 7NT made: 70 for tricks; the next game starts at 0-0.
    r = auction_rubber([deal("N", "7NT N", 13), deal("E", "1H N", 8)])
    assert r.games[0].points == {"NS": 70, "EW": 0}
    assert r.part_scores == {"NS": 16, "EW": 0}


def test_law_53_doubled_trick_values_count_toward_game():
    # 1H doubled, 8 tricks: 2 odd x 8 x 2 = 32 for tricks -> game; the Law 56 bonus (100)
    # is honour score and does not count toward game.
    r = auction_rubber([deal("N", "1HX N", 8)])
    assert [g.winner for g in r.games] == ["NS"]
    ds = r.deals[0]
    assert (ds.ns.trick_score, ds.ns.honour_score) == (32, 100)


def test_law_84b_transferred_tricks_count_toward_game():
    # rules.md §9 example 5: 3H X by N, 7 tricks, defenders revoked, declarer takes 3
    # tricks: trick 64. In a rubber: no premium, and the 64 wins the game.
    r = auction_rubber([deal("N", "3HX N", 7, revokes={"declaring": 0, "defending": 1,
                                                        "first_penalty": "tricks"})])
    ds = r.deals[0]
    assert (ds.ns.trick_score, ds.ns.honour_score, ds.ew.total) == (64, 0, 0)
    assert [g.winner for g in r.games] == ["NS"]


def test_honours_and_penalties_never_count_toward_game():
    # E-W score 350 in the honour column (seven undertricks) and still have no game.
    r = auction_rubber([deal("N", "7NT N", 6), deal("E", "7NT N", 6)])
    assert r.games == ()
    assert r.totals == {"NS": 0, "EW": 350 + 350}
    assert r.part_scores == {"NS": 0, "EW": 0}


def test_rubber_may_be_won_and_lost_on_points():
    # N-S win two games and the rubber, E-W win far more in penalties: net is negative.
    doubled_down = deal("W", "7NTX N", 0)  # 13 undertricks doubled: 1300 to E-W
    r = auction_rubber([doubled_down, GAME_NS, GAME_NS])
    assert r.winner == "NS"
    assert r.totals == {"NS": 60 + 60 + 250, "EW": 1300 + 40}  # + E-W's grand slam
    assert r.net["NS"] == 370 - 1340 < 0


def test_law_48_looks_at_the_actual_dealer():
    # 1S by N, 4 tricks: 3 undertricks. N dealt: capped at 100 (Law 48); E dealt: 150.
    capped = auction_rubber([deal("N", "1S N", 4)]).deals[0]
    assert capped.ew.honour_score == 100 and capped.items[-1].law == "48"
    uncapped = auction_rubber([deal("E", "1S N", 4)]).deals[0]
    assert uncapped.ew.honour_score == 150


def test_an_unfinished_rubber_has_no_winner_and_no_bonus():
    r = auction_rubber([GAME_NS, GAME_EW, deal("S", "1H N", 8)])
    assert (r.winner, r.complete) == (None, False)
    assert r.rubber_bonus == {"NS": 0, "EW": 0}
    assert r.net == {"NS": 60 + 16 - 32, "EW": -(60 + 16 - 32)}
    assert auction_rubber([]).to_dict()["totals"] == {"NS": 0, "EW": 0}


def test_a_deal_after_the_rubber_is_won_is_an_error_naming_it():
    with pytest.raises(RubberError) as caught:
        auction_rubber([GAME_NS, GAME_NS, GAME_EW])
    assert (caught.value.index, caught.value.field) == (2, "")
    assert "after the end of the rubber" in caught.value.message


def test_english_rules_passed_out_deal_slams_and_spades():
    english = get_rules("english")
    r = auction_rubber([deal("N", None), deal("E", "6S N", 12)], english)
    # Passed out: nothing. 6 spades at 9: 54 for tricks, little slam 50 (English rule).
    assert r.deals[0].ns.total == r.deals[0].ew.total == 0
    assert (r.deals[1].ns.trick_score, r.deals[1].ns.honour_score) == (54, 50)
    assert [(g.winner, g.deals) for g in r.games] == [("NS", (0, 1))]
    with pytest.raises(RubberError) as caught:
        auction_rubber([deal("N", None)])  # Law 42: the American dealer must bid
    assert (caught.value.index, caught.value.field) == (0, "contract")


@pytest.mark.parametrize(("data", "field"), [
    ({"board": 1, "contract": None}, "board"),
    ({"contract": {"level": 1, "denomination": "H", "declarer": "N"}, "tricks": 7}, "dealer"),
    ({"dealer": "X", "contract": {"level": 1, "denomination": "H", "declarer": "N"},
      "tricks": 7}, "dealer"),
    ({"dealer": "N", "contract": {"level": 8, "denomination": "H", "declarer": "N"},
      "tricks": 7}, "contract.level"),
    ({"dealer": "N", "contract": {"level": 1, "denomination": "H", "declarer": "N"},
      "tricks": 7, "honors": {}}, "honors"),
    ("deal", ""),
])
def test_a_bad_deal_names_its_field(data, field):
    with pytest.raises(RubberError) as caught:
        auction_rubber([GAME_NS, data])
    assert (caught.value.index, caught.value.field) == (1, field)


def test_parse_and_score_one_deal():
    dealer, res = parse_auction_deal(deal("W", "1S N", 4), get_rules())
    assert dealer == "W" and res.board == 4
    assert score_auction_deal(res, get_rules()).ew.honour_score == 150
    with pytest.raises(RubberError):
        auction_rubber({"dealer": "N"})  # not a list


def test_pinned_a_deal_after_the_end_is_refused_as_such_whatever_it_holds():
    # engine.md decision 30: the deal does not belong to the rubber, so its own fields are
    # not looked at.
    with pytest.raises(RubberError) as caught:
        auction_rubber([GAME_NS, GAME_NS, {"nonsense": True}])
    assert (caught.value.index, caught.value.field) == (2, "")


def test_pinned_the_dealer_is_not_checked_against_the_order_of_dealing():
    # engine.md decision 28: the same dealer twice running is scored as given.
    assert auction_rubber([GAME_NS, GAME_NS]).complete
