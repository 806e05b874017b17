"""A new deal (Duplicate Law B(1), or B(3) at two tables) says how it is dealt: re-dealt at
the table by hand (the board keeps no deal, so no hands are published that were not
played), dealt here by the program (the page that follows shows the hands to make the
board up from, and links the printed hand records), or a deal given as PBN."""

import html

import pytest

from tests.irregular_nights import THREE_HEARTS, meeting, play, three_tables, two_tables
from tournaments import services
from tournaments.models import AuditEntry, Board, Irregularity, Result
from tournaments.services import Actor, ServiceError


def report_b1(event, director, board: int = 3) -> Irregularity:
    return services.irregularity_report(event=event, board=board, stage="original",
                                        actor=Actor.director(director))


def detail(client, event, irr) -> str:
    return html.unescape(client.get(
        f"/director/events/{event.pk}/irregular/{irr.pk}/").content.decode())


def step(client, event, irr, **data):
    return client.post(f"/director/events/{event.pk}/irregular/{irr.pk}/step/",
                       {"action": "new-deal", **data}, follow=True)


def test_a_night_without_hand_records_re_deals_by_hand_and_publishes_no_hands(
        client, director_client, director):
    event = three_tables(director, deals=False)
    irr = report_b1(event, director)
    page = detail(director_client, event, irr)
    # The three ways, by hand chosen: nothing here says which hands the table holds.
    for how in ("hand", "here", "pbn"):
        assert f'data-testid="dealt-{how}"' in page
    assert 'value="hand" data-testid="dealt-hand" checked' in page
    assert "Re-dealt at the table by hand (no hands recorded)" in page
    done = html.unescape(step(director_client, event, irr, dealt="hand",
                              reason="East had 14").content.decode())
    assert "Board 3 is re-dealt at the table by hand: no hands are recorded" in done
    assert 'data-testid="new-deal-by-hand"' in done and 'data-testid="new-deal-hands"' not in done
    irr.refresh_from_db()
    assert (irr.status, irr.outcome) == ("resolved", "new-deal")
    assert Board.objects.get(event=event, number=3).deal == ""
    # Its decision is in the audit (no "new deal" of the deal history: no hands to give).
    assert not AuditEntry.objects.filter(event=event, action="new deal").exists()
    entry = AuditEntry.objects.filter(event=event, action="irregular board").latest("id")
    assert entry.after["dealt"] == "by hand" and "by hand" in entry.reason
    # The public traveller prints no hands; the boards page lists none.
    traveller = client.get(f"/events/{event.pk}/boards/3/").content.decode()
    assert 'data-testid="hand-record"' not in traveller
    assert 'data-testid="hand-hidden"' not in traveller
    # Undone, the report stands again as reported.
    director_client.post(f"/director/events/{event.pk}/irregular/{irr.pk}/step/",
                         {"action": "undo"})
    irr.refresh_from_db()
    assert (irr.status, irr.outcome) == ("reported", "")
    assert not AuditEntry.objects.filter(event=event, action="new deal").exists()


def test_dealt_here_the_next_page_says_to_make_the_board_up_from_the_hands(
        director_client, director):
    event = three_tables(director)  # boards made up from hand records: dealt here
    old = Board.objects.get(event=event, number=3).deal
    irr = report_b1(event, director)
    assert 'value="here" data-testid="dealt-here" checked' in detail(director_client, event, irr)
    done = html.unescape(step(director_client, event, irr, dealt="here").content.decode())
    new = Board.objects.get(event=event, number=3).deal
    assert new and new != old
    assert "Board 3 is dealt here: make the board up from the hands below" in done
    assert "Make up board 3 from this deal" in done
    assert 'data-testid="new-deal-hands"' in done
    for seat in "NESW":
        assert f'data-testid="new-deal-{seat}"' in done
    # North's spades as the table reads them ("A K 10 2"), in the hands shown.
    spades = new.split(":")[1].split()[0].split(".")[0]
    cards = " ".join("10" if c == "T" else c for c in spades) or "—"
    north = done.split('data-testid="new-deal-N">')[1].split("</tr>")[0]
    assert f"<td>{cards}</td>" in north
    assert f'href="/events/{event.pk}/reports/handrecords/"' in done


def test_by_hand_on_a_board_with_a_hand_record_drops_it_and_undo_gives_it_back(
        client, director_client, director):
    event = three_tables(director)
    old = Board.objects.get(event=event, number=3).deal
    irr = report_b1(event, director)
    step(director_client, event, irr, dealt="hand")
    assert Board.objects.get(event=event, number=3).deal == ""
    traveller = client.get(f"/events/{event.pk}/boards/3/").content.decode()
    assert 'data-testid="hand-record"' not in traveller and "hand-hidden" not in traveller
    director_client.post(f"/director/events/{event.pk}/irregular/{irr.pk}/step/",
                         {"action": "undo"})
    assert Board.objects.get(event=event, number=3).deal == old
    back = AuditEntry.objects.get(event=event, action="new deal")
    assert (back.before["deal"], back.after["deal"]) == ("", old)


def test_a_pbn_deal_must_be_given(director_client, director):
    event = three_tables(director, deals=False)
    irr = report_b1(event, director)
    page = step(director_client, event, irr, dealt="pbn", deal="").content.decode()
    assert "Give the new deal as PBN, or choose how it is dealt" in page
    irr.refresh_from_db()
    assert irr.status == "reported"


def test_the_service_refuses_hands_for_a_deal_made_by_hand(director):
    event = three_tables(director, deals=False)
    irr = report_b1(event, director)
    with pytest.raises(ServiceError, match="re-dealt by hand"):
        services.irregularity_new_deal(
            irregularity=irr, actor=Actor.director(director), by_hand=True,
            deal="N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")


def test_b3_two_tables_by_hand_voids_both_and_undo_brings_them_back(director):
    event = two_tables(director, deals=False)
    play(event, 1, 1, 1, data=THREE_HEARTS)
    play(event, 2, 2, 1, data=THREE_HEARTS)
    actor = Actor.director(director)
    irr = services.irregularity_report(event=event, board=1, stage="overplay", actor=actor,
                                       meeting=meeting(event, 2, 2))
    services.irregularity_new_deal(irregularity=irr, actor=actor, by_hand=True)
    assert not Result.objects.filter(board__event=event, board__number=1,
                                     voided=False).exists()
    assert 1 in meeting(event, 1, 1).late_boards and 1 in meeting(event, 2, 2).late_boards
    services.irregularity_undo(irregularity=irr, actor=actor)
    assert Result.objects.filter(board__event=event, board__number=1, voided=False).count() == 2
    assert 1 not in (meeting(event, 1, 1).late_boards or [])


def test_a_pbn_deal_typed_with_the_choice_left_at_dealt_here_is_refused_not_dropped(
        director_client, director):
    """The PBN box is always on the page: filled in with the choice left at its default, the
    deal typed had been dropped and another dealt in its place."""
    event = three_tables(director)  # a hand record: the page's default is "dealt here"
    old = Board.objects.get(event=event, number=3).deal
    irr = report_b1(event, director)
    pbn = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    page = step(director_client, event, irr, dealt="here", deal=pbn).content.decode()
    assert ("A deal is given as PBN, but the board is to be dealt here: choose “a deal I give "
            "as PBN” to use it, or clear it") in html.unescape(page)
    irr.refresh_from_db()
    assert irr.status == "reported"
    assert Board.objects.get(event=event, number=3).deal == old
