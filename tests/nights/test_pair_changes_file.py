"""A late pair, a pair that left and a substitute survive export and import."""

import pytest

from boards.movements import generate
from tests.factories import DirectorFactory, make_pairs_event
from tournaments import services
from tournaments.models import Pair, Result, Substitute
from tournaments.nightfile import NightFileError, night_check, night_export
from tournaments.standings import standings

PLAY = {"contract": {"level": 3, "denomination": "H", "declarer": "S"}, "tricks": 9,
        "honours": {"N": 0, "E": 0, "S": 0, "W": 0}}


@pytest.fixture
def as_director(db):
    return services.Actor.director(DirectorFactory())


@pytest.fixture
def changed(db, importer, as_director):
    """Seven pairs; pair 8 joins from round 2, pair 6 leaves after round 2, pair 1 has a
    substitute from round 2; a board played at every table of round 1."""
    event = make_pairs_event(pairs=7, boards=0)
    section = event.sections.get()
    services.movement_and_boards_set(
        section=section, actor=importer,
        movement=generate("mitchell", tables=4, boards_per_round=2, variant="skip", pairs=7))
    for meeting in section.meetings.filter(round=1).select_related("ns_pair", "ew_pair"):
        services.result_record(event=event, board=meeting.boards[0],
                               ns=meeting.ns_pair.number, ew=meeting.ew_pair.number,
                               data=PLAY, actor=importer, meeting=meeting)
    services.pair_join_late(event=event, players=["Nan Kirk", "Obed Hale"], from_round=2,
                            actor=as_director, reason="late")
    services.pair_leave(event=event, number=6, after_round=2, actor=as_director,
                        reason="train")
    services.substitute_set(event=event, number=1, seat=2, player="Carl Day", from_round=2,
                            actor=as_director, reason="ill")
    return event


def _pairs(night):
    return {p["number"]: p for p in night["pairs"]}


def test_export_writes_the_changes_and_import_brings_them_back(changed, import_dict):
    night = night_export(changed)
    pairs = _pairs(night)
    assert pairs[8]["joined_round"] == 2 and "left_after_round" not in pairs[8]
    assert pairs[6]["left_after_round"] == 2
    assert pairs[1]["substitutes"] == [{"seat": 2, "name": "Carl Day", "from_round": 2}]
    assert "substitutes" not in pairs[2] and "joined_round" not in pairs[2]
    # The boards pair 6 missed after leaving are written as not played (decision 86), for
    # it and its would-be opponents, and come back as such.
    missed = [r for r in night["results"] if r.get("ruling", {}).get("kind") == "not-played"]
    assert missed and all(6 in (r["ns"], r["ew"]) for r in missed)
    again = import_dict(night)
    assert Result.objects.filter(event=again, ruling="not-played").count() == len(missed)
    assert Pair.objects.get(event=again, number=8).joined_round == 2
    assert Pair.objects.get(event=again, number=6).left_after_round == 2
    assert Substitute.objects.get(pair__event=again).player.name == "Carl Day"
    assert night_export(again) == night
    ours, theirs = standings(changed), standings(again)
    assert ours["rankings"] == theirs["rankings"]


def test_a_bad_substitute_is_named(changed):
    night = night_export(changed)
    night["pairs"][0]["substitutes"] = [{"seat": 3, "name": "X", "from_round": 2}]
    with pytest.raises(NightFileError, match=r"pairs\[0\]\.substitutes\[0\]\.seat"):
        night_check(night)
    night["pairs"][0]["substitutes"] = [{"seat": 1, "from_round": 2}]
    with pytest.raises(NightFileError, match="name"):
        night_check(night)
