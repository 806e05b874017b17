"""The night file carries the irregular boards (Duplicate Law B) and each board's deal
history, and gives them back."""

import json

import pytest

from tests.factories import DirectorFactory
from tests.irregular_nights import THREE_HEARTS_DEALT, agree_round, meeting, play, three_tables
from tournaments import services
from tournaments.models import AuditEntry, Board, Irregularity
from tournaments.nightfile import NightFileError, night_export
from tournaments.services import Actor

NEW_DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


@pytest.fixture
def law_b_night(db):
    director = DirectorFactory()
    event = three_tables(director)
    actor = Actor.director(director)
    old = Board.objects.get(event=event, number=3).deal
    b1 = services.irregularity_report(event=event, board=3, stage="original", actor=actor,
                                      meeting=meeting(event, 1, 3))
    services.irregularity_new_deal(irregularity=b1, actor=actor, deal=NEW_DEAL,
                                   reason="North had 12")
    play(event, 1, 2, 1, data=THREE_HEARTS_DEALT)
    agree_round(event, 1)
    b2 = services.irregularity_report(event=event, board=1, stage="before-overplay",
                                      actor=Actor.at_table(meeting(event, 2, 1).section, 1),
                                      meeting=meeting(event, 2, 1), note="East has 14")
    services.irregularity_send_back(irregularity=b2, actor=actor)
    services.irregularity_rectified(irregularity=b2, actor=actor)
    b3 = services.irregularity_report(event=event, board=2, stage="overplay", actor=actor,
                                      meeting=meeting(event, 2, 1), short_seat="N",
                                      surplus_seat="S")
    services.irregularity_rule(irregularity=b3, actor=actor, reason="South had 14")
    return event, old


def test_export_writes_the_irregular_boards_and_the_deal_history(law_b_night):
    event, old = law_b_night
    night = night_export(event)
    board3 = night["boards"][2]
    assert board3["deal"] == NEW_DEAL
    [history] = board3["deal_history"]
    assert (history["before"], history["after"]) == (old, NEW_DEAL)
    assert history["reason"].startswith("Duplicate Law B(1)")
    irregular = night["irregularities"]
    assert [(i["board"], i["stage"], i["status"], i.get("outcome")) for i in irregular] == [
        (3, "original", "resolved", "new-deal"),
        (1, "before-overplay", "resolved", "rectified"),
        (2, "overplay", "resolved", "fouled")]
    assert irregular[1]["sent_to_table"] == 2 and irregular[1]["meeting"] == {
        "section": "A", "round": 2, "table": 1}
    assert irregular[1]["reported_by"] == "table 1" and irregular[1]["note"] == "East has 14"
    assert all(e["action"] != "new deal" for e in night["audit"])
    assert any("Duplicate Law B(2)" in e["reason"] for e in night["audit"])


def test_export_import_export_is_the_same(law_b_night, import_dict):
    event, old = law_b_night
    exported = night_export(event)
    again = import_dict(json.loads(json.dumps(exported)))
    assert night_export(again) == exported
    assert Irregularity.objects.filter(event=again).count() == 3
    entry = AuditEntry.objects.get(event=again, action="new deal")
    assert entry.before["deal"] == old and entry.after == {"board": 3, "deal": NEW_DEAL}


@pytest.mark.parametrize(("change", "place"), [
    (lambda n: n["irregularities"][0].update(stage="later"), "irregularities[0].stage"),
    (lambda n: n["irregularities"][0].update(board=99), "irregularities[0].board"),
    (lambda n: n["irregularities"][1].update(short_seat="X"),
     "irregularities[1].short_seat"),
    (lambda n: n["irregularities"][1].update(meeting={"round": 9, "table": 1}),
     "irregularities[1].meeting"),
    (lambda n: n["boards"][2]["deal_history"][0].update(after="N:AKQ"),
     "boards[2].deal_history[0].after"),
])
def test_a_bad_entry_is_refused_by_its_place(law_b_night, import_dict, change, place):
    event, _ = law_b_night
    night = json.loads(json.dumps(night_export(event)))
    change(night)
    with pytest.raises(NightFileError) as caught:
        import_dict(night)
    assert caught.value.place == place
