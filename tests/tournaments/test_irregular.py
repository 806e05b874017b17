"""Irregular boards (Duplicate Law B): a new deal, sent back, a new deal at two tables,
average or fouled at more, each audited with its law."""

import pytest

from scoring.engine import partner
from tests.irregular_nights import (
    THREE_HEARTS_DEALT,
    agree_round,
    at_table,
    meeting,
    play,
    seat_of,
    three_tables,
    two_tables,
)
from tournaments import selectors, services
from tournaments.models import AuditEntry, Board, Irregularity, Result
from tournaments.services import Forbidden, ServiceError

NEW_DEAL = ("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")


@pytest.fixture
def three(director):
    return three_tables(director)


@pytest.fixture
def two(director):
    return two_tables(director)


def report(event, board, stage, actor, **kw):
    return services.irregularity_report(event=event, board=board, stage=stage, actor=actor,
                                        **kw)


# --- B(1) -----------------------------------------------------------------------------------


def test_b1_new_deal_typed_in_keeps_the_old_deal_in_the_audit_and_honours_follow(
        three, as_director):
    old = Board.objects.get(event=three, number=3).deal
    m = next(mt for mt in selectors_meetings(three, 3) if mt.round == 1)
    irr = report(three, 3, "original", at_table(three, m.table), meeting=m)
    assert irr.status == "reported"
    irr = services.irregularity_new_deal(irregularity=irr, actor=as_director, deal=NEW_DEAL,
                                         reason="North had 12 cards")
    assert (irr.status, irr.outcome) == ("resolved", "new-deal")
    board = Board.objects.get(event=three, number=3)
    assert board.deal == NEW_DEAL
    entry = AuditEntry.objects.filter(event=three, action="new deal").get()
    assert entry.before["deal"] == old and entry.after["deal"] == NEW_DEAL
    assert "Duplicate Law B(1)" in entry.reason and "North had 12 cards" in entry.reason
    assert entry.after["board"] == 3
    # The table now plays the new deal: honours come from it.
    result = play(three, 1, m.table, 3)
    assert result.details.get("honours") is None
    assert result.ns_honour == _honour_score()
    assert "re-dealt under Duplicate Law B(1)" in selectors.irregular_notes(three, 3)[0]


def selectors_meetings(event, board):
    return services.irregular.board_meetings(event, board)


def _honour_score():
    # Three hearts by South, honours as the new deal gives them (Law 3).
    from tournaments import seam
    fields = seam.result_fields(rules_name="american-1913", board_number=3,
                                deal=NEW_DEAL, data=THREE_HEARTS_DEALT)
    return fields["ns_honour"]


def test_b1_deals_securely_when_no_deal_is_typed(three, as_director):
    m = selectors_meetings(three, 1)[0]
    irr = report(three, 1, "original", as_director, meeting=m)
    old = Board.objects.get(event=three, number=1).deal
    services.irregularity_new_deal(irregularity=irr, actor=as_director)
    new = Board.objects.get(event=three, number=1).deal
    assert new and new != old and new.startswith("N:")


def test_b1_refused_when_the_board_has_results_elsewhere(three, as_director):
    first = selectors_meetings(three, 1)[0]
    play(three, first.round, first.table, 1)
    later = selectors_meetings(three, 1)[1]
    irr = report(three, 1, "original", as_director, meeting=later)
    with pytest.raises(ServiceError, match="not a new deal under Duplicate Law B\\(1\\)"):
        services.irregularity_new_deal(irregularity=irr, actor=as_director, deal=NEW_DEAL)
    assert Board.objects.get(event=three, number=1).deal != NEW_DEAL


def test_a_bad_new_deal_is_explained(three, as_director):
    irr = report(three, 1, "original", as_director)
    with pytest.raises(ServiceError) as caught:
        services.irregularity_new_deal(irregularity=irr, actor=as_director, deal="N:AKQ")
    assert caught.value.field == "deal"


def test_undo_a_new_deal_gives_the_old_deal_back(three, as_director):
    old = Board.objects.get(event=three, number=1).deal
    irr = report(three, 1, "original", as_director)
    services.irregularity_new_deal(irregularity=irr, actor=as_director, deal=NEW_DEAL)
    irr = services.irregularity_undo(irregularity=irr, actor=as_director, reason="wrong board")
    assert irr.status == "reported" and Board.objects.get(event=three, number=1).deal == old


# --- B(2) -----------------------------------------------------------------------------------


def test_b2_sent_back_the_finder_waits_then_enters_once_rectified(three, as_director):
    play(three, 1, 2, 1)  # board 1 played at table 2 in round 1
    agree_round(three, 1)
    found = meeting(three, 2, 1)  # it comes to table 1 in round 2
    table1 = at_table(three, 1)
    irr = report(three, 1, "before-overplay", table1, meeting=found, short_seat="N",
                 surplus_seat="E")
    # Reported: the table waits for the director.
    with pytest.raises(Forbidden, match="director is on the way"):
        services.result_record(event=three, board=1, ns=found.ns_pair.number,
                               ew=found.ew_pair.number, data=THREE_HEARTS_DEALT,
                               actor=table1, meeting=found)
    irr = services.irregularity_send_back(irregularity=irr, actor=as_director)
    assert (irr.status, irr.sent_to_table, irr.sent_to_round) == ("sent-back", 2, 1)
    with pytest.raises(Forbidden, match="went back to table 2 to be put right"):
        services.result_record(event=three, board=1, ns=found.ns_pair.number,
                               ew=found.ew_pair.number, data=THREE_HEARTS_DEALT,
                               actor=table1, meeting=found)
    assert [i.pk for i in selectors.open_irregularities(three)] == [irr.pk]
    irr = services.irregularity_rectified(irregularity=irr, actor=as_director)
    assert (irr.status, irr.outcome) == ("resolved", "rectified")
    result, created = services.result_record(
        event=three, board=1, ns=found.ns_pair.number, ew=found.ew_pair.number,
        data=THREE_HEARTS_DEALT, actor=table1, meeting=found)
    assert created
    entries = AuditEntry.objects.filter(event=three, action="irregular board").order_by("id")
    assert ["Duplicate Law B(2)" in e.reason for e in entries] == [True, True, True]
    assert "sent back to table 2" in entries[1].reason
    assert "rectified under Duplicate Law B(2)" in selectors.irregular_notes(three, 1)[0]


def test_b2_the_table_it_was_sent_to_may_mark_it_rectified(three, as_director):
    agree_round(three, 1)
    irr = report(three, 1, "before-overplay", at_table(three, 1), meeting=meeting(three, 2, 1))
    services.irregularity_send_back(irregularity=irr, actor=as_director)
    with pytest.raises(Forbidden):
        services.irregularity_rectified(irregularity=irr, actor=at_table(three, 3))
    irr = services.irregularity_rectified(irregularity=irr, actor=at_table(three, 2))
    assert irr.outcome == "rectified"


def test_b2_with_no_earlier_table_says_so(three, as_director):
    irr = report(three, 1, "before-overplay", as_director, meeting=meeting(three, 1, 2))
    with pytest.raises(ServiceError, match="no table to send it back to"):
        services.irregularity_send_back(irregularity=irr, actor=as_director)


def test_b2_refused_for_a_board_the_reporting_table_has_played(three, as_director):
    """B(2) is for the cards found wrong when taken up for overplay, before it begins. A
    review reported a board its table had played and agreed, and the director could
    send it back, with a note on the public traveller, while the table's result stood."""
    play(three, 1, 2, 1)  # board 1 played at table 2 in round 1
    found = meeting(three, 2, 1)  # it comes to table 1 in round 2
    play(three, 2, 1, 1)  # ... which plays it
    with pytest.raises(ServiceError, match=r"Board 1 has been played at table 1 in round 2 "
                                           r"already \(.*\): the overplay had begun, so this "
                                           r"is Duplicate Law B\(3\), not B\(2\)"):
        report(three, 1, "before-overplay", as_director, meeting=found)
    assert not Irregularity.objects.filter(event=three).exists()
    # Found after the overplay began (B(3)), it is reported.
    report(three, 1, "overplay", as_director, meeting=found, short_seat="N",
           surplus_seat="E")


def test_b2_not_sent_back_once_the_table_has_played_it(three, as_director):
    """A report made while the cards were still to be played, the board entered since
    (the director's own entry): not sent back, the result standing."""
    play(three, 1, 2, 1)
    found = meeting(three, 2, 1)
    irr = report(three, 1, "before-overplay", as_director, meeting=found)
    play(three, 2, 1, 1)
    with pytest.raises(ServiceError, match="the overplay had begun"):
        services.irregularity_send_back(irregularity=irr, actor=as_director)
    irr.refresh_from_db()
    assert irr.status == "reported"


def test_a_table_reports_only_its_current_round(three):
    with pytest.raises(Forbidden):
        report(three, 1, "before-overplay", at_table(three, 1), meeting=meeting(three, 2, 1))
    with pytest.raises(Forbidden):
        report(three, 1, "original", at_table(three, 1), meeting=meeting(three, 1, 2))


def test_withdraw_frees_the_table(three, as_director):
    m = meeting(three, 1, 2)
    table2 = at_table(three, 2)
    irr = report(three, 1, "original", table2, meeting=m)
    irr = services.irregularity_withdraw(irregularity=irr, actor=table2, reason="miscounted")
    assert irr.status == "withdrawn"
    assert selectors.irregular_refusal(m, 1) == ""
    services.result_record(event=three, board=1, ns=m.ns_pair.number, ew=m.ew_pair.number,
                           data=THREE_HEARTS_DEALT, actor=table2, meeting=m)
    entry = AuditEntry.objects.filter(event=three, action="irregular board").first()
    assert "withdrawn" in entry.reason and "miscounted" in entry.reason


# --- B(3) at two tables -----------------------------------------------------------------------


def test_b3_two_tables_new_deal_voids_both_results_and_both_play_again(two, as_director):
    first = play(two, 1, 1, 1)
    agree_round(two, 1)
    irr = report(two, 1, "overplay", as_director, meeting=meeting(two, 2, 2))
    second = play(two, 2, 2, 1)
    irr = services.irregularity_new_deal(irregularity=irr, actor=as_director, deal=NEW_DEAL)
    assert irr.outcome == "new-deal"
    assert set(Result.objects.filter(pk__in=[first.pk, second.pk]).values_list(
        "voided", flat=True)) == {True}
    voids = AuditEntry.objects.filter(event=two, action="void")
    assert voids.count() == 2 and all("Duplicate Law B(3)" in v.reason for v in voids)
    assert Board.objects.get(event=two, number=1).deal == NEW_DEAL
    again = play(two, 2, 2, 1)
    # Table 2 plays the new deal in the round it is at: its leave is used up, and the
    # board is no late play (it was played in its round).
    assert not again.voided and not again.late_play and 1 not in meeting(two, 2, 2).late_boards
    assert "re-dealt at both tables under Duplicate Law B(3)" in \
        selectors.irregular_notes(two, 1)[0]
    # Table 1's round is agreed, yet it plays the new deal and enters it from its phone:
    # the new deal gave both tables leave to play it late.
    m = meeting(two, 1, 1)
    assert 1 in m.late_boards
    replay, created = services.result_record(
        event=two, board=1, ns=m.ns_pair.number, ew=m.ew_pair.number, data=THREE_HEARTS_DEALT,
        actor=at_table(two, 1), meeting=m)
    assert created and replay.late_play and 1 not in meeting(two, 1, 1).late_boards


def test_undo_a_two_table_new_deal_takes_back_the_leave_it_gave(two, as_director):
    first = play(two, 1, 1, 1)
    second = play(two, 2, 2, 1)
    irr = report(two, 1, "overplay", as_director, meeting=meeting(two, 2, 2))
    irr = services.irregularity_new_deal(irregularity=irr, actor=as_director, deal=NEW_DEAL)
    assert 1 in meeting(two, 1, 1).late_boards and 1 in meeting(two, 2, 2).late_boards
    services.irregularity_undo(irregularity=irr, actor=as_director, reason="wrong board")
    assert 1 not in meeting(two, 1, 1).late_boards and 1 not in meeting(two, 2, 2).late_boards
    assert set(Result.objects.filter(pk__in=[first.pk, second.pk]).values_list(
        "voided", flat=True)) == {False}


def test_b3_two_tables_no_time_cancels_at_both(two, as_director):
    irr = report(two, 1, "overplay", as_director, meeting=meeting(two, 2, 2))
    irr = services.irregularity_cancel(irregularity=irr, actor=as_director)
    assert irr.outcome == "cancelled"
    assert list(Result.objects.filter(event=two, board__number=1).values_list(
        "ruling", flat=True)) == ["cancelled", "cancelled"]


def test_b3_two_tables_refuses_average(two, as_director):
    irr = report(two, 1, "overplay", as_director, meeting=meeting(two, 2, 2),
                 short_seat="N", surplus_seat="E")
    with pytest.raises(ServiceError, match="new deal"):
        services.irregularity_rule(irregularity=irr, actor=as_director)


# --- B(3) at more tables ----------------------------------------------------------------------


def _misplaced(event, board, owner):
    """A card of `owner`'s hand by the record (its first spade or whatever it holds)."""
    from scoring.engine import parse_deal
    hand = parse_deal(Board.objects.get(event=event, number=board).deal)[owner]
    suit = next(s for s in "SHDC" if hand[s])
    return suit + hand[suit][0]


def test_b3_average_when_an_adversary_had_the_surplus_derived_from_the_record(
        three, as_director):
    card = _misplaced(three, 1, "N")
    assert seat_of(Board.objects.get(event=three, number=1).deal, card) == "N"
    play(three, 1, 2, 1)
    agree_round(three, 1)
    found = meeting(three, 2, 1)
    irr = report(three, 1, "overplay", at_table(three, 1), meeting=found,
                 misplaced_card=card, surplus_seat="E")
    assert (irr.short_seat, irr.surplus_seat) == ("N", "E")
    irr = services.irregularity_rule(irregularity=irr, actor=as_director)
    assert irr.outcome == "average"
    result = Result.objects.get(meeting=found, board__number=1, voided=False)
    assert result.ruling == "average"
    rule = AuditEntry.objects.get(result=result, action="rule")
    assert rule.reason.startswith("Duplicate Law B(3)")
    assert "average for both pairs, Duplicate Law B(3)" in selectors.irregular_notes(three, 1)[0]


def test_b3_fouled_when_the_partner_had_the_surplus(three, as_director):
    card = _misplaced(three, 1, "E")
    irr = report(three, 1, "overplay", as_director, meeting=meeting(three, 2, 1),
                 misplaced_card=card.lower(), surplus_seat=partner("E"))
    assert irr.short_seat == "E"
    irr = services.irregularity_rule(irregularity=irr, actor=as_director)
    result = Result.objects.get(meeting=irr.meeting, board__number=1, voided=False)
    assert (result.ruling, result.offending) == ("fouled", "ew")
    # Undo takes the ruling back and the report stands again.
    irr = services.irregularity_undo(irregularity=irr, actor=as_director)
    assert irr.status == "reported"
    assert not Result.objects.filter(meeting=irr.meeting, board__number=1,
                                     voided=False).exists()


def test_a_law_b_ruling_is_undone_with_its_report_not_alone(three, as_director, director,
                                                            client):
    """Undone from the audit trail alone, the ruling went and the report stayed decided:
    the table was told to enter a board it must not play. The audit trail refuses it and
    points to the board's page, which undoes both."""
    card = _misplaced(three, 1, "E")
    irr = report(three, 1, "overplay", as_director, meeting=meeting(three, 2, 1),
                 misplaced_card=card.lower(), surplus_seat=partner("E"))
    irr = services.irregularity_rule(irregularity=irr, actor=as_director)
    rule = AuditEntry.objects.get(event=three, action="rule")
    assert selectors.audit_undoable(three, [rule]) == set()
    assert selectors.audit_law_b(three, [rule]) == {rule.pk: irr.pk}
    with pytest.raises(ServiceError, match="undo the decision on that board's page"):
        services.audit_undo(entry=rule, actor=as_director)
    irr.refresh_from_db()
    assert irr.status == "resolved"
    assert Result.objects.filter(meeting=irr.meeting, board__number=1, voided=False).exists()
    # The audit page offers the board's page in place of Undo.
    client.force_login(director)
    audit = client.get(f"/director/events/{three.pk}/audit/").content.decode()
    assert f'data-testid="undo-{rule.pk}"' not in audit
    assert (f'href="/director/events/{three.pk}/irregular/{irr.pk}/" '
            f'data-testid="undo-law-b-{rule.pk}">Undo on the irregular board\'s page</a>') in audit
    services.irregularity_undo(irregularity=irr, actor=as_director)
    rule.refresh_from_db()
    assert rule.undone_by_id is not None
    assert selectors.audit_law_b(three, [rule]) == {}  # undone: nothing more to offer


def test_b3_seats_asked_when_the_record_cannot_tell(director, as_director):
    event = three_tables(director, deals=False)
    irr = report(event, 1, "overplay", as_director, meeting=meeting(event, 2, 1),
                 misplaced_card="S5", surplus_seat="S")
    assert irr.short_seat == ""  # no hand record: nobody knows whose the five was
    with pytest.raises(ServiceError, match="name both seats"):
        services.irregularity_rule(irregularity=irr, actor=as_director)
    irr = services.irregularity_rule(irregularity=irr, actor=as_director, short_seat="N")
    assert irr.outcome == "fouled"
    result = Result.objects.get(meeting=irr.meeting, board__number=1, voided=False)
    assert (result.ruling, result.offending) == ("fouled", "ns")


def test_a_card_found_in_its_own_hand_is_questioned(three, as_director):
    card = _misplaced(three, 1, "W")
    with pytest.raises(ServiceError, match="belongs to West"):
        report(three, 1, "overplay", as_director, meeting=meeting(three, 2, 1),
               misplaced_card=card, surplus_seat="W")


def test_the_wrong_step_for_the_stage_is_refused(three, as_director):
    irr = report(three, 1, "original", as_director)
    with pytest.raises(ServiceError, match="Duplicate Law B\\(1\\) applies"):
        services.irregularity_send_back(irregularity=irr, actor=as_director)
    with pytest.raises(Forbidden):
        services.irregularity_new_deal(irregularity=irr, actor=at_table(three, 1))


def test_the_table_waits_on_its_report_only(three):
    m = meeting(three, 1, 2)
    report(three, 1, "original", at_table(three, 2), meeting=m)
    assert "director is on the way" in selectors.irregular_refusal(m, 1)
    assert selectors.irregular_refusal(m, 2) == ""
    assert Irregularity.objects.count() == 1
