"""The API's seasons: GET /api/seasons/ and /api/seasons/<id>/ for anyone (published
seasons; the director's, all), POST and PUT for the director."""

import pytest
from rest_framework.test import APIClient

from tournaments.models import Season
from tournaments.services import season_save


@pytest.fixture
def public():
    return APIClient()


@pytest.fixture
def director_api(night_director):
    client = APIClient()
    client.force_login(night_director)
    return client


@pytest.fixture
def nights(make_night):
    return make_night("Night 1"), make_night("Night 2", published="provisional")


def test_the_public_reads_published_seasons_only(public, nights, actor):
    shown = season_save(name="Shown", entrants="individuals", published=True,
                        event_ids=[e.pk for e in nights], actor=actor)
    hidden = season_save(name="Hidden", event_ids=[nights[0].pk], actor=actor)
    listed = public.get("/api/seasons/")
    assert listed.status_code == 200
    assert [s["name"] for s in listed.json()] == ["Shown"]
    assert public.get(f"/api/seasons/{hidden.pk}/").status_code == 404
    table = public.get(f"/api/seasons/{shown.pk}/").json()
    assert [e["counts"] for e in table["events"]] == [True, False]
    row = table["rows"][0]
    assert {"place", "member", "name", "events", "score"} <= set(row)
    assert row["events"] == 1


def test_the_director_creates_and_changes_a_season(director_api, public, nights):
    body = {"name": "Winter ladder", "entrants": "individuals", "counts": "points",
            "rule": "best", "best_of": 1, "points_scale": [10, 8, 6], "min_events": 1,
            "published": True, "events": [nights[0].pk, nights[1].pk]}
    assert public.post("/api/seasons/", body, format="json").status_code in (401, 403)
    created = director_api.post("/api/seasons/", body, format="json")
    assert created.status_code == 201, created.json()
    season = Season.objects.get()
    assert created.json()["events"] == [nights[0].pk, nights[1].pk]
    changed = director_api.put(f"/api/seasons/{season.pk}/",
                               {**body, "rule": "total", "events": [nights[0].pk]},
                               format="json")
    assert changed.status_code == 200
    assert changed.json()["best_of"] is None and changed.json()["events"] == [nights[0].pk]
    assert public.put(f"/api/seasons/{season.pk}/", body, format="json").status_code in (
        401, 403)


def test_bad_input_is_a_400_in_words(director_api, nights):
    refused = director_api.post("/api/seasons/", {
        "name": "Ladder", "counts": "points", "points_scale": [5, 8],
        "events": [nights[0].pk]}, format="json")
    assert refused.status_code == 400
    assert "place 2 would score more than place 1" in str(refused.json()).lower()
    refused = director_api.post("/api/seasons/", {"name": "Ladder", "published": "yes"},
                                format="json")
    assert refused.status_code == 400
    assert not Season.objects.exists()
