"""Deals in PBN notation and the honours they give (Law 3; rules.md §3.4)."""

import pytest

from scoring.engine import (
    DealError,
    ResultError,
    deal_from_north,
    get_rules,
    honours_from_deal,
    parse_deal,
    parse_result,
)

from .util import result

# Board 1 of the sample Mitchell (examples/night-mitchell.json).
DEAL = "N:T82.AQJ84.Q.QT97 AQ.K962.KJ76.J82 J9754.5.5432.K53 K63.T73.AT98.A64"
AMERICAN = get_rules()


def test_parse_deal_seats_and_suits():
    hands = parse_deal(DEAL)
    assert list(hands) == ["N", "E", "S", "W"]
    assert hands["N"] == {"S": "T82", "H": "AQJ84", "D": "Q", "C": "QT97"}
    assert hands["W"]["D"] == "AT98"


def test_parse_deal_first_seat_rotates_clockwise():
    rotated = "E:AQ.K962.KJ76.J82 J9754.5.5432.K53 K63.T73.AT98.A64 T82.AQJ84.Q.QT97"
    assert parse_deal(rotated) == parse_deal(DEAL)


def test_parse_deal_accepts_10_and_lower_case_and_voids():
    deal = "n:akqj1098765432... -.akqj1098765432.. ..akqj1098765432. ...AKQJT98765432"
    hands = parse_deal(deal)
    assert hands["N"]["S"] == "AKQJT98765432"
    assert hands["E"] == {"S": "", "H": "AKQJT98765432", "D": "", "C": ""}


def test_parse_deal_one_unknown_hand_is_the_rest():
    partial = "N:T82.AQJ84.Q.QT97 AQ.K962.KJ76.J82 - K63.T73.AT98.A64"
    assert parse_deal(partial) == parse_deal(DEAL)


def test_parse_deal_two_unknown_hands():
    partial = "N:T82.AQJ84.Q.QT97 - - K63.T73.AT98.A64"
    with pytest.raises(ValueError, match="unknown"):
        parse_deal(partial)
    assert list(parse_deal(partial, allow_unknown=True)) == ["N", "W"]


@pytest.mark.parametrize(("deal", "words"), [
    ("T82.AQJ84.Q.QT97 AQ.K962.KJ76.J82 J9754.5.5432.K53 K63.T73.AT98.A64", "colon"),
    ("X:T82.AQJ84.Q.QT97 AQ.K962.KJ76.J82 J9754.5.5432.K53 K63.T73.AT98.A64", "colon"),
    ("N:T82.AQJ84.Q.QT97 AQ.K962.KJ76.J82 J9754.5.5432.K53", "four hands"),
    ("N:T82.AQJ84.Q.QT97 AQ.K962.KJ76J82 J9754.5.5432.K53 K63.T73.AT98.A64", "four suits"),
    ("N:T82.AQJ84.Q.QT9X AQ.K962.KJ76.J82 J9754.5.5432.K53 K63.T73.AT98.A64", "not a card"),
    ("N:T82.AQJ84.Q.QT9 AQ.K962.KJ76.J82 J9754.5.5432.K53 K63.T73.AT98.A64", "12 cards"),
    ("N:T82.AQJ84.Q.QT97 AQ.K962.KJ76.J82 J9754.5.5432.K53 K63.T73.AT98.A97", "twice"),
    ("N:T82.AQJ84.Q.QQT9 AQ.K962.KJ76.J82 J9754.5.5432.K53 K63.T73.AT98.A64", "twice"),
    (42, "text"),
])
def test_parse_deal_checks_52_cards_13_a_hand(deal, words):
    with pytest.raises(ValueError, match=words):
        parse_deal(deal)


@pytest.mark.parametrize(("denomination", "counts"), [
    ("S", {"N": 1, "E": 2, "S": 1, "W": 1}),   # T / AQ / J / K
    ("RS", {"N": 1, "E": 2, "S": 1, "W": 1}),  # royal spades: the same cards
    ("H", {"N": 3, "E": 1, "S": 0, "W": 1}),   # AQJ / K / - / T
    ("D", {"N": 1, "E": 2, "S": 0, "W": 2}),
    ("C", {"N": 2, "E": 1, "S": 1, "W": 1}),
    ("NT", {"N": 1, "E": 1, "S": 0, "W": 2}),  # aces
])
def test_law_3_honours_from_the_deal(denomination, counts):
    assert honours_from_deal(DEAL, denomination) == counts


def test_honours_need_all_four_hands():
    with pytest.raises(ValueError, match="unknown"):
        honours_from_deal("N:T82.AQJ84.Q.QT97 - - K63.T73.AT98.A64", "H")
    with pytest.raises(ValueError):
        honours_from_deal(DEAL, "X")


def test_parse_result_takes_honours_from_the_deal():
    parsed = parse_result(result("3H N", 9), AMERICAN, deal=DEAL)
    assert parsed.honours == (3, 1, 0, 1)


def test_parse_result_given_honours_must_match_the_deal():
    ok = parse_result(result("3H N", 9, {"N": 3, "E": 1, "W": 1}), AMERICAN, deal=DEAL)
    assert ok.honours == (3, 1, 0, 1)
    with pytest.raises(ResultError) as exc:
        parse_result(result("3H N", 9, {"N": 2, "E": 1, "S": 1, "W": 1}), AMERICAN, deal=DEAL)
    assert exc.value.field == "honours"
    assert exc.value.message.startswith("honours do not match the hand record: ")
    assert "N holds 3 honours, not 2" in exc.value.message


def test_parse_result_with_a_partial_deal():
    partial = "N:T82.AQJ84.Q.QT97 - - K63.T73.AT98.A64"
    with pytest.raises(ResultError) as exc:
        parse_result(result("3H N", 9), AMERICAN, deal=partial)
    assert exc.value.field == "honours"
    # Given honours are checked against the hands that are shown.
    ok = parse_result(result("3H N", 9, {"N": 3, "E": 1, "W": 1}), AMERICAN, deal=partial)
    assert ok.honours == (3, 1, 0, 1)
    with pytest.raises(ResultError):
        parse_result(result("3H N", 9, {"N": 2, "E": 1, "W": 1}), AMERICAN, deal=partial)


def test_parse_result_with_a_bad_deal():
    with pytest.raises(ResultError) as exc:
        parse_result(result("3H N", 9), AMERICAN, deal="N:nonsense")
    assert exc.value.field == "deal"


def test_parse_result_blank_deal_means_no_hand_record():
    assert parse_result(result("3H N", 9), AMERICAN, deal="").honours == (0, 0, 0, 0)


def test_hand_record_file_deals_parse():
    from pathlib import Path

    pbn = Path(__file__).resolve().parents[2].parent / "shared" / "examples" / "hands.pbn"
    if not pbn.exists():  # the shared folder is beside the repository; a copy is kept here
        pbn = Path(__file__).resolve().parents[1] / "web" / "data" / "hands.pbn"
    deals = [line.split('"')[1] for line in pbn.read_text().splitlines()
             if line.startswith("[Deal ")]
    assert len(deals) == 8
    for deal in deals:
        hands = parse_deal(deal)
        assert sum(len(cards) for hand in hands.values() for cards in hand.values()) == 52
        assert sum(honours_from_deal(deal, "NT").values()) == 4
        assert sum(honours_from_deal(deal, "H").values()) == 5


def test_a_bad_deal_says_what_is_wrong_for_callers_that_word_it_their_own_way():
    hands = DEAL[2:].split()
    with pytest.raises(DealError) as caught:
        parse_deal("N:" + " ".join(hands[:3]))
    assert caught.value.problem == ("hands", 3)
    with pytest.raises(DealError) as caught:  # West's king of spades made the ace: E has it
        parse_deal("W:A63.T73.AT98.A64 " + " ".join(hands[:3]))
    assert caught.value.problem == ("twice", "S", "A", "E", "W")
    assert "the ace of spades is dealt twice" in str(caught.value)
    assert issubclass(DealError, ValueError)


def test_deal_from_north_and_hands_kept_as_given():
    hands = DEAL[2:].split()
    rotated = "E:" + " ".join(hands[1:] + hands[:1])
    assert deal_from_north(parse_deal(rotated)) == DEAL
    partial = "N:" + " ".join([hands[0], "-", hands[2], hands[3]])
    assert deal_from_north(parse_deal(partial)) == DEAL  # one unknown hand is the rest
    assert deal_from_north(parse_deal(partial, as_given=True)) == partial
