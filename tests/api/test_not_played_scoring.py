"""The event's scoring of a board not played (matchpoints) over the API: chosen when the
event is created, shown with the event, described in the OpenAPI schema."""

import pytest
from drf_spectacular.generators import SchemaGenerator

from tournaments.models import Event

from .helpers import post

pytestmark = pytest.mark.django_db


def test_an_event_scores_a_board_not_played_by_neuberg_unless_told(director_client):
    response = post(director_client, "/api/events/",
                    {"name": "Friday pairs", "date": "2026-11-20", "method": "matchpoints"})
    assert response.status_code == 201, response.json()
    assert response.json()["not_played_scoring"] == "neuberg"


def test_the_director_chooses_the_pairs_own_average(director_client):
    response = post(director_client, "/api/events/",
                    {"name": "Friday pairs", "date": "2026-11-20", "method": "matchpoints",
                     "not_played_scoring": "own-average"})
    assert response.status_code == 201, response.json()
    assert response.json()["not_played_scoring"] == "own-average"
    assert Event.objects.get(pk=response.json()["id"]).not_played_scoring == "own-average"
    shown = director_client.get(f"/api/events/{response.json()['id']}/").json()
    assert shown["not_played_scoring"] == "own-average"


def test_an_unknown_scoring_is_refused_by_its_field(director_client):
    response = post(director_client, "/api/events/",
                    {"name": "Friday pairs", "date": "2026-11-20",
                     "not_played_scoring": "average"})
    assert response.status_code == 400
    assert response.json()["field"] == "not_played_scoring"


def test_the_schema_describes_it():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    assert "not_played_scoring" in components["EventOut"]["properties"]
    assert "not_played_scoring" in components["EventIn"]["properties"]
