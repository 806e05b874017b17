"""docs/night-file.md stays true: its example imports, and export gives it back."""

import json
import re
from pathlib import Path

from tournaments.models import AuditEntry, Event, Result
from tournaments.nightfile import night_export
from tournaments.standings import standings

DOC = Path(__file__).resolve().parents[2] / "docs" / "night-file.md"


def _example() -> dict:
    text = DOC.read_text(encoding="utf-8")
    example = text[text.index("\n## Example"):]
    return json.loads(re.search(r"```json\n(.*?)```", example, re.S).group(1))


def test_the_documented_example_imports_and_comes_back(import_dict):
    data = _example()
    event = import_dict(data)
    assert (event.status, event.published) == (Event.Status.CLOSED, Event.Published.FINAL)
    # A board not played is stored as the director's ruling and comes back with the rest;
    # so does a board played late.
    assert night_export(event) == data
    assert Result.objects.filter(event=event, voided=True).count() == 1
    assert Result.objects.get(event=event, ruling="not-played").board.number == 3
    assert Result.objects.filter(event=event, late_play=True).count() == 1
    assert AuditEntry.objects.get(event=event, action="import").after == {
        "results": 7, "rulings": 1, "removed": 1, "not_played": 1}
    assert standings(event)["rankings"]


def test_every_field_the_importer_reads_is_documented():
    from tournaments import nightfile

    text = DOC.read_text(encoding="utf-8")
    keys = set()
    for name in dir(nightfile):
        if name.startswith("_") and name.endswith("_KEYS"):
            keys |= set(getattr(nightfile, name))
    missing = sorted(key for key in keys if f"`{key}`" not in text)
    assert missing == []
