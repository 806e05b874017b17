"""The phone's irregular-board form (Duplicate Law B) in words a player tells apart: the
law turns on the "original play" (the board's first) against the "overplay" (at every
later table), then on whether the overplay had begun; and its note names only fields the
form has."""

import html
import re

import pytest

from tournaments.models import Irregularity

pytestmark = pytest.mark.django_db


def stage_labels(page: str) -> dict[str, str]:
    return {value: html.unescape(label) for value, label in re.findall(
        r'data-testid="stage-([\w-]+)"[^>]*> <span>(.*?)</span>', page)}


def test_the_three_stages_read_differently(client, event, table1):
    page = client.get(f"/t/{table1}/round/1/board/1/irregular/").content.decode()
    labels = stage_labels(page)
    assert set(labels) == {"original", "before-overplay", "overplay"}
    # B(1): the board's first play; B(2) and B(3): a board another table had played.
    assert labels["original"].startswith("No table had played this board before us")
    assert labels["before-overplay"].startswith("Another table had played it before us")
    assert labels["overplay"].startswith("Another table had played it before us")
    # B(2) against B(3): before anyone bid, or after the bidding or play had begun.
    assert "took the cards out of the board, before anyone bid" in labels["before-overplay"]
    assert "after our bidding or play had begun" in labels["overplay"]
    assert "original play" not in page.split('data-testid="table-irregular-form"')[1]
    assert len(set(labels.values())) == 3


def test_the_stored_stage_is_the_one_chosen(client, event, table1):
    sent = client.post(f"/t/{table1}/round/1/board/1/irregular/",
                       {"stage": "before-overplay", "short_seat": "N", "surplus_seat": "E"})
    assert sent.status_code == 302
    assert Irregularity.objects.get().stage == "before-overplay"


def test_the_card_note_names_the_fields_the_form_has(client, event, table1):
    page = client.get(f"/t/{table1}/round/1/board/1/irregular/").content.decode()
    note = html.unescape(re.search(r'data-testid="misplaced-card-note">(.*?)</p>', page,
                                   re.S).group(1))
    assert "Name it and the hand it was in" not in page
    # The hand the card was in is given as the hand with too many cards: that field exists.
    assert "“The hand with too many cards”" in note
    assert '<label for="id_surplus_seat">The hand with too many cards</label>' in page
    assert 'id="id_misplaced_card"' in page
    # No hand record here: the note does not send the table to one (a review read "the
    # hand record tells whose card it is" on a board without one).
    assert not event.boards.get(number=1).deal
    assert "this board has no hand record to tell whose card it is" in note
    assert "“The short hand (too few cards)”" in note
    assert "the hand record tells" not in note
    # Doing as the note says is a report the director gets.
    sent = client.post(f"/t/{table1}/round/1/board/1/irregular/",
                       {"stage": "original", "misplaced_card": "S5", "surplus_seat": "E"})
    assert sent.status_code == 302
    irr = Irregularity.objects.get()
    assert (irr.misplaced_card, irr.surplus_seat) == ("S5", "E")


def test_with_a_hand_record_the_note_says_it_tells_whose_card_it_is(client, director):
    from tests.web.conftest import make_event
    from tournaments.models import TableCode

    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    event = make_event(director, deals={1: deal})
    code = TableCode.objects.get(section__event=event, table=1).code
    client.post("/t/", {"code": code})
    page = client.get(f"/t/{code}/round/1/board/1/irregular/").content.decode()
    note = html.unescape(re.search(r'data-testid="misplaced-card-note">(.*?)</p>', page,
                                   re.S).group(1))
    assert "the hand record tells whose card it is" in note
