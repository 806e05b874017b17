"""A night whose movement changed between rounds goes out and comes back: the file
carries the sections' meetings as played and as changed, and the change's audited
reason; the standings come back the same."""

import datetime

import pytest

from boards.movements import generate
from tests.factories import DirectorFactory
from tournaments import services
from tournaments.models import Meeting
from tournaments.nightfile import night_export
from tournaments.services import Actor
from tournaments.standings import standings

PLAY = {"contract": {"level": 1, "denomination": "NT", "declarer": "N"}, "tricks": 7,
        "honours": {"N": 1, "E": 1, "S": 1, "W": 1}}


def _meetings(event) -> list[tuple]:
    return list(Meeting.objects.filter(section__event=event).order_by("round", "table")
                .values_list("round", "table", "ns_pair__number", "ew_pair__number", "boards"))


@pytest.mark.django_db
def test_a_changed_movement_goes_out_and_comes_back(import_dict):
    director = Actor.director(DirectorFactory())
    event = services.event_create(name="Late pairs", date=datetime.date(2026, 11, 17),
                                  actor=director)
    for number in range(1, 7):
        services.pair_set(event=event, number=number, players=[f"N{number}", f"S{number}"],
                          actor=director)
    services.movement_and_boards_set(section=event.sections.get(), actor=director,
                                     movement=generate("mitchell", tables=3,
                                                       boards_per_round=2))
    for m in Meeting.objects.filter(section__event=event, round=1).select_related(
            "ns_pair", "ew_pair"):
        for board in m.boards:
            services.result_record(event=event, board=board, ns=m.ns_pair.number,
                                   ew=m.ew_pair.number, data=PLAY, actor=director, meeting=m)
    for number in (7, 8):
        services.pair_set(event=event, number=number, players=["Late", "Comer"],
                          actor=director)
    services.movement_change(section=event.sections.get(), from_round=2, kind="mitchell",
                             tables=4, variant="relay", boards_per_round=2, actor=director,
                             reason="two pairs came late")
    data = night_export(event)
    section = data["sections"][0]
    assert (section["movement"], section["variant"], section["tables"]) == (
        "mitchell", "relay", 4)
    assert len(section["meetings"]) == 3 + 4 * 3  # round 1 as played, rounds 2–4 as changed
    change = next(e for e in data["audit"] if e["action"] == "movement change")
    assert change["reason"] == "two pairs came late"
    assert change["after"]["from_round"] == 2
    back = import_dict(data)
    assert _meetings(back) == _meetings(event)
    ours, theirs = standings(event), standings(back)
    for data_ in (ours, theirs):
        data_.pop("seq")
        data_.pop("event", None)
    assert ours == theirs
