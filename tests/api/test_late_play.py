"""Boards not played and late play over the API: the rulings endpoint takes and shows
"not-played"; the director marks a round's boards not played and gives (or withdraws) a
table's leave to play late; the table then enters the late board, even in an agreed
round, and the result shows late_play."""

import pytest

from tournaments import services
from tournaments.models import Result

from .helpers import TWO_HEARTS, post, url

pytestmark = pytest.mark.django_db


def table_url(night, table: int, round_number: int, tail: str) -> str:
    return url(night.event, f"sections/A/tables/{table}/rounds/{round_number}/{tail}")


def test_the_rulings_endpoint_takes_not_played(night, director_client):
    meeting = night.meeting(1, 1)
    response = post(director_client, url(night.event, "rulings/"), {
        "board": meeting.boards[0], "ns": meeting.ns_pair.number, "ew": meeting.ew_pair.number,
        "ruling": "not-played", "reason": "slow play"})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["ruling"], body["ns_score"], body["late_play"]) == ("not-played", None, False)
    listed = director_client.get(url(night.event, "results/")).json()
    assert [r["ruling"] for r in listed] == ["not-played"]


def test_the_director_marks_a_rounds_boards_not_played(night, director_client, table_client):
    meeting = night.meeting(2, 1)
    response = post(director_client, table_url(night, 2, 1, "not-played/"),
                    {"boards": meeting.boards, "reason": "time"})
    assert response.status_code == 200, response.json()
    assert [(r["board"], r["ruling"]) for r in response.json()] == [
        (b, "not-played") for b in meeting.boards]
    # Only the director.
    response = post(table_client(2), table_url(night, 2, 1, "not-played/"),
                    {"boards": meeting.boards, "reason": "time"})
    assert response.status_code == 403


def test_late_play_leave_and_the_tables_late_result(night, director_client, table_client):
    meeting = night.meeting(1, 1)
    board = meeting.boards[1]
    services.boards_not_played(meeting=meeting, boards=[board], actor=night.actor,
                               reason="time")
    services.round_agree(section=meeting.section, round_number=1, actor=night.actor)
    body = {"board": board, "round": 1, "result": TWO_HEARTS}
    refused = post(table_client(1), url(night.event, "results/"), body)
    assert refused.status_code in (403, 409)
    # The table may not give itself leave.
    assert post(table_client(1), table_url(night, 1, 1, "late-play/"),
                {"boards": [board], "reason": "x"}).status_code == 403
    response = post(director_client, table_url(night, 1, 1, "late-play/"),
                    {"boards": [board], "reason": "slow play"})
    assert response.status_code == 200, response.json()
    assert response.json()["late_boards"] == [board]
    current = table_client(1).get(url(night.event, "sections/A/tables/1/")).json()
    assert current["late_play"] == [{"round": 1, "board": board,
                                     "ns": meeting.ns_pair.number,
                                     "ew": meeting.ew_pair.number}]
    response = post(table_client(1), url(night.event, "results/"), body)
    assert response.status_code == 201, response.json()
    assert response.json()["late_play"] is True and response.json()["ruling"] == ""
    traveller = director_client.get(url(night.event, f"boards/{board}/traveller/")).json()
    assert [row["late_play"] for row in traveller["rows"]] == [True]
    card = director_client.get(url(night.event, f"pairs/{meeting.ns_pair.number}/scorecard/"))
    assert [row["late_play"] for row in card.json()["rows"]] == [True]


def test_the_leave_is_withdrawn(night, director_client):
    meeting = night.meeting(3, 2)
    post(director_client, table_url(night, 3, 2, "late-play/"),
         {"boards": meeting.boards, "reason": "late"})
    response = post(director_client, table_url(night, 3, 2, "late-play/withdraw/"),
                    {"boards": meeting.boards[:1], "reason": "no time"})
    assert response.status_code == 200
    assert response.json()["late_boards"] == meeting.boards[1:]


def test_only_the_director_flags_a_result_late(night, director_client, table_client):
    meeting = night.meeting(1, 1)
    response = post(table_client(1), url(night.event, "results/"),
                    {"board": meeting.boards[0], "round": 1, "result": TWO_HEARTS,
                     "late_play": True})
    assert response.status_code == 403
    response = post(director_client, url(night.event, "results/"),
                    {"board": meeting.boards[0], "ns": meeting.ns_pair.number,
                     "ew": meeting.ew_pair.number, "result": TWO_HEARTS, "late_play": True})
    assert response.status_code == 201 and response.json()["late_play"] is True
    assert Result.objects.get().late_play


def test_the_schema_documents_late_play(director_client):
    schema = director_client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert any(p.endswith("/late-play/") for p in paths)
    assert any(p.endswith("/late-play/withdraw/") for p in paths)
    assert any(p.endswith("/not-played/") for p in paths)
    result = schema["components"]["schemas"]["ResultOut"]["properties"]
    assert "late" in result["late_play"]["description"]
    assert "not-played" in result["ruling"]["description"]
