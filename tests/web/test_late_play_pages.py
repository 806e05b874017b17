"""The console's "Not played" and "Late play" actions, and the table's late-play section:
the director marks boards not played and gives leave to play late from a table's round;
the table's phone then offers the late board, even in an agreed round; travellers, score
cards and the round grid show both."""

import pytest
from django.test import Client

from tests.web.conftest import code_of, contract_post
from tournaments import services
from tournaments.models import AuditEntry, Meeting, Result
from tournaments.services import Actor

pytestmark = pytest.mark.django_db


def meeting(event, table: int, round_number: int) -> Meeting:
    return Meeting.objects.select_related("section", "ns_pair", "ew_pair").get(
        section__event=event, table=table, round=round_number)


def phone(event, table: int) -> tuple[Client, str]:
    client = Client()
    code = code_of(event, table)
    assert client.get(f"/t/{code}/").status_code == 200
    return client, code


def test_the_meeting_page_offers_not_played_and_late_play(director_client, event):
    m = meeting(event, 1, 1)
    page = director_client.get(f"/director/events/{event.pk}/meetings/{m.pk}/").content.decode()
    assert f'/meetings/{m.pk}/not-played/?board=1"' in page
    assert f'/meetings/{m.pk}/late/?board=2"' in page
    assert 'data-testid="not-played-boards"' in page


def test_the_director_marks_boards_not_played_from_the_console(director_client, event):
    m = meeting(event, 1, 1)
    url = f"/director/events/{event.pk}/meetings/{m.pk}/not-played/"
    form = director_client.get(url + "?board=2").content.decode()
    assert 'value="2" data-testid="board-2" checked' in form
    # A reason is needed (the audit trail).
    response = director_client.post(url, {"boards": ["1", "2"], "reason": ""})
    assert response.status_code == 200 and "reason" in response.content.decode()
    response = director_client.post(url, {"boards": ["1", "2"], "reason": "slow play"},
                                    follow=True)
    assert "marked not played" in response.content.decode()
    assert set(Result.objects.filter(meeting=m).values_list("ruling", flat=True)) == {
        "not-played"}
    page = response.content.decode()
    assert 'data-testid="enter-late-1"' in page and "not played" in page
    # The grid counts them.
    grid = director_client.get(f"/director/events/{event.pk}/grid.json").json()
    cell = next(c for c in grid["cells"] if c["id"] == m.pk)
    assert cell["not_played"] == 2 and cell["missing"] == 0
    assert "2 not played" in director_client.get(
        f"/director/events/{event.pk}/").content.decode()
    # Undone from the audit page.
    entry = AuditEntry.objects.filter(event=event, action="rule").first()
    director_client.post(f"/director/events/{event.pk}/audit/{entry.pk}/undo/",
                         {"reason": "it was played"})
    assert Result.objects.filter(meeting=m, voided=False).count() == 1


def test_leave_to_play_late_on_the_phone_even_in_an_agreed_round(director, director_client,
                                                                  event):
    m = meeting(event, 1, 1)
    services.boards_not_played(meeting=m, boards=[2], actor=Actor.director(director),
                               reason="time")
    table, code = phone(event, 1)
    services.round_agree(section=m.section, round_number=1, actor=Actor.director(director))
    # No leave: the round page offers nothing for board 2 and the form is refused.
    assert 'data-testid="late-play"' not in table.get(f"/t/{code}/").content.decode()
    response = table.post(f"/t/{code}/round/1/board/2/", contract_post())
    assert response.status_code in (403, 409)
    preview = {"round": "1", "board": "2", **contract_post()}
    assert table.post(f"/t/{code}/preview/", preview).status_code == 403
    # The director gives leave from the console.
    url = f"/director/events/{event.pk}/meetings/{m.pk}/late/"
    response = director_client.post(url, {"boards": ["2"], "reason": "slow play"}, follow=True)
    assert "may now enter board 2" in response.content.decode()
    page = table.get(f"/t/{code}/").content.decode()
    assert "Late play: board 2 (round 1, pair 1 against pair 3)" in page
    assert f'href="/t/{code}/round/1/board/2/" data-testid="late-enter-2"' in page
    assert table.post(f"/t/{code}/preview/", preview).json()["ok"] is True  # the live score
    form = table.get(f"/t/{code}/round/1/board/2/").content.decode()
    assert 'data-testid="result-form"' in form and 'data-testid="late-play-note"' in form
    assert "in place of “not played”" in form
    assert table.get(f"/t/{code}/round/1/state.json?board=2").json()["open"] is True
    assert table.get(f"/t/{code}/round/1/state.json").json()["open"] is False
    response = table.post(f"/t/{code}/round/1/board/2/", contract_post(), follow=True)
    page = response.content.decode()
    assert 'data-testid="played-late"' in page
    # The opponents confirm it on the phone; there is nothing to change.
    assert 'data-testid="confirm-result"' in page and 'data-testid="change-result"' not in page
    assert table.get(f"/t/{code}/round/1/state.json?board=2").json()["open"] is True
    table.post(f"/t/{code}/round/1/board/2/confirm/")
    assert Result.objects.get(meeting=m, board__number=2, voided=False).status == "confirmed"
    result = Result.objects.get(meeting=m, board__number=2, voided=False)
    assert result.late_play and result.ruling == ""
    m.refresh_from_db()
    assert m.late_boards == []
    assert 'data-testid="late-play"' not in table.get(f"/t/{code}/").content.decode()
    # The traveller, the score card and the console mark it.
    board = director_client.get(f"/events/{event.pk}/boards/2/").content.decode()
    assert 'data-testid="played-late"' in board
    card = director_client.get(f"/events/{event.pk}/pairs/1/").content.decode()
    assert 'data-testid="played-late"' in card
    page = director_client.get(f"/director/events/{event.pk}/meetings/{m.pk}/").content.decode()
    assert 'data-testid="played-late-2"' in page


def test_the_leave_is_withdrawn_from_the_console(director_client, event):
    m = meeting(event, 2, 2)
    url = f"/director/events/{event.pk}/meetings/{m.pk}/late/"
    director_client.post(url, {"boards": ["7", "8"], "reason": "late"})
    m.refresh_from_db()
    assert m.late_boards == [7, 8]
    assert 'data-testid="withdraw-late"' in director_client.get(url).content.decode()
    director_client.post(url, {"action": "withdraw", "boards": ["7"], "reason": "no time"})
    m.refresh_from_db()
    assert m.late_boards == [8]


def test_not_played_shows_on_travellers_and_score_cards(director, director_client, event):
    m = meeting(event, 1, 1)
    services.boards_not_played(meeting=m, boards=[1], actor=Actor.director(director),
                               reason="time")
    board = director_client.get(f"/events/{event.pk}/boards/1/").content.decode()
    assert 'class="not-played" data-testid="not-played"' in board and "Not played" in board
    card = director_client.get(f"/events/{event.pk}/pairs/1/").content.decode()
    assert 'data-testid="not-played"' in card and "Not played" in card


def test_a_board_not_played_keeps_its_traveller_from_the_table(director, event):
    # The pairs may still play it late: the table's screen does not show its traveller.
    m = meeting(event, 1, 1)
    services.result_record(event=event, board=1, ns=1, ew=3, data={
        "contract": {"level": 2, "denomination": "H", "declarer": "S"}, "tricks": 8,
        "honours": {"N": 2, "E": 1, "S": 1, "W": 1}}, actor=Actor.director(director),
        meeting=m)
    services.boards_not_played(meeting=m, boards=[2], actor=Actor.director(director),
                               reason="time")
    table, code = phone(event, 1)
    assert table.get(f"/t/{code}/board/1/traveller/").status_code == 200
    assert table.get(f"/t/{code}/board/2/traveller/").status_code == 403


def test_a_late_board_sent_again_from_a_second_tab_says_it_was_entered(director, event,
                                                                        director_client):
    """The leave is used up by the first entry: a second tab's different result is refused
    with what was entered, not only with the round's agreement."""
    m = meeting(event, 1, 1)
    services.boards_not_played(meeting=m, boards=[2], actor=Actor.director(director),
                               reason="time")
    table, code = phone(event, 1)
    services.round_agree(section=m.section, round_number=1, actor=Actor.director(director))
    director_client.post(f"/director/events/{event.pk}/meetings/{m.pk}/late/",
                         {"boards": ["2"], "reason": "slow play"})
    table.post(f"/t/{code}/round/1/board/2/", contract_post(token="first"))
    again = table.post(f"/t/{code}/round/1/board/2/", contract_post(tricks=6, token="second"))
    assert again.status_code == 409
    text = again.content.decode()
    assert ("Board 2 was entered already: 4♥ by S, 10 tricks. Nothing was saved; round 1 at "
            "table 1 is agreed (Duplicate Law E): ask the director to correct a score") in text
    assert Result.objects.get(meeting=m, board__number=2, voided=False).tricks == 10
