"""The options of `python -m scoring score` and `rubber` (docs/scoring-command.md): each is
given once, with a value; an option without a value or given twice is a bad command line
naming the option, the same way for every option of both commands."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.__main__ import main

from .test_cli import _Stdin, error_of

ROOT = Path(__file__).resolve().parents[2]
PASSED_OUT = b'{"board": 5, "contract": null, "tricks": 0}'

# Each command with every option it takes: a good value, another good value, and the
# options the command needs besides (rubber always needs --game).
OPTIONS = [
    ("score", "--rules", "english", "american-1913", []),
    ("rubber", "--game", "auction", "whist", []),
    ("rubber", "--rules", "english", "american-1913", ["--game", "auction"]),
]
IDS = [f"{command} {option}" for command, option, *_ in OPTIONS]


def run(argv: list[str], data: bytes = b"[]") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, _Stdin(data), out, err)
    return code, out.getvalue(), err.getvalue()


def bad_command_line(argv: list[str]) -> dict:
    code, out, err = run(argv)
    assert (code, out) == (2, "")
    payload = error_of(err)
    assert payload["index"] is None
    return payload


@pytest.mark.parametrize(("command", "option", "value", "other", "needs"), OPTIONS, ids=IDS)
@pytest.mark.parametrize("missing", [
    lambda option, needs: [*needs, option],               # nothing after it
    lambda option, needs: [option, *(needs or ["--deal", "1"])],  # another option next
    lambda option, needs: [*needs, f"{option}="],         # "=" and nothing
    lambda option, needs: [*needs, option, ""],           # an empty value
], ids=["at-the-end", "before-another-option", "equals-nothing", "empty"])
def test_an_option_without_a_value_is_named(command, option, value, other, needs, missing):
    payload = bad_command_line([command, *missing(option, needs)])
    assert payload["field"] == option
    assert payload["error"].startswith(f"{option} needs a value; usage: python -m scoring "
                                       f"{command}")


@pytest.mark.parametrize(("command", "option", "value", "other", "needs"), OPTIONS, ids=IDS)
@pytest.mark.parametrize("twice", [
    lambda option, value, other: [option, value, option, other],
    lambda option, value, other: [f"{option}={value}", f"{option}={other}"],
    lambda option, value, other: [f"{option}={value}", option, other],
    lambda option, value, other: [option, value, option, value],  # even the same value
    lambda option, value, other: [option, value, option],  # even with no value the 2nd time
], ids=["spaced", "equals", "mixed", "same-value", "second-without-value"])
def test_an_option_given_twice_is_refused(command, option, value, other, needs, twice):
    args = twice(option, value, other)
    # The last one does not win, whichever order the values come in.
    for argv in ([command, *needs, *args], [command, *args, *needs]):
        payload = bad_command_line(argv)
        assert payload == {"error": f"{option} is given twice; give it once", "index": None,
                           "field": option}


@pytest.mark.parametrize(("command", "option", "value", "other", "needs"), OPTIONS, ids=IDS)
def test_an_option_given_once_is_taken_in_either_form(command, option, value, other, needs):
    data = PASSED_OUT if command == "score" else b"[]"
    for args in ([option, value], [f"{option}={value}"]):
        code, out, err = run([command, *needs, *args], data)
        assert (code, err) == (0, ""), err
        assert json.loads(out)


def test_an_unknown_argument_still_names_the_command():
    for argv in (["score", "--game", "auction"], ["score", "english"],
                 ["rubber", "--game", "auction", "--board", "1"], ["rubber", "auction"]):
        payload = bad_command_line(argv)
        assert payload["field"] == "command"
        assert payload["error"].startswith("unexpected argument")


@pytest.mark.parametrize(("args", "field", "error"), [
    (["score", "--rules"], "--rules", "--rules needs a value; "),
    (["rubber", "--game", "auction", "--rules"], "--rules", "--rules needs a value; "),
    (["rubber", "--game"], "--game", "--game needs a value; "),
    (["score", "--rules", "english", "--rules", "american-1913"], "--rules",
     "--rules is given twice; give it once"),
    (["rubber", "--game", "auction", "--game", "whist"], "--game",
     "--game is given twice; give it once"),
])
def test_the_command_itself_answers_a_bad_option_as_a_bad_command_line(args, field, error):
    proc = subprocess.run([sys.executable, "-m", "scoring", *args], input=PASSED_OUT,
                          cwd=ROOT, capture_output=True, timeout=60)
    assert (proc.returncode, proc.stdout) == (2, b"")
    payload = error_of(proc.stderr.decode())
    assert (payload["index"], payload["field"]) == (None, field)
    assert payload["error"].startswith(error)
