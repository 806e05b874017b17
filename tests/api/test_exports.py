"""GET /api/events/<id>/exports/<usebio|pbn>/: the director's download of the results."""

from xml.etree import ElementTree as ET

import pytest

from boards.pbn import parse_games

from .helpers import url

pytestmark = pytest.mark.django_db


def test_the_director_downloads_usebio(night, director_client):
    night.play_all()
    response = director_client.get(url(night.event, "exports/usebio/"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/xml; charset=utf-8"
    assert 'filename="event-' in response["Content-Disposition"]
    root = ET.fromstring(response.content)
    assert root.tag == "USEBIO" and root.get("Version") == "1.2"


def test_the_director_downloads_pbn(night, director_client):
    night.play_all()
    response = director_client.get(url(night.event, "exports/pbn/"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-pbn; charset=utf-8"
    games = parse_games(response.content.decode())
    assert games and all(g.tags["Contract"] == "2H" for g in games)


def test_an_unknown_format_is_a_404(night, director_client):
    response = director_client.get(url(night.event, "exports/csv/"))
    assert response.status_code == 404
    assert "usebio or pbn" in response.json()["error"]


def test_a_teams_event_has_no_usebio(night, director_client):
    night.event.kind, night.event.method = "teams", "total-points"
    night.event.save(update_fields=["kind", "method"])
    response = director_client.get(url(night.event, "exports/usebio/"))
    assert response.status_code == 400
    assert response.json()["field"] == "fmt"


def test_a_hidden_event_is_a_404_to_others(night, public, table_client, other_night):
    assert public.get(url(night.event, "exports/pbn/")).status_code == 404
    # A table of another event knows nothing of this one.
    other = table_client(1, other_night.codes[1])
    assert other.get(url(night.event, "exports/pbn/")).status_code == 404


def test_only_the_director_downloads_even_once_published(night, public, table_client):
    night.event.published = "provisional"
    night.event.save(update_fields=["published"])
    assert public.get(url(night.event, "exports/usebio/")).status_code in (401, 403)
    assert table_client(1).get(url(night.event, "exports/pbn/")).status_code == 403


def test_the_export_is_in_the_schema(director_client):
    schema = director_client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    text = schema.content.decode()
    assert "/exports/{fmt}/" in text and "application/x-pbn" in text
