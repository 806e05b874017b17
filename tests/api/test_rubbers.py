"""The score pad's API: create a pad, add deals, correct the last, get the sheet."""

import pytest
from rest_framework.test import APIClient

from tournaments.models import Rubber

pytestmark = pytest.mark.django_db


def deal(level, denom, declarer, tricks, **more):
    return {"deal": {"contract": {"level": level, "denomination": denom,
                                  "declarer": declarer}, "tricks": tricks}, **more}


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def pad(api):
    response = api.post("/api/rubbers/", {"game": "auction",
                                          "players": ["Ann", "Bob", "Cy", "Di"]}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_create_answers_with_the_empty_sheet_and_its_code(pad):
    assert pad["game"] == "auction" and pad["deals"] == [] and not pad["complete"]
    assert pad["next_dealer"] == "N" and pad["next_dealer_name"] == "Ann"
    assert Rubber.objects.get().code == pad["code"]


def test_deals_are_added_scored_and_refused_after_the_rubber(api, pad):
    url = f"/api/rubbers/{pad['code']}/deals/"
    sheet = api.post(url, deal(4, "RS", "N", 10), format="json").json()
    assert sheet["periods"][0]["winner"] == "NS" and sheet["next_dealer"] == "E"
    sheet = api.post(url, deal(4, "RS", "S", 10), format="json").json()
    assert sheet["complete"] and sheet["winner"] == "NS"
    assert sheet["totals"]["NS"] == 36 + 36 + 250
    refused = api.post(url, deal(1, "C", "E", 7), format="json")
    assert refused.status_code == 400
    body = refused.json()
    assert "after the end of the rubber" in body["error"] and "field" in body
    assert api.get(f"/api/rubbers/{pad['code']}/").json()["deals"][1]["dealer"] == "E"


def test_correct_any_deal_and_a_deal_changed_since_is_a_409(api, pad):
    url = f"/api/rubbers/{pad['code']}/deals/"
    api.post(url, deal(1, "H", "S", 9), format="json")
    sheet = api.post(url, deal(1, "H", "S", 9), format="json").json()
    first = sheet["deals"][0]
    assert first["what"] == "1♥ by Cy (S), 9 tricks" and first["version"] == 1
    fixed = api.put(url + "last/", {**deal(1, "H", "S", 8), "number": 1,
                                    "version": first["version"]}, format="json")
    assert fixed.status_code == 200
    assert [d["above"]["NS"] for d in fixed.json()["deals"]] == [16, 24]
    stale = api.put(url + "last/", {**deal(1, "H", "S", 7), "number": 1,
                                    "version": first["version"]}, format="json")
    assert stale.status_code == 409 and stale.json()["field"] == "version"
    assert stale.json()["error"].startswith(
        "Deal 1 was changed on another phone since this correction was begun: it now reads "
        "1♥ by Cy (S), 8 tricks. Nothing was saved")
    assert stale.json()["existing"]["data"]["tricks"] == 8
    # Left out, the number is the last deal's and the version is not checked, as before.
    sheet = api.put(url + "last/", deal(1, "H", "S", 8), format="json").json()
    assert sheet["deals"][1]["above"]["NS"] == 16


def test_remove_only_the_last_and_a_won_rubber_opens_again(api, pad):
    url = f"/api/rubbers/{pad['code']}/deals/"
    api.post(url, deal(4, "RS", "N", 10), format="json")
    assert api.post(url, deal(4, "RS", "S", 10), format="json").json()["complete"]
    unnamed = api.delete(url + "last/")
    assert unnamed.status_code == 400 and unnamed.json()["field"] == "number"
    wrong = api.delete(url + "last/?number=1")
    assert wrong.status_code == 400 and "Only the last deal can be removed" in wrong.json()[
        "error"]
    sheet = api.delete(url + "last/?number=2").json()
    assert len(sheet["deals"]) == 1 and not sheet["complete"] and sheet["next_dealer"] == "E"
    again = api.delete(url + "last/?number=2")  # sent twice: deal 1 stays
    assert again.status_code == 409 and again.json()["existing"] is None
    assert "Deal 2 is off the sheet already" in again.json()["error"]
    assert len(api.get(url[:-6]).json()["deals"]) == 1
    version = api.get(url[:-6]).json()["deals"][0]["version"]
    assert api.delete(url + f"last/?number=1&version={version + 5}").status_code == 409
    assert api.delete(url + f"last/?number=1&version={version}").status_code == 200


def test_bad_input_in_the_one_error_shape(api, pad):
    response = api.post("/api/rubbers/", {"game": "poker", "players": []}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "game"
    bad = api.post(f"/api/rubbers/{pad['code']}/deals/",
                   deal(9, "H", "S", 9), format="json")
    assert bad.status_code == 400 and bad.json()["error"]
    assert api.get("/api/rubbers/nothing-here/").status_code == 404


def test_a_whist_dummy_revoke_is_refused(api):
    pad = api.post("/api/rubbers/", {"game": "whist", "form": "dummy", "dummy": "N",
                                     "players": ["Ann", "Bob", "Cy", "Di"]},
                   format="json").json()
    response = api.post(f"/api/rubbers/{pad['code']}/deals/",
                        {"deal": {"tricks_ns": 7}, "revokes_by": {"N": 1}}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "revokes_by.N"


def test_the_pad_is_in_the_schema():
    from django.urls import include, path
    from drf_spectacular.generators import SchemaGenerator

    generator = SchemaGenerator(patterns=[path("api/", include("tournaments.api.urls"))])
    paths = generator.get_schema(request=None, public=True)["paths"]
    assert {"/api/rubbers/", "/api/rubbers/{code}/", "/api/rubbers/{code}/deals/",
            "/api/rubbers/{code}/deals/last/"} <= set(paths)
    assert "delete" in paths["/api/rubbers/{code}/deals/last/"]


# --- Idempotency-Key: a resent write gets the first answer ----------------------------------


NEW_PAD = {"game": "auction", "players": ["Ann", "Bob", "Cy", "Di"]}


def test_a_resent_new_pad_gets_the_first_pad_and_makes_no_second(api):
    first = api.post("/api/rubbers/", NEW_PAD, format="json", HTTP_IDEMPOTENCY_KEY="new-1")
    again = api.post("/api/rubbers/", NEW_PAD, format="json", HTTP_IDEMPOTENCY_KEY="new-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Rubber.objects.count() == 1
    changed = api.post("/api/rubbers/", {**NEW_PAD, "players": ["Ann", "Bob", "Cy", "Ed"]},
                       format="json", HTTP_IDEMPOTENCY_KEY="new-1")
    assert changed.status_code == 422 and changed.json()["field"] == "Idempotency-Key"
    assert Rubber.objects.count() == 1


def test_a_new_pads_key_belongs_to_the_client_address(api):
    """Another phone (another address) using the same key makes its own pad."""
    api.post("/api/rubbers/", NEW_PAD, format="json", HTTP_IDEMPOTENCY_KEY="same",
             REMOTE_ADDR="10.0.0.1")
    other = api.post("/api/rubbers/", NEW_PAD, format="json", HTTP_IDEMPOTENCY_KEY="same",
                     REMOTE_ADDR="10.0.0.2")
    assert other.status_code == 201 and "Idempotent-Replayed" not in other
    assert Rubber.objects.count() == 2


def test_a_resent_deal_is_added_once(api, pad):
    url = f"/api/rubbers/{pad['code']}/deals/"
    first = api.post(url, deal(1, "H", "S", 9), format="json", HTTP_IDEMPOTENCY_KEY="d-1")
    again = api.post(url, deal(1, "H", "S", 9), format="json", HTTP_IDEMPOTENCY_KEY="d-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert len(api.get(f"/api/rubbers/{pad['code']}/").json()["deals"]) == 1
    changed = api.post(url, deal(1, "H", "S", 8), format="json", HTTP_IDEMPOTENCY_KEY="d-1")
    assert changed.status_code == 422 and "different request" in changed.json()["error"]
    assert len(api.get(f"/api/rubbers/{pad['code']}/").json()["deals"]) == 1
    # The key is the pad's: another pad may use the same key for its own deal.
    other = api.post("/api/rubbers/", NEW_PAD, format="json").json()
    theirs = api.post(f"/api/rubbers/{other['code']}/deals/", deal(1, "H", "S", 9),
                      format="json", HTTP_IDEMPOTENCY_KEY="d-1")
    assert theirs.status_code == 201 and "Idempotent-Replayed" not in theirs


def test_a_refused_deal_is_replayed_as_refused(api, pad):
    url = f"/api/rubbers/{pad['code']}/deals/"
    first = api.post(url, deal(9, "H", "S", 9), format="json", HTTP_IDEMPOTENCY_KEY="bad")
    again = api.post(url, deal(9, "H", "S", 9), format="json", HTTP_IDEMPOTENCY_KEY="bad")
    assert first.status_code == again.status_code == 400
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"


def test_a_resent_correction_gets_the_first_answer(api, pad):
    url = f"/api/rubbers/{pad['code']}/deals/"
    api.post(url, deal(1, "H", "S", 9), format="json")
    body = {**deal(1, "H", "S", 8), "number": 1}
    first = api.put(url + "last/", body, format="json", HTTP_IDEMPOTENCY_KEY="fix-1")
    # Meanwhile the deal was put right again another way; the resend changes nothing.
    api.put(url + "last/", {**deal(1, "H", "S", 10), "number": 1}, format="json")
    again = api.put(url + "last/", body, format="json", HTTP_IDEMPOTENCY_KEY="fix-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert api.get(f"/api/rubbers/{pad['code']}/").json()["deals"][0]["data"]["tricks"] == 10
    changed = api.put(url + "last/", {**deal(1, "H", "S", 7), "number": 1}, format="json",
                      HTTP_IDEMPOTENCY_KEY="fix-1")
    assert changed.status_code == 422


def test_the_pad_writes_document_their_key():
    from django.urls import include, path
    from drf_spectacular.generators import SchemaGenerator

    generator = SchemaGenerator(patterns=[path("api/", include("tournaments.api.urls"))])
    paths = generator.get_schema(request=None, public=True)["paths"]
    for where, method in (("/api/rubbers/", "post"), ("/api/rubbers/{code}/deals/", "post"),
                          ("/api/rubbers/{code}/deals/last/", "put")):
        operation = paths[where][method]
        assert "Idempotency-Key" in {p["name"] for p in operation["parameters"]}
        assert "422" in operation["responses"]


def test_a_deal_sent_with_its_number_is_the_next_deal_or_refused(api, pad):
    url = f"/api/rubbers/{pad['code']}/deals/"
    assert api.post(url, {**deal(1, "H", "S", 9), "number": 1}, format="json").status_code == 201
    again = api.post(url, {**deal(1, "H", "S", 9), "number": 1}, format="json")
    assert again.status_code == 400 and again.json()["field"] == "number"
    assert again.json()["error"].startswith("Deal 1 is on the sheet already")
    beyond = api.post(url, {**deal(1, "H", "S", 9), "number": 3}, format="json")
    assert beyond.status_code == 400 and "the sheet now ends at deal 1" in beyond.json()["error"]
    assert len(api.get(url[:-6]).json()["deals"]) == 1
