"""docs/scoring-command.md's rubber examples stay true: each is run through the command,
and every key the doc shows must be what the command gives (the doc leaves the long
``deals`` out). Its exact error example is run by test_scoring_command_doc.py."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "scoring-command.md"
EXAMPLE = re.compile(r"<!-- example-keys: (?P<args>[^>]*?) -->\s*```json\n(?P<input>.*?)```"
                     r".*?```json\n(?P<output>.*?)```", re.S)


def examples() -> list[tuple[str, str, str]]:
    found = [(m.group("args"), m.group("input"), m.group("output"))
             for m in EXAMPLE.finditer(DOC.read_text())]
    assert len(found) == 3, "the rubber examples of docs/scoring-command.md were not found"
    return found


@pytest.mark.parametrize(("args", "given", "expected"), examples(), ids=lambda value: None)
def test_each_rubber_example_shows_what_the_command_gives(args, given, expected):
    proc = subprocess.run([sys.executable, "-m", "scoring", *args.split()], input=given,
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stderr) == (0, "")
    out = json.loads(proc.stdout)
    shown = json.loads(expected)
    assert {key: out[key] for key in shown} == shown


def test_the_doc_names_every_game():
    from scoring.engine import RUBBER_GAMES

    text = DOC.read_text()
    for game in RUBBER_GAMES:
        assert f"`--game {game}`" in text, game
