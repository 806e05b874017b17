"""The console's results sent out: links in the print room, the files downloaded."""

from xml.etree import ElementTree as ET

import pytest
from django.test import Client

from boards.pbn import parse_games
from tests.api.helpers import build_night
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(director):
    night = build_night(director)
    night.play_all()
    return night


def test_the_print_room_links_both_formats(night, director_client):
    page = director_client.get(f"/events/{night.event.pk}/reports/").content.decode()
    assert f"/director/events/{night.event.pk}/exports/usebio/" in page
    assert f"/director/events/{night.event.pk}/exports/pbn/" in page
    assert "Results files (USEBIO, PBN)" in page and "<h1>Print and export:" in page


def test_the_director_downloads_each_file(night, director_client):
    base = f"/director/events/{night.event.pk}/exports/"
    usebio = director_client.get(base + "usebio/")
    assert usebio.status_code == 200
    assert usebio["Content-Type"] == "application/xml; charset=utf-8"
    assert usebio["Content-Disposition"].startswith("attachment;")
    assert ET.fromstring(usebio.content).get("Version") == "1.2"
    pbn = director_client.get(base + "pbn/")
    assert pbn["Content-Type"] == "application/x-pbn; charset=utf-8"
    assert len(parse_games(pbn.content.decode())) == 18


def test_an_unknown_format_is_a_404(night, director_client):
    assert director_client.get(f"/director/events/{night.event.pk}/exports/csv/"
                               ).status_code == 404


def test_a_teams_event_is_told_to_use_pbn(night, director_client):
    night.event.kind, night.event.method = "teams", "total-points"
    night.event.save(update_fields=["kind", "method"])
    response = director_client.get(f"/director/events/{night.event.pk}/exports/usebio/",
                                   follow=True)
    assert "a teams event can be sent as PBN" in response.content.decode()
    page = director_client.get(f"/events/{night.event.pk}/reports/").content.decode()
    assert "exports/usebio/" not in page and "exports/pbn/" in page
    # The page says why the USEBIO button is not there.
    assert "USEBIO export is for pairs events; a teams event can be sent as PBN." in page


def test_not_for_players_or_the_public(night):
    url = f"/director/events/{night.event.pk}/exports/pbn/"
    assert Client().get(url).status_code == 302  # to the log-in page
    player = Client()
    player.force_login(UserFactory(username="bob"))
    assert player.get(url).status_code == 403


def test_the_print_room_says_when_the_files_are_not_final(night, director_client, settings):
    """A results file made while the night is in play or its standings provisional holds
    places that may change, and says nothing of it: the page says so. It also names the
    club the files carry, or says CLUB_NAME is not set."""
    from tournaments.models import Event

    url = f"/events/{night.event.pk}/reports/"
    settings.CLUB_NAME = ""
    page = director_client.get(url).content.decode()
    assert 'data-testid="export-not-final"' in page and "the night is still in play" in page
    assert 'data-testid="club-name-unset"' in page and "<code>CLUB_NAME</code> is not set" in page
    Event.objects.filter(pk=night.event.pk).update(status="closed", published="final")
    settings.CLUB_NAME = "Gramercy Whist Club"
    page = director_client.get(url).content.decode()
    assert 'data-testid="export-not-final"' not in page
    assert "The files name the club “Gramercy Whist Club”." in page
