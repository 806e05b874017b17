"""The party night's API: the director sets up, starts and moves the night; each table
enters its deals by its phone's code; anyone reads the standings."""

import uuid

import pytest
from rest_framework.test import APIClient

from tests.factories import PlayerFactory
from tournaments.models import AuditEntry, Party, PartyDeal

pytestmark = pytest.mark.django_db


def nt(declarer="N", tricks=8):
    return {"deal": {"contract": {"level": 1, "denomination": "NT", "declarer": declarer},
                     "tricks": tricks}}


def key():
    return {"HTTP_IDEMPOTENCY_KEY": uuid.uuid4().hex}


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def started(director_client):
    member = PlayerFactory(name="Mae West", number="77")
    body = {"name": "Christmas party", "date": "2026-12-18", "game": "auction",
            "deals_per_round": 1, "rounds": 2,
            "players": [{"member": member.pk}, {"name": "Bob"}, {"name": "Cy"},
                        {"name": "Di"}, {"name": "Eve"}, {"name": "Fay"}, {"name": "Gus"},
                        {"name": "Hal"}]}
    made = director_client.post("/api/parties/", body, format="json")
    assert made.status_code == 201, made.json()
    party = made.json()
    assert party["players"][0] == {"player": 1, "name": "Mae West", "member": "77"}
    answer = director_client.post(f"/api/parties/{party['id']}/start/", {}, format="json")
    assert answer.status_code == 200, answer.json()
    return answer.json()


def test_the_director_sets_up_and_starts_a_night(started):
    assert started["status"] == "playing" and started["current_round"] == 1
    assert [t["table"] for t in started["tables"]] == [1, 2]


def test_a_table_enters_by_its_code_and_the_night_moves_on(api, director_client, started):
    codes = {t["table"]: t["code"] for t in started["tables"]}
    view = api.get(f"/api/party-tables/{codes[1]}/").json()
    assert view["round"] == 1 and view["next_deal"]["dealer_name"] == "Mae West"
    answer = api.post(f"/api/party-tables/{codes[1]}/deals/", nt("N", 8), format="json",
                      **key())
    assert answer.status_code == 201, answer.json()
    here = answer.json()["here"]
    assert here["done"] and here["points"] == {"NS": 20, "EW": 0}
    assert here["tally"] == {"NS": 20, "EW": -20}
    api.post(f"/api/party-tables/{codes[2]}/deals/", nt("E", 9), format="json", **key())
    rnd = director_client.get(f"/api/parties/{started['id']}/rounds/1/").json()
    assert rnd["over"] and rnd["progression"]["round"] == 2
    moved = director_client.post(f"/api/parties/{started['id']}/advance/", {}, format="json")
    assert moved.status_code == 200 and moved.json()["current_round"] == 2
    standings = api.get(f"/api/parties/{started['id']}/standings/").json()
    assert [(r["place"], r["total"]) for r in standings["rows"]][:2] == [("1=", 30),
                                                                          ("1=", 30)]
    # Round 2 has just begun: no deal in yet, so no tally (null), as a round not played.
    assert standings["rows"][0]["rounds"] == [30, None]


def test_a_table_must_send_a_key_and_a_resend_is_not_counted_twice(api, started):
    code = started["tables"][0]["code"]
    # the pad's rule: a phone's key is its own; without one it still works
    first = key()
    one = api.post(f"/api/party-tables/{code}/deals/", nt(), format="json", **first)
    two = api.post(f"/api/party-tables/{code}/deals/", nt(), format="json", **first)
    assert one.status_code == two.status_code == 201
    assert PartyDeal.objects.count() == 1


def test_bad_input_is_a_400_in_the_apis_shape(api, director_client, started):
    code = started["tables"][0]["code"]
    answer = api.post(f"/api/party-tables/{code}/deals/", nt(tricks=14), format="json",
                      **key())
    assert answer.status_code == 400
    assert answer.json()["error"] == "Tricks must be between 0 and 13"
    assert answer.json()["field"] == "tricks"
    answer = director_client.post(f"/api/parties/{started['id']}/advance/", {},
                                  format="json")
    assert answer.status_code == 400 and "not over at tables 1 and 2" in answer.json()["error"]
    bad = director_client.post("/api/parties/", {"name": "x", "date": "2026-12-18",
                                                 "game": "auction", "rounds": 2,
                                                 "players": []}, format="json")
    assert bad.status_code == 400 and "a number of deals or a number of minutes" in \
        bad.json()["error"]
    assert api.get("/api/party-tables/nosuchcode/").status_code == 404


def test_the_director_corrects_with_a_reason(api, director_client, started):
    code = started["tables"][0]["code"]
    api.post(f"/api/party-tables/{code}/deals/", nt(), format="json", **key())
    url = f"/api/parties/{started['id']}/rounds/1/tables/1/deals/1/"
    answer = director_client.put(url, {**nt("E", 10), "reason": "E declared"},
                                 format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["tables"][0]["points"] == {"NS": 0, "EW": 40}
    assert AuditEntry.objects.filter(action="party-correct").count() == 1


def test_only_the_director_runs_the_night(api, started):
    assert api.post("/api/parties/", {}, format="json").status_code in (401, 403)
    assert api.post(f"/api/parties/{started['id']}/advance/", {},
                    format="json").status_code in (401, 403)
    assert api.get(f"/api/parties/{started['id']}/").status_code in (401, 403)
    assert api.get(f"/api/parties/{started['id']}/standings/").status_code == 200
    assert Party.objects.get().current_round == 1


def test_the_director_names_who_moves_up_at_a_level_table(api, director_client, started):
    codes = {t["table"]: t["code"] for t in started["tables"]}
    api.post(f"/api/party-tables/{codes[1]}/deals/", nt("N", 8), format="json", **key())
    api.post(f"/api/party-tables/{codes[2]}/deals/", nt("E", 9), format="json", **key())
    answer = director_client.post(f"/api/parties/{started['id']}/advance/",
                                  {"level": {"1": "EW"}}, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == "level"


def test_the_players_change_until_the_start(director_client):
    made = director_client.post("/api/parties/", {
        "name": "Whist drive", "date": "2026-12-11", "game": "whist", "rounds": 2,
        "minutes_per_round": 15, "players": [{"name": "Ann"}, {"name": "Bob"}]},
        format="json").json()
    assert made["rules"] == "" and made["minutes_per_round"] == 15
    url = f"/api/parties/{made['id']}/players/"
    four = {"players": [{"name": n} for n in ("Ann", "Bob", "Cy", "Di")]}
    answer = director_client.put(url, four, format="json")
    assert answer.status_code == 200 and len(answer.json()["players"]) == 4
    director_client.post(f"/api/parties/{made['id']}/start/", {"draw": True}, format="json")
    again = director_client.put(url, four, format="json")
    assert again.status_code == 400 and "started" in again.json()["error"]
