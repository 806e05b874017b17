"""Every refusal is in plain words naming the field, never DRF's own.

A schemathesis run against the demo night read DRF's words for a value of the wrong
kind: "A valid integer is required.", "Ensure this value is less than or equal to 100.",
'"AAA" is not a valid choice.', "Expected a list of items but got type "str".",
"Invalid data. Expected a dictionary, but got list.", "No data provided", 'Unsupported
media type "text/plain" in request.', "JSON parse error - Expecting value: line 1 ...",
field labels such as "Ns_result" and "Players.0", and a table's missing Idempotency-Key
answered in lower case. Each is provoked here; a field's own message stays as written.
"""

import pytest

from .helpers import key, post, url

pytestmark = pytest.mark.django_db

# DRF's own words (the start of each): none may reach the caller.
DRF_WORDS = (
    "A valid integer is required", "Ensure this", "is not a valid choice",
    "Expected a list of items", "Expected a dictionary", "Invalid data.", "No data provided",
    "Not a valid string", "Must be a valid boolean", "Date has wrong format",
    "Unsupported media type", "JSON parse error",
)


def _refused(response, status: int, field: str | None) -> str:
    assert response.status_code == status, response.content[:500]
    body = response.json()
    assert body["field"] == field, body
    assert not any(words in body["error"] for words in DRF_WORDS), body["error"]
    return body["error"]


@pytest.mark.parametrize(("value", "words"), [
    ("x", "Carry over must be a whole number"),
    (101, "Carry over must be at most 100"),
    (-1, "Carry over must be 0 or more"),
])
def test_a_number_out_of_its_bounds_names_the_field(night, director_client, value, words):
    response = post(director_client, url(night.event, "carry-over/"), {"carry_over": value})
    assert _refused(response, 400, "carry_over") == words


@pytest.mark.parametrize(("body", "field", "words"), [
    ({"game": "AAA", "players": ["A", "B", "C", "D"]}, "game",
     'Game: "AAA" is not one of its choices'),
    ({"game": "auction", "players": "ABCD"}, "players", "Players must be a list"),
    ({"game": "auction", "players": ["A", 7, "C", "D"]}, "players.1",
     "Players, item 2 must be text"),
    ({"game": "auction", "players": ["A", "B", "C", "D" * 41]}, "players.3",
     "Players, item 4 is at most 40 characters"),
    ({"game": "auction", "players": ["A", "B", "C", ""]}, "players.3",
     "Players, item 4: this field may not be blank."),
])
def test_a_value_of_the_wrong_kind_names_the_field(director_client, body, field, words):
    response = post(director_client, "/api/rubbers/", body)
    assert _refused(response, 400, field) == words


def test_a_field_label_reads_as_words(night, director_client):
    body = {"board": 1, "ns": 1, "ew": 2, "ns_result": None, "reason": "fouled"}
    response = post(director_client, url(night.event, "assigned-scores/"), body)
    assert _refused(response, 400, "ns_result") == "N–S result: this field may not be null."


def test_a_fields_own_message_stays_as_written(night, director_client):
    body = {"board": "x", "ns": 1, "ew": 2, "ns_result": {}, "reason": "fouled"}
    response = post(director_client, url(night.event, "assigned-scores/"), body)
    assert _refused(response, 400, "board") == "Board must be a whole number"


@pytest.mark.parametrize(("body", "words"), [
    ("[1, 2]", "The body must be a JSON object, not a list"),
    ('"final"', "The body must be a JSON object, not text"),
    ("null", "The body must be a JSON object, not null"),
])
def test_a_body_that_is_not_an_object_says_so(night, director_client, body, words):
    response = director_client.post(url(night.event, "publish/"), body,
                                    content_type="application/json",
                                    HTTP_IDEMPOTENCY_KEY=key())
    assert _refused(response, 400, None) == words


def test_a_body_that_is_not_json_says_so(night, director_client):
    response = director_client.post(url(night.event, "publish/"), "{final",
                                    content_type="application/json",
                                    HTTP_IDEMPOTENCY_KEY=key())
    assert _refused(response, 400, "body").startswith("The body is not valid JSON (")
    response = director_client.post(url(night.event, "publish/"), b'{"published": "\xfd"}',
                                    content_type="application/json",
                                    HTTP_IDEMPOTENCY_KEY=key())
    assert _refused(response, 400, "body").startswith("The body is not utf-8 text (")


def test_a_body_not_sent_as_json_says_how_to_send_it(night, director_client):
    response = director_client.post(url(night.event, "publish/"), "published=final",
                                    content_type="text/plain")
    assert _refused(response, 415, None) == (
        "Send the body as JSON (Content-Type: application/json)")


def test_a_table_without_an_idempotency_key_is_told_in_a_sentence(night, table_client):
    response = post(table_client(1), url(night.event, "results/"), {"board": 1}, idem=None)
    assert _refused(response, 400, "Idempotency-Key").startswith(
        "Send an Idempotency-Key header with each submission")
    response = post(table_client(1), url(night.event, "results/"), {"board": 1},
                    idem="k" * 300)
    assert _refused(response, 400, "Idempotency-Key").startswith(
        "The Idempotency-Key may be at most")
