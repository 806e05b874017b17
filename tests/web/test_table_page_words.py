"""What the table's phone says, in the players' words, where it used to say too little or
the wrong thing: a board not played at this table in the round asked for; a board played
late and entered after its round was agreed; a confirmation refused because the result
changed."""

import html

import pytest
from django.test import Client
from django.utils.html import strip_tags

from tests.web.conftest import code_of, contract_post
from tests.web.test_table_flow import board_url, token_of
from tournaments import services
from tournaments.models import Meeting, Result
from tournaments.services import Actor

pytestmark = pytest.mark.django_db

# Table 1 plays boards 1-2 in round 1 and boards 5-6 in round 2 (tests/web/conftest.py).
NOT_HERE = ("Board 5 is not played at this table in round 1: this round's boards are 1 and "
            "2. If you have played board 5, call the director.")


def text_of(response) -> str:
    return " ".join(html.unescape(strip_tags(response.content.decode())).split())


@pytest.mark.parametrize("method, suffix", [
    ("get", ""), ("post", ""), ("get", "change/"), ("post", "confirm/"),
    ("get", "irregular/"),
], ids=["board", "save", "change", "confirm", "report"])
def test_a_board_not_played_here_this_round_is_a_page_in_words(client, event, table1,
                                                                method, suffix):
    """A wrong board from the relay (or a number mistyped): still a 404, but the page is
    the table's and says which boards the round has."""
    data = contract_post(token="t-1") if method == "post" else None
    response = getattr(client, method)(board_url(table1, 1, 5, suffix), data)
    assert response.status_code == 404
    text = text_of(response)
    assert NOT_HERE in text
    assert "Not at this table" in text and "There is nothing at this address" not in text
    assert f'href="/t/{table1}/"' in response.content.decode()  # back to the round
    assert not Result.objects.exists()


def test_a_round_of_one_board_is_named_so(client, event, table1):
    Meeting.objects.filter(section__event=event, table=1, round=1).update(boards=[1])
    text = text_of(client.get(board_url(table1, 1, 2)))
    assert ("Board 2 is not played at this table in round 1: this round's board is 1. If "
            "you have played board 2, call the director.") in text


def test_the_live_score_of_a_board_not_played_here_says_so(client, event, table1):
    response = client.post(f"/t/{table1}/preview/", {"round": "1", "board": "5",
                                                      **contract_post()})
    assert response.status_code == 404
    assert response.json() == {"ok": False, "field": "board", "message": NOT_HERE}


def late_board_entered(director, event) -> tuple[Client, str, Meeting]:
    """Board 2 of round 1 at table 1 marked not played, the round agreed, then leave to
    play it late: the table enters it after the agreement."""
    meeting = Meeting.objects.select_related("section", "ns_pair", "ew_pair").get(
        section__event=event, table=1, round=1)
    actor = Actor.director(director)
    services.boards_not_played(meeting=meeting, boards=[2], actor=actor, reason="time")
    services.round_agree(section=meeting.section, round_number=1, actor=actor)
    services.late_play_allow(meeting=meeting, boards=[2], actor=actor, reason="slow play")
    table, code = Client(), code_of(event, 1)
    assert table.post(board_url(code, 1, 2), contract_post(token="late")).status_code == 302
    return table, code, meeting


def test_a_late_board_entered_after_the_agreement_asks_east_west_to_confirm(director, event):
    table, code, _ = late_board_entered(director, event)
    page = table.get(board_url(code, 1, 2))
    text = text_of(page)
    assert ("Played late, with the director's leave, after round 1 was agreed: East–West, "
            "please confirm it now.") in text
    assert "had not confirmed it when the round was agreed" not in text
    assert "Round 1 is agreed (Duplicate Law E)" not in text
    assert text.count("Played late, with the director's leave") == 1
    assert 'data-testid="played-late"' in page.content.decode()
    assert 'data-testid="confirm-result"' in page.content.decode()
    # Confirmed: the page says so, and that it was played late.
    table.post(board_url(code, 1, 2, "confirm/"))
    text = text_of(table.get(board_url(code, 1, 2)))
    assert "Confirmed by the opponents. Round 1 is agreed (Duplicate Law E)." in text
    assert "Played late, with the director's leave." in text


def test_a_late_board_the_event_was_agreed_on_is_not_asked_to_be_confirmed(director, event):
    table, code, _ = late_board_entered(director, event)
    services.event_set_status(event=event, status="agreed", actor=Actor.director(director),
                              reason="the last round was not played")
    text = text_of(table.get(board_url(code, 1, 2)))
    assert "Played late, with the director's leave; not confirmed by East–West." in text
    assert "please confirm it" not in text


def test_a_board_left_unconfirmed_when_the_round_was_agreed_is_said_so(director, event,
                                                                         table1):
    client = Client()
    client.post(board_url(table1, 1, 1), contract_post(token="t-1"))
    meeting = Meeting.objects.get(section__event=event, table=1, round=1)
    services.round_agree(section=meeting.section, round_number=1,
                         actor=Actor.director(director))
    text = text_of(client.get(board_url(table1, 1, 1)))
    assert ("Entered; East–West had not confirmed it when the round was agreed. Round 1 is "
            "agreed (Duplicate Law E).") in text
    assert "Played late" not in text


def test_a_confirmation_refused_for_a_changed_result_ends_as_a_sentence(client, event, table1):
    client.post(board_url(table1, 1, 1), contract_post(token="t-1"))
    form = client.get(board_url(table1, 1, 1, "change/"))
    client.post(board_url(table1, 1, 1, "change/"),
                contract_post(tricks=9, token=token_of(form), version=1))
    stale = client.post(board_url(table1, 1, 1, "confirm/"), {"version": "1"}, follow=True)
    assert ("Nothing was confirmed; look at it again and confirm it if it is right.</li>"
            in html.unescape(stale.content.decode()))


def test_a_correction_refused_for_a_changed_result_ends_as_a_sentence(client, event, table1):
    """Its sibling: the table's Change, begun before the other phone's."""
    client.post(board_url(table1, 1, 1), contract_post(token="t-1"))
    first = client.get(board_url(table1, 1, 1, "change/"))
    second = client.get(board_url(table1, 1, 1, "change/"))
    client.post(board_url(table1, 1, 1, "change/"),
                contract_post(tricks=9, token=token_of(first), version=1))
    stale = client.post(board_url(table1, 1, 1, "change/"),
                        contract_post(tricks=8, token=token_of(second), version=1),
                        follow=True)
    assert ("Nothing was saved; look at it again and correct it if it is still wrong.</li>"
            in html.unescape(stale.content.decode()))
