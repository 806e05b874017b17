"""A table enters only the round it is at now (its seated meeting: the lowest round not yet
agreed there) and, until agreed, earlier ones; a board of a later round is refused with
what is wrong, on the API and on the table's pages alike. The director is not held to it:
that is how a board played late is entered."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.api.helpers import TWO_HEARTS, build_night, post, url
from tests.factories import DirectorFactory
from tests.web.conftest import contract_post
from tournaments import services
from tournaments.models import Result

pytestmark = pytest.mark.django_db


def still_in(n: int) -> str:
    """What a table is told of a later round's board while round `n` is not agreed."""
    return (f"this table is still in round {n}. Finish round {n} first (its boards entered "
            "and confirmed, then agreed on its page), or call the director.")


@pytest.fixture
def night():
    return build_night(DirectorFactory(username="alice"))  # 3 tables, 3 rounds, 2 boards each


def later_board(night, table: int = 1, round_number: int = 3) -> int:
    return night.meeting(table, round_number).boards[-1]


def table_api(night, table: int = 1) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {night.codes[table]}")
    return client


def phone(night, table: int = 1) -> Client:
    client = Client()
    assert client.get(f"/t/{night.codes[table]}/").status_code == 200
    return client


def test_the_api_refuses_a_board_of_a_later_round(night):
    board = later_board(night)
    response = post(table_api(night), url(night.event, "results/"),
                    {"board": board, "round": 3, "result": TWO_HEARTS})
    assert response.status_code == 403
    assert response.json() == {
        "error": f"Board {board} is played in round 3: " + still_in(1),
        "field": "round"}
    assert not Result.objects.filter(event=night.event).exists()
    # The round it is at goes in as ever.
    current = night.meeting(1, 1).boards[-1]
    assert post(table_api(night), url(night.event, "results/"),
                {"board": current, "round": 1, "result": TWO_HEARTS}).status_code == 201


def test_once_its_round_is_agreed_the_table_moves_on(night):
    night.play_round(1, 1, agree=True)
    api = table_api(night)
    response = post(api, url(night.event, "results/"),
                    {"board": later_board(night), "round": 3, "result": TWO_HEARTS})
    assert response.json()["error"] == (
        f"Board {later_board(night)} is played in round 3: " + still_in(2))
    assert post(api, url(night.event, "results/"),
                {"board": later_board(night, round_number=2), "round": 2,
                 "result": TWO_HEARTS}).status_code == 201
    # The round left behind is agreed: closed to the table (Duplicate Law E).
    response = post(api, url(night.event, "results/"),
                    {"board": night.meeting(1, 1).boards[0], "round": 1, "result": TWO_HEARTS})
    assert response.status_code == 403 and "is agreed" in response.json()["error"]
    # Another table, still at round 1, is held to its own round.
    response = post(table_api(night, 2), url(night.event, "results/"),
                    {"board": later_board(night, 2, 2), "round": 2, "result": TWO_HEARTS})
    assert response.status_code == 403
    assert "this table is still in round 1" in response.json()["error"]


def test_the_table_pages_refuse_a_board_of_a_later_round(night):
    client, board, code = phone(night), later_board(night), night.codes[1]
    message = f"Board {board} is played in round 3: " + still_in(1)
    page = client.get(f"/t/{code}/round/3/board/{board}/")
    assert page.status_code == 403 and message in page.content.decode()
    sent = client.post(f"/t/{code}/round/3/board/{board}/", contract_post(level=2, tricks=8))
    assert sent.status_code == 403 and message in sent.content.decode()
    assert not Result.objects.filter(event=night.event).exists()
    # The round's page says so, and the page's poll keeps the round closed.
    round_page = client.get(f"/t/{code}/round/3/").content.decode()
    assert "Round 3 is not played here yet: " + still_in(1) in round_page
    assert "agree-round" not in round_page
    assert f"open-board-{board}" not in round_page  # no Enter button that leads to a refusal
    assert "not entered" in round_page
    state = client.get(f"/t/{code}/round/3/state.json").json()
    assert state["open"] is False and "this table is still in round 1" in state["message"]
    assert client.get(f"/t/{code}/round/1/state.json").json()["open"] is True
    # The current round goes in.
    current = night.meeting(1, 1).boards[-1]
    assert client.post(f"/t/{code}/round/1/board/{current}/",
                       contract_post(level=2, tricks=8)).status_code == 302


def test_a_table_cannot_confirm_or_change_a_later_rounds_result(night):
    """The director entered a board played early; the table cannot touch it from round 1."""
    meeting = night.meeting(1, 3)
    board = meeting.boards[-1]
    result, _ = services.result_record(
        event=night.event, board=board, ns=meeting.ns_pair.number, ew=meeting.ew_pair.number,
        data=TWO_HEARTS, actor=night.actor, meeting=meeting)
    table = services.Actor.at_table(meeting.section, 1)
    for change in (lambda: services.result_confirm(result=result, actor=table),
                   lambda: services.result_correct(result=result, actor=table, data=TWO_HEARTS)):
        with pytest.raises(services.Forbidden, match="this table is still in round 1"):
            change()


def test_the_director_enters_any_round(night):
    """Late play (or early) is the director's to enter: the API and the console."""
    director = APIClient()
    director.force_authenticate(night.director)
    director.force_login(night.director)
    meeting = night.meeting(1, 3)
    board = meeting.boards[-1]
    response = post(director, url(night.event, "results/"),
                    {"board": board, "ns": meeting.ns_pair.number, "ew": meeting.ew_pair.number,
                     "result": TWO_HEARTS})
    assert response.status_code == 201, response.json()
    console = Client()
    console.force_login(night.director)
    other = night.meeting(2, 3)
    response = console.post(
        f"/director/events/{night.event.pk}/meetings/{other.pk}/boards/{other.boards[-1]}/enter/",
        contract_post(level=2, tricks=8))
    assert response.status_code == 302
    assert Result.objects.filter(event=night.event, status="director").count() == 2
