"""Comparisons: the pair contest (Duplicate Law H), artificial results (Duplicate Law B),
matchpoints with Neuberg, team matches (Duplicate Law G). Tables checked by hand."""

from fractions import Fraction as F

import pytest

from scoring.engine import (
    Entry,
    PairTotal,
    TeamDeal,
    TeamMatch,
    fraction_str,
    matchpoint_top,
    matchpoints_board,
    neuberg,
    pair_contest,
    plus_minus_board,
    rank,
    rank_teams,
    ranking_directions,
    shown,
    shown_half_up,
    team_awards,
    team_match,
)


def played(ns, ew, net):
    return Entry(ns, ew, net, -net)


# --- shown numbers, ranks, fractions --------------------------------------------------------


@pytest.mark.parametrize(("value", "expected"), [
    (F(5, 2), 3), (F(-5, 2), -3), (F(7, 3), 2), (F(-7, 3), -2), (F(1, 2), 1), (F(-1, 2), -1),
    (F(0), 0), (F(3005, 4), 751), (F(-971, 4), -243), (F(147, 2), 74), (F(-147, 2), -74),
    (F(-3047, 4), -762), (12, 12),
])
def test_duplicate_law_h_shown_number_half_away_from_zero(value, expected):
    assert shown(value) == expected


@pytest.mark.parametrize(("value", "expected"), [
    (F(5, 2), 3), (F(-5, 2), -2), (F(8512, 3), 2837), (F(11588, 3), 3863), (F(1, 3), 0),
])
def test_duplicate_law_g_team_averages_half_up(value, expected):
    assert shown_half_up(value) == expected


def test_fraction_str():
    assert fraction_str(F(190)) == "190"
    assert fraction_str(F(-121, 3)) == "-121/3"
    assert fraction_str(7) == "7"


def test_duplicate_law_h_rank_shares_places_for_equal_exact_values():
    assert rank({"a": F(5), "b": F(3), "c": F(3), "d": F(1)}) == [
        ("a", "1"), ("b", "2="), ("c", "2="), ("d", "4")]


def test_duplicate_law_g_rank_by_the_fraction_of_a_point():
    # Both show 3; the exact values differ, so the places do too.
    assert rank({1: F(3), 2: F(10, 3)}) == [(2, "1"), (1, "2")]


def test_rank_three_way_tie_and_uncomparable_keys():
    assert [p for _, p in rank({"x": F(0), 1: F(0), None: F(0), "y": F(-1)})] == [
        "1=", "1=", "1=", "4"]


# --- plus/minus (Duplicate Law H) -----------------------------------------------------------

BOARD = [played(1, 11, 100), played(2, 12, 50), played(3, 13, -30), played(4, 14, 0)]


def test_duplicate_law_h_plus_minus_against_the_average():
    # N-S: 100, 50, -30, 0 -> average 30; E-W: average -30.
    assert plus_minus_board(BOARD) == [
        (F(70), F(-70)), (F(20), F(-20)), (F(-60), F(60)), (F(-30), F(30))]


def test_duplicate_law_h_fractional_average():
    board = [played(1, 11, 1), played(2, 12, 2), played(3, 13, 2)]
    assert plus_minus_board(board) == [
        (F(-2, 3), F(2, 3)), (F(1, 3), F(-1, 3)), (F(1, 3), F(-1, 3))]


def test_duplicate_law_h_whist_board_scores_are_tricks():
    # rules.md §8: N-S and E-W trick totals compared with their own direction's average.
    board = [Entry(1, 11, 8, 5), Entry(2, 12, 7, 6), Entry(3, 13, 9, 4)]
    assert plus_minus_board(board) == [(F(0), F(0)), (F(-1), F(1)), (F(1), F(-1))]


ARTIFICIAL = [
    played(1, 11, 100), played(2, 12, 50), played(3, 13, -30),  # N-S avg 40, E-W avg -40
    Entry(4, 14, ruling="average"),
    Entry(5, 15, ruling="fouled", offending="ew"),
    Entry(6, 16, ruling="fouled", offending="ns"),
    Entry(7, 17, ruling="cancelled"),
]


def test_duplicate_law_b3_artificial_results_plus_minus():
    assert plus_minus_board(ARTIFICIAL) == [
        (F(60), F(-60)), (F(10), F(-10)), (F(-70), F(70)),
        (F(0), F(0)),          # average: each pair the average score
        (F(60), F(-60)),       # E-W offended: N-S the highest (100), E-W the lowest (-100)
        (F(-70), F(70)),       # N-S offended: N-S the lowest (-30), E-W the highest (30)
        None,                  # cancelled: not played
    ]


def test_duplicate_law_b3_no_real_result():
    board = [Entry(1, 2, ruling="fouled", offending="ns"), Entry(3, 4, ruling="average")]
    assert plus_minus_board(board) == [(0, 0), (0, 0)]


@pytest.mark.parametrize("entry", [
    Entry(1, 2), Entry(1, 2, 5, None), Entry(1, 2, ruling="split"),
    Entry(1, 2, ruling="fouled"), Entry(1, 2, ruling="fouled", offending="N"),
])
def test_bad_entries(entry):
    with pytest.raises(ValueError):
        plus_minus_board([entry])


def test_duplicate_law_h_pair_contest_totals_boards_and_ranking():
    boards = {
        1: BOARD,
        2: [played(1, 12, 10), played(2, 11, -10), Entry(3, 14, ruling="cancelled"),
            Entry(4, 13, ruling="average")],
    }
    totals = pair_contest(boards)
    assert totals[1] == PairTotal(F(70 + 10), 2)
    assert totals[2] == PairTotal(F(20 - 10), 2)
    assert totals[3] == PairTotal(F(-60), 1)      # the cancelled board is not counted
    assert totals[4] == PairTotal(F(-30), 2)      # the average counts as played
    assert totals[11] == PairTotal(F(-70 + 10), 2)
    assert totals[14] == PairTotal(F(30), 1)
    assert 99 not in totals
    ns = {p: totals[p].exact for p in (1, 2, 3, 4)}
    assert rank(ns) == [(1, "1"), (2, "2"), (4, "3"), (3, "4")]


def test_howell_pair_in_both_directions_is_summed():
    boards = {1: [played("a", "b", 100), played("c", "d", 0)],
              2: [played("b", "a", 40), played("d", "c", 0)]}
    totals = pair_contest(boards)
    # a: +50 as N-S on board 1, -20 as E-W on board 2.
    assert totals["a"] == PairTotal(F(30), 2)
    assert sum(t.exact for t in totals.values()) == 0


def test_duplicate_law_h_rules_4_5_mitchell_two_rankings_howell_one():
    mitchell = {1: [played(1, 5, 10), played(2, 6, 0)], 2: [played(1, 6, 0), played(2, 5, 0)]}
    assert ranking_directions(mitchell) == {"NS": [1, 2], "EW": [5, 6]}
    howell = {1: [played("a", "b", 100), played("c", "d", 0)],
              2: [played("b", "a", 40), played("d", "c", 0)]}
    assert ranking_directions(howell) == {"ALL": ["a", "c", "b", "d"]}


def test_pair_contest_unknown_method():
    with pytest.raises(ValueError):
        pair_contest({1: BOARD}, "butler")


# --- matchpoints ---------------------------------------------------------------------------


def test_matchpoints_two_per_result_beaten_one_per_tie():
    board = [played(1, 11, 100), played(2, 12, 50), played(3, 13, 50), played(4, 14, -30)]
    assert matchpoints_board(board) == [
        (F(6), F(0)), (F(3), F(3)), (F(3), F(3)), (F(0), F(6))]
    assert matchpoint_top(board) == 6


def test_neuberg_ebu_example_seven_results_where_ten_expected():
    # EBU White Book example: top 18; 7 distinct results factored to 10.
    board = [played(i, 10 + i, 100 - 10 * i) for i in range(7)]
    ns = [mp[0] for mp in matchpoints_board(board, expected=10)]
    assert matchpoint_top(board, expected=10) == 18
    assert [round(float(x), 1) for x in ns] == [17.6, 14.7, 11.9, 9.0, 6.1, 3.3, 0.4]
    assert ns[0] == F(123, 7)
    assert neuberg(12, 7, 10) == F(123, 7)
    assert neuberg(5, 10, 10) == 5


def test_neuberg_with_ties():
    board = [played(1, 11, 10), played(2, 12, 10), played(3, 13, 0)]
    # Raw 3, 3, 0 on a top of 4; factored to 4 results (top 6): (4 x 4 / 3) - 1, (4 / 3) - 1.
    assert [mp[0] for mp in matchpoints_board(board, expected=4)] == [F(13, 3), F(13, 3),
                                                                       F(1, 3)]


def test_matchpoints_artificial_results():
    mps = matchpoints_board(ARTIFICIAL)  # 3 real results: top 4
    assert mps == [
        (F(4), F(0)), (F(2), F(2)), (F(0), F(4)),
        (F(2), F(2)),           # average: half the top
        (F(4), F(0)),           # E-W offended: N-S as the highest, E-W as the lowest result
        (F(0), F(4)),           # N-S offended
        None,
    ]


def test_pair_contest_matchpoints_percentages():
    boards = {
        1: [played(1, 11, 100), played(2, 12, 50), played(3, 13, 0)],
        2: [played(1, 12, 10), played(2, 13, 10), Entry(3, 11, ruling="average")],
    }
    totals = pair_contest(boards, "matchpoints")
    # Expected results: 3 a board (the average table counts), top 4.
    # Board 2 has 2 real results: raw 1, 1 -> Neuberg (2 x 3 / 2) - 1 = 2 each.
    assert totals[1] == PairTotal(F(4 + 2), 2, F(8), F(75))
    assert totals[3] == PairTotal(F(0 + 2), 2, F(8), F(25))
    assert totals[11] == PairTotal(F(0 + 2), 2, F(8), F(25))
    assert totals[13] == PairTotal(F(4 + 2), 2, F(8), F(75))


def test_pair_contest_matchpoints_single_result_is_fifty_percent():
    totals = pair_contest({1: [played(1, 2, 100)]}, "matchpoints")
    assert totals[1].percentage == 50


def test_a_board_played_once_where_more_were_expected_is_factored_to_the_average():
    # rules.md §4: ((M + 1) × E / A) − 1 with M = 0, A = 1, E = 3 gives 2, half the top
    # of 4: the lone result has nothing to beat and nothing to lose to.
    assert matchpoints_board([played(1, 11, 100)], expected=3) == [(F(2), F(2))]
    boards = {
        1: [played(1, 11, 100), played(2, 12, 50), played(3, 13, 0)],
        2: [played(1, 12, 10)],
    }
    totals = pair_contest(boards, "matchpoints")
    assert totals[1] == PairTotal(F(4 + 2), 2, F(8), F(75))
    assert totals[12] == PairTotal(F(2 + 2), 2, F(8), F(50))


# --- team matches (Duplicate Law G) ---------------------------------------------------------

TEAM_OF_4 = {1: "A", 2: "A", 3: "B", 4: "B"}
TEAM_OF_6 = {1: "A", 2: "A", 3: "A", 4: "B", 5: "B", 6: "B"}


def test_duplicate_law_g_even_team_match():
    deals = [TeamDeal(1, 4, 200, 50, board=1), TeamDeal(3, 2, 100, 150, board=1)]
    match = team_match(deals, TEAM_OF_4)
    assert match == TeamMatch(("A", "B"), (F(350), F(150)), (350, 150), "A", False)


def test_duplicate_law_g_odd_pair_averages():
    # A: pairs 1, 2 N-S and 3 E-W; B: pair 4 N-S and 5, 6 E-W.
    deals = [TeamDeal(1, 5, 100, 0), TeamDeal(2, 6, 0, 50), TeamDeal(4, 3, 30, 10)]
    match = team_match(deals, TEAM_OF_6)
    # A (more pairs N-S) adds the E-W average (0 + 50 + 10) / 3 = 20: 110 + 20 = 130.
    # B adds the N-S average (100 + 0 + 30) / 3 = 130/3: 80 + 130/3 = 370/3.
    assert match.exact == (F(130), F(370, 3))
    assert match.added == (F(20), F(130, 3))
    assert match.scores == (130, 123)
    assert match.winner == "A"
    assert not match.by_fraction


def test_duplicate_law_g_won_by_the_fraction_of_a_point():
    deals = [TeamDeal(1, 5, 0, 99), TeamDeal(2, 6, 0, 0), TeamDeal(4, 3, 1, 50)]
    match = team_match(deals, TEAM_OF_6)
    # A: 50 + (99 + 0 + 50) / 3 = 299/3; B: 99 + 1 + (0 + 0 + 1) / 3 = 301/3. Both show 100.
    assert match.exact == (F(299, 3), F(301, 3))
    assert match.scores == (100, 100)
    assert match.winner == "B"
    assert match.by_fraction


def test_duplicate_law_g_tied_match():
    deals = [TeamDeal(1, 4, 100, 0), TeamDeal(3, 2, 100, 0)]
    match = team_match(deals, TEAM_OF_4)
    assert match.winner is None
    assert not match.by_fraction


def test_duplicate_law_b3_artificial_results_in_a_team_match():
    deals = [
        TeamDeal(1, 5, 100, 0, board=1), TeamDeal(2, 6, 40, 10, board=1),
        TeamDeal(4, 3, ruling="average", board=1),
        TeamDeal(1, 5, 0, 60, board=2), TeamDeal(2, 6, 0, 90, board=2),
        TeamDeal(4, 3, ruling="fouled", offending="ew", board=2),
    ]
    match = team_match(deals, TEAM_OF_6)
    # Board 1 average at table 3: N-S 70, E-W 5. Board 2 fouled by E-W at table 3: N-S
    # gets the highest N-S total (0), E-W the lowest E-W total (60).
    # A = 100 + 40 + 5 + 0 + 0 + 60 = 205, plus E-W average (0+10+5+60+90+60)/3 = 75.
    # B = 0 + 10 + 70 + 60 + 90 + 0 = 230, plus N-S average (100+40+70)/3 = 70.
    assert match.exact == (F(280), F(300))


def test_each_deals_award_is_what_the_match_adds_up():
    """team_awards gives each deal what it scores for each side, in the deals' order: the
    totals won, an average or fouled board's award, None for a deal left out. A pair's
    score card adds its side's; the match adds them all (with the odd-pair average)."""
    deals = [
        TeamDeal(1, 5, 100, 0, board=1), TeamDeal(2, 6, 40, 10, board=1),
        TeamDeal(4, 3, ruling="average", board=1),
        TeamDeal(1, 5, 0, 60, board=2), TeamDeal(2, 6, 0, 90, board=2),
        TeamDeal(4, 3, ruling="fouled", offending="ew", board=2),
        TeamDeal(1, 5, 30, 0, board=3), TeamDeal(2, 6, ruling="cancelled", board=3),
        TeamDeal(4, 3, 500, 0, board=3),
    ]
    assert team_awards(deals) == [
        (F(100), F(0)), (F(40), F(10)), (F(70), F(5)),
        (F(0), F(60)), (F(0), F(90)), (F(0), F(60)),
        None, None, None,  # board 3 cancelled: left out at every table
    ]
    match = team_match(deals, TEAM_OF_6)
    won = {"A": F(0), "B": F(0)}
    for deal, award in zip(deals, team_awards(deals), strict=True):
        if award is not None:
            won[TEAM_OF_6[deal.ns_pair]] += award[0]
            won[TEAM_OF_6[deal.ew_pair]] += award[1]
    assert (won["A"] + match.added[0], won["B"] + match.added[1]) == match.exact


def test_duplicate_law_b3_cancelled_board_in_a_two_table_match():
    deals = [TeamDeal(1, 4, 200, 0, board=1), TeamDeal(3, 2, ruling="cancelled", board=1),
             TeamDeal(1, 4, 10, 0, board=2), TeamDeal(3, 2, 0, 30, board=2)]
    match = team_match(deals, TEAM_OF_4)
    assert match.exact == (F(40), F(0))


@pytest.mark.parametrize(("deals", "team_of"), [
    ([TeamDeal(1, 2, 0, 0)], TEAM_OF_4),                              # same team
    ([TeamDeal(1, 4, 0, 0), TeamDeal(3, 9, 0, 0)], TEAM_OF_4),        # pair 9 has no team
    ([TeamDeal(1, 4, 0, 0)], TEAM_OF_4),                              # teams of one pair
    ([TeamDeal(1, 4, 0, 0), TeamDeal(3, 2, 0, 0), TeamDeal(3, 5, 0, 0)],
     {1: "A", 2: "A", 3: "B", 4: "B", 5: "C"}),                      # three teams
    ([TeamDeal(1, 4, 0, 0), TeamDeal(2, 3, 0, 0), TeamDeal(4, 1, 0, 0)], TEAM_OF_4),
    ([TeamDeal(1, 4, 0, 0), TeamDeal(3, 2, ruling="average")], TEAM_OF_4),  # no board
])
def test_team_match_checks(deals, team_of):
    with pytest.raises(ValueError):
        team_match(deals, team_of)


def test_rank_teams_by_matches_won_then_points():
    m1 = TeamMatch(("A", "B"), (F(100), F(50)), (100, 50), "A", False)
    m2 = TeamMatch(("B", "C"), (F(301, 3), F(100)), (100, 100), "B", True)
    m3 = TeamMatch(("C", "A"), (F(90), F(10)), (90, 10), "C", False)
    rows = rank_teams([m1, m2, m3])
    # Each won one match; points: A 110, B 451/3, C 190.
    assert [(r.place, r.team, r.matches_won, r.points) for r in rows] == [
        ("1", "C", 1, 190), ("2", "B", 1, 150), ("3", "A", 1, 110)]


def test_rank_teams_tied_match_counts_half():
    m1 = TeamMatch(("A", "B"), (F(100), F(100)), (100, 100), None, False)
    m2 = TeamMatch(("A", "C"), (F(10), F(20)), (10, 20), "C", False)
    rows = rank_teams([m1, m2])
    # A and B each have half a match; A has more points (110 against 100).
    assert [(r.team, r.matches_won) for r in rows] == [("C", 1), ("A", F(1, 2)),
                                                        ("B", F(1, 2))]
    assert [r.place for r in rows] == ["1", "2", "3"]
