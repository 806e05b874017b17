"""Live entry: every honour is in some hand (Law 3; parse_result(honours_complete=True)).

In a suit the five honours (A K Q J 10 of trumps) are always dealt, at no trump the four
aces: a table that has no hand record must say who held them, and the counts must add up
to exactly 5 (no trump: 4). The scoring command and the night file keep interfaces.md §1's
rule (a seat left out holds none): the option is off by default.
"""

import pytest

from scoring.engine import ResultError, get_rules, parse_result

AMERICAN = get_rules("american-1913")
ENGLISH = get_rules("english")
DEAL = "N:AKQJT.AKQ.AKQ.AK 98765.JT9.JT9.QJ 432.8765.8765.T9 -"


def four_hearts(**extra):
    return {"board": 1, "contract": {"level": 4, "denomination": "H", "declarer": "S"},
            "tricks": 10, **extra}


def bad(data, rules=AMERICAN, **kw) -> ResultError:
    with pytest.raises(ResultError) as exc:
        parse_result(data, rules, honours_complete=True, **kw)
    return exc.value


def test_default_keeps_the_interfaces_rule_honours_may_be_left_out():
    assert parse_result(four_hearts(), AMERICAN).honours == (0, 0, 0, 0)
    zero = {"N": 0, "E": 0, "S": 0, "W": 0}
    assert parse_result(four_hearts(honours=zero), AMERICAN).honours == (0, 0, 0, 0)
    assert parse_result(four_hearts(honours={"N": 2}), AMERICAN).honours == (2, 0, 0, 0)


def test_honours_must_be_given_without_a_hand_record():
    error = bad(four_hearts())
    assert error.field == "honours"
    assert error.message.startswith("Say who held the honours")
    assert "A K Q J 10 of hearts" in error.message


def test_zero_honours_all_round_are_refused():
    error = bad(four_hearts(honours={"N": 0, "E": 0, "S": 0, "W": 0}))
    assert error.field == "honours"
    assert error.message == ("Honours add up to 0, but the five honours of the trump suit "
                             "are always in some hand: say who held the other 5")


def test_a_short_suit_split_is_refused_with_what_is_missing():
    error = bad(four_hearts(honours={"N": 2, "E": 0, "S": 1, "W": 0}))
    assert error.field == "honours"
    assert "add up to 3" in error.message and "the other 2" in error.message


@pytest.mark.parametrize("split", [
    {"N": 5}, {"N": 2, "E": 1, "S": 1, "W": 1}, {"N": 3, "S": 2, "E": 0, "W": 0},
])
def test_five_honours_in_a_suit_are_accepted_a_seat_left_out_holds_none(split):
    parsed = parse_result(four_hearts(honours=split), AMERICAN, honours_complete=True)
    assert sum(parsed.honours) == 5


def test_no_trump_needs_the_four_aces():
    nt = four_hearts(contract={"level": 3, "denomination": "NT", "declarer": "N"}, tricks=9)
    error = bad({**nt, "honours": {"N": 2, "S": 1}})
    assert error.field == "honours"
    assert error.message == ("Aces add up to 3, but at no trump the four aces are always "
                             "in some hand: say who held the last ace")
    assert bad(nt).message.startswith("Say who held the aces")
    parsed = parse_result({**nt, "honours": {"N": 2, "E": 1, "S": 1}}, AMERICAN,
                          honours_complete=True)
    assert parsed.honours == (2, 1, 1, 0)


def test_more_than_there_are_is_still_refused():
    assert bad(four_hearts(honours={"N": 3, "S": 3})).field == "honours"


def test_with_a_hand_record_the_honours_come_from_it():
    parsed = parse_result(four_hearts(), AMERICAN, deal=DEAL, honours_complete=True)
    assert parsed.honours == (3, 2, 0, 0)


def test_a_partial_hand_record_still_needs_every_honour():
    partial = "N:AKQJT.AKQ.AKQ.AK - - -"
    # Spades: N holds all five (from the record). Hearts: N holds A K Q, the rest unknown.
    assert bad(four_hearts(), deal=partial).field == "honours"
    error = bad(four_hearts(honours={"N": 3}), deal=partial)
    assert "add up to 3" in error.message
    parsed = parse_result(four_hearts(honours={"N": 3, "E": 2}), AMERICAN, deal=partial,
                          honours_complete=True)
    assert parsed.honours == (3, 2, 0, 0)


def test_a_passed_out_deal_has_no_honours_to_give():
    passed = {"board": 1, "contract": None}
    assert parse_result(passed, ENGLISH, honours_complete=True).honours == (0, 0, 0, 0)


def test_whist_has_no_honours():
    whist = get_rules("duplicate-whist")
    assert parse_result({"board": 1, "tricks_ns": 7}, whist, honours_complete=True).tricks_ns == 7
