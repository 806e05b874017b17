"""The API's member list (director only, documented in the OpenAPI schema)."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.api.helpers import post
from tests.factories import DirectorFactory
from tournaments.models import Player

from .conftest import GOOD

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(director) -> APIClient:
    client = APIClient()
    client.force_login(director)
    return client


def test_import_list_search_create_update(api):
    done = post(api, "/api/members/import/", {"csv": GOOD})
    assert done.status_code == 200, done.json()
    assert done.json() == {"created": 3, "updated": 0}
    listed = api.get("/api/members/").json()
    assert [m["number"] for m in listed] == ["1003", "1001", "1002"]
    found = api.get("/api/members/", {"q": "ann"}).json()
    assert [m["name"] for m in found] == ["Ann Lee"]
    made = post(api, "/api/members/", {"number": "77", "first_name": "Nell",
                                       "last_name": "New"})
    assert made.status_code == 201 and made.json()["name"] == "Nell New"
    pk = made.json()["id"]
    changed = api.put(f"/api/members/{pk}/", {"number": "77", "first_name": "Nell",
                                             "last_name": "Newer", "active": False},
                      format="json", HTTP_IDEMPOTENCY_KEY="k-put-1")
    assert changed.status_code == 200, changed.json()
    assert Player.objects.get(pk=pk).active is False
    assert [m["number"] for m in api.get("/api/members/", {"active": "false"}).json()] == ["77"]


def test_a_bad_row_is_named_and_nothing_stored(api):
    bad = post(api, "/api/members/import/", {"csv": GOOD + "1004,Dan,Fox,nope\n"})
    assert bad.status_code == 400
    assert bad.json()["error"].startswith("Line 5:")
    assert not Player.objects.exists()


def test_a_taken_number_is_a_400_naming_the_field(api, members):
    made = post(api, "/api/members/", {"number": "1001", "first_name": "X", "last_name": "Y"})
    assert made.status_code == 400 and made.json()["field"] == "number"


def test_the_public_and_tables_may_not(db):
    public = APIClient()
    assert public.get("/api/members/").status_code in (401, 403)
    assert post(public, "/api/members/import/", {"csv": GOOD}).status_code in (401, 403)
    assert not Player.objects.exists()


def test_the_schema_documents_the_members():
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    assert {"get", "post"} <= set(paths["/api/members/"])
    assert "post" in paths["/api/members/import/"]
    assert "put" in paths["/api/members/{player_id}/"]


def test_director_factory():
    assert DirectorFactory.build().is_staff


def test_merge_two_records_of_one_person(api, members):
    keep = Player.objects.get(number="1001")
    drop = Player.objects.create(name="A. Lee", email="al@example.org")
    merged = post(api, f"/api/members/{keep.pk}/merge/",
                  {"drop": drop.pk, "reason": "the same person, written two ways"})
    assert merged.status_code == 200, merged.json()
    assert merged.json()["number"] == "1001"
    assert not Player.objects.filter(pk=drop.pk).exists()
    again = post(api, f"/api/members/{keep.pk}/merge/", {"drop": drop.pk, "reason": "x"})
    assert again.status_code == 404
    itself = post(api, f"/api/members/{keep.pk}/merge/", {"drop": keep.pk, "reason": "x"})
    assert itself.status_code == 400 and itself.json()["field"] == "drop"
    public = APIClient()
    other = Player.objects.create(name="Ann L")
    refused = post(public, f"/api/members/{keep.pk}/merge/", {"drop": other.pk, "reason": "x"})
    assert refused.status_code in (401, 403)
    assert Player.objects.filter(pk=other.pk).exists()


def test_bad_input_is_a_400_in_the_apis_shape_never_a_500(api, members):
    assert api.get("/api/members/", {"q": "Ann\x00"}).status_code == 400
    for value in ("null", "1", "yes"):
        refused = api.get("/api/members/", {"visitors": value})
        assert refused.status_code == 400 and refused.json()["field"] == "visitors"
    assert api.get("/api/members/?active=true&active=false").status_code == 400
    # Only a name: the number is a visitor's (none), not a crash.
    made = post(api, "/api/members/", {"first_name": "Vi", "last_name": "Sitor"})
    assert made.status_code == 201 and made.json()["number"] is None
    assert post(api, "/api/members/", {"last_name": "X", "active": 0}).status_code == 400
    assert post(api, "/api/members/import/", {"csv": 7}).status_code == 400
    # A body larger than Django takes is refused in the API's shape, not as an HTML page.
    big = post(api, "/api/members/import/", {"csv": "x" * 3_000_000})
    assert big.status_code == 400 and big.json()["field"] == "body"
    assert "too large" in big.json()["error"]


def test_the_console_search_drops_a_nul(director, members):
    director_client = Client()
    director_client.force_login(director)
    found = director_client.get("/director/members/find.json", {"q": "Ann\x00"})
    assert found.status_code == 200
    assert [m["name"] for m in found.json()["members"]] == ["Ann Lee"]
