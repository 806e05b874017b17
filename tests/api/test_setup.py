"""The director sets a night up over the API: event, pairs, teams, boards, movement, state."""

import pytest

from tournaments.models import Event, Meeting, TableCode

from .helpers import DEAL_1, post

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(director_client) -> dict:
    response = post(director_client, "/api/events/",
                    {"name": "Friday pairs", "date": "2026-11-20", "method": "matchpoints"})
    assert response.status_code == 201, response.json()
    return response.json()


def test_the_director_creates_an_event(event):
    assert (event["name"], event["rules"], event["kind"], event["method"]) == (
        "Friday pairs", "american-1913", "pairs", "matchpoints")
    assert event["status"] == "setting-up" and event["published"] == "none"
    assert event["sections"][0]["name"] == "A"


def test_an_event_needs_a_fitting_method(director_client):
    response = post(director_client, "/api/events/",
                    {"name": "Teams", "date": "2026-11-20", "kind": "teams",
                     "method": "matchpoints"})
    assert response.status_code == 400
    assert response.json() == {"error": "A team match is scored by total points "
                                        "(Duplicate Law G)", "field": "method"}


def test_an_event_needs_a_name_and_date(director_client):
    response = post(director_client, "/api/events/", {"date": "2026-11-20"})
    assert response.status_code == 400
    assert response.json()["field"] == "name"
    assert response.json()["error"] == "Name: this field is required."


def test_pairs_boards_and_movement(director_client, event):
    base = f"/api/events/{event['id']}/"
    for number in range(1, 7):
        response = director_client.put(base + f"pairs/{number}/",
                                       {"players": [f"N{number}", f"S{number}"]}, format="json")
        assert response.status_code == 200, response.json()
    renamed = director_client.put(base + "pairs/2/", {"players": ["Ann", "Bob"]},
                                  format="json").json()
    assert renamed == {"number": 2, "names": ["Ann", "Bob"], "team": None, "section": "A"}
    response = director_client.put(base + "boards/", {"count": 6, "deals": {"1": DEAL_1}},
                                   format="json")
    assert [b["number"] for b in response.json()] == [1, 2, 3, 4, 5, 6]
    assert response.json()[0]["deal"] == DEAL_1
    response = post(director_client, base + "movement/",
                    {"movement": "mitchell", "tables": 3, "boards_per_round": 2})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["movement"], body["tables"], len(body["rounds"])) == ("mitchell", 3, 3)
    assert sum(len(r["meetings"]) for r in body["rounds"]) == 9
    assert TableCode.objects.filter(section__event_id=event["id"]).count() == 3
    assert Meeting.objects.filter(section__event_id=event["id"]).count() == 9
    assert director_client.get(base + "pairs/").json()[1]["names"] == ["Ann", "Bob"]


def test_a_movement_needs_its_pairs(director_client, event):
    response = post(director_client, url_of(event, "movement/"),
                    {"movement": "mitchell", "tables": 3, "boards_per_round": 2})
    assert response.status_code == 400
    assert response.json()["field"] == "pairs"
    assert response.json()["error"].startswith("The movement needs pairs 1 to 6")


def test_a_movement_must_be_named(director_client, event):
    response = post(director_client, url_of(event, "movement/"),
                    {"movement": "none", "tables": 3, "boards_per_round": 2})
    assert response.status_code == 400
    assert response.json()["field"] == "movement"


def test_bad_boards(director_client, event):
    response = director_client.put(url_of(event, "boards/"),
                                   {"count": 4, "deals": {"9": DEAL_1}}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "Board 9 is not among boards 1 to 4"
    response = director_client.put(url_of(event, "boards/"),
                                   {"count": 4, "deals": {"1": "N:AKQ"}}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "deal"
    assert response.json()["error"].startswith("Board 1:")


def test_teams(director_client):
    event = post(director_client, "/api/events/",
                 {"name": "Club match", "date": "2026-11-21", "kind": "teams"}).json()
    assert event["method"] == "total-points"
    response = post(director_client, url_of(event, "teams/"), {"names": ["Knickerbocker",
                                                                         "Manhattan"]})
    assert [t["name"] for t in response.json()] == ["Knickerbocker", "Manhattan"]
    response = director_client.put(url_of(event, "pairs/1/"),
                                   {"players": ["Ann", "Bob"], "team": "Manhattan"},
                                   format="json")
    assert response.json()["team"] == "Manhattan"
    response = director_client.put(url_of(event, "pairs/2/"),
                                   {"players": ["Cy", "Di"], "team": "Brooklyn"}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "team"
    teams = director_client.get(url_of(event, "teams/")).json()
    assert teams[1]["pairs"] == [1]


def test_status_and_publishing(director_client, event):
    response = post(director_client, url_of(event, "status/"), {"status": "agreed"})
    assert response.status_code == 400
    assert response.json()["error"] == "An event that is setting up cannot become agreed"
    for status in ("running", "closed"):
        response = post(director_client, url_of(event, "status/"), {"status": status})
        assert response.status_code == 200 and response.json()["status"] == status
    response = post(director_client, url_of(event, "publish/"), {"published": "final"})
    assert response.json()["published"] == "final"
    assert Event.objects.get(pk=event["id"]).published == "final"
    response = post(director_client, url_of(event, "publish/"), {"published": "everything"})
    assert response.status_code == 400 and response.json()["field"] == "published"


def url_of(event: dict, tail: str) -> str:
    return f"/api/events/{event['id']}/{tail}"


def _pairs(director_client, event, count):
    for number in range(1, count + 1):
        response = director_client.put(url_of(event, f"pairs/{number}/"),
                                       {"players": [f"N{number}", f"S{number}"]}, format="json")
        assert response.status_code == 200, response.json()


def test_a_movement_fits_the_pairs_entered(director_client, event):
    _pairs(director_client, event, 10)
    response = post(director_client, url_of(event, "movement/"),
                    {"movement": "mitchell", "tables": 4, "boards_per_round": 2})
    assert response.status_code == 400
    assert response.json() == {"error": "10 pairs need 5 tables", "field": "tables"}
    assert not Meeting.objects.filter(section__event_id=event["id"]).exists()


def test_an_odd_number_of_pairs_makes_a_sit_out_movement(director_client, event):
    """9 pairs in a Howell: 4 tables in play; whoever is due to meet pair 10 sits out."""
    _pairs(director_client, event, 9)
    director_client.put(url_of(event, "boards/"), {"count": 20}, format="json")
    response = post(director_client, url_of(event, "movement/"),
                    {"movement": "mitchell", "tables": 4, "boards_per_round": 2})
    assert response.json() == {"error": "9 pairs need 5 tables and one pair sits out each "
                                        "round", "field": "tables"}
    response = post(director_client, url_of(event, "movement/"),
                    {"movement": "howell", "tables": 4, "boards_per_round": 2})
    assert response.status_code == 200, response.json()
    body = response.json()
    seated = [{m["ns"], m["ew"]} for r in body["rounds"] for m in r["meetings"]]
    assert len(body["rounds"]) == 9
    assert all(len(r["meetings"]) == 4 for r in body["rounds"])
    assert all(10 not in pair for pair in seated)
    for number in range(1, 10):  # each pair sits out one round
        assert sum(number in pair for pair in seated) == 8
