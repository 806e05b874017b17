"""``manage.py movement``: the JSON and text of interfaces.md §4, and errors as exit code 1.

Needs the project's settings (pytest-django); no database.
"""

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest

pytest.importorskip("django")
if "DJANGO_SETTINGS_MODULE" not in os.environ:
    pytest.skip("needs the Django settings (run with pytest-django)", allow_module_level=True)

from django.core.management import call_command  # noqa: E402
from django.core.management.base import CommandError  # noqa: E402

from boards.movements import generate, guide_cards_text  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> str:
    out = StringIO()
    call_command("movement", *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("args, kwargs", [
    (["mitchell", "--tables", "7", "--boards-per-round", "3"],
     {"kind": "mitchell", "tables": 7, "boards_per_round": 3}),
    (["mitchell", "--tables", "8", "--boards-per-round", "3", "--variant", "skip"],
     {"kind": "mitchell", "tables": 8, "boards_per_round": 3, "variant": "skip"}),
    (["mitchell", "--tables", "8", "--boards-per-round", "3", "--variant", "relay"],
     {"kind": "mitchell", "tables": 8, "boards_per_round": 3, "variant": "relay"}),
    (["howell", "--tables", "5", "--boards-per-round", "2"],
     {"kind": "howell", "tables": 5, "boards_per_round": 2}),
    (["three-quarter-howell", "--tables", "8", "--boards-per-round", "2"],
     {"kind": "three-quarter-howell", "tables": 8, "boards_per_round": 2}),
    (["team-match", "--pairs-per-team", "3", "--boards-per-round", "4"],
     {"kind": "team-match", "pairs_per_team": 3, "boards_per_round": 4}),
    (["howell", "--tables", "4", "--boards-per-round", "2", "--pairs", "7"],
     {"kind": "howell", "tables": 4, "boards_per_round": 2, "pairs": 7}),
])
def test_json_is_the_movement(args, kwargs):
    output = run(*args, "--format", "json")
    assert json.loads(output) == generate(**kwargs).to_dict()
    assert output == json.dumps(generate(**kwargs).to_dict(), indent=1) + "\n"


def test_text_is_the_guide_cards():
    output = run("mitchell", "--tables", "7", "--boards-per-round", "3", "--format", "text")
    assert output == guide_cards_text(generate("mitchell", tables=7, boards_per_round=3))
    assert "Pair 9\n  round 1: table 2 E–W, boards 4–6, vs pair 2" in output


def test_json_is_the_default_format():
    assert json.loads(run("howell", "--tables", "3", "--boards-per-round", "3"))["kind"] == "howell"


@pytest.mark.parametrize("args, message", [
    (["mitchell", "--tables", "8", "--boards-per-round", "3"],
     "an even-table Mitchell needs a variant: skip or relay"),
    (["mitchell", "--tables", "30", "--boards-per-round", "3"], "a Mitchell needs 3 to 20 tables"),
    (["bridge", "--tables", "3", "--boards-per-round", "3"], "unknown movement kind 'bridge'"),
    (["mitchell", "--tables", "8", "--boards-per-round", "1", "--variant", "relay"],
     "a relay Mitchell needs at least 2 boards a round"),
    (["howell", "--tables", "4", "--boards-per-round", "3", "--format", "pdf"],
     "unknown format 'pdf'"),
])
def test_errors_are_command_errors(args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)


def _manage(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.setdefault("DEBUG", "1")
    return subprocess.run([sys.executable, "manage.py", "movement", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_command_line_exits_1_without_a_traceback():
    done = _manage("mitchell", "--tables", "8", "--boards-per-round", "3", "--format", "json")
    assert done.returncode == 1
    assert done.stdout == ""
    assert "an even-table Mitchell needs a variant: skip or relay" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_command_line_prints_json():
    done = _manage("team-match", "--pairs-per-team", "3", "--boards-per-round", "4",
                   "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["teams"] == {"A": [1, 2, 3], "B": [4, 5, 6]} and data["boards"] == 12
