"""Every bad input gets a 4xx naming what is wrong, never a server error.

Numbers in query strings are ASCII digits within their column's range; path segments
match only values their column can hold (else a JSON 404); a JSON body nested absurdly
deep or holding a NUL character is refused before any view reads it; lists and texts are
bounded before any lock is taken; the API reads JSON only.
"""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments.models import AuditEntry, Event, Team

from .helpers import TWO_HEARTS, key, post, url

pytestmark = pytest.mark.postgres


def _error(response, status: int, field: str | None) -> dict:
    assert response.status_code == status, response.content[:500]
    body = response.json()
    assert body["field"] == field, body
    assert body["error"]
    return body


# --- numbers in the query string ----------------------------------------------------------------


@pytest.mark.parametrize("board", ["²", "٣", "1_0", " 3", "3.0", "-1", "0", "40000", ""])
def test_a_board_filter_that_is_not_a_board_number_is_a_400(night, director_client, board):
    response = director_client.get(url(night.event, "results/"), {"board": board})
    _error(response, 400, "board")


def test_a_board_filter_in_ascii_digits_still_filters(night, director_client):
    night.play_round(1, 1)
    response = director_client.get(url(night.event, "results/"), {"board": "1"})
    assert response.status_code == 200
    assert {r["board"] for r in response.json()} == {1}


@pytest.mark.parametrize("result", ["²", "99999999999999999999", "x"])
def test_an_audit_filter_that_is_not_a_result_id_is_a_400(night, director_client, result):
    response = director_client.get(url(night.event, "audit/"), {"result": result})
    _error(response, 400, "result")


@pytest.mark.parametrize(("name", "value"), [("limit", "ten"), ("limit", "0"),
                                            ("offset", "²"), ("offset", "-5")])
def test_audit_paging_must_be_whole_numbers(night, director_client, name, value):
    response = director_client.get(url(night.event, "audit/"), {name: value})
    _error(response, 400, name)


def test_audit_paging_keeps_its_ceiling(night, director_client):
    response = director_client.get(url(night.event, "audit/"), {"limit": "5000", "offset": "1"})
    assert response.status_code == 200
    assert response.json()["count"] == AuditEntry.objects.filter(event=night.event).count()


# --- numbers and names in the path ----------------------------------------------------------------


@pytest.mark.parametrize("tail", [
    "pairs/40000/",  # a pair number is a small integer
    "pairs/0/",
    "boards/99999/traveller/",
    "results/99999999999999999999/",  # beyond a bigint
    "sections/A%00/tables/3/",  # NUL
    "sections/A%07/tables/3/",  # another control character
    "sections/A/tables/70000/rounds/1/",
])
def test_a_path_segment_out_of_its_columns_range_is_a_json_404(night, director_client, tail):
    for method in ("get", "put", "post"):
        response = getattr(director_client, method)(url(night.event, tail), {}, format="json",
                                                   HTTP_IDEMPOTENCY_KEY=key())
        assert response.status_code == 404, (method, tail, response.content[:300])
        assert response["Content-Type"] == "application/json"
        assert response.json()["field"] is None


def test_an_event_id_beyond_a_bigint_is_a_json_404(director_client):
    response = director_client.get("/api/events/99999999999999999999/")
    assert response.status_code == 404
    assert response.json()["error"]


def test_put_of_pair_40000_stores_nothing(night, director_client):
    response = director_client.put(url(night.event, "pairs/40000/"),
                                   {"players": ["Ann", "Bob"]}, format="json")
    assert response.status_code == 404
    assert not night.event.pairs.filter(number__gt=6).exists()


# --- the JSON body ---------------------------------------------------------------------------


def test_json_nested_thousands_deep_is_a_400_naming_the_body(night, table_client):
    deep = "[" * 100_000 + "]" * 100_000
    response = table_client(1).post(url(night.event, "results/"), deep,
                                    content_type="application/json", HTTP_IDEMPOTENCY_KEY=key())
    body = _error(response, 400, "body")
    assert "nested" in body["error"]


def test_json_deeper_than_the_bound_is_refused_before_parsing(night, director_client):
    deep = '{"a":' * 33 + "1" + "}" * 33
    response = director_client.post(url(night.event, "teams/"), deep,
                                    content_type="application/json")
    assert "nested more than 32 levels" in _error(response, 400, "body")["error"]
    # Brackets inside strings are text, not nesting.
    names = {"names": ["[" * 50 + " club"]}
    response = director_client.post(url(night.event, "teams/"), names, format="json")
    assert response.status_code == 200


def test_a_nul_in_a_body_names_the_field_holding_it(night, director_client):
    response = director_client.post(url(night.event, "teams/"),
                                    {"names": ["Knickerbocker", "Whist\x00Club"]}, format="json")
    _error(response, 400, "names.1")
    assert not Team.objects.filter(event=night.event).exists()


def test_a_key_given_twice_is_refused_not_read_as_the_last(night, table_client):
    # A JSON reader keeps the last "tricks" and drops the first without a word; which the
    # table meant cannot be known.
    meeting = night.meeting(1, 1)
    body = json.dumps({"board": meeting.boards[0], "round": 1, "result": TWO_HEARTS})
    twice = body.replace('"tricks": ', '"tricks": 7, "tricks": ', 1)
    assert twice.count('"tricks"') == 2
    response = table_client(1).post(url(night.event, "results/"), twice,
                                    content_type="application/json", HTTP_IDEMPOTENCY_KEY=key())
    body = _error(response, 400, "tricks")
    assert body["error"] == "Tricks is given twice in one object; give it once"
    assert not night.event.results.exists()


def test_a_nul_echoed_in_an_error_under_an_idempotency_key_is_not_a_server_error(
        night, director_client):
    # DRF echoes a bad choice ("\u0000" is not a valid choice); the key's record then stored
    # the echo in jsonb, which PostgreSQL refuses: a 500 before the parser refused NUL.
    response = post(director_client, url(night.event, "publish/"), {"published": "\x00"})
    _error(response, 400, "published")


def test_a_control_character_in_a_name_is_refused(night, director_client):
    response = director_client.post(url(night.event, "teams/"), {"names": ["Bell\x07"]},
                                    format="json")
    _error(response, 400, "names.0")


def test_text_must_be_sent_as_text(director_client):
    response = post(director_client, "/api/events/", {"name": 0, "date": "2026-11-17"})
    _error(response, 400, "name")
    assert not Event.objects.exists()


@pytest.mark.parametrize(("tail", "body", "field"), [
    ("status/", {"status": "running", "publish_final": 0}, "publish_final"),
    ("status/", {"status": "closed", "correction_minutes": "15"}, "correction_minutes"),
    ("rulings/", {"board": "3", "ns": 1, "ew": 4, "ruling": "average"}, "board"),
    ("rulings/", {"board": 3.0, "ns": 1, "ew": 4, "ruling": "average"}, "board"),
    ("rulings/", {"board": 3, "ns": True, "ew": 4, "ruling": "average"}, "ns"),
])
def test_numbers_and_flags_must_be_sent_as_such(night, director_client, tail, body, field):
    response = post(director_client, url(night.event, tail), body)
    _error(response, 400, field)
    assert Event.objects.get(pk=night.event.pk).status == Event.Status.RUNNING
    assert not night.event.results.exists()


def test_the_api_reads_json_only(night, director_client):
    response = director_client.post(url(night.event, "publish/"), {"published": "final"},
                                    format="multipart")
    assert response.status_code == 415
    assert response.json()["field"] is None
    night.event.refresh_from_db()
    assert night.event.published == "none"


# --- sizes, checked before any lock -------------------------------------------------------------


def _locks(queries) -> list[str]:
    return [q["sql"] for q in queries if "FOR UPDATE" in q["sql"]]


def test_ten_thousand_team_names_are_refused_before_the_event_is_locked(night, director_client):
    names = [f"Team {n}" for n in range(10_000)]
    with CaptureQueriesContext(connection) as queries:
        response = director_client.post(url(night.event, "teams/"), {"names": names},
                                        format="json")
    assert "At most 100 teams" in _error(response, 400, "names")["error"]
    assert _locks(queries) == []
    assert not Team.objects.exists()


def test_a_team_name_longer_than_its_column_is_refused(night, director_client):
    response = director_client.post(url(night.event, "teams/"), {"names": ["x" * 81]},
                                    format="json")
    _error(response, 400, "names.0")


@pytest.mark.parametrize("tail", ["void/", "correct/"])
def test_a_reason_is_at_most_500_characters(night, director_client, tail):
    result = night.enter(1, 1)
    body = {"reason": "why " * 2500}
    if tail == "correct/":
        body["result"] = TWO_HEARTS
    with CaptureQueriesContext(connection) as queries:
        response = post(director_client, url(night.event, f"results/{result.pk}/{tail}"), body)
    _error(response, 400, "reason")
    assert _locks(queries) == []


def test_a_deal_result_with_thousands_of_penalties_is_refused(night, table_client):
    meeting = night.meeting(1, 1)
    result = {**TWO_HEARTS, "penalties": [{"law": "90", "by": "N"}] * 5000}
    with CaptureQueriesContext(connection) as queries:
        response = post(table_client(1), url(night.event, "results/"),
                        {"board": meeting.boards[0], "round": 1, "result": result,
                         "as_entered": True})
    assert "at most 2000 characters" in _error(response, 400, "result")["error"]
    assert _locks(queries) == []


def test_agreeing_a_thousand_tables_is_refused(night, director_client):
    response = post(director_client, url(night.event, "sections/A/rounds/1/agree/"),
                    {"tables": list(range(1, 1001))})
    _error(response, 400, "tables")


def test_a_board_number_beyond_its_column_is_a_400(night, director_client):
    response = post(director_client, url(night.event, "rulings/"),
                    {"board": 40000, "ns": 1, "ew": 4, "ruling": "average"})
    _error(response, 400, "board")


def test_deals_for_more_boards_than_an_event_holds_are_refused(night, director_client):
    deals = {str(n): "" for n in range(1, 5000)}
    response = director_client.put(url(night.event, "boards/"), {"count": 6, "deals": deals},
                                   format="json")
    _error(response, 400, "deals")
    response = director_client.put(url(night.event, "boards/"),
                                   {"count": 6, "deals": {"٣": ""}}, format="json")
    _error(response, 400, "deals")


# --- addresses and methods ------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["get", "post", "put", "delete", "patch", "options"])
def test_an_api_address_that_matches_nothing_is_a_json_404(db, client, method):
    response = getattr(client, method)("/api/no/such/thing/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert json.loads(response.content)["field"] is None


def test_an_api_address_without_its_slash_is_redirected_for_get(db, client):
    response = client.get("/api/events?x=1")
    assert response.status_code == 301
    assert response["Location"] == "/api/events/?x=1"
    assert client.post("/api/events", {}).status_code == 404


@pytest.mark.parametrize("tail", ["", "audit/", "results/", "standings/"])
@pytest.mark.parametrize("method", ["TRACE", "DELETE"])
def test_a_method_an_address_does_not_answer_is_a_json_405_for_anyone(night, client, tail,
                                                                     method):
    # The event is not published and the caller is nobody: still 405, not 404 or 401.
    response = client.generic(method, url(night.event, tail))
    assert response.status_code == 405, response.content[:300]
    assert "GET" in response["Allow"]
    assert response.json()["error"]
