"""`python -m scoring rubber` (interfaces.md §5): output shape, errors, never a traceback."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.__main__ import main

from .rubber_strategies import auction_deals, three_hand_deals, whist_deals
from .strategies import json_values
from .test_cli import _Stdin, error_of

ROOT = Path(__file__).resolve().parents[2]
GAME_NS = {"dealer": "N", "contract": {"level": 3, "denomination": "NT", "declarer": "N"},
           "tricks": 9, "honours": {"N": 2, "S": 1}}
GAME_EW = {"dealer": "E", "contract": {"level": 4, "denomination": "H", "declarer": "E"},
           "tricks": 10}
THREE = {"dealer": "A", "declarer": "B",
         "contract": {"level": 2, "denomination": "H", "doubled": ""}, "tricks": 9,
         "honours": {"A": 1, "B": 2, "C": 0, "dummy": 2},
         "penalties": [{"rule": "5", "by": "C"}]}


def run(doc: object, *args: str) -> tuple[int, str, str]:
    text = doc if isinstance(doc, (str, bytes)) else json.dumps(doc)
    data = text.encode() if isinstance(text, str) else text
    out, err = io.StringIO(), io.StringIO()
    code = main(["rubber", *args], _Stdin(data), out, err)
    return code, out.getvalue(), err.getvalue()


def test_auction_output_has_the_keys_of_interfaces_section_5():
    code, out, err = run([GAME_NS, GAME_EW, GAME_NS], "--game", "auction")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert {key: doc[key] for key in ("games", "winner", "complete", "rubber_bonus", "totals",
                                      "net")} == {
        "games": [{"winner": "NS", "deals": [0], "points": {"NS": 30, "EW": 0}},
                  {"winner": "EW", "deals": [1], "points": {"NS": 0, "EW": 32}},
                  {"winner": "NS", "deals": [2], "points": {"NS": 30, "EW": 0}}],
        "winner": "NS", "complete": True, "rubber_bonus": {"NS": 250, "EW": 0},
        "totals": {"NS": 370, "EW": 32}, "net": {"NS": 338, "EW": -338}}
    assert [d["ns"]["total"] for d in doc["deals"]] == [60, 0, 60]
    assert out.endswith("\n") and " " not in out.split('"what"')[0]


def test_auction_unfinished_and_english_rules():
    code, out, _ = run([GAME_NS], "--game", "auction", "--rules", "english")
    doc = json.loads(out)
    assert code == 0
    assert (doc["winner"], doc["complete"], doc["rubber_bonus"], doc["net"]) == (
        None, False, {"NS": 0, "EW": 0}, {"NS": 60, "EW": -60})
    assert run([{"dealer": "N", "contract": None}], "--game=auction", "--rules=english")[0] == 0


def test_three_hand_output():
    code, out, err = run([THREE], "--game", "three-hand")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert doc["games"] == [] and (doc["winner"], doc["complete"]) == (None, False)
    assert doc["totals"] == {"A": 58, "B": 106, "C": 0}
    assert doc["settlement"] == {"A-B": -48, "A-C": 58, "B-C": 106}


def test_whist_output():
    code, out, err = run([{"tricks_ns": 11}, {"tricks_ns": 2},
                          {"tricks_ns": 8, "honours": {"NS": 3}}], "--game", "whist")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert doc["games"] == [
        {"winner": "NS", "deals": [0], "points": {"NS": 5, "EW": 0}, "value": 3},
        {"winner": "EW", "deals": [1], "points": {"NS": 0, "EW": 5}, "value": 3},
    ]
    assert (doc["winner"], doc["complete"], doc["rubber_points"], doc["net"]) == (
        None, False, {"NS": 0, "EW": 0}, {"NS": 0, "EW": 0})
    assert doc["score"] == {"NS": 4, "EW": 0}


@pytest.mark.parametrize(("game", "doc", "index", "field"), [
    ("auction", [GAME_NS, GAME_NS, GAME_EW], 2, ""),
    ("auction", [GAME_NS, {**GAME_EW, "tricks": 14}], 1, "tricks"),
    ("auction", [GAME_NS, {**GAME_EW, "board": 2}], 1, "board"),
    ("auction", {"dealer": "N"}, 0, ""),
    ("auction", [1], 0, ""),
    ("three-hand", [THREE, {**THREE, "declarer": "N"}], 1, "declarer"),
    ("three-hand", [{**THREE, "honours": {"dummy": 6}}], 0, "honours.dummy"),
    ("whist", [{"tricks_ns": 7}, {"tricks_ns": 7, "revokes": {"EW": 1}}], 1,
     "revoke_penalty"),
    ("whist", [{"tricks_ns": 11}, {"tricks_ns": 11}, {"tricks_ns": 1}], 2, ""),
    ("whist", "[{", 0, ""),
    ("whist", b"\xff", 0, ""),
])
def test_bad_input_is_one_json_object_naming_the_deal(game, doc, index, field):
    code, out, err = run(doc, "--game", game)
    assert (code, out) == (2, "")
    assert (error_of(err)["index"], error_of(err)["field"]) == (index, field)


@pytest.mark.parametrize(("args", "field"), [
    ([], "--game"),
    (["--game", "bridge"], "--game"),
    (["--game"], "--game"),
    (["--game", "whist", "--rules", "english"], "--rules"),
    (["--game", "auction", "--rules", "duplicate-whist"], "--rules"),
    (["--game", "auction", "--deal", "1"], "command"),
])
def test_bad_command_line(args, field):
    code, out, err = run("[]", *args)
    assert (code, out) == (2, "")
    payload = json.loads(err)
    assert (payload["index"], payload["field"]) == (None, field)


def test_help():
    out = io.StringIO()
    assert main(["rubber", "--help"], _Stdin(b""), out, io.StringIO()) == 0
    assert "--game auction|three-hand|whist" in out.getvalue()


GAMES = st.sampled_from(["auction", "three-hand", "whist"])


@settings(max_examples=200, deadline=None)
@given(GAMES, st.one_of(json_values, st.lists(json_values, max_size=3),
                        st.lists(auction_deals(), max_size=6),
                        st.lists(three_hand_deals(), max_size=6),
                        st.lists(whist_deals(), max_size=8)))
def test_never_crashes_on_generated_json(game, doc):
    code, out, err = run(doc, "--game", game)
    assert code in (0, 2)
    if code == 0:
        assert err == ""
        result = json.loads(out)
        assert {"games", "winner", "complete"} <= result.keys()
    else:
        assert out == ""
        payload = error_of(err)
        assert isinstance(payload["index"], int) and isinstance(payload["field"], str)


def test_subprocess_has_no_traceback():
    for data in (b"[{not json", b'[{"dealer": "N", "contract": {"level": 9}}]'):
        proc = subprocess.run([sys.executable, "-m", "scoring", "rubber", "--game", "auction"],
                              input=data, capture_output=True, cwd=ROOT, timeout=60,
                              check=False)
        assert (proc.returncode, proc.stdout) == (2, b"")
        assert b"Traceback" not in proc.stderr
        error_of(proc.stderr.decode())
