"""The table's API mirrors the page: every honour given without a hand record (field
`result.honours`), and a second look at an unusual result (422 listing its warnings,
until the body says `as_entered: true`)."""

import pytest

from tournaments.models import IdempotencyRecord, Result

from .helpers import HONOURS, TWO_HEARTS, key, post, url

pytestmark = pytest.mark.django_db

NINE_REVOKES = {"contract": {"level": 4, "denomination": "H", "declarer": "S", "doubled": "X"},
                "tricks": 10, "honours": HONOURS,
                "revokes": {"declaring": 0, "defending": 9, "first_penalty": "points"}}


def submit(client, night, data, *, board=None, idem="new", **extra):
    meeting = night.meeting(2, 1)  # table 2 plays boards without a hand record
    body = {"board": board or meeting.boards[0], "round": 1, "result": data, **extra}
    return post(client, url(night.event, "results/"), body, idem=idem)


def test_honours_left_out_are_refused_naming_the_field(night, table_client):
    data = {k: v for k, v in TWO_HEARTS.items() if k != "honours"}
    response = submit(table_client(2), night, data)
    assert response.status_code == 400
    assert response.json()["field"] == "result.honours"
    assert response.json()["error"].startswith("Say who held the honours")
    zero = submit(table_client(2), night, {**data, "honours": {"N": 0, "E": 0, "S": 0, "W": 0}})
    assert zero.status_code == 400 and zero.json()["field"] == "result.honours"
    assert "Honours add up to 0" in zero.json()["error"]
    assert not Result.objects.exists()


def test_an_unusual_result_needs_as_entered(night, table_client):
    client = table_client(2)
    idem = key()
    first = submit(client, night, NINE_REVOKES, idem=idem)
    assert first.status_code == 422
    body = first.json()
    assert body["field"] == "as_entered"
    assert [w["code"] for w in body["warnings"]] == ["revokes", "points"]
    assert body["warnings"][0]["field"] == "revokes.defending"
    assert body["warnings"][0]["message"].startswith("The defenders revoked 9 times")
    assert not Result.objects.exists()
    # The question is not kept for the key: the same submission, confirmed, may use it.
    assert not IdempotencyRecord.objects.filter(key=idem).exists()
    saved = submit(client, night, NINE_REVOKES, idem=idem, as_entered=True)
    assert saved.status_code == 201, saved.json()
    assert saved.json()["ns_columns"]["total"] > 1000
    replay = submit(client, night, NINE_REVOKES, idem=idem, as_entered=True)
    assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"
    assert Result.objects.count() == 1


def test_an_ordinary_result_needs_nothing_more(night, table_client):
    response = submit(table_client(2), night, TWO_HEARTS)
    assert response.status_code == 201
    assert submit(table_client(2), night, TWO_HEARTS, as_entered=True).status_code == 200


def test_a_correction_too(night, table_client):
    client = table_client(2)
    created = submit(client, night, TWO_HEARTS).json()
    correct = url(night.event, f"results/{created['id']}/correct/")
    response = post(client, correct, {"result": NINE_REVOKES})
    assert response.status_code == 422 and response.json()["field"] == "as_entered"
    response = post(client, correct, {"result": NINE_REVOKES, "as_entered": True})
    assert response.status_code == 200, response.json()


def test_the_preview_names_the_warnings_and_the_missing_honours(night, table_client):
    board = night.meeting(2, 1).boards[0]
    preview = url(night.event, "score-preview/")
    body = post(table_client(2), preview, {"board": board, "result": NINE_REVOKES},
                idem=None).json()
    assert [w["code"] for w in body["warnings"]] == ["revokes", "points"]
    body = post(table_client(2), preview, {"board": board, "result": TWO_HEARTS},
                idem=None).json()
    assert body["warnings"] == []
    data = {k: v for k, v in TWO_HEARTS.items() if k != "honours"}
    response = post(table_client(2), preview, {"board": board, "result": data}, idem=None)
    assert response.status_code == 400 and response.json()["field"] == "result.honours"


def test_the_schema_documents_as_entered(director_client):
    schema = director_client.get(
        "/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    fields = schema["components"]["schemas"]["ResultIn"]["properties"]
    assert fields["as_entered"]["type"] == "boolean"
    assert "unusual" in fields["as_entered"]["description"]
    assert "UnusualOut" in schema["components"]["schemas"]
