"""Duplicate Whist (rules.md §8): Whist Laws 47, 75, 85."""

import pytest

from scoring.engine import ResultError, WhistResult, board_scores, get_rules, score, score_result

WHIST = get_rules("duplicate-whist")


def whist(tricks_ns, ns=0, ew=0, board=1):
    return score({"board": board, "tricks_ns": tricks_ns, "revokes": {"NS": ns, "EW": ew}}, WHIST)


@pytest.mark.parametrize("tricks", [0, 6, 7, 13])
def test_whist_law_47_each_side_scores_its_tricks(tricks):
    ds = whist(tricks)
    assert (ds.ns.trick_score, ds.ew.trick_score) == (tricks, 13 - tricks)
    assert ds.ns.honour_score == ds.ew.honour_score == 0
    assert board_scores(ds, WHIST) == (tricks, 13 - tricks)


def test_whist_law_47_no_revokes_key_needed():
    assert score({"board": 2, "tricks_ns": 8}, WHIST).ns.trick_score == 8


@pytest.mark.parametrize(("tricks", "ns", "ew", "expected"), [
    (8, 0, 1, (11, 2)),   # E-W revoke: 3 tricks from E-W to N-S
    (8, 1, 0, (5, 8)),
    (8, 2, 0, (2, 11)),
    (8, 3, 0, (0, 13)),   # never more than the revoking side won
    (1, 1, 0, (0, 13)),
    (12, 0, 1, (13, 0)),
])
def test_whist_law_75_three_tricks_for_each_revoke(tricks, ns, ew, expected):
    ds = whist(tricks, ns, ew)
    assert (ds.ns.trick_score, ds.ew.trick_score) == expected


@pytest.mark.parametrize(("ns", "ew"), [(1, 1), (2, 2), (2, 1), (1, 2), (1, 3), (9, 1)])
def test_whist_law_85_both_sides_revoked_all_revokes_cancel(ns, ew):
    # Whist Law 85: "the revokes cancel each other" -- all of them, whatever their numbers
    # (rules.md §8, re-pinned): the tricks won in play stand.
    ds = whist(8, ns, ew)
    assert (ds.ns.trick_score, ds.ew.trick_score) == (8, 5)
    laws = [i.law for i in ds.items]
    assert "Whist 75" not in laws and laws.count("Whist 85") == 1
    said = next(i for i in ds.items if i.law == "Whist 85")
    assert said.points == 0 and "cancel each other" in said.what
    assert sum(i.points for i in ds.items if i.side == "ns") == 8
    assert sum(i.points for i in ds.items if i.side == "ew") == 5


def test_whist_items_add_up():
    ds = whist(8, 2, 0)
    assert sum(i.points for i in ds.items if i.side == "ns") == ds.ns.trick_score
    assert sum(i.points for i in ds.items if i.side == "ew") == ds.ew.trick_score
    assert {i.law for i in ds.items} == {"Whist 47", "Whist 75"}
    assert ds.net_ns == ds.ns.total - ds.ew.total


def test_whist_result_dataclass():
    result = WhistResult(4, 9, 0, 1)
    assert score_result(result, WHIST).ns.trick_score == 12


def test_whist_has_no_contract():
    with pytest.raises(ResultError) as exc:
        score({"board": 1, "contract": None, "tricks_ns": 7}, WHIST)
    assert exc.value.field == "contract"
    assert "duplicate whist" in exc.value.message


@pytest.mark.parametrize(("data", "field"), [
    ({"board": 1}, "tricks_ns"),
    ({"board": 1, "tricks_ns": 14}, "tricks_ns"),
    ({"board": 1, "tricks_ns": True}, "tricks_ns"),
    ({"board": 1, "tricks_ns": 7, "revokes": {"NS": -1}}, "revokes.NS"),
    ({"board": 1, "tricks_ns": 7, "revokes": {"EW": 1.5}}, "revokes.EW"),
    ({"board": 1, "tricks_ns": 7, "revokes": {"ns": 1}}, "revokes.ns"),
    ({"board": 1, "tricks_ns": 7, "revokes": []}, "revokes"),
    ({"tricks_ns": 7}, "board"),
])
def test_whist_validation(data, field):
    with pytest.raises(ResultError) as exc:
        score(data, WHIST)
    assert exc.value.field == field


def test_scoring_across_games_is_refused():
    with pytest.raises(ValueError):
        score_result(WhistResult(1, 7), get_rules("english"))
    auction = score({"board": 1, "contract": {"level": 1, "denomination": "C", "declarer": "N"},
                     "tricks": 7}, get_rules())
    assert auction.ns.trick_score == 6


def test_a_revoke_by_a_side_that_won_no_trick_is_said_not_lost():
    # Nothing to take (Law 75 takes only tricks the revoker won), but the revoke entered
    # shows on the score, a 0-point item, as revokes that cancel do.
    ds = whist(0, 2, 0)
    assert (ds.ns.trick_score, ds.ew.trick_score) == (0, 13)
    said = next(i for i in ds.items if i.law == "Whist 75")
    assert said.points == 0 and said.side == "ns" and "2 revokes by N-S" in said.what
    assert sum(i.points for i in ds.items if i.side == "ew") == 13
