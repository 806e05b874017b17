"""The table page makes honours an explicit answer when the board has no hand record
(Law 3: every honour is in some hand), and looks again at an unusual result before saving
it ("Yes, save it as entered"). The director's form likewise."""

import re

import pytest

from tests.web.conftest import contract_post
from tests.web.test_director_results import meeting_at
from tests.web.test_table_flow import board_url, token_of
from tournaments import services
from tournaments.models import Result
from tournaments.services import Actor

NO_HONOURS = {f"honours_{seat}": "" for seat in "NESW"}
NINE_REVOKES = {"doubled": "X", "revokes_defending": "9", "first_penalty": "points",
                "honours_N": "3", "honours_S": "2"}


@pytest.fixture
def running(mitchell, director):
    services.event_set_status(event=mitchell, status="running", actor=Actor.director(director))
    return mitchell


def digest_of(response) -> str:
    match = re.search(rb'name="as_entered" value="([0-9a-f]+)"', response.content)
    assert match, "the page offers to save the result as entered"
    return match.group(1).decode()


def test_no_honour_is_preselected_and_the_page_says_why(client, event, table1):
    html = client.get(board_url(table1, 1, 1)).content.decode()
    assert 'data-testid="honours-why"' in html
    assert "Every honour is in some hand" in html
    for seat in "NESW":
        assert f'id="honours-{seat}-0"' in html and f'id="honours-{seat}-5"' in html
    assert not re.search(r'name="honours_[NESW]" value="\d" id="[^"]+" data-testid="[^"]+" '
                         r'checked', html)


def test_honours_not_answered_are_asked_for(client, event, table1):
    response = client.post(board_url(table1, 1, 1), contract_post(**NO_HONOURS, token="h1"))
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-testid="honours-error"' in html
    assert "Say who held the honours: the A K Q J 10 of hearts are always in some hand" in html
    assert not Result.objects.exists()


def test_a_split_that_cannot_happen_is_refused_with_the_reason(client, event, table1):
    zero = {f"honours_{seat}": "0" for seat in "NESW"}
    response = client.post(board_url(table1, 1, 1), contract_post(**zero, token="h2"))
    assert response.status_code == 400
    assert ("Honours add up to 0, but the five honours of the trump suit are always in some "
            "hand: say who held the other 5") in response.content.decode()
    nt = client.post(board_url(table1, 1, 1), contract_post(
        level=3, denomination="NT", declarer="N", tricks=9, honours_N="2", honours_S="1",
        token="h3"))
    assert "Aces add up to 3" in nt.content.decode()
    assert not Result.objects.exists()


def test_a_seat_left_out_once_the_others_add_up_holds_none(client, event, table1):
    response = client.post(board_url(table1, 1, 1), contract_post(
        honours_N="3", honours_S="2", token="h4"))
    assert response.status_code == 302
    result = Result.objects.get()
    assert result.details["honours"] == {"N": 3, "S": 2}
    assert result.ns_honour == 40 + 125  # 5 honours divided (Law 3) and the premium


def test_the_live_preview_says_honours_are_still_to_be_given(client, event, table1):
    data = contract_post(**NO_HONOURS)
    data.update({"round": "1", "board": "1", "action": "preview"})
    body = client.post(f"/t/{table1}/preview/", data).json()
    assert body["ok"] is False and body["field"] == "honours"
    assert body["message"].startswith("Say who held the honours")
    data.update(honours_N="2", honours_S="1")
    body = client.post(f"/t/{table1}/preview/", data).json()
    assert body["ok"] is False and "say who held the other 2" in body["message"]


def test_an_unusual_result_is_shown_again_before_it_is_saved(client, event, table1):
    form = client.get(board_url(table1, 1, 1))
    post = contract_post(**NINE_REVOKES, token=token_of(form))
    warned = client.post(board_url(table1, 1, 1), post)
    assert warned.status_code == 200
    html = warned.content.decode()
    assert 'data-testid="look-again"' in html and "Please look again before saving" in html
    assert "The defenders revoked 9 times on this board" in html
    assert "North–South score 1,179 on this board" in html
    assert "Yes, save it as entered" in html
    assert not Result.objects.exists()
    saved = client.post(board_url(table1, 1, 1), {**post, "as_entered": digest_of(warned)})
    assert saved.status_code == 302
    assert Result.objects.get().details["revokes"]["defending"] == 9


def test_a_confirmation_of_what_was_changed_since_is_looked_at_again(client, event, table1):
    post = contract_post(**NINE_REVOKES, token="u2")
    warned = client.post(board_url(table1, 1, 1), post)
    changed = {**post, "revokes_defending": "8", "as_entered": digest_of(warned)}
    again = client.post(board_url(table1, 1, 1), changed)
    assert again.status_code == 200 and "The defenders revoked 8 times" in again.content.decode()
    assert not Result.objects.exists()


def test_the_director_looks_again_too(director_client, running):
    m = meeting_at(running)
    url = f"/director/events/{running.pk}/meetings/{m.pk}/boards/2/enter/"
    post = contract_post(**NINE_REVOKES)
    warned = director_client.post(url, post)
    assert warned.status_code == 200
    assert "The defenders revoked 9 times on this board" in warned.content.decode()
    assert not Result.objects.filter(event=running).exists()
    saved = director_client.post(url, {**post, "as_entered": digest_of(warned)})
    assert saved.status_code == 302
    assert Result.objects.get(event=running, board__number=2).details["revokes"]["defending"] == 9


def test_the_directors_form_needs_the_honours(director_client, running):
    m = meeting_at(running)
    url = f"/director/events/{running.pk}/meetings/{m.pk}/boards/2/enter/"
    response = director_client.post(url, contract_post(**NO_HONOURS))
    assert response.status_code == 200
    assert "Say who held the honours" in response.content.decode()
    assert 'data-testid="honours-error"' in response.content.decode()
    assert not Result.objects.filter(event=running).exists()
