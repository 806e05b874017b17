"""A board not played at a table ("not-played"): no comparison and no credit; how
matchpoints score the pair over its session (Neuberg, or its own average); the deal
left out of a team match at both tables (Duplicate Law G). Checked by hand."""

from fractions import Fraction as F

import pytest

from scoring.engine import (
    Entry,
    PairTotal,
    TeamDeal,
    own_average_total,
    pair_contest,
    team_match,
)


def played(ns, ew, net):
    return Entry(ns, ew, net, -net)


# Three tables, pairs 1-3 N-S, 11-13 E-W. Board 2 was not played at table 3.
BOARDS = {
    1: [played(1, 11, 100), played(2, 12, 50), played(3, 13, 0)],
    2: [played(1, 11, 10), played(2, 12, 20), Entry(3, 13, ruling="not-played")],
    3: [played(1, 11, 300), played(2, 12, 400), played(3, 13, 500)],
}


def test_plus_minus_a_board_not_played_has_no_comparison():
    # Duplicate Law H: pair 3 is compared only on the boards it played.
    totals = pair_contest(BOARDS, "plus-minus")
    assert totals[3] == PairTotal(F(-50 + 100), 2)
    # Board 2: N-S average 15 over the two tables that played it.
    assert totals[1] == PairTotal(F(50 - 5 - 100), 3)
    # The setting changes nothing for plus/minus.
    assert pair_contest(BOARDS, "plus-minus", not_played_scoring="own-average") == totals


def test_matchpoints_neuberg_scores_the_pair_over_the_boards_it_played():
    totals = pair_contest(BOARDS, "matchpoints")
    # Expected 3 results a board, top 4. Board 2 has 2: Neuberg ((M+1)×3/2)-1: the
    # better N-S (2) gets (2+1)×3/2-1 = 7/2, the worse (0) 1/2.
    # Pair 3: board 1 worst (0), board 3 best (4): 4 of a top 8 over its 2 boards.
    assert totals[3] == PairTotal(F(4), 2, F(8), F(50))
    assert totals[2] == PairTotal(F(2 + F(7, 2) + 2), 3, F(12), F(15, 2) / 12 * 100)


def test_matchpoints_own_average_credits_the_pair_its_own_average():
    totals = pair_contest(BOARDS, "matchpoints", not_played_scoring="own-average")
    # Pair 3 averaged 2 of 4 on its 2 boards: credited 2 on board 2. Matchpoints 6 of
    # a top 12 over the 3 boards of its session; the percentage is the same, 50 %; the
    # boards played stay 2.
    assert totals[3] == PairTotal(F(6), 2, F(12), F(50))
    assert totals[13] == PairTotal(F(6), 2, F(12), F(50))
    # Pairs who played every board are scored exactly as under Neuberg: the board they
    # played with fewer results is still factored.
    neuberg = pair_contest(BOARDS, "matchpoints")
    assert all(totals[p] == neuberg[p] for p in (1, 2, 11, 12))


def test_own_average_with_an_uneven_average():
    boards = {
        1: [played(1, 11, 100), played(2, 12, 50), played(3, 13, 0)],
        2: [played(1, 11, 10), played(2, 12, 20), Entry(3, 13, ruling="not-played")],
        3: [played(1, 11, 300), Entry(2, 12, ruling="not-played"), played(3, 13, 500)],
        4: [played(1, 11, 0), played(2, 12, 0), played(3, 13, 60)],
    }
    totals = pair_contest(boards, "matchpoints", not_played_scoring="own-average")
    # Pair 3: board 1: 0; board 3 (2 results, factored): best 2 -> (2+1)×3/2-1 = 7/2;
    # board 4: 4. 15/2 over 3 boards, 5/2 a board: credited 5/2 on board 2. 10 of 16.
    assert totals[3] == PairTotal(F(10), 3, F(16), F(15, 2) / 12 * 100)
    assert own_average_total(F(15, 2), 3, 1, 4) == (F(10), 16)


def test_own_average_with_a_top_of_zero_keeps_fifty_percent():
    boards = {1: [played(1, 2, 50)], 2: [Entry(1, 2, ruling="not-played")]}
    totals = pair_contest(boards, "matchpoints", not_played_scoring="own-average")
    assert totals[1] == PairTotal(F(0), 1, F(0), F(50))


def test_a_pair_that_played_no_board_is_absent():
    boards = {1: [played(1, 11, 10), played(2, 12, 0)],
              2: [played(1, 11, 10), Entry(3, 13, ruling="not-played")]}
    for scoring in ("neuberg", "own-average"):
        assert 3 not in pair_contest(boards, "matchpoints", not_played_scoring=scoring)


def test_unknown_not_played_scoring_is_refused():
    with pytest.raises(ValueError, match="neuberg, own-average"):
        pair_contest(BOARDS, "matchpoints", not_played_scoring="average")


# --- team matches (Duplicate Law G) ---------------------------------------------------------

TEAM_OF_4 = {1: "A", 2: "A", 3: "B", 4: "B"}
TEAM_OF_6 = {1: "A", 2: "A", 3: "A", 4: "B", 5: "B", 6: "B"}


def test_duplicate_law_g_a_deal_not_played_at_one_table_is_left_out_at_both():
    deals = [TeamDeal(1, 4, 200, 0, board=1), TeamDeal(3, 2, ruling="not-played", board=1),
             TeamDeal(1, 4, 10, 0, board=2), TeamDeal(3, 2, 0, 30, board=2)]
    match = team_match(deals, TEAM_OF_4)
    # Board 1's 200 at table 1 is not counted: each deal is played once at each table.
    assert match.exact == (F(40), F(0))


def test_a_deal_not_played_leaves_the_whole_match_in_three_tables():
    deals = [
        TeamDeal(1, 5, 100, 0, board=1), TeamDeal(2, 6, 40, 10, board=1),
        TeamDeal(4, 3, ruling="not-played", board=1),
        TeamDeal(1, 5, 0, 60, board=2), TeamDeal(2, 6, 0, 90, board=2),
        TeamDeal(4, 3, 20, 0, board=2),
    ]
    match = team_match(deals, TEAM_OF_6)
    # Only board 2: A = 0 + 0 + 0 + E-W average (60 + 90 + 0) / 3 = 50;
    # B = 60 + 90 + 20 + N-S average (0 + 0 + 20) / 3.
    assert match.exact == (F(50), F(170) + F(20, 3))


def test_a_deal_not_played_in_a_team_match_needs_its_board():
    with pytest.raises(ValueError, match="board number"):
        team_match([TeamDeal(1, 4, 0, 0), TeamDeal(3, 2, ruling="not-played")], TEAM_OF_4)
