"""`python -m scoring score` (interfaces.md §1): output shape, errors, never a traceback."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.__main__ import main

from .strategies import auction_results, json_values, mutated_results, whist_results

ROOT = Path(__file__).resolve().parents[2]
EX1 = {"board": 1, "contract": {"level": 3, "denomination": "H", "declarer": "S"},
       "tricks": 7, "honours": {"N": 2, "S": 1}}


class _Stdin(io.StringIO):
    """A text stdin with a .buffer, like sys.stdin."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self.buffer = io.BytesIO(data)


def run(text: str | bytes, *args: str) -> tuple[int, str, str]:
    data = text.encode() if isinstance(text, str) else text
    out, err = io.StringIO(), io.StringIO()
    code = main(["score", *args], _Stdin(data), out, err)
    return code, out.getvalue(), err.getvalue()


def error_of(stderr: str) -> dict:
    lines = stderr.splitlines()
    assert len(lines) == 1
    payload = json.loads(lines[0])
    assert set(payload) == {"error", "index", "field"}
    assert isinstance(payload["error"], str) and payload["error"]
    assert not payload["error"].startswith("internal error"), payload
    return payload


def test_one_object_in_one_object_out():
    code, out, err = run(json.dumps(EX1))
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "ns": {"trick_score": 0, "honour_score": 16, "total": 16},
        "ew": {"trick_score": 0, "honour_score": 100, "total": 100},
        "net_ns": -84,
        "items": [
            {"side": "ns", "column": "honour", "points": 16, "what": "simple honours",
             "law": "3"},
            {"side": "ew", "column": "honour", "points": 100, "what": "2 undertricks",
             "law": "47a"},
        ],
    }


def test_array_in_array_out_same_order():
    second = EX1 | {"tricks": 9}
    code, out, _ = run(json.dumps([EX1, second, EX1]))
    scores = json.loads(out)
    assert code == 0
    assert [s["net_ns"] for s in scores] == [-84, 16 + 24 + 0, -84]
    assert run("[]")[1].strip() == "[]"


def test_rules_option():
    passed = json.dumps({"board": 1, "contract": None})
    assert run(passed, "--rules", "english")[0] == 0
    assert run(passed, "--rules=english")[0] == 0
    code, out, err = run(passed)  # american-1913 by default
    assert code == 2 and out == ""
    assert error_of(err) == {"error": "the dealer must bid under the American rule: "
                                      "a deal cannot be passed out", "index": 0,
                             "field": "contract"}
    code, out, _ = run(json.dumps({"board": 3, "tricks_ns": 8, "revokes": {"NS": 0, "EW": 1}}),
                       "--rules", "duplicate-whist")
    assert code == 0
    assert json.loads(out)["ns"] == {"trick_score": 11, "honour_score": 0, "total": 11}


def test_first_bad_result_is_named():
    bad = EX1 | {"tricks": 14}
    code, out, err = run(json.dumps([EX1, bad, EX1 | {"board": 0}]))
    assert (code, out) == (2, "")
    assert error_of(err) == {"error": "tricks must be between 0 and 13", "index": 1,
                             "field": "tricks"}


@pytest.mark.parametrize(("text", "index", "field"), [
    ("", 0, ""),
    ("{", 0, ""),
    ("nope", 0, ""),
    ("NaN", 0, ""),
    ("[1e999]", 0, ""),
    ("3", 0, ""),
    ('"text"', 0, ""),
    ("null", 0, ""),
    ("[" * 100000, 0, ""),
    ("[" + "9" * 5000 + "]", 0, ""),
    ("[{}, 1]", 0, "board"),
    ('[{"board": 1, "contract": {"level": 1, "denomination": "C", "declarer": "N"}, '
     '"tricks": 7}, 1]', 1, ""),
    ('{"board": true}', 0, "board"),
    ('{"board": 1, "contract": {"level": 1, "denomination": "C", "declarer": "N"}, '
     '"tricks": 100000000000000000000000000000000000000000}', 0, "tricks"),
])
def test_bad_input_is_one_json_object_on_stderr(text, index, field):
    code, out, err = run(text)
    assert (code, out) == (2, "")
    payload = error_of(err)
    assert (payload["index"], payload["field"]) == (index, field)


def test_not_utf8():
    code, out, err = run(b"\xff\xfe\xfa")
    assert (code, out) == (2, "")
    assert error_of(err)["field"] == ""


def test_bad_command_line():
    out, err = io.StringIO(), io.StringIO()
    assert main(["score", "--rules", "bridge"], _Stdin(b"{}"), out, err) == 2
    assert out.getvalue() == ""
    assert json.loads(err.getvalue())["field"] == "--rules"
    out, err = io.StringIO(), io.StringIO()
    assert main(["count"], _Stdin(b"{}"), out, err) == 2
    assert json.loads(err.getvalue())["field"] == "command"
    out = io.StringIO()
    assert main(["--help"], _Stdin(b""), out, io.StringIO()) == 0
    assert "usage" in out.getvalue()


def _check_run(text: str, rules: str) -> None:
    code, out, err = run(text, "--rules", rules)
    assert code in (0, 2)
    if code == 0:
        assert err == ""
        doc = json.loads(out)
        parsed = json.loads(text)
        scores = [doc] if isinstance(parsed, dict) else doc
        assert isinstance(doc, dict) == isinstance(parsed, dict)
        assert len(scores) == (1 if isinstance(parsed, dict) else len(parsed))
        for s in scores:
            assert s["ns"]["total"] - s["ew"]["total"] == s["net_ns"]
            assert sum(i["points"] for i in s["items"]) == s["ns"]["total"] + s["ew"]["total"]
    else:
        assert out == ""
        payload = error_of(err)
        assert isinstance(payload["index"], int) and isinstance(payload["field"], str)


RULES = st.sampled_from(["american-1913", "english", "duplicate-whist"])


@settings(max_examples=300, deadline=None)
@given(st.one_of(json_values, st.lists(mutated_results(), max_size=3), mutated_results(),
                 auction_results(), st.lists(auction_results(), max_size=3),
                 whist_results()), RULES)
def test_cli_never_crashes_on_generated_json(doc, rules):
    _check_run(json.dumps(doc), rules)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40), RULES)
def test_cli_never_crashes_on_generated_text(text, rules):
    _check_run_text(text, rules)


def _check_run_text(text: str, rules: str) -> None:
    code, out, err = run(text, "--rules", rules)
    assert code in (0, 2)
    if code == 2:
        assert out == ""
        error_of(err)
    else:
        json.loads(out)


def _subprocess(args: list[str], data: bytes) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scoring", *args], input=data,
                          capture_output=True, cwd=ROOT, timeout=60, check=False)


def test_subprocess_scores():
    proc = _subprocess(["score"], json.dumps([EX1]).encode())
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)[0]["net_ns"] == -84
    assert proc.stderr == b""


def test_subprocess_bad_input_has_no_traceback():
    for data in (b"{not json", b'{"board": 1, "contract": {"level": 9}}', b"\x00\xff"):
        proc = _subprocess(["score", "--rules", "english"], data)
        assert proc.returncode == 2
        assert proc.stdout == b""
        assert b"Traceback" not in proc.stderr
        error_of(proc.stderr.decode())
