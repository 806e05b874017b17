"""Results worth a second look (scoring/engine/plausible.py; docs/engine.md)."""

import pytest

from scoring.engine import get_rules, parse_result, score_result, unusual
from scoring.engine.plausible import CODES, MOST_POINTS

AMERICAN = get_rules("american-1913")
WHIST = get_rules("duplicate-whist")


def check(data, rules=AMERICAN):
    parsed = parse_result({"board": 1, **data}, rules)
    return unusual(parsed, score_result(parsed, rules))


def contract(text="4H S", tricks=10, **extra):
    level, denomination, declarer = int(text[0]), text[1:].split()[0], text.split()[1]
    doubled = ""
    if denomination.endswith("XX"):
        denomination, doubled = denomination[:-2], "XX"
    elif denomination.endswith("X"):
        denomination, doubled = denomination[:-1], "X"
    return {"contract": {"level": level, "denomination": denomination, "declarer": declarer,
                         "doubled": doubled}, "tricks": tricks, **extra}


@pytest.mark.parametrize("data", [
    contract("4H S", 10, honours={"S": 3, "N": 2}),
    contract("1S N", 4),                             # Law 48: down 3, capped
    contract("3NT E", 5, revokes={"declaring": 2, "defending": 0}),
    contract("7NT S", 13, honours={"S": 4}),         # 335: the biggest undoubled make
    contract("4HX S", 6, honours={"N": 5}),          # doubled down 4: 400
    contract("2D W", 8, penalties=[{"law": "90", "by": "N"}, {"law": "90", "by": "S"}]),
])
def test_ordinary_results_pass_without_a_word(data):
    assert check(data) == ()


def test_nine_revokes_and_over_a_thousand_points():
    found = check(contract("4HX S", 10, revokes={"declaring": 0, "defending": 9,
                                                 "first_penalty": "points"}))
    assert [(u.code, u.field) for u in found] == [("revokes", "revokes.defending"),
                                                  ("points", "")]
    assert found[0].message == ("The defenders revoked 9 times on this board: more than 2 "
                                "on one deal is very rare. Is 9 right?")
    assert found[1].message.startswith("North–South score 1,139 on this board")


def test_three_revokes_by_one_side_is_unusual():
    found = check(contract("3NT N", 9, revokes={"declaring": 3, "defending": 0}))
    assert [u.field for u in found] == ["revokes.declaring"]


def test_a_big_score_alone():
    found = check(contract("4HXX S", 7, honours={"N": 5}))  # redoubled down 3: 600
    assert [u.code for u in found] == ["points"]
    assert f"more than {MOST_POINTS}" in found[0].message
    assert found[0].message.startswith("East–West score 600 on this board")


def test_the_defenders_tricks_typed_for_the_declarers():
    found = check(contract("4H S", 3, honours={"S": 3, "N": 2}))
    assert [u.code for u in found] == ["undertricks"]
    assert found[0].field == "tricks"
    assert found[0].message == ("The declaring side won 3 tricks in 4♥: 7 short of the "
                                "contract. Did you enter the defenders' tricks?")
    assert check(contract("4H S", 6, honours={"S": 5})) == ()  # down 4: it happens


def test_three_penalties():
    penalties = [{"law": "90", "by": s} for s in "NES"]
    found = check(contract("2D W", 8, penalties=penalties))
    assert [u.code for u in found] == ["penalties"]


def test_whist_only_the_revokes():
    assert check({"tricks_ns": 13}, WHIST) == ()
    assert check({"tricks_ns": 7, "revokes": {"NS": 2, "EW": 1}}, WHIST) == ()
    found = check({"tricks_ns": 7, "revokes": {"NS": 0, "EW": 9}}, WHIST)
    assert [(u.code, u.field) for u in found] == [("revokes", "revokes.EW")]
    assert found[0].message.startswith("East–West revoked 9 times")


def test_a_passed_out_deal_is_never_unusual():
    english = get_rules("english")
    parsed = parse_result({"board": 1, "contract": None}, english)
    assert unusual(parsed, score_result(parsed, english)) == ()


def test_three_tricks_for_a_revoke_when_there_are_none_to_take():
    """A review saved 7♥ by S, 13 tricks, the defenders' revoke, "three tricks": it scored
    as if no revoke had been made (min(3, 13 − 13) = 0 tricks, rules.md §3.1), with no
    word that 100 points were the declarer's for the asking."""
    found = check(contract("7H S", 13, revokes={"declaring": 0, "defending": 1,
                                                "first_penalty": "tricks"}))
    assert [(u.code, u.field) for u in found] == [("revoke-choice", "revokes.first_penalty")]
    assert found[0].code in CODES  # as the API's schema lists them
    assert found[0].message == (
        "The declarer took three tricks for the defenders' revoke, but the declaring side "
        "won all 13: there are none to take, so the revoke gives nothing. The declarer may "
        'take 100 points instead (Law 84(b)). Is "three tricks" right?')
    # 100 points chosen, or tricks left to take (12 won: one is taken), or the declaring
    # side's own revoke as well (Law 89: no choice): nothing to ask.
    for revokes, tricks in (({"defending": 1, "first_penalty": "points"}, 13),
                            ({"defending": 1, "first_penalty": "tricks"}, 12),
                            ({"declaring": 1, "defending": 1, "first_penalty": "tricks"}, 13)):
        assert check(contract("7H S", tricks, revokes=revokes)) == ()
