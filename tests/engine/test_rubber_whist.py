"""Whist rubber (seed 001, Revised Code 1900, Laws 46-55, 75, 85, 86; rules.md §10.3)."""

import pytest

from scoring.engine import RubberError, parse_whist_deal, score_whist_deal, whist_rubber


def w(tricks_ns: int, honours_ns: int | None = None, ns: int = 0, ew: int = 0,
      penalty: str | None = None) -> dict:
    data: dict = {"tricks_ns": tricks_ns}
    if honours_ns is not None:
        data["honours"] = {"NS": honours_ns}
    if ns or ew:
        data["revokes"] = {"NS": ns, "EW": ew}
    if penalty is not None:
        data["revoke_penalty"] = penalty
    return data


def deal(data: dict, ns: int = 0, ew: int = 0):
    return score_whist_deal(parse_whist_deal(data), {"NS": ns, "EW": ew})


def counted(ds) -> list[tuple[str, int, str]]:
    return [(i.side, i.points, i.law) for i in ds.items]


@pytest.mark.parametrize(("tricks", "points"), [(7, {"NS": 1, "EW": 0}), (6, {"NS": 0, "EW": 1}),
                                                (10, {"NS": 4, "EW": 0}),
                                                (0, {"NS": 0, "EW": 5})])
def test_law_47_each_trick_above_six_is_a_point(tricks, points):
    assert deal(w(tricks)).points == points


@pytest.mark.parametrize(("held", "points"), [(4, {"NS": 4, "EW": 0}), (3, {"NS": 2, "EW": 0}),
                                              (2, {"NS": 0, "EW": 0}), (1, {"NS": 0, "EW": 2}),
                                              (0, {"NS": 0, "EW": 4})])
def test_law_48_four_honours_score_4_any_three_2(held, points):
    ds = deal(w(6, held))  # E-W: 1 for the odd trick
    assert ds.points == {"NS": points["NS"], "EW": 1 + points["EW"]}


def test_pinned_no_honours_given_means_none_scored():
    assert deal(w(7)).points == {"NS": 1, "EW": 0}


def test_law_47_points_above_five_are_lost():
    ds = deal(w(13))
    assert ds.points == {"NS": 5, "EW": 0} and ds.game_won_by == "NS"
    assert ("NS", 0, "Whist 47") in counted(ds)
    # Said as what did not count, as the other 0-point items are (not "0 for ... lost").
    assert [i.what for i in ds.items if i.points == 0] == ["2 points over five: not counted"]


def test_law_50_tricks_before_honours_a_game_won_by_tricks_stops_the_deal():
    # 3-3: N-S win 8 tricks (2: game); E-W's three honours do not count.
    ds = deal(w(8, 1), ns=3, ew=3)
    assert ds.points == {"NS": 2, "EW": 0} and ds.score_after == {"NS": 5, "EW": 3}
    assert counted(ds)[-1] == ("EW", 0, "Whist 50")


def test_law_50_honours_can_win_a_game_the_tricks_did_not():
    # N-S at 3 win 6 tricks (E-W +1 to 4), then N-S's three honours (+2) make game.
    ds = deal(w(6, 3), ns=3, ew=3)
    assert ds.score_after == {"NS": 5, "EW": 4} and ds.game_won_by == "NS"


def test_law_49_a_side_at_four_cannot_score_honours():
    ds = deal(w(6, 4), ns=4, ew=0)
    assert ds.points == {"NS": 0, "EW": 1}
    assert ("NS", 0, "Whist 49") in counted(ds)


@pytest.mark.parametrize(("losers", "value"), [(0, 3), (1, 2), (2, 2), (3, 1), (4, 1)])
def test_law_53_game_value_by_the_losers_score(losers, value):
    # E-W reach `losers` with 6 + losers tricks; N-S then win the game with 11 tricks.
    deals = ([w(7 - losers)] if losers else []) + [w(11)]
    r = whist_rubber(deals)
    assert [(g.winner, g.value, dict(g.points)) for g in r.games] == [
        ("NS", value, {"NS": 5, "EW": losers})]


def test_law_75_v_the_revoke_penalty_takes_precedence():
    # "The claimants two -- their opponents nothing -- the former add three to their score
    # -- and thereby win a treble game, even should the latter have made thirteen tricks,
    # and held four honours."
    r = whist_rubber([w(8), w(0, 0, ew=1, penalty="add")])
    (game,) = r.games
    assert (game.winner, game.value, dict(game.points)) == ("NS", 3, {"NS": 5, "EW": 0})
    last = r.deals[1]
    assert last.points == {"NS": 3, "EW": 0}
    assert [(i.side, i.points, i.law) for i in last.items] == [
        ("NS", 3, "Whist 75"), ("EW", 0, "Whist 50"), ("EW", 0, "Whist 50")]


def test_law_75_take_three_tricks_never_more_than_the_side_won():
    ds = deal(w(5, ew=1, penalty="tricks"))  # N-S 5 + 3 = 8 tricks: 2
    assert ds.points == {"NS": 2, "EW": 0}
    ds = deal(w(12, ew=1, penalty="tricks"))  # E-W won 1: only 1 moves; 13 tricks: 7 -> 5
    assert ds.points == {"NS": 5, "EW": 0}
    assert ds.items[0].what == "1 trick taken for 1 revoke by E-W"


def test_law_75_deduct_three_points_stops_at_zero():
    ds = deal(w(6, ew=1, penalty="deduct"), ns=0, ew=4)
    # E-W 4 - 3 = 1, then 1 for the odd trick (Law 86: a revoking side stops at four).
    assert ds.points == {"NS": 0, "EW": -2} and ds.score_after == {"NS": 0, "EW": 2}
    ds = deal(w(7, ew=2, penalty="deduct"), ns=0, ew=4)  # 6 to deduct, only 4 there
    assert ds.score_after == {"NS": 1, "EW": 0}


def test_pinned_one_choice_for_each_revoke_of_the_deal():
    assert deal(w(7, ew=2, penalty="add")).score_after == {"NS": 5, "EW": 0}  # 6 -> 5
    assert deal(w(4, ew=2, penalty="tricks")).points == {"NS": 4, "EW": 0}  # 4 + 6 = 10


def test_law_86_a_side_that_revoked_cannot_win_the_game_on_that_deal():
    ds = deal(w(1, ew=1, penalty="add"), ns=0, ew=2)  # N-S +3; E-W 12 tricks: 6 -> 2 to 4
    assert ds.score_after == {"NS": 3, "EW": 4} and ds.game_won_by is None
    assert ("EW", 0, "Whist 86") in counted(ds)
    assert [i.what for i in ds.items if i.law == "Whist 86"] == [
        "4 points: not counted, a side that revoked cannot score more than four"]


def test_law_85_both_sides_revoked_the_revokes_cancel_neither_wins():
    ds = deal(w(13, 4, ns=1, ew=3), ns=3, ew=4)
    assert ds.score_after == {"NS": 4, "EW": 4} and ds.game_won_by is None
    assert counted(ds)[0] == ("NS", 0, "Whist 85")


def test_laws_46_54_55_a_two_game_rubber():
    r = whist_rubber([w(11), w(12)])  # two treble games
    assert [g.value for g in r.games] == [3, 3]
    assert (r.winner, r.complete) == ("NS", True)
    assert r.rubber_points == {"NS": 2, "EW": 0}
    assert r.net == {"NS": 3 + 3 + 2, "EW": -8}


def test_law_55_a_three_game_rubber_deducts_the_losers_game():
    # N-S treble; E-W double (N-S at 1); N-S single (E-W at 3).
    deals = [w(11), w(7), w(1), w(4), w(12)]
    r = whist_rubber(deals)
    assert [(g.winner, g.value, g.deals) for g in r.games] == [
        ("NS", 3, (0,)), ("EW", 2, (1, 2)), ("NS", 1, (3, 4))]
    assert r.net == {"NS": 3 + 1 + 2 - 2, "EW": -4}


def test_an_unfinished_rubber():
    r = whist_rubber([w(11), w(9)])
    assert (r.winner, r.complete, r.rubber_points) == (None, False, {"NS": 0, "EW": 0})
    assert r.net == {"NS": 3, "EW": -3} and r.score == {"NS": 3, "EW": 0}


def test_a_deal_after_the_rubber_is_won_is_an_error():
    with pytest.raises(RubberError) as caught:
        whist_rubber([w(11), w(11), w(7)])
    assert (caught.value.index, caught.value.field) == (2, "")


@pytest.mark.parametrize(("data", "field"), [
    ({}, "tricks_ns"),
    ({"tricks_ns": 14}, "tricks_ns"),
    ({"tricks_ns": 7, "honours": {"NS": 5}}, "honours.NS"),
    ({"tricks_ns": 7, "honours": {"EW": 3}}, "honours.EW"),
    ({"tricks_ns": 7, "honours": {}}, "honours.NS"),
    ({"tricks_ns": 7, "revokes": {"NS": 1}}, "revoke_penalty"),
    ({"tricks_ns": 7, "revokes": {"NS": 1}, "revoke_penalty": "double"}, "revoke_penalty"),
    ({"tricks_ns": 7, "revokes": {"N": 1}}, "revokes.N"),
    ({"tricks_ns": 7, "contract": None}, "contract"),
    ([], ""),
])
def test_a_bad_deal_names_its_field(data, field):
    with pytest.raises(RubberError) as caught:
        whist_rubber([w(7), data])
    assert (caught.value.index, caught.value.field) == (1, field)


def test_pinned_revoke_penalty_ignored_when_both_or_neither_revoked():
    assert deal(w(7, penalty="add")).points == {"NS": 1, "EW": 0}
    assert deal(w(7, ns=1, ew=1, penalty="add")).points == {"NS": 1, "EW": 0}


def test_pinned_law_49_looks_at_the_score_when_the_deal_began():
    # N-S at four revoke; E-W deduct three (N-S to 1); N-S's four honours still do not
    # score: they were at four at the start of the deal.
    ds = deal(w(6, 4, ns=1, penalty="deduct"), ns=4, ew=0)
    assert ds.score_after == {"NS": 1, "EW": 1}
    assert ("NS", 0, "Whist 49") in counted(ds)
