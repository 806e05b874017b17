"""The API of irregular boards (Duplicate Law B): a table reports and waits, the director
takes the law's steps; documented in the OpenAPI schema."""

import uuid

import pytest
from rest_framework.test import APIClient

from tests.irregular_nights import (
    THREE_HEARTS_DEALT,
    agree_round,
    code,
    meeting,
    play,
    three_tables,
    two_tables,
)
from tournaments.models import Board, Irregularity, Result


def key() -> dict:
    return {"HTTP_IDEMPOTENCY_KEY": uuid.uuid4().hex}


@pytest.fixture
def three(director):
    event = three_tables(director)
    play(event, 1, 2, 1)
    agree_round(event, 1)
    return event


def table(event, number) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {code(event, number)}")
    return client


def url(event, tail=""):
    return f"/api/events/{event.pk}/irregularities/{tail}"


def test_b2_a_table_reports_waits_and_the_director_sends_it_back(three, director_client):
    t1 = table(three, 1)
    made = t1.post(url(three), {"board": 1, "stage": "before-overplay", "round": 2},
                   format="json", **key())
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["board"], body["law"], body["status"], body["table"], body["round"]) == (
        1, "Duplicate Law B(2)", "reported", 1, 2)
    m = meeting(three, 2, 1)
    refused = t1.post(f"/api/events/{three.pk}/results/",
                      {"board": 1, "round": 2, "result": THREE_HEARTS_DEALT}, format="json",
                      **key())
    assert refused.status_code == 403 and "director is on the way" in refused.json()["error"]
    # Only the director decides.
    assert t1.post(url(three, f"{body['id']}/send-back/"), {}, format="json",
                   **key()).status_code == 403
    sent = director_client.post(url(three, f"{body['id']}/send-back/"), {}, format="json")
    assert sent.status_code == 200, sent.content
    assert (sent.json()["status"], sent.json()["sent_to_table"]) == ("sent-back", 2)
    assert "went back to table 2" in t1.get(url(three, f"{body['id']}/")).json()["text"]
    # Table 2 (it came from there) sees it too and marks it rectified.
    t2 = table(three, 2)
    assert [i["id"] for i in t2.get(url(three)).json()] == [body["id"]]
    done = t2.post(url(three, f"{body['id']}/rectified/"), {}, format="json", **key())
    assert done.status_code == 200 and done.json()["outcome"] == "rectified"
    entered = t1.post(f"/api/events/{three.pk}/results/",
                      {"board": 1, "round": 2, "result": THREE_HEARTS_DEALT}, format="json",
                      **key())
    assert entered.status_code == 201, entered.content
    assert Result.objects.filter(meeting=m, board__number=1).exists()


def test_a_table_sees_only_its_own_reports(three, director_client):
    director_client.post(url(three), {"board": 3, "stage": "original", "round": 1,
                                      "table": 3}, format="json")
    assert table(three, 1).get(url(three)).json() == []
    assert len(director_client.get(url(three)).json()) == 1


def test_b3_more_tables_ruled_from_the_hand_record(three, director_client):
    from scoring.engine import parse_deal
    deal = Board.objects.get(event=three, number=1).deal
    hand = parse_deal(deal)["S"]
    suit = next(s for s in "SHDC" if hand[s])
    made = director_client.post(url(three), {
        "board": 1, "stage": "overplay", "round": 2, "table": 1,
        "misplaced_card": suit + hand[suit][0], "surplus_seat": "N"}, format="json")
    assert made.status_code == 201, made.content
    assert (made.json()["short_seat"], made.json()["surplus_seat"]) == ("S", "N")
    ruled = director_client.post(url(three, f"{made.json()['id']}/rule/"),
                                 {"reason": "North had 14"}, format="json")
    assert ruled.status_code == 200 and ruled.json()["outcome"] == "fouled"
    result = Result.objects.get(meeting=meeting(three, 2, 1), board__number=1)
    assert (result.ruling, result.offending) == ("fouled", "ns")


def test_b3_two_tables_new_deal_through_the_api(director, director_client):
    event = two_tables(director)
    made = director_client.post(url(event), {"board": 1, "stage": "overplay", "round": 2,
                                             "table": 2}, format="json")
    step = director_client.post(url(event, f"{made.json()['id']}/new-deal/"),
                                {"reason": "no time lost"}, format="json")
    assert step.status_code == 200 and step.json()["outcome"] == "new-deal"


def test_b1_refused_with_results_is_a_clear_400(three, director_client):
    made = director_client.post(url(three), {"board": 1, "stage": "original"}, format="json")
    answer = director_client.post(url(three, f"{made.json()['id']}/new-deal/"), {},
                                  format="json")
    assert answer.status_code == 400
    assert "not a new deal under Duplicate Law B(1)" in answer.json()["error"]
    assert Irregularity.objects.get().status == "reported"


def test_the_public_may_not_report(three):
    assert APIClient().post(url(three), {"board": 1, "stage": "original"},
                            format="json").status_code in (401, 403, 404)


def test_an_unknown_step_is_a_404(three, director_client):
    made = director_client.post(url(three), {"board": 1, "stage": "original"}, format="json")
    assert director_client.post(url(three, f"{made.json()['id']}/shuffle/"), {},
                                format="json").status_code == 404


def test_the_schema_documents_the_endpoints(director_client):
    schema = director_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    assert "/api/events/{event_id}/irregularities/" in paths
    assert "/api/events/{event_id}/irregularities/{irregularity_id}/{step}/" in paths
    assert "post" in paths["/api/events/{event_id}/irregularities/"]
