"""Irregular boards on the pages (Duplicate Law B): the table's report and its wait, the
console's list, walk-through and grid, the notes on the traveller and the score card."""

import html
import re

import pytest

from tests.irregular_nights import (
    THREE_HEARTS,
    THREE_HEARTS_DEALT,
    agree_round,
    at_table,
    code,
    meeting,
    play,
    three_tables,
    two_tables,
)
from tests.web.conftest import contract_post
from tests.web.test_director_audit_agree_words import audit_row
from tournaments import services
from tournaments.models import AuditEntry, Board, Irregularity, Result
from tournaments.services import Actor


def token_of(response) -> str:
    match = re.search(rb'name="token" value="([^"]+)"', response.content)
    return match.group(1).decode() if match else ""


@pytest.fixture
def night(director):
    event = three_tables(director, deals=False)
    play(event, 1, 2, 1, data=THREE_HEARTS)  # board 1 at table 2 in round 1
    agree_round(event, 1)
    return event


def test_b2_from_the_phone_to_the_console_and_back(client, director_client, night):
    t1 = code(night, 1)
    page = client.get(f"/t/{t1}/").content.decode()
    assert 'data-testid="report-irregular-1"' in page
    form = client.get(f"/t/{t1}/round/2/board/1/irregular/")
    assert form.status_code == 200 and 'data-testid="stage-before-overplay"' in \
        form.content.decode()
    sent = client.post(f"/t/{t1}/round/2/board/1/irregular/",
                       {"stage": "before-overplay", "short_seat": "N", "surplus_seat": "E"})
    assert sent.status_code == 302 and sent["Location"] == f"/t/{t1}/round/2/"
    irr = Irregularity.objects.get()
    assert (irr.reported_by, irr.meeting.table, irr.meeting.round) == ("table 1", 1, 2)
    page = client.get(f"/t/{t1}/round/2/").content.decode()
    assert "the director is on the way" in page and 'data-testid="open-board-1"' not in page
    assert client.get(f"/t/{t1}/round/2/board/1/").status_code == 403

    # The console: the overview lists it; the walk-through offers sending it back.
    overview = director_client.get(f"/director/events/{night.pk}/").content.decode()
    assert 'data-testid="irregular-open"' in overview and "Board 1 irregular" in overview
    detail = director_client.get(f"/director/events/{night.pk}/irregular/{irr.pk}/")
    html = detail.content.decode()
    assert "Duplicate Law B(2)" in html and "came from <strong>table 2</strong>" in html
    assert 'data-testid="do-new-deal"' not in html and 'data-testid="do-rule"' not in html
    step = f"/director/events/{night.pk}/irregular/{irr.pk}/step/"
    assert director_client.post(step, {"action": "send-back"}).status_code == 302
    overview = director_client.get(f"/director/events/{night.pk}/").content.decode()
    assert "Board 1 sent back" in overview
    page = client.get(f"/t/{t1}/round/2/").content.decode()
    assert "Board 1 went back to table 2 to be put right" in page
    refused = client.get(f"/t/{t1}/round/2/board/1/")
    assert refused.status_code == 403 and "wait for it to come back" in refused.content.decode()

    # It comes back: the table marks it rectified and enters the result.
    back = client.post(f"/t/{t1}/irregular/{irr.pk}/rectified/")
    assert back.status_code == 302
    irr.refresh_from_db()
    assert (irr.status, irr.outcome) == ("resolved", "rectified")
    form = client.get(f"/t/{t1}/round/2/board/1/")
    assert form.status_code == 200
    saved = client.post(f"/t/{t1}/round/2/board/1/", contract_post(token=token_of(form)))
    assert saved.status_code == 302
    assert Result.objects.filter(meeting=irr.meeting, board__number=1).exists()
    traveller = client.get(f"/events/{night.pk}/boards/1/")
    assert traveller.status_code in (200, 403)


def test_a_table_cannot_report_another_round(client, night):
    t1 = code(night, 1)
    assert client.get(f"/t/{t1}/round/3/board/3/irregular/").status_code == 403


def test_a_bad_card_is_explained_on_the_phone(client, night):
    t1 = code(night, 1)
    answer = client.post(f"/t/{t1}/round/2/board/1/irregular/",
                         {"stage": "overplay", "misplaced_card": "Z9", "surplus_seat": "E"})
    assert answer.status_code == 400
    assert "name the card as its suit and rank" in answer.content.decode().lower()
    assert not Irregularity.objects.exists()


def test_console_walk_through_b3_at_more_tables_asks_for_the_seats(director_client, night):
    listing = director_client.get(f"/director/events/{night.pk}/irregular/")
    assert listing.status_code == 200 and 'data-testid="irregular-report-form"' in \
        listing.content.decode()
    found = meeting(night, 2, 1)
    sent = director_client.post(f"/director/events/{night.pk}/irregular/", {
        "board": "1", "meeting": str(found.pk), "stage": "overplay",
        "misplaced_card": "S5", "surplus_seat": "W"})
    assert sent.status_code == 302
    irr = Irregularity.objects.get()
    html = director_client.get(sent["Location"]).content.decode()
    assert 'data-testid="seats-needed"' in html and 'data-testid="do-rule"' in html
    step = f"/director/events/{night.pk}/irregular/{irr.pk}/step/"
    director_client.post(step, {"action": "rule", "short_seat": "E", "reason": "asked"})
    irr.refresh_from_db()
    assert irr.outcome == "fouled"
    result = Result.objects.get(meeting=found, board__number=1)
    assert (result.ruling, result.offending) == ("fouled", "ew")
    card = director_client.get(f"/events/{night.pk}/pairs/{found.ns_pair.number}/")
    assert "fouled board, E–W at fault" in card.content.decode()


def test_the_audit_writes_an_irregular_board_in_words(director_client, night):
    # A reviewer read "board: 1, law: Duplicate Law B(3), short seat: E, stage: overplay".
    found = meeting(night, 2, 1)
    sent = director_client.post(f"/director/events/{night.pk}/irregular/", {
        "board": "1", "meeting": str(found.pk), "stage": "overplay",
        "misplaced_card": "S5", "surplus_seat": "W"})
    irr = Irregularity.objects.get()
    director_client.post(f"/director/events/{night.pk}/irregular/{irr.pk}/step/",
                         {"action": "rule", "short_seat": "E", "reason": "asked"})
    assert sent.status_code == 302
    entry = AuditEntry.objects.filter(event=night, action="irregular board").latest("id")
    row = html.unescape(audit_row(director_client, night, entry))
    where = (f"Board 1, found at table {found.table}, round {found.round} after the overplay "
             "began (Duplicate Law B(3)): the ♠5 in West's hand")
    assert f"{where}; reported, waiting for the director" in row
    assert f"{where}, East short; decided: fouled board, E–W at fault" in row
    assert "short seat" not in row and "stage:" not in row


def test_console_b1_new_deal_and_the_traveller_note(director_client, director):
    event = three_tables(director)
    old = Board.objects.get(event=event, number=3).deal
    irr = services.irregularity_report(event=event, board=3, stage="original",
                                       actor=Actor.director(director))
    html = director_client.get(f"/director/events/{event.pk}/irregular/{irr.pk}/").content
    assert b'data-testid="do-new-deal"' in html and b"Duplicate Law B(1)" in html
    director_client.post(f"/director/events/{event.pk}/irregular/{irr.pk}/step/",
                         {"action": "new-deal", "deal": "", "reason": "East had 14"})
    new = Board.objects.get(event=event, number=3).deal
    assert new and new != old
    entry = AuditEntry.objects.get(event=event, action="new deal")
    assert entry.before["deal"] == old
    audit = director_client.get(f"/director/events/{event.pk}/audit/?board=3").content.decode()
    assert "Duplicate Law B(1)" in audit and "East had 14" in audit
    assert b"re-dealt under Duplicate Law B(1)" in director_client.get(
        f"/events/{event.pk}/boards/3/").content


def test_console_b3_two_tables_offers_new_deal_and_cancel(director_client, director):
    event = two_tables(director)
    irr = services.irregularity_report(event=event, board=1, stage="overplay",
                                       actor=Actor.director(director),
                                       meeting=meeting(event, 2, 2))
    html = director_client.get(f"/director/events/{event.pk}/irregular/{irr.pk}/").content
    assert b'data-testid="do-new-deal"' in html and b'data-testid="do-cancel"' in html
    assert b'data-testid="do-rule"' not in html
    director_client.post(f"/director/events/{event.pk}/irregular/{irr.pk}/step/",
                         {"action": "cancel"})
    irr.refresh_from_db()
    assert irr.outcome == "cancelled"


def test_withdraw_and_undo_from_the_console(director_client, night, director):
    irr = services.irregularity_report(event=night, board=1, stage="before-overplay",
                                       actor=Actor.director(director),
                                       meeting=meeting(night, 2, 1))
    step = f"/director/events/{night.pk}/irregular/{irr.pk}/step/"
    director_client.post(step, {"action": "send-back"})
    director_client.post(step, {"action": "undo"})
    irr.refresh_from_db()
    assert irr.status == "reported" and irr.sent_to_table is None
    director_client.post(step, {"action": "withdraw"})
    irr.refresh_from_db()
    assert irr.status == "withdrawn"


def test_the_console_pages_are_for_the_director(client, night):
    assert client.get(f"/director/events/{night.pk}/irregular/").status_code == 302


def test_a_new_deal_in_the_round_the_table_is_at_is_no_late_play(client, director):
    """Duplicate Law B(3), two tables: the new deal gives both tables leave to play it. A
    table still at the board's round plays it there: its page lists it with the round's
    boards, not under "Late play", and its result is not marked played late (a table that
    has moved on plays it late: tests/tournaments/test_irregular.py)."""
    event = two_tables(director)
    actor = Actor.director(director)
    irr = services.irregularity_report(event=event, board=1, stage="overplay", actor=actor,
                                       meeting=meeting(event, 1, 1))
    services.irregularity_new_deal(irregularity=irr, actor=actor, deal="")
    page = client.get(f"/t/{code(event, 1)}/round/1/").content.decode()
    assert 'data-testid="late-play"' not in page and 'data-testid="board-1"' in page
    form = client.get(f"/t/{code(event, 1)}/round/1/board/1/").content.decode()
    assert 'data-testid="late-play-note"' not in form
    result, _ = services.result_record(
        event=event, board=1, ns=1, ew=3, data=THREE_HEARTS_DEALT, actor=at_table(event, 1),
        meeting=meeting(event, 1, 1))
    assert not result.late_play


def test_the_table_a_board_went_back_to_is_told_and_returns_it(director_client, night):
    """Duplicate Law B(2): the board goes back to the table that played it before, which
    puts it right and returns it. That table's phone says so, with what is wrong, and its
    "put right" tells it where the board goes."""
    import html

    from django.test import Client

    finder, source = Client(), Client()
    t1, t2 = code(night, 1), code(night, 2)
    finder.post(f"/t/{t1}/round/2/board/1/irregular/",
                {"stage": "before-overplay", "surplus_seat": "N", "misplaced_card": "S3"})
    irr = Irregularity.objects.get()
    director_client.post(f"/director/events/{night.pk}/irregular/{irr.pk}/step/",
                         {"action": "send-back"})
    irr.refresh_from_db()
    assert irr.sent_to_table == 2
    page = html.unescape(source.get(f"/t/{t2}/").content.decode())
    assert 'data-testid="sent-back-1"' in page
    assert ("Board 1 came back to you from table 1: the ♠3 was in North's hand. Put it right "
            "as you played it (Duplicate Law B(2)), then return it to table 1.") in page
    assert "Put right: returned to table 1" in page
    done = source.post(f"/t/{t2}/irregular/{irr.pk}/rectified/", follow=True)
    text = done.content.decode()
    assert "Board 1 is put right: take it back to table 1, which plays it now." in text
    assert 'data-testid="sent-back-1"' not in source.get(f"/t/{t2}/").content.decode()
    irr.refresh_from_db()
    assert (irr.status, irr.outcome) == ("resolved", "rectified")
    # The table that found it is no longer waiting.
    assert finder.get(f"/t/{t1}/round/2/board/1/").status_code == 200
