"""Club adjustments over the API: the event's setting, adjusted and assigned scores
(director only), refused with the plain message when the event has them off."""

import pytest

from tournaments import services
from tournaments.models import Event, Result

from .helpers import THREE_HEARTS, TWO_HEARTS, post, url

pytestmark = pytest.mark.django_db


def _turn_on(night):
    services.club_adjustments_set(event=night.event, on=True, actor=night.actor)


def _pairs(night):
    meeting = night.meeting(1, 1)
    return {"board": meeting.boards[0], "ns": meeting.ns_pair.number,
            "ew": meeting.ew_pair.number}


def test_the_event_serializer_carries_the_setting(night, director_client):
    body = director_client.get(url(night.event)).json()
    assert body["club_adjustments"] is False
    created = post(director_client, "/api/events/",
                   {"name": "Club night", "date": "2026-11-18", "club_adjustments": True})
    assert created.status_code == 201, created.json()
    assert created.json()["club_adjustments"] is True
    assert Event.objects.get(pk=created.json()["id"]).club_adjustments


def test_the_director_turns_them_on(night, director_client):
    response = post(director_client, url(night.event, "club-adjustments/"),
                    {"club_adjustments": True, "reason": "the club's modern night"})
    assert response.status_code == 200, response.json()
    assert response.json()["club_adjustments"] is True


def test_adjusted_score_refused_while_off(night, director_client):
    response = post(director_client, url(night.event, "adjusted-scores/"),
                    {**_pairs(night), "ns_grade": "plus", "ew_grade": "minus",
                     "reason": "slow play"})
    assert response.status_code == 400
    assert response.json()["error"] == services.CLUB_ADJUSTMENTS_OFF
    assert response.json()["field"] == "club_adjustments"


def test_adjusted_score(night, director_client):
    _turn_on(night)
    response = post(director_client, url(night.event, "adjusted-scores/"),
                    {**_pairs(night), "ns_grade": "plus", "ew_grade": "minus",
                     "reason": "slow play"})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["ruling"], body["ns_adjust"], body["ew_adjust"]) == ("adjusted", "plus",
                                                                      "minus")
    assert body["result"] is None and body["assigned"] is None
    assert (body["section"], body["round"], body["table"]) == ("A", 1, 1)
    bad = post(director_client, url(night.event, "adjusted-scores/"),
               {**_pairs(night), "ns_grade": "top", "ew_grade": "minus", "reason": "x"})
    assert bad.status_code == 400 and bad.json()["field"] == "ns_grade"


def test_assigned_split_score(night, director_client):
    _turn_on(night)
    response = post(director_client, url(night.event, "assigned-scores/"),
                    {**_pairs(night), "ns_result": TWO_HEARTS, "ew_result": THREE_HEARTS,
                     "reason": "split: misinformation"})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["ruling"] == "assigned"
    assert body["assigned"] == {"ns_result": TWO_HEARTS, "ew_result": THREE_HEARTS}
    stored = Result.objects.get(pk=body["id"])
    assert stored.details["ew_result"] == THREE_HEARTS


def test_assigned_score_without_a_reason_is_refused(night, director_client):
    _turn_on(night)
    response = post(director_client, url(night.event, "assigned-scores/"),
                    {**_pairs(night), "ns_result": TWO_HEARTS})
    assert response.status_code == 400 and response.json()["field"] == "reason"


@pytest.mark.parametrize("tail", ["club-adjustments/", "adjusted-scores/", "assigned-scores/"])
def test_a_table_may_not(night, table_client, tail):
    _turn_on(night)
    response = post(table_client(1), url(night.event, tail),
                    {**_pairs(night), "club_adjustments": False, "ns_grade": "plus",
                     "ew_grade": "plus", "ns_result": TWO_HEARTS, "reason": "x"})
    assert response.status_code == 403


def test_the_traveller_marks_the_adjustment(night, director_client):
    _turn_on(night)
    pairs = _pairs(night)
    services.adjusted_award(event=night.event, **pairs, ns_grade="plus", ew_grade="minus",
                            actor=night.actor, reason="slow play")
    rows = director_client.get(url(night.event, f"boards/{pairs['board']}/traveller/")).json()
    row = next(r for r in rows["rows"] if r["ns"] == pairs["ns"])
    assert row["adjustment"] == "Adjusted: N–S average-plus, E–W average-minus"
    assert (row["ns_adjust"], row["ew_adjust"]) == ("plus", "minus")
