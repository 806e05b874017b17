"""The night file carries club adjustments: the event's setting, adjusted and assigned
scores (a split too), and their history; refused, with the place, when the file's event
has them off."""

import copy

import pytest

from tests.factories import DirectorFactory
from tournaments import seam, services, standings
from tournaments.models import Result
from tournaments.nightfile import NightFileError, night_check, night_export, night_import
from tournaments.services import Actor

from .conftest import small_night

PLAYED = {"contract": {"level": 1, "denomination": "NT", "declarer": "S", "doubled": ""},
          "tricks": 8}
DOWN = {"contract": {"level": 2, "denomination": "NT", "declarer": "S", "doubled": ""},
        "tricks": 7}


def club_night() -> dict:
    data = small_night()
    data["event"]["club_adjustments"] = True
    data["results"][4] = {"board": 3, "ns": 1, "ew": 4,
                          "ruling": {"kind": "adjusted", "ns": "plus", "ew": "minus"}}
    data["results"][6] = {"board": 3, "ns": 2, "ew": 3,
                          "ruling": {"kind": "assigned", "ns_result": copy.deepcopy(DOWN)}}
    data["results"][7] = {"board": 4, "ns": 2, "ew": 3,
                          "ruling": {"kind": "assigned", "ns_result": copy.deepcopy(PLAYED),
                                     "ew_result": copy.deepcopy(DOWN)}}
    return data


def test_club_adjustments_round_trip(import_dict):
    data = club_night()
    event = import_dict(data)
    assert event.club_adjustments
    adjusted = Result.objects.get(event=event, board__number=3, ns_pair__number=1)
    assert (adjusted.ruling, adjusted.ns_adjust, adjusted.ew_adjust) == ("adjusted", "plus",
                                                                         "minus")
    split = Result.objects.get(event=event, board__number=4, ns_pair__number=2)
    # N-S's board score from 1NT made, E-W's from 2NT down 1 (honours from the deal).
    ns_fields, ew_fields = (seam.result_fields(rules_name="american-1913", board_number=4,
                                               deal=split.board.deal, data=d)
                            for d in (PLAYED, DOWN))
    assert split.ruling == "assigned"
    assert (split.ns_score, split.ew_score) == (ns_fields["ns_score"], ew_fields["ew_score"])
    assert split.ns_score + split.ew_score != 0
    assert split.details["ew_result"] == DOWN
    def order(night):
        return dict(night, results=sorted(night["results"],
                                          key=lambda r: (r["board"], r["ns"], r["ew"])))

    assert order(night_export(event)) == order(data)
    again = import_dict(night_export(event))
    standings.clear_cache()
    assert standings.standings(again)["rankings"] == standings.standings(event)["rankings"]


def test_a_file_without_the_setting_refuses_them_at_their_place():
    data = club_night()
    del data["event"]["club_adjustments"]
    with pytest.raises(NightFileError) as caught:
        night_check(data)
    assert caught.value.place == "results[4].ruling.kind"
    assert "Club adjustments are off for this event" in caught.value.message
    assert '"club_adjustments": true' in caught.value.message


@pytest.mark.parametrize(("change", "place"), [
    (lambda d: d["results"][4]["ruling"].update(ns="top"), "results[4].ruling.ns"),
    (lambda d: d["results"][4]["ruling"].pop("ew"), "results[4].ruling.ew"),
    (lambda d: d["results"][6]["ruling"].pop("ns_result"), "results[6].ruling.ns_result"),
    (lambda d: d["results"][7]["ruling"]["ew_result"].update(tricks=14),
     "results[7].ruling.ew_result.tricks"),
    (lambda d: d["results"][4]["ruling"].update(ns_result=PLAYED),
     "results[4].ruling.ns_result"),
    (lambda d: d["event"].update(club_adjustments="yes"), "event.club_adjustments"),
])
def test_bad_club_adjustments_name_their_place(change, place):
    data = club_night()
    change(data)
    with pytest.raises(NightFileError) as caught:
        night_check(data)
    assert caught.value.place == place


def test_a_directors_adjustment_and_its_history_come_back(import_dict):
    data = small_night()
    data["event"]["club_adjustments"] = True
    event = import_dict(data)
    director = Actor.director(DirectorFactory(username="hattie"))
    services.event_set_status(event=event, status="agreed", actor=director)
    result = services.adjusted_award(event=event, board=1, ns=1, ew=3, ns_grade="average",
                                     ew_grade="plus", actor=director, reason="slow play")
    services.assigned_award(event=event, board=2, ns=1, ew=3, ns_result=DOWN,
                            actor=director, reason="a revoke ruled late")
    exported = night_export(event)
    item = next(r for r in exported["results"] if r["board"] == 1 and r["ns"] == 1)
    assert item["ruling"] == {"kind": "adjusted", "ns": "average", "ew": "plus"}
    assert item["history"][-1]["action"] == "club adjustment"
    assert item["history"][-1]["before"] == {"result": PLAYED, "status": "director"}
    again = night_import(data=exported, actor=Actor.system("import"))
    assert night_export(again) == exported
    copy_ = Result.objects.get(event=again, board__number=1, ns_pair__number=1)
    assert copy_.audit.latest("id").after["ns_adjust"] == "average"
    assert result.pk != copy_.pk
