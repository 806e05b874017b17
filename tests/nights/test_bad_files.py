"""Bad night files are refused with the place and the reason, and nothing is written."""

import copy
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tournaments import nightfile
from tournaments.models import AuditEntry, Board, Event, Pair, Player, Result
from tournaments.nightfile import NightFileError, loads
from tournaments.services import ServiceError

ROOT = Path(__file__).resolve().parents[2]


def _counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Event, Pair, Player, Board, Result,
                                                     AuditEntry))


def _set(path: str, value):
    """A change to the small night: put `value` at `path` ("results.7.result.tricks")."""
    def change(data: dict) -> None:
        *parents, last = path.split(".")
        node = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return change


def _drop(path: str):
    def change(data: dict) -> None:
        *parents, last = path.split(".")
        node = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        del node[last]
    return change


def _append_result(item: dict):
    def change(data: dict) -> None:
        data["results"].append(item)
    return change


PLAYED = {"contract": {"level": 2, "denomination": "H", "declarer": "N"}, "tricks": 8}

BAD = [
    (_set("format", "duplicate-night/2"), 'format: expected "duplicate-night/1"'),
    (_drop("format"), 'format: expected "duplicate-night/1"'),
    (_set("event.date", "17/11/2026"),
     "event.date: the date must be written YYYY-MM-DD, like 2026-11-17"),
    (_set("event.date", "2026-02-30"), "event.date: 2026-02-30 is not a date in the calendar"),
    (_set("event.rules", "contract"),
     "event.rules: the rules must be one of american-1913, english, duplicate-whist, "
     "not 'contract'"),
    (_set("event.method", "total-points"),
     "event.method: total points are for a team match; a pairs event is scored by plus-minus "
     "or matchpoints"),
    (_set("event.name", "  "), "event.name: the event's name is empty"),
    (_set("extra", 1), "extra: 'extra' is not a field of a night file; the fields are format, "
                       "event, boards, teams, sections, pairs, results, removed, audit"),
    (_set("boards.2.deal", "N:AKQ.T98.765.432 - - -"),
     "boards[2].deal: N's hand has 12 cards; a hand has 13"),
    (_set("boards.1.number", 1), "boards[1].number: board 1 is listed twice"),
    (_set("boards.3.number", 5),
     "boards: boards are numbered from 1 without gaps; board 4 is missing"),
    (_set("pairs.3.players", ["Ada Vance"]), "pairs[3].players: a pair has two players"),
    (_set("pairs.0.players", ["Ada Vance", ""]), "pairs[0].players[1]: a player's name is empty"),
    (_set("pairs.1.players", ["Ada\u0000Vance", "Ben Wolcott"]),
     "pairs[1].players[0]: a player's name has a control character in it"),
    (_set("event.kind", "individual"),
     "event.kind: the kind of event must be one of pairs, teams, not 'individual'"),
    (_set("pairs.2.number", 0), "pairs[2].number: the pair number must be between 1 and 32767"),
    (_set("pairs.1.team", "Knickerbocker"),
     'pairs[1].team: only pairs in a teams event have a team (event.kind is "pairs")'),
    (_set("teams", [{"name": "Knickerbocker"}]),
     'teams: only a teams event has teams (event.kind is "pairs")'),
    (_set("results.4.ns", 12), "results[4].ns: pair 12 is not in the pairs list"),
    (_set("results.4.board", 9), "results[4].board: board 9 is not in the boards list"),
    (_set("results.2.ew", 2), "results[2].ew: pair 2 cannot play against itself"),
    (_set("results.1.board", "2"), "results[1].board: the board number must be a whole number, "
                                   "not text"),
    (_set("results.6.result.tricks", 14),
     "results[6].result.tricks: tricks must be between 0 and 13"),
    (_set("results.6.result.contract.level", 8),
     "results[6].result.contract.level: the contract level must be between 1 and 7"),
    (_set("results.5.result.honours", {"N": 4}),
     "results[5].result.honours: honours do not match the hand record"),
    (_set("results.6.result", {"contract": None, "tricks": 0}),
     "results[6].result.contract: the dealer must bid under the American rule: a deal cannot "
     "be passed out"),
    (_set("results.7.ruling", {"kind": "fouled"}),
     'results[7].ruling.offending: a fouled board names the side whose player was short: '
     '"ns" or "ew"'),
    (_set("results.7.ruling", {"kind": "adjusted", "ns": "plus", "ew": "minus"}),
     "results[7].ruling.kind: Club adjustments are off for this event: the 1913 laws have no "
     "adjusted scores."),
    (_set("results.7.ruling", {"kind": "split"}),
     "results[7].ruling.kind: the ruling must be one of average, fouled, cancelled, not-played, "
     "adjusted, assigned, not 'split'"),
    (_set("results.3.ruling", {"kind": "average"}),
     'results[3]: a result has either "result" (the play) or "ruling" (the director\'s '
     'ruling), not both or neither'),
    (_append_result({"board": 1, "ns": 1, "ew": 3, "result": PLAYED}),
     "results[8]: board 1 between pairs 1 (N-S) and 3 (E-W) is already in results[0]"),
]


@pytest.mark.parametrize(("change", "message"), BAD, ids=[m.split(":")[0] for _, m in BAD])
def test_bad_file_is_refused_by_place_and_nothing_is_written(db, night, change, message):
    change(night)
    before = _counts()
    with pytest.raises(CommandError) as caught:
        _run_command(night)
    assert str(caught.value).startswith(message)
    assert _counts() == before


def _run_command(data: dict) -> str:
    out = io.StringIO()
    raw = nightfile.dumps(data).encode()
    stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
    try:
        call_command("import_night", "-", stdout=out)
    finally:
        sys.stdin = stdin
    return out.getvalue()


def test_error_in_the_last_result_leaves_no_event(db, night):
    night["results"][-1] = {"board": 4, "ns": 2, "ew": 3,
                            "result": {"contract": {"level": 3, "denomination": "NT",
                                                    "declarer": "E"}, "tricks": -1}}
    before = _counts()
    with pytest.raises(CommandError, match=r"^results\[7\]\.result\.tricks: "):
        _run_command(night)
    assert Event.objects.count() == 0
    assert _counts() == before


def test_a_failure_while_writing_undoes_everything(db, night, monkeypatch, importer):
    # Past the checks, the import is still one transaction: make its last step fail.
    def refuse(**kwargs):
        raise ServiceError("the night cannot be agreed", field="status")

    monkeypatch.setattr(nightfile, "event_set_status", refuse)
    before = _counts()
    with pytest.raises(ServiceError):
        nightfile.night_import(data=night, actor=importer)
    assert _counts() == before


@pytest.mark.parametrize(("text", "message"), [
    ('{\n "format": "duplicate-night/1",\n "event": {,\n}', "line 3 column 12: "),
    ("", "line 1 column 1: Expecting value"),
    ("[1, 2]", "a night file is a JSON object, not a list"),
    (b"\xff\xfe{}", "the file is not UTF-8 text"),
    ("[" * 100_000, "the file is nested too deeply to be a night file"),
    ('{"format": "duplicate-night/1", "format": "x"}',
     "format is given twice in one object; give it once"),
])
def test_malformed_json_is_reported_by_line_and_column(text, message):
    with pytest.raises(NightFileError) as caught:
        nightfile.night_check(loads(text))
    assert str(caught.value).startswith(message)


def test_missing_file_is_a_message(db, tmp_path):
    with pytest.raises(CommandError, match="cannot read .*nowhere.json: No such file"):
        call_command("import_night", str(tmp_path / "nowhere.json"))


def test_the_command_exits_1_with_one_line_and_no_traceback(tmp_path, night):
    night["results"][6]["result"] = copy.deepcopy(PLAYED) | {"tricks": 14}
    bad = tmp_path / "bad.json"
    bad.write_text(nightfile.dumps(night), encoding="utf-8")
    # A database of its own: the file is refused before any query, so it stays empty.
    env = dict(os.environ, DEBUG="1", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    done = subprocess.run([sys.executable, "manage.py", "import_night", str(bad)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        "CommandError: results[6].result.tricks: tricks must be between 0 and 13")
