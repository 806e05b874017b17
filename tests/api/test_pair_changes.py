"""Late pairs, pairs that leave, substitutes over the API (director only)."""

import pytest

from boards.movements import generate
from tests.reports.night import movement_event
from tournaments.models import Meeting, Pair

from .helpers import post

pytestmark = pytest.mark.django_db


@pytest.fixture
def seven(director):
    return movement_event(director, generate("mitchell", tables=4, boards_per_round=2,
                                             variant="skip", pairs=7))


def test_a_late_pair_is_checked_then_stored(director_client, seven):
    url = f"/api/events/{seven.pk}/pairs/late/"
    body = {"players": ["Nan Kirk", "Obed Hale"], "from_round": 2, "reason": "came late",
            "check": True}
    checked = post(director_client, url, body)
    assert checked.status_code == 200, checked.json()
    assert checked.json()["stored"] is False and checked.json()["pair"] == 8
    assert [m["round"] for m in checked.json()["plan"]["meetings"]] == [2, 3]
    assert not Pair.objects.filter(event=seven, number=8).exists()
    stored = post(director_client, url, {**body, "check": False})
    assert stored.status_code == 200 and stored.json()["stored"] is True
    assert Meeting.objects.filter(section__event=seven, ew_pair__number=8).count() == 2
    again = post(director_client, url, {**body, "check": False})
    assert again.status_code == 400
    assert again.json()["field"] == "movement" and "no sit-out" in again.json()["error"]


def test_a_director_gives_a_reason(director_client, seven):
    response = post(director_client, f"/api/events/{seven.pk}/pairs/late/",
                    {"players": ["A B", "C D"], "from_round": 2})
    assert response.status_code == 400 and response.json()["field"] == "reason"


def test_a_pair_leaves(director_client, seven):
    url = f"/api/events/{seven.pk}/pairs/5/leave/"
    checked = post(director_client, url, {"after_round": 1, "reason": "x", "check": True})
    assert checked.status_code == 200 and checked.json()["stored"] is False
    assert len(checked.json()["plan"]["meetings"]) == 2
    stored = post(director_client, url, {"after_round": 1, "reason": "train"})
    assert stored.status_code == 200
    assert Pair.objects.get(event=seven, number=5).left_after_round == 1
    again = post(director_client, url, {"after_round": 1, "reason": "x"})
    assert again.status_code == 400 and "already left" in again.json()["error"]


def test_a_substitute_comes_back_on_the_score_card(director_client, seven):
    url = f"/api/events/{seven.pk}/pairs/1/substitutes/"
    response = post(director_client, url, {"seat": 2, "player": "Carl Day", "from_round": 2,
                                           "reason": "ill"})
    assert response.status_code == 200, response.json()
    names = Pair.objects.get(event=seven, number=1).names
    assert response.json()["substitutes"] == [
        {"name": "Carl Day", "for": names[1], "from_round": 2}]
    assert response.json()["names_text"].endswith(f"(Carl Day for {names[1]} from round 2)")
    bad = post(director_client, url, {"seat": 3, "player": "X", "from_round": 2, "reason": "y"})
    assert bad.status_code == 400 and bad.json()["field"] == "seat"


def test_only_the_director_changes_pairs(public, seven):
    for path, body in (("pairs/late/", {"players": ["A B", "C D"], "from_round": 2}),
                       ("pairs/5/leave/", {"after_round": 1}),
                       ("pairs/1/substitutes/", {"seat": 1, "player": "X", "from_round": 2})):
        response = post(public, f"/api/events/{seven.pk}/{path}", body)
        assert response.status_code in (401, 403, 404)


def test_a_late_pair_joins_the_section_named(director, director_client):
    from tests.web.test_director_pairs import two_sections_of_19

    event = two_sections_of_19(director)
    url = f"/api/events/{event.pk}/pairs/late/"
    body = {"players": ["Nan Kirk", "Obed Hale"], "from_round": 2, "reason": "came late",
            "section": "C"}
    unknown = post(director_client, url, body)
    assert unknown.status_code == 400 and unknown.json()["field"] == "section"
    assert unknown.json()["error"] == "There is no section C in this event"
    stored = post(director_client, url, {**body, "section": "b"})
    assert stored.status_code == 200, stored.json()
    assert stored.json()["pair"] == 20 and stored.json()["plan"]["section"] == "B"
    assert Pair.objects.get(event=event, number=20).section.name == "B"
    # Section A (pairs 1 to 10, no sit-out) was not asked: it refuses, as before.
    full = post(director_client, url, {**body, "players": ["P Q", "R S"], "section": ""})
    assert full.status_code == 400
    assert full.json()["error"].startswith(
        "Section A's movement has no place for a late pair: its 5 tables")
