"""POST /api/events/<id>/movement/change/: the director changes the movement between
rounds (or previews the change); refusals in the one error shape."""

import pytest

from tournaments import services
from tournaments.models import AuditEntry, Meeting, TableCode

from .helpers import post, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(night):
    """Round 1 played and agreed; two more pairs have come in."""
    for table in (1, 2, 3):
        night.play_round(table, 1, agree=True)
    for number in (7, 8):
        services.pair_set(event=night.event, number=number,
                          players=[f"Late {number}", f"Later {number}"], actor=night.actor)
    return night


BODY = {"from_round": 2, "movement": "mitchell", "tables": 4, "variant": "relay",
        "boards_per_round": 2, "reason": "two pairs came late"}


def test_a_preview_shows_the_change_and_stores_nothing(director_client, played):
    stored = list(Meeting.objects.filter(section__event=played.event).values_list("pk"))
    response = post(director_client, url(played.event, "movement/change/"),
                    {**BODY, "preview": True})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["changed"], body["sound"], body["problems"]) == (False, True, [])
    assert body["new_tables"] == [4]
    assert {m["round"] for m in body["after"]} == {2, 3, 4}
    assert len(body["before"]) == 6  # rounds 2 and 3 of the 3-table Mitchell
    assert list(Meeting.objects.filter(section__event=played.event).values_list(
        "pk")) == stored


def test_the_director_changes_the_movement(director_client, played):
    response = post(director_client, url(played.event, "movement/change/"), BODY)
    assert response.status_code == 200, response.json()
    assert response.json()["changed"] is True
    assert Meeting.objects.filter(section__event=played.event, round__gte=2).count() == 12
    assert TableCode.objects.filter(section__event=played.event, table=4).exists()
    assert AuditEntry.objects.get(event=played.event,
                                  action="movement change").reason == "two pairs came late"
    movement = director_client.get(url(played.event, "movement/")).json()[0]
    assert (movement["tables"], movement["variant"]) == (4, "relay")


def test_a_round_with_scores_is_refused_in_the_error_shape(director_client, played):
    response = post(director_client, url(played.event, "movement/change/"),
                    {**BODY, "from_round": 1})
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "movement"
    assert "round 1 has scores already: change the movement from round 2" in body["error"]


def test_a_reason_is_needed(director_client, played):
    response = post(director_client, url(played.event, "movement/change/"),
                    {**BODY, "reason": ""})
    assert response.status_code == 400
    assert response.json()["field"] == "reason"


def test_only_the_director(played, table_client, public):
    response = post(table_client(1), url(played.event, "movement/change/"), BODY)
    assert response.status_code == 403
    assert post(public, url(played.event, "movement/change/"), BODY).status_code in (401, 403)
