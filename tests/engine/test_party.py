"""A party night's pure rules: one deal scored alone, the tally, the progression."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import party
from scoring.engine.model import ResultError
from scoring.engine.rubber import RubberError


def _four(t):
    """Table t's seating: players named by table and seat, "1N", "1E", ..."""
    return {s: f"{t}{s}" for s in "NESW"}


def test_a_deal_is_scored_alone_without_the_duplicate_premium_or_a_game_bonus():
    # 2♥ made with an overtrick, N holding 4 honours (rules.md §3: 8 per trick, 4 honours
    # in one hand at a suit = 8 × the trick value): trick score 24, honours 64.
    score = party.score_party_deal("auction", {
        "dealer": "N", "contract": {"level": 2, "denomination": "H", "declarer": "S"},
        "tricks": 9, "honours": {"N": 4}})
    assert party.deal_points("auction", score) == {"NS": 24 + 64, "EW": 0}
    assert all(item.law != "Duplicate A" for item in score.items)


def test_whist_deals_start_from_love_and_stop_at_five():
    score = party.score_party_deal("whist", {"tricks_ns": 13})
    assert party.deal_points("whist", score) == {"NS": 5, "EW": 0}  # Law 47


def test_round_points_sum_the_deals_and_name_a_bad_one():
    deals = [{"tricks_ns": 8}, {"tricks_ns": 5}]
    assert party.round_points("whist", deals) == {"NS": 2, "EW": 2}
    with pytest.raises(RubberError) as caught:
        party.round_points("whist", [{"tricks_ns": 8}, {"tricks_ns": 14}])
    assert caught.value.index == 1


def test_a_bad_deal_is_the_engines_complaint():
    with pytest.raises(ResultError):
        party.score_party_deal("auction", {"dealer": "N", "contract": {
            "level": 8, "denomination": "H", "declarer": "S"}, "tricks": 9})


def test_tallies_add_up_to_nothing():
    assert party.tally("auction", {"NS": 120, "EW": 30}) == {"NS": 90, "EW": -90}
    assert party.tally("three-hand", {"A": 100, "B": 40, "C": 10}) == {
        "A": 150, "B": -30, "C": -120}


def test_the_winners_and_the_pinned_ties():
    assert party.winner("auction", {"NS": 10, "EW": 30}) == "EW"
    assert party.winner("auction", {"NS": 30, "EW": 30}) == "NS"
    assert party.winner("three-hand", {"A": 5, "B": 9, "C": 9}) == "B"
    assert party.bottom({"A": 5, "B": 5, "C": 9}) == "B"


def test_four_hands_winners_move_up_losers_of_the_head_table_go_to_the_foot():
    seating = [_four(1), _four(2), _four(3)]
    # table 1: N-S win; table 2: E-W win; table 3: N-S win
    points = [{"NS": 50, "EW": 0}, {"NS": 0, "EW": 50}, {"NS": 50, "EW": 0}]
    nxt = party.progression("auction", seating, points)
    # head table: its winners (1N, 1S) stay, the winners of table 2 (2E, 2W) arrive
    assert nxt[0] == {"N": "1N", "E": "1S", "S": "2E", "W": "2W"}
    # table 2: its losers (2N, 2S) stay, the winners of table 3 (3N, 3S) arrive
    assert nxt[1] == {"N": "2N", "E": "2S", "S": "3N", "W": "3S"}
    # the foot table: its losers (3E, 3W) stay, the head table's losers arrive
    assert nxt[2] == {"N": "3E", "E": "3W", "S": "1E", "W": "1W"}


def test_partners_change_at_every_table():
    seating = [_four(1), _four(2), _four(3), _four(4)]
    points = [{"NS": 1, "EW": 0}, {"NS": 0, "EW": 1}, {"NS": 1, "EW": 0}, {"NS": 0, "EW": 1}]
    before = {frozenset((t["N"], t["S"])) for t in seating} | {
        frozenset((t["E"], t["W"])) for t in seating}
    nxt = party.progression("auction", seating, points)
    after = {frozenset((t["N"], t["S"])) for t in nxt} | {
        frozenset((t["E"], t["W"])) for t in nxt}
    assert not before & after
    everyone = sorted(p for t in nxt for p in t.values())
    assert everyone == sorted(p for t in seating for p in t.values())


def test_one_table_splits_its_pairs():
    nxt = party.progression("whist", [_four(1)], [{"NS": 0, "EW": 3}])
    assert nxt == [{"N": "1E", "E": "1W", "S": "1N", "W": "1S"}]


def test_three_hand_top_player_moves_up_and_the_heads_bottom_goes_to_the_foot():
    seating = [{s: f"{t}{s}" for s in "ABC"} for t in (1, 2, 3)]
    points = [{"A": 10, "B": 30, "C": 0}, {"A": 0, "B": 0, "C": 40},
              {"A": 70, "B": 10, "C": 0}]
    nxt = party.progression("three-hand", seating, points)
    assert nxt[0] == {"A": "1A", "B": "1B", "C": "2C"}  # 1C (bottom) leaves, 2C arrives
    assert nxt[1] == {"A": "2A", "B": "2B", "C": "3A"}  # 2C left, 3A arrives in its seat
    assert nxt[2] == {"A": "1C", "B": "3B", "C": "3C"}  # 3A left, 1C arrives


def test_the_director_decides_who_moves_up_at_a_level_table():
    seating = [_four(1), _four(2)]
    points = [{"NS": 20, "EW": 20}, {"NS": 0, "EW": 50}]
    assert party.level("auction", points[0]) == ("NS", "EW")
    assert party.level("auction", points[1]) == ()
    nxt = party.progression("auction", seating, points, ["EW", None])
    assert nxt[0] == {"N": "1E", "E": "1W", "S": "2E", "W": "2W"}
    seating3 = [{s: f"{t}{s}" for s in "ABC"} for t in (1, 2)]
    level3 = [{"A": 10, "B": 10, "C": 10}, {"A": 0, "B": 5, "C": 0}]
    nxt = party.progression("three-hand", seating3, level3, ["C", None])
    # C is named top and stays; the bottom is then the later of A and B: B goes down
    assert nxt[0] == {"A": "1A", "B": "2B", "C": "1C"}
    assert nxt[1] == {"A": "2A", "B": "1B", "C": "2C"}


@given(st.integers(1, 8).flatmap(lambda n: st.lists(
    st.fixed_dictionaries({"NS": st.integers(0, 300), "EW": st.integers(0, 300)}),
    min_size=n, max_size=n)))
def test_every_progression_seats_everyone_once_and_no_one_keeps_a_partner(points):
    seating = [_four(t) for t in range(1, len(points) + 1)]
    nxt = party.progression("auction", seating, points)
    assert sorted(p for t in nxt for p in t.values()) == sorted(
        p for t in seating for p in t.values())
    before = {frozenset(pair) for t in seating for pair in ((t["N"], t["S"]),
                                                            (t["E"], t["W"]))}
    after = {frozenset(pair) for t in nxt for pair in ((t["N"], t["S"]), (t["E"], t["W"]))}
    assert not before & after
    # the head table's winners stay at it; every other table's winners move up one
    for t, p in enumerate(points):
        won = party.winner("auction", p)
        mover = seating[t]["N" if won == "NS" else "E"]
        assert mover in nxt[max(t - 1, 0)].values()


@given(st.integers(1, 6).flatmap(lambda n: st.lists(
    st.fixed_dictionaries({k: st.integers(0, 300) for k in "ABC"}), min_size=n,
    max_size=n)))
def test_three_hand_tallies_sum_to_nothing_and_everyone_is_seated(points):
    seating = [{s: f"{t}{s}" for s in "ABC"} for t in range(1, len(points) + 1)]
    nxt = party.progression("three-hand", seating, points)
    assert sorted(p for t in nxt for p in t.values()) == sorted(
        p for t in seating for p in t.values())
    for p in points:
        assert sum(party.tally("three-hand", p).values()) == 0
