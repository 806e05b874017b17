"""Checking deal results: every field, with messages a player understands."""

import pytest

from scoring.engine import (
    AuctionResult,
    Contract,
    Penalty,
    ResultError,
    Revokes,
    get_rules,
    parse_result,
)

from .util import result

AMERICAN = get_rules("american-1913")
ENGLISH = get_rules("english")
GOOD = result("3HX S", 8, {"N": 2, "E": 0, "S": 2, "W": 1}, board=7,
              revokes={"declaring": 0, "defending": 1, "first_penalty": "tricks"},
              penalties=[{"law": "90", "by": "E"}])


def bad(data, rules=AMERICAN, **kw) -> ResultError:
    with pytest.raises(ResultError) as exc:
        parse_result(data, rules, **kw)
    return exc.value


def with_(**changes):
    data = {k: (dict(v) if isinstance(v, dict) else v) for k, v in GOOD.items()}
    for path, value in changes.items():
        target = data
        *head, last = path.split("__")
        for key in head:
            target = target[key]
        if value is DELETE:
            del target[last]
        else:
            target[last] = value
    return data


DELETE = object()


def test_the_interfaces_example_parses():
    parsed = parse_result(GOOD, AMERICAN)
    assert parsed == AuctionResult(
        board=7, contract=Contract(3, "H", "S", "X"), tricks=8, honours=(2, 0, 2, 1),
        revokes=Revokes(0, 1, "tricks"), penalties=(Penalty("90", "E"),))


def test_optional_fields_default():
    parsed = parse_result({"board": 2, "contract": {"level": 1, "denomination": "NT",
                                                    "declarer": "E"}, "tricks": 7}, AMERICAN)
    assert parsed.contract.doubled == ""
    assert parsed.honours == (0, 0, 0, 0)
    assert parsed.revokes == Revokes()
    assert parsed.penalties == ()


def test_null_means_omitted_for_optional_fields():
    parsed = parse_result(with_(honours=None, revokes=None, penalties=None,
                                contract__doubled=None), AMERICAN)
    assert parsed.honours == (0, 0, 0, 0)
    assert parsed.contract.doubled == ""


@pytest.mark.parametrize(("changes", "field", "message"), [
    ({"tricks": 14}, "tricks", "tricks must be between 0 and 13"),
    ({"tricks": -1}, "tricks", "tricks must be between 0 and 13"),
    ({"tricks": 10**40}, "tricks", "tricks must be between 0 and 13"),
    ({"tricks": True}, "tricks", "tricks must be a whole number between 0 and 13, not true"),
    ({"tricks": 8.0}, "tricks",
     "tricks must be a whole number between 0 and 13, not a decimal number"),
    ({"tricks": "8"}, "tricks", "tricks must be a whole number between 0 and 13, not '8'"),
    ({"tricks": DELETE}, "tricks", None),
    ({"board": 0}, "board", "the board number must be from 1 up"),
    ({"board": False}, "board", None),
    ({"board": DELETE}, "board", "the board number is missing"),
    ({"contract": DELETE}, "contract", None),
    ({"contract": "3H"}, "contract", None),
    ({"contract__level": 8}, "contract.level", "the contract level must be between 1 and 7"),
    ({"contract__level": 0}, "contract.level", None),
    ({"contract__level": True}, "contract.level", None),
    ({"contract__level": DELETE}, "contract.level", "the contract level is missing"),
    ({"contract__denomination": "h"}, "contract.denomination", None),
    ({"contract__denomination": ["H"]}, "contract.denomination", None),
    ({"contract__denomination": DELETE}, "contract.denomination", None),
    ({"contract__declarer": "X"}, "contract.declarer", None),
    ({"contract__declarer": 1}, "contract.declarer", None),
    ({"contract__doubled": "XXX"}, "contract.doubled", None),
    ({"contract__doubled": True}, "contract.doubled", None),
    ({"contract__trumps": "H"}, "contract.trumps", None),
    ({"honours": {"N": 3, "S": 3}}, "honours", "honours add up to 6; a suit has 5"),
    ({"honours": {"N": 6}}, "honours.N", "honours held by N must be between 0 and 5"),
    ({"honours": {"W": -1}}, "honours.W", None),
    ({"honours": {"W": True}}, "honours.W", None),
    ({"honours": {"X": 1}}, "honours.X", None),
    ({"honours": [2, 0, 2, 1]}, "honours", None),
    ({"revokes": {"declaring": 14}}, "revokes.declaring", None),
    ({"revokes": {"defending": -1}}, "revokes.defending", None),
    ({"revokes": {"defending": 1}}, "revokes.first_penalty", None),
    ({"revokes": {"defending": 1, "first_penalty": "both"}}, "revokes.first_penalty", None),
    ({"revokes": {"declarer": 1}}, "revokes.declarer", None),
    ({"revokes": 1}, "revokes", None),
    ({"penalties": {"law": "90", "by": "E"}}, "penalties", None),
    ({"penalties": [{"law": "91", "by": "E"}]}, "penalties.0.law", None),
    ({"penalties": [{"law": "90", "by": "E"}, {"law": "90"}]}, "penalties.1.by", None),
    ({"penalties": [{"law": "90", "by": "NS"}]}, "penalties.0.by", None),
    ({"penalties": [{"law": "90", "by": "E", "points": 25}]}, "penalties.0.points", None),
    ({"penalties": ["90"]}, "penalties.0", None),
    ({"comment": "x"}, "comment", None),
])
def test_each_field_is_checked(changes, field, message):
    error = bad(with_(**changes))
    assert error.field == field
    assert str(error) == error.message
    if message is not None:
        assert error.message == message


def test_no_trump_honours_are_aces():
    data = result("3NT S", 9, {"N": 3, "S": 2})
    error = bad(data)
    assert error.field == "honours"
    assert error.message.startswith("honours add up to 5")
    error = bad(result("3NT S", 9, {"N": 5}))
    assert error.field == "honours.N"


def test_unknown_key_says_what_was_meant():
    error = bad(with_(honors={"N": 1}))
    assert error.field == "honors"
    assert "did you mean 'honours'" in error.message


def test_first_bad_field_is_reported_in_order():
    error = bad(with_(tricks=99, honours={"N": 9}))
    assert error.field == "tricks"


def test_not_an_object():
    for value in (None, 3, "x", [], True):
        error = bad(value)
        assert error.field == ""


def test_board_keyword_supplies_the_board():
    data = with_(board=DELETE)
    assert parse_result(data, AMERICAN, board=5).board == 5
    assert parse_result(GOOD, AMERICAN, board=9).board == 9  # overrides
    assert bad(data, board=0).field == "board"


def test_first_penalty_not_needed_is_accepted():
    parsed = parse_result(with_(revokes={"declaring": 1, "defending": 1}), AMERICAN)
    assert parsed.revokes == Revokes(1, 1, None)
    parsed = parse_result(with_(revokes={"declaring": 0, "defending": 0,
                                         "first_penalty": "points"}), AMERICAN)
    assert parsed.revokes.first_penalty == "points"


def test_english_passed_out_details():
    base = {"board": 1, "contract": None}
    assert parse_result(base, ENGLISH).contract is None
    assert parse_result(base | {"tricks": None, "honours": {"N": 0}}, ENGLISH).tricks == 0
    assert bad(base | {"honours": {"N": 3}}, ENGLISH).field == "honours"
    assert bad(base | {"revokes": {"declaring": 1}}, ENGLISH).field == "revokes"
    assert bad(base | {"penalties": [{"law": "90", "by": "N"}]}, ENGLISH).field == "penalties"
    assert bad(base | {"tricks": 20}, ENGLISH).field == "tricks"


def test_contract_objects_are_shared():
    a = parse_result(GOOD, AMERICAN).contract
    b = parse_result(with_(), AMERICAN).contract
    assert a is b


def test_dict_subclasses_are_accepted():
    from collections import OrderedDict

    data = OrderedDict(GOOD)
    data["contract"] = OrderedDict(GOOD["contract"])
    data["honours"] = OrderedDict(GOOD["honours"])
    assert parse_result(data, AMERICAN) == parse_result(GOOD, AMERICAN)
