"""Sections over the API: list and add them, pairs to a section, each section's movement,
the comparison within a section or across the field."""

import pytest

from tournaments.models import Event, Meeting

from .helpers import post

pytestmark = pytest.mark.django_db


@pytest.fixture
def base(director_client) -> str:
    response = post(director_client, "/api/events/",
                    {"name": "Big night", "date": "2026-11-20"})
    base = f"/api/events/{response.json()['id']}/"
    for number in range(1, 13):
        director_client.put(base + f"pairs/{number}/",
                            {"players": [f"N{number}", f"S{number}"]}, format="json")
    return base


def test_add_a_section_with_its_pairs_and_list_them(director_client, base):
    response = post(director_client, base + "sections/", {"pairs": [7, 8, 9, 10, 11, 12]})
    assert response.status_code == 201, response.json()
    assert response.json()["name"] == "B" and response.json()["pairs"] == [7, 8, 9, 10, 11, 12]
    listed = director_client.get(base + "sections/").json()
    assert [(s["name"], s["pairs"]) for s in listed] == [
        ("A", [1, 2, 3, 4, 5, 6]), ("B", [7, 8, 9, 10, 11, 12])]
    again = post(director_client, base + "sections/", {"name": "B"})
    assert again.status_code == 400 and again.json()["field"] == "name"


def test_each_section_gets_its_movement(director_client, base):
    post(director_client, base + "sections/", {"pairs": [7, 8, 9, 10, 11, 12]})
    director_client.put(base + "boards/", {"count": 6}, format="json")
    for name in ("A", "B"):
        response = post(director_client, base + "movement/",
                        {"section": name, "movement": "mitchell", "tables": 3,
                         "boards_per_round": 2})
        assert response.status_code == 200, response.json()
        assert response.json()["name"] == name
    b_pairs = {m.ns_pair.number for m in Meeting.objects.filter(section__name="B")}
    assert b_pairs == {7, 8, 9}
    movement = director_client.get(base + "movement/").json()
    assert [s["name"] for s in movement] == ["A", "B"]


def test_pairs_to_a_section_and_the_comparison(director_client, base, public):
    post(director_client, base + "sections/", {})
    response = post(director_client, base + "sections/B/pairs/", {"pairs": [11, 12]})
    assert response.status_code == 200 and response.json()["pairs"] == [11, 12]
    missing = post(director_client, base + "sections/B/pairs/", {"pairs": [40]})
    assert missing.status_code == 400 and "no pair 40" in missing.json()["error"]
    for loose in (0, "true", None):  # JSON true or false only
        assert post(director_client, base + "section-scoring/",
                    {"compare_by_section": loose}).status_code == 400
    assert post(director_client, base + "sections/", {"name": 0}).status_code == 400
    response = post(director_client, base + "section-scoring/", {"compare_by_section": True})
    assert response.status_code == 200 and response.json()["compare_by_section"] is True
    assert Event.objects.get().compare_by_section
    assert post(public, base + "section-scoring/",
                {"compare_by_section": False}).status_code in (401, 403, 404)
