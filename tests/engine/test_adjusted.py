"""Adjusted scores (club practice, not the 1913 laws): average-plus, average, average-minus.

Matchpoints: 60 % / 50 % / 40 % of the board's top. Plus/minus (docs/engine.md): ±1/10 of
the spread of the direction's real board scores, 0 for average. An adjusted result never
enters the average nor the matchpoint field, and counts as played. Numbers checked by hand.
"""

from fractions import Fraction as F

import pytest

from scoring.engine import (
    RULINGS,
    Entry,
    matchpoints_board,
    pair_contest,
    plus_minus_board,
)
from scoring.engine.compare import matchpoints_scaled, plus_minus_scaled


def played(ns, ew, net):
    return Entry(ns, ew, net, -net)


def adjusted(ns, ew, ns_grade, ew_grade):
    return Entry(ns, ew, None, None, "adjusted", None, ns_grade, ew_grade)


# Three real results: N-S +100, +40, -20 (E-W the negatives). Average N-S +40, E-W -40.
# Spread in each direction: 100 - (-20) = 120, so a tenth of it is 12.
BOARD = [played(1, 2, 100), played(3, 4, 40), played(5, 6, -20)]


def test_adjusted_is_a_ruling_the_engine_knows():
    assert "adjusted" in RULINGS


def test_plus_minus_average_plus_is_a_tenth_of_the_spread():
    scores = plus_minus_board([*BOARD, adjusted(7, 8, "plus", "minus")])
    # Real results as without the adjusted table: +60/-60, 0/0, -60/+60.
    assert scores[:3] == [(F(60), F(-60)), (F(0), F(0)), (F(-60), F(60))]
    # N-S average-plus: +120/10 = +12; E-W average-minus: -12.
    assert scores[3] == (F(12), F(-12))


@pytest.mark.parametrize(("ns_grade", "ew_grade", "expected"), [
    ("average", "average", (F(0), F(0))),
    ("minus", "plus", (F(-12), F(12))),
    ("plus", "average", (F(12), F(0))),
])
def test_plus_minus_grades(ns_grade, ew_grade, expected):
    assert plus_minus_board([*BOARD, adjusted(7, 8, ns_grade, ew_grade)])[3] == expected


def test_plus_minus_adjusted_does_not_move_the_average():
    with_it = plus_minus_board([*BOARD, adjusted(7, 8, "plus", "plus")])
    assert with_it[:3] == plus_minus_board(BOARD)


def test_plus_minus_uneven_spread_keeps_the_exact_fraction():
    # N-S +50 and +17: average 33 1/2, spread 33 -> average-plus 33/10.
    board = [played(1, 2, 50), played(3, 4, 17), adjusted(5, 6, "plus", "minus")]
    assert plus_minus_board(board) == [(F(33, 2), F(-33, 2)), (F(-33, 2), F(33, 2)),
                                       (F(33, 10), F(-33, 10))]
    d, values = plus_minus_scaled(board)
    assert d == 20 and values[2] == (66, -66)


def test_plus_minus_adjusted_with_nothing_to_compare_is_zero():
    assert plus_minus_board([adjusted(1, 2, "plus", "minus")]) == [(F(0), F(0))]
    # One real result has no spread: average-plus is worth nothing there either.
    assert plus_minus_board([played(1, 2, 80), adjusted(3, 4, "plus", "minus")])[1] == (0, 0)


def test_matchpoints_sixty_fifty_forty_of_the_top():
    # Three real results: top 4 (2 for each of two others beaten).
    scores = matchpoints_board([*BOARD, adjusted(7, 8, "plus", "minus")])
    assert scores[:3] == [(F(4), F(0)), (F(2), F(2)), (F(0), F(4))]  # the field alone
    assert scores[3] == (F(12, 5), F(8, 5))  # 60 % and 40 % of 4
    assert matchpoints_board([*BOARD, adjusted(7, 8, "average", "average")])[3] == (2, 2)


def test_matchpoints_adjusted_with_neuberg_to_the_expected_count():
    # Four tables had the board (the adjusted one counts): top 6. The three real results
    # are factored by Neuberg: ((M + 1) × 4 / 3) - 1: 4 -> 17/3, 2 -> 3, 0 -> 1/3.
    scores = matchpoints_board([*BOARD, adjusted(7, 8, "plus", "minus")], expected=4)
    assert scores[:3] == [(F(17, 3), F(1, 3)), (F(3), F(3)), (F(1, 3), F(17, 3))]
    assert scores[3] == (F(18, 5), F(12, 5))  # 60 % and 40 % of 6
    d, values = matchpoints_scaled([*BOARD, adjusted(7, 8, "plus", "minus")], expected=4)
    assert d == 15 and values[3] == (54, 36)


def test_pair_contest_counts_an_adjusted_board_as_played():
    boards = {1: [*BOARD, adjusted(7, 8, "plus", "minus")],
              2: [played(1, 2, 30), played(3, 4, 30), played(5, 6, 30), played(7, 8, 30)]}
    totals = pair_contest(boards, "matchpoints")
    # Expected 4 results on both boards (the adjusted table counts): top 6 a board.
    assert totals[7].boards == 2 and totals[8].boards == 2
    assert totals[7].exact == F(18, 5) + 3  # 60 % on board 1, an equal share on board 2
    assert totals[7].percentage == (F(18, 5) + 3) / 12 * 100
    plus_minus = pair_contest(boards)
    assert plus_minus[7].exact == 12 and plus_minus[8].exact == -12
    assert plus_minus[7].boards == 2


@pytest.mark.parametrize("entry", [
    Entry(1, 2, None, None, "adjusted"),
    Entry(1, 2, None, None, "adjusted", None, "plus", "great"),
])
def test_an_adjusted_score_grades_both_sides(entry):
    with pytest.raises(ValueError, match="grades both sides"):
        plus_minus_board([played(3, 4, 10), entry])
