"""manage.py season SEASON_ID --format json|text."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tournaments.services import season_save


def _run(*args) -> str:
    out = StringIO()
    call_command("season", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def season(make_night, actor):
    one = make_night("Night 1")
    two = make_night("Night 2", published="provisional", lineup={1: (101, 102)})
    return season_save(name="Autumn ladder", entrants="individuals", counts="points",
                       points_scale=[10, 8, 6, 5, 4, 3, 2, 1], min_events=2,
                       event_ids=[one.pk, two.pk], actor=actor)


def test_json_rows_have_place_member_name_events_score(season):
    data = json.loads(_run(str(season.pk), "--format", "json"))
    assert data["season"] == "Autumn ladder"
    assert (data["entrants"], data["counts"], data["rule"], data["min_events"]) == (
        "individuals", "points", "total", 2)
    assert [e["final"] for e in data["events"]] == [True, False]
    for row in data["rows"]:
        assert set(row) == {"place", "member", "name", "events", "score"}
    placed = [r for r in data["rows"] if r["place"] is not None]
    assert {r["member"] for r in placed} == {"101", "102"}  # the only two at both nights
    assert all(r["events"] == 1 for r in data["rows"] if r["place"] is None)
    assert all("/" in r["score"] or r["score"].lstrip("-").isdigit() for r in data["rows"])


def test_pairs_name_both_members(make_night, actor):
    one = make_night("Night 1")
    season = season_save(name="Pairs", event_ids=[one.pk], actor=actor)
    data = json.loads(_run(str(season.pk), "--format", "json"))
    assert ["101", "102"] in [r["member"] for r in data["rows"]]
    assert "Member 101 & Member 102" in [r["name"] for r in data["rows"]]


def test_text_writes_scores_as_people_read_them(season):
    text = _run(str(season.pk), "--format", "text")
    lines = text.splitlines()
    assert lines[0] == "Autumn ladder"
    assert "points for places (10, 8, 6, 5, 4, 3, 2, 1)" in lines[1]
    assert "at least 2 nights to be placed" in lines[1]
    assert "Night 2" in lines[2] and "not final" in lines[2]
    assert "Member 101" in text and "/" not in text.split("Place", 1)[1]
    unplaced = [line for line in lines if line.startswith("–")]
    assert len(unplaced) == 10


def test_an_unknown_season_is_an_error(db):
    with pytest.raises(CommandError, match="there is no season 999"):
        _run("999")
