"""docs/scoring-command.md stays true: each of its examples is run through the command."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "scoring-command.md"
EXAMPLE = re.compile(
    r"<!-- (example|example-error): (?P<args>[^>]*?) -->\s*```json\n(?P<input>.*?)```"
    r".*?```json\n(?P<output>.*?)```", re.S)


def examples() -> list[tuple[str, str, str, str]]:
    found = [(m.group(1), m.group("args"), m.group("input"), m.group("output"))
             for m in EXAMPLE.finditer(DOC.read_text())]
    assert len(found) >= 5, "the examples of docs/scoring-command.md were not found"
    return found


@pytest.mark.parametrize(("kind", "args", "given", "expected"), examples(),
                         ids=lambda value: None)
def test_each_example_of_the_doc_is_what_the_command_does(kind, args, given, expected):
    proc = subprocess.run([sys.executable, "-m", "scoring", *args.split()], input=given,
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    if kind == "example":
        assert (proc.returncode, proc.stderr) == (0, "")
        assert json.loads(proc.stdout) == json.loads(expected)
    else:
        assert (proc.returncode, proc.stdout) == (2, "")
        assert json.loads(proc.stderr) == json.loads(expected)


def test_the_doc_names_every_rule_set_and_penalty_code():
    from scoring.engine import PENALTY_CODES, RULE_SET_NAMES

    text = DOC.read_text()
    for name in RULE_SET_NAMES:
        assert f"`--rules {name}`" in text, name
    for code in PENALTY_CODES:
        assert f"| `{code}` |" in text, code
