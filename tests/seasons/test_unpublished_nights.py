"""A night whose standings are not published is not named to the public by a season
(decision 123: an unpublished event is not named at all; its own page is the site's
404). The director still sees it, marked as not published; the `season` command, the
operator's, lists every night as before."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from tournaments.selectors import season_events, season_table
from tournaments.services import season_save


@pytest.fixture
def nights(make_night):
    return (make_night("Night 1"), make_night("Night 2", published="provisional"),
            make_night("Secret night", published="none"))


@pytest.fixture
def season(nights, actor):
    return season_save(name="Autumn pairs", entrants="individuals", published=True,
                       event_ids=[e.pk for e in nights], actor=actor)


def test_the_public_table_does_not_list_an_unpublished_night(season, nights):
    public = season_table(season, director=False)
    assert [e["name"] for e in public["events"]] == ["Night 1", "Night 2"]
    assert all(n["event"] != nights[2].pk for r in public["rows"] for n in r["nights"])
    director = season_events(season, director=True)
    assert [(e["name"], e["published"]) for e in director] == [
        ("Night 1", "final"), ("Night 2", "provisional"), ("Secret night", "none")]


def test_the_public_page_and_api_do_not_name_it(client, season, nights):
    assert client.get(reverse("public-standings", kwargs={"pk": nights[2].pk})
                      ).status_code == 404
    page = client.get(reverse("public-season", kwargs={"pk": season.pk})).content.decode()
    assert "Secret night" not in page
    assert "Night 2" in page  # a provisional night is named: counted once final
    answer = APIClient().get(f"/api/seasons/{season.pk}/")
    assert answer.status_code == 200
    assert "Secret night" not in answer.content.decode()
    assert nights[2].pk not in [e["id"] for e in answer.json()["events"]]


def test_the_director_sees_it_marked_not_published(client, night_director, season, nights):
    client.force_login(night_director)
    page = client.get(reverse("public-season", kwargs={"pk": season.pk})).content.decode()
    head = page.split('data-testid="season-table"', 1)[1].split("</thead>", 1)[0]
    # Its column, marked: the public's count does not hold it yet, nor will the public
    # see it until it is published.
    assert 'title="Secret night"' in head
    assert head.count("not published") == 1 and head.count("not final") == 1
    api = APIClient()
    api.force_login(night_director)
    assert "Secret night" in api.get(f"/api/seasons/{season.pk}/").content.decode()


def test_the_season_command_still_lists_every_night(season):
    out = StringIO()
    call_command("season", str(season.pk), "--format", "json", stdout=out)
    events = json.loads(out.getvalue())["events"]
    assert [(e["name"], e["final"]) for e in events] == [
        ("Night 1", True), ("Night 2", False), ("Secret night", False)]


def test_the_list_of_seasons_counts_only_the_nights_the_caller_sees(client, night_director,
                                                                    season):
    """The public list said "(3 nights, 1 final so far)", counting the night it may not
    name."""
    listed = client.get(reverse("public-seasons")).content.decode()
    assert "(2 nights, 1 final so far)" in listed
    client.force_login(night_director)
    listed = client.get(reverse("public-seasons")).content.decode()
    assert "(3 nights, 1 final so far)" in listed


def test_the_api_list_of_seasons_gives_the_public_no_unpublished_night(night_director,
                                                                        season, nights):
    public = APIClient().get("/api/seasons/").json()
    [listed] = [s for s in public if s["id"] == season.pk]
    assert listed["events"] == [nights[0].pk, nights[1].pk]
    api = APIClient()
    api.force_login(night_director)
    [listed] = [s for s in api.get("/api/seasons/").json() if s["id"] == season.pk]
    assert listed["events"] == [e.pk for e in nights]
