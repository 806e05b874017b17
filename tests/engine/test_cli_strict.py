"""The scoring command reads interfaces.md §1 (and §5) as written: what it does not allow
is refused as bad input, where a lenient reading had scored it silently.

- an optional key given as null (left out is allowed; `contract: null` is the passed-out
  deal, English rule);
- tricks on a passed-out deal (left out or 0 only);
- a key given twice in one object, at any depth (a JSON parser keeps the last silently).

The engine's own default (the night file, the API, the pad) still reads null as left out
(engine.md decision 2): the last tests hold that.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import get_rules, parse_result, score_rubber

from .rubber_strategies import auction_deals, three_hand_deals, whist_deals
from .strategies import AUCTION_RULES, auction_results, whist_results
from .test_cli import run
from .test_rubber_cli import run as run_rubber

ROOT = Path(__file__).resolve().parents[2]
PLAYED = {"board": 1, "contract": {"level": 3, "denomination": "H", "declarer": "S"},
          "tricks": 9}
PASSED = {"board": 5, "contract": None}

DOUBLED_NULL = ('doubled must be "" (not doubled), "X" or "XX", not null: leave doubled '
                "out when the contract was not doubled")
HONOURS_NULL = ("honours must be an object of counts by seat (N, E, S, W), not null: leave "
                "honours out when there are none to count")
REVOKES_NULL = ("revokes must be an object (declaring, defending, first_penalty), not null: "
                "leave revokes out when no one revoked")
FIRST_NULL = ('first_penalty must be "points" or "tricks", not null: leave first_penalty '
              "out when the declarer has no choice to make")
PENALTIES_NULL = ("penalties must be a list, not null: leave penalties out when there were "
                  "none")
WHIST_REVOKES_NULL = ("revokes must be an object (NS, EW), not null: leave revokes out when "
                      "no one revoked")
NO_TRICKS = "a passed-out deal has no tricks: leave tricks out"


def refused(code_out_err: tuple[int, str, str]) -> dict:
    """The one error object of a refusal: exit 2, nothing on stdout, one line on stderr."""
    code, out, err = code_out_err
    assert (code, out) == (2, ""), (code, out, err)
    assert err.endswith("\n") and err.count("\n") == 1, err
    return json.loads(err)


def error(message: str, field: str, index: int = 0) -> dict:
    return {"error": message, "index": index, "field": field}


# --------------------------------------------------------------------------- null


@pytest.mark.parametrize(("result", "expected"), [
    (PLAYED | {"contract": PLAYED["contract"] | {"doubled": None}},
     error(DOUBLED_NULL, "contract.doubled")),
    (PLAYED | {"honours": None}, error(HONOURS_NULL, "honours")),
    (PLAYED | {"revokes": None}, error(REVOKES_NULL, "revokes")),
    (PLAYED | {"revokes": {"declaring": 1, "defending": 0, "first_penalty": None}},
     error(FIRST_NULL, "revokes.first_penalty")),
    (PLAYED | {"revokes": {"defending": 1, "first_penalty": None}},
     error(FIRST_NULL, "revokes.first_penalty")),
    (PLAYED | {"penalties": None}, error(PENALTIES_NULL, "penalties")),
], ids=["doubled", "honours", "revokes", "first_penalty", "first_penalty-needed",
        "penalties"])
@pytest.mark.parametrize("rules", AUCTION_RULES)
def test_an_optional_key_given_as_null_is_refused(result, expected, rules):
    assert refused(run(json.dumps(result), "--rules", rules)) == expected
    # Left out, the same result scores.
    field = expected["field"]
    left_out = json.loads(json.dumps(result))
    parent, _, key = field.rpartition(".")
    del (left_out[parent] if parent else left_out)[key]
    if key == "first_penalty" and left_out["revokes"].get("defending"):
        return  # Law 84(b): the declarer's choice is needed here; null does not give it
    assert run(json.dumps(left_out), "--rules", rules)[0] == 0


def test_null_is_refused_in_the_result_it_is_in():
    good = PLAYED
    bad = PLAYED | {"contract": PLAYED["contract"] | {"doubled": None}}
    assert refused(run(json.dumps([good, good, bad, bad]))) == error(
        DOUBLED_NULL, "contract.doubled", 2)


def test_whist_revokes_null_is_refused():
    assert refused(run(json.dumps({"board": 2, "tricks_ns": 7, "revokes": None}),
                       "--rules", "duplicate-whist")) == error(WHIST_REVOKES_NULL, "revokes")
    assert run(json.dumps({"board": 2, "tricks_ns": 7}), "--rules", "duplicate-whist")[0] == 0


def test_null_already_refused_elsewhere_still_is():
    for result, field in ((PLAYED | {"board": None}, "board"),
                          (PLAYED | {"tricks": None}, "tricks"),
                          (PLAYED | {"honours": {"N": None}}, "honours.N"),
                          (PLAYED | {"revokes": {"declaring": None}}, "revokes.declaring"),
                          (PLAYED | {"penalties": [None]}, "penalties.0")):
        assert refused(run(json.dumps(result)))["field"] == field


# --------------------------------------------------------------------------- passed out


@pytest.mark.parametrize("given", [{}, {"tricks": 0}, {"honours": {}},
                                   {"honours": {"N": 0, "E": 0}},
                                   {"revokes": {"declaring": 0, "defending": 0}},
                                   {"penalties": []}])
def test_a_passed_out_deal_keeps_working(given):
    """Left out or 0 (what the product writes: {"contract": null, "tricks": 0})."""
    code, out, err = run(json.dumps(PASSED | given), "--rules", "english")
    assert (code, err) == (0, "")
    assert json.loads(out) == {"ns": {"trick_score": 0, "honour_score": 0, "total": 0},
                               "ew": {"trick_score": 0, "honour_score": 0, "total": 0},
                               "net_ns": 0, "items": []}


@pytest.mark.parametrize("tricks", [7, 13, 1, None, -1, 14, True, False, 0.0, "0"])
def test_a_passed_out_deal_has_no_tricks(tricks):
    """rules.md §3.8: no declarer and no play. Tricks 7 had scored 0 silently."""
    assert refused(run(json.dumps(PASSED | {"tricks": tricks}), "--rules", "english")) == \
        error(NO_TRICKS, "tricks")


@pytest.mark.parametrize(("given", "expected"), [
    # rules.md §3.8 (both sides 0): nothing can have happened on a deal not played.
    ({"honours": {"N": 2}}, error("a passed-out deal has no trumps, so no honours",
                                  "honours")),
    ({"revokes": {"defending": 1, "first_penalty": "points"}},
     error("a passed-out deal is not played, so it has no revokes", "revokes")),
    ({"penalties": [{"law": "90", "by": "E"}]},
     error("a passed-out deal has no declaration or play to penalise", "penalties")),
    ({"honours": None}, error(HONOURS_NULL, "honours")),
    ({"revokes": None}, error(REVOKES_NULL, "revokes")),
    ({"revokes": {"first_penalty": None}}, error(FIRST_NULL, "revokes.first_penalty")),
    ({"penalties": None}, error(PENALTIES_NULL, "penalties")),
])
def test_what_cannot_be_on_a_passed_out_deal_is_refused(given, expected):
    assert refused(run(json.dumps(PASSED | {"tricks": 0} | given), "--rules", "english")) \
        == expected


def test_the_american_rule_still_refuses_a_passed_out_deal_first():
    assert refused(run(json.dumps(PASSED | {"tricks": 7}))) == error(
        "the dealer must bid under the American rule: a deal cannot be passed out",
        "contract")


# --------------------------------------------------------------------------- given twice


@pytest.mark.parametrize(("text", "expected"), [
    ('{"board": 1, "board": 2, "contract": {"level": 3, "denomination": "H", '
     '"declarer": "S"}, "tricks": 9}', error("board is given twice; give it once", "board")),
    # The same value twice is still two answers to one question.
    ('{"board": 1, "contract": {"level": 3, "denomination": "H", "declarer": "S"}, '
     '"tricks": 9, "tricks": 9}', error("tricks is given twice; give it once", "tricks")),
    ('{"board": 1, "contract": {"level": 3, "level": 4, "denomination": "H", '
     '"declarer": "S"}, "tricks": 9}',
     error("contract.level is given twice; give it once", "contract.level")),
    ('{"board": 1, "contract": {"level": 3, "denomination": "H", "declarer": "S"}, '
     '"tricks": 9, "honours": {"N": 2, "S": 1, "N": 3}}',
     error("honours.N is given twice; give it once", "honours.N")),
    ('{"board": 1, "contract": {"level": 3, "denomination": "H", "declarer": "S"}, '
     '"tricks": 9, "penalties": [{"law": "90", "by": "E"}, {"law": "90", "by": "E", '
     '"by": "W"}]}', error("penalties.1.by is given twice; give it once", "penalties.1.by")),
    # The outer object first: its own key given twice is named before one inside it.
    ('{"board": 1, "contract": {"level": 3, "level": 3, "denomination": "H", '
     '"declarer": "S"}, "tricks": 9, "tricks": 9}',
     error("tricks is given twice; give it once", "tricks")),
    # An unknown key given twice: given twice is said first.
    ('{"board": 1, "contract": null, "honors": 1, "honors": 2}',
     error("honors is given twice; give it once", "honors")),
])
def test_a_key_given_twice_is_refused(text, expected):
    assert refused(run(text, "--rules", "english")) == expected


def test_a_key_given_twice_names_the_result_it_is_in():
    good = json.dumps(PLAYED)
    twice = '{"board": 1, "board": 1, "contract": null}'
    text = f"[{good}, {good}, {twice}, {twice}]"
    assert refused(run(text, "--rules", "english")) == error(
        "board is given twice; give it once", "board", 2)


def test_the_first_bad_result_is_named_whatever_is_wrong_with_it():
    bad = json.dumps(PLAYED | {"tricks": 14})
    twice = '{"board": 1, "board": 1, "contract": null}'
    # A bad result before the one with a key given twice is the first bad result.
    assert refused(run(f"[{bad}, {twice}]", "--rules", "english")) == error(
        "tricks must be between 0 and 13", "tricks", 0)
    # In one result, the key given twice is named before what its last value says.
    assert refused(run('{"board": 1, "board": 0, "contract": null}', "--rules", "english")) \
        == error("board is given twice; give it once", "board")
    # A result that is not an object is said to be so, whatever is inside it.
    assert refused(run('[[{"a": 1, "a": 2}]]')) == error(
        "a deal result must be a JSON object, not a list", "", 0)


def test_a_key_given_twice_in_whist():
    text = '{"board": 3, "tricks_ns": 8, "revokes": {"NS": 0, "EW": 1, "EW": 0}}'
    assert refused(run(text, "--rules", "duplicate-whist")) == error(
        "revokes.EW is given twice; give it once", "revokes.EW")


def test_a_key_given_twice_deep_down():
    """At any depth: an unknown key's value is not read, but a key twice in it still is
    refused (the parser would have kept one of two answers)."""
    deep = '{"x": ' * 40 + '{"y": 1, "y": 2}' + "}" * 40
    text = f'{{"board": 1, "contract": null, "extra": {deep}}}'
    expected = "extra." + ".".join(["x"] * 40) + ".y"
    payload = refused(run(text, "--rules", "english"))
    assert (payload["index"], payload["field"]) == (0, expected)
    assert payload["error"] == expected[:60] + "... is given twice; give it once"


def test_a_key_given_twice_through_the_real_command():
    proc = subprocess.run([sys.executable, "-m", "scoring", "score", "--rules", "english"],
                          input=b'[{"board": 5, "contract": null, "tricks": 0},'
                                b' {"board": 1, "board": 2, "contract": null}]',
                          capture_output=True, cwd=ROOT, timeout=60, check=False)
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert proc.stderr.decode().splitlines() == [
        '{"error": "board is given twice; give it once", "index": 1, "field": "board"}']


# --------------------------------------------------------------------------- rubber


@pytest.mark.parametrize(("game", "rules", "deals", "expected"), [
    ("auction", "american-1913",
     [{"dealer": "N", "contract": {"level": 1, "denomination": "H", "declarer": "N",
                                   "doubled": None}, "tricks": 7}],
     error(DOUBLED_NULL, "contract.doubled")),
    ("auction", "english",
     [{"dealer": "N", "contract": None, "tricks": 0}, {"dealer": "E", "contract": None,
                                                       "tricks": 7}],
     error(NO_TRICKS, "tricks", 1)),
    ("auction", "english", [{"dealer": "N", "contract": None, "penalties": None}],
     error(PENALTIES_NULL, "penalties")),
    ("three-hand", "american-1913",
     [{"dealer": "A", "declarer": "B", "contract": {"level": 1, "denomination": "H",
                                                    "doubled": None}, "tricks": 7}],
     error(DOUBLED_NULL, "contract.doubled")),
    ("three-hand", "american-1913",
     [{"dealer": "A", "declarer": "B", "contract": {"level": 1, "denomination": "H"},
       "tricks": 7, "honours": None}],
     error("honours must be an object of counts (A, B, C, dummy), not null: leave "
           "honours out when no one held any", "honours")),
    ("three-hand", "american-1913",
     [{"dealer": "A", "declarer": "B", "contract": {"level": 1, "denomination": "H"},
       "tricks": 7, "revokes": None}], error(REVOKES_NULL, "revokes")),
    ("three-hand", "english", [{"dealer": "A", "contract": None, "declarer": None}],
     error("a passed-out deal has no declarer: leave declarer out", "declarer")),
    ("three-hand", "english", [{"dealer": "A", "contract": None, "tricks": 2}],
     error(NO_TRICKS, "tricks")),
    ("whist", None, [{"tricks_ns": 7, "honours": None}],
     error("honours must be an object (NS), not null: leave honours out when they are not "
           "scored", "honours")),
    ("whist", None, [{"tricks_ns": 7, "revokes": None}],
     error(WHIST_REVOKES_NULL, "revokes")),
    ("whist", None, [{"tricks_ns": 7, "revoke_penalty": None}],
     error('revoke_penalty must be "tricks", "deduct" or "add", not null: leave '
           "revoke_penalty out when the adversaries have no choice to make",
           "revoke_penalty")),
])
def test_the_rubber_command_refuses_null_and_tricks_on_a_passed_out_deal(
        game, rules, deals, expected):
    args = ["--game", game] + (["--rules", rules] if rules else [])
    assert refused(run_rubber(deals, *args)) == expected


def test_the_rubber_command_keeps_a_passed_out_deal_as_the_pad_writes_it():
    """The pad writes {"contract": null, "tricks": 0}; Three-Hand's rule 9 stands."""
    deal = {"dealer": "A", "contract": None, "tricks": 0,
            "penalties": [{"rule": "9", "by": "A"}]}
    code, out, err = run_rubber([deal], "--game", "three-hand", "--rules", "english")
    assert (code, err) == (0, "")
    assert json.loads(out)["totals"] == {"A": 0, "B": 50, "C": 50}
    assert run_rubber([{"dealer": "N", "contract": None}], "--game", "auction",
                      "--rules", "english")[0] == 0


@pytest.mark.parametrize(("game", "text", "expected"), [
    ("auction", '[{"dealer": "N", "dealer": "E", "contract": {"level": 1, '
                '"denomination": "H", "declarer": "N"}, "tricks": 7}]',
     error("dealer is given twice; give it once", "dealer")),
    ("three-hand", '[{"dealer": "A", "declarer": "B", "contract": {"level": 1, '
                   '"denomination": "H", "doubled": "", "doubled": "X"}, "tricks": 7}]',
     error("contract.doubled is given twice; give it once", "contract.doubled")),
    ("whist", '[{"tricks_ns": 7}, {"tricks_ns": 8, "honours": {"NS": 1, "NS": 2}}]',
     error("honours.NS is given twice; give it once", "honours.NS", 1)),
    # A bad deal before it is the first bad deal ...
    ("whist", '[{"tricks_ns": 14}, {"tricks_ns": 7, "tricks_ns": 8}]',
     error("tricks_ns must be between 0 and 13", "tricks_ns", 0)),
    # ... and so is a deal after the rubber was won.
    ("whist", '[{"tricks_ns": 13}, {"tricks_ns": 13}, {"tricks_ns": 7},'
              ' {"tricks_ns": 7, "tricks_ns": 8}]',
     error("this deal comes after the end of the rubber: N-S won it with the deal at "
           "index 1. Start a new rubber for this deal", "", 2)),
])
def test_the_rubber_command_refuses_a_key_given_twice(game, text, expected):
    assert refused(run_rubber(text, "--game", game)) == expected


# --------------------------------------------------------------------------- no change


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(AUCTION_RULES).flatmap(
    lambda r: st.tuples(st.just(r), st.lists(auction_results(r), max_size=3))))
def test_every_valid_result_is_still_scored(case):
    rules, results = case
    code, out, err = run(json.dumps(results), "--rules", rules)
    assert (code, err) == (0, "")
    assert len(json.loads(out)) == len(results)


@settings(max_examples=100, deadline=None)
@given(st.lists(whist_results(), max_size=3))
def test_every_valid_whist_result_is_still_scored(results):
    assert run(json.dumps(results), "--rules", "duplicate-whist")[0] == 0


@settings(max_examples=100, deadline=None)
@given(st.one_of(st.tuples(st.just("auction"), st.lists(auction_deals(), max_size=4)),
                 st.tuples(st.just("three-hand"), st.lists(three_hand_deals(), max_size=4)),
                 st.tuples(st.just("whist"), st.lists(whist_deals(), max_size=4))))
def test_strict_reads_every_valid_rubber_as_the_product_does(case):
    game, deals = case
    try:
        lenient = score_rubber(game, deals).to_dict()
    except ValueError as exc:  # a deal after the end: both refuse it alike
        with pytest.raises(type(exc)) as strict_exc:
            score_rubber(game, deals, strict=True)
        assert (strict_exc.value.index, strict_exc.value.message) == (exc.index, exc.message)
    else:
        assert score_rubber(game, deals, strict=True).to_dict() == lenient


def test_the_product_paths_still_read_null_as_left_out():
    """The night file, the API and the pad call the engine without strict: what they
    stored before (a null first_penalty in a result's details, say) is still read."""
    english = get_rules("english")
    played = PLAYED | {"contract": PLAYED["contract"] | {"doubled": None}, "honours": None,
                       "revokes": {"declaring": 1, "first_penalty": None}, "penalties": None}
    assert parse_result(played, english).contract.doubled == ""
    assert parse_result(PASSED | {"tricks": 7}, english).tricks == 0
    assert score_rubber("whist", [{"tricks_ns": 7, "revoke_penalty": None,
                                   "honours": None}]).to_dict()["complete"] is False
    assert score_rubber("three-hand", [{"dealer": "A", "contract": None, "declarer": None,
                                        "tricks": 5}], "english").to_dict()["totals"] == {
        "A": 0, "B": 0, "C": 0}
