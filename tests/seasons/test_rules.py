"""The season's rules as arithmetic, without a database: points for places (a shared
place shares its places' points), total, average and best N nights, the minimum
attendance, and shared season places ("2=")."""

from fractions import Fraction as F

from tournaments.selectors import place_points, season_rank, season_value

SCALE = [10, 8, 6, 5]


def test_points_for_places_follow_the_clubs_scale():
    assert place_points("1", 1, SCALE) == 10
    assert place_points("4", 1, SCALE) == 5
    assert place_points("5", 1, SCALE) == 0  # beyond the scale


def test_a_shared_place_shares_the_points_of_the_places_it_covers():
    # Two tied 2nd take (8 + 6) / 2 each; three tied 3rd take (6 + 5 + 0) / 3.
    assert place_points("2=", 2, SCALE) == 7
    assert place_points("3=", 3, SCALE) == F(11, 3)
    assert place_points("1=", 2, [3, 0]) == F(3, 2)


def test_total_average_and_best_n():
    nights = [F(5), F(-2), F(13, 2), F(0)]
    assert season_value(nights, "total", None) == (F(19, 2), {0, 1, 2, 3})
    assert season_value(nights, "average", None)[0] == F(19, 8)
    assert season_value(nights, "best", 2) == (F(23, 2), {0, 2})
    # Fewer nights than N: every night counts.
    assert season_value(nights[:1], "best", 3) == (F(5), {0})


def test_best_n_counts_the_earlier_of_two_equal_nights():
    assert season_value([F(4), F(7), F(4)], "best", 2) == (F(11), {0, 1})


def test_best_n_of_m_ranks_on_the_best_nights_only():
    entrants = {"ann": [F(10), F(0), F(0)], "bob": [F(6), F(6), F(6)]}
    names = {"ann": "Ann", "bob": "Bob"}
    # Total: Bob 18, Ann 10. Best one night: Ann 10, Bob 6.
    total = season_rank(entrants, rule="total", best_of=None, min_events=1, names=names)
    assert [(r["key"], r["place"], r["value"]) for r in total] == [
        ("bob", "1", 18), ("ann", "2", 10)]
    best = season_rank(entrants, rule="best", best_of=1, min_events=1, names=names)
    assert [(r["key"], r["place"]) for r in best] == [("ann", "1"), ("bob", "2")]
    assert best[1]["counted"] == {0}


def test_ties_share_a_place_and_are_listed_by_name():
    entrants = {1: [F(13, 2)], 2: [F(8)], 3: [F(13, 2)], 4: [F(1)]}
    names = {1: "Zoe Alder", 2: "Ann Lee", 3: "Bea Moss", 4: "Cy Dow"}
    rows = season_rank(entrants, rule="total", best_of=None, min_events=1, names=names)
    assert [(names[r["key"]], r["place"]) for r in rows] == [
        ("Ann Lee", "1"), ("Bea Moss", "2="), ("Zoe Alder", "2="), ("Cy Dow", "4")]


def test_below_the_minimum_attendance_is_listed_without_a_place():
    entrants = {"a": [F(1), F(1)], "b": [F(50)], "c": [F(3), F(-1)]}
    names = {"a": "A", "b": "B", "c": "C"}
    rows = season_rank(entrants, rule="total", best_of=None, min_events=2, names=names)
    assert [(r["key"], r["place"], r["events"]) for r in rows] == [
        ("a", "1=", 2), ("c", "1=", 2), ("b", None, 1)]
