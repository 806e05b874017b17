"""Boards not played, and late play (services.late and result_record): the director marks
boards of a meeting not played (no comparison, no credit: Duplicate Law H), gives a table
leave to play a board late, even in an agreed round, and the late result takes the place
of the "not-played" ruling, audited and undoable."""

import pytest

from tests.api.helpers import THREE_HEARTS, TWO_HEARTS, build_night
from tests.factories import DirectorFactory
from tournaments import selectors, services
from tournaments.models import AuditEntry, Meeting, Result
from tournaments.services import Actor, Forbidden, ResultConflict, ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    return build_night(DirectorFactory(username="alice"))  # 3 tables, 3 rounds, 2 boards each


def table(night, number: int) -> Actor:
    return Actor.at_table(night.event.sections.get(), number)


def enter(night, meeting: Meeting, board: int, actor: Actor, data=TWO_HEARTS, **kw):
    return services.result_record(event=night.event, board=board, ns=meeting.ns_pair.number,
                                  ew=meeting.ew_pair.number, data=data, actor=actor,
                                  meeting=meeting, **kw)


def test_the_director_marks_boards_not_played(night):
    meeting = night.meeting(2, 1)
    marked = services.boards_not_played(meeting=meeting, boards=meeting.boards,
                                        actor=night.actor, reason="slow play")
    assert [r.board.number for r in marked] == meeting.boards
    for result in marked:
        assert (result.ruling, result.status, result.meeting_id) == (
            "not-played", Result.Status.DIRECTOR, meeting.pk)
        assert result.ns_score is None and result.late_play is False
    entries = AuditEntry.objects.filter(event=night.event, action="rule")
    assert entries.count() == 2 and {e.reason for e in entries} == {"slow play"}
    # Again: nothing new (already not played).
    again = services.boards_not_played(meeting=meeting, boards=meeting.boards[:1],
                                       actor=night.actor, reason="slow play")
    assert again[0].pk == marked[0].pk
    assert AuditEntry.objects.filter(event=night.event, action="rule").count() == 2


def test_marking_not_played_needs_the_director_a_reason_and_the_meetings_boards(night):
    meeting = night.meeting(1, 1)
    with pytest.raises(Forbidden):
        services.boards_not_played(meeting=meeting, boards=meeting.boards,
                                   actor=table(night, 1), reason="x")
    with pytest.raises(ServiceError, match="reason"):
        services.boards_not_played(meeting=meeting, boards=meeting.boards, actor=night.actor)
    other = night.meeting(1, 2).boards[0]
    with pytest.raises(ServiceError, match=f"Board {other} is not played at table 1"):
        services.boards_not_played(meeting=meeting, boards=[other], actor=night.actor,
                                   reason="time")
    # A board with a score is not marked over it.
    night.enter(1, 1, meeting.boards[0])
    with pytest.raises(ServiceError, match="has a result"):
        services.boards_not_played(meeting=meeting, boards=meeting.boards, actor=night.actor,
                                   reason="time")
    assert not Result.objects.filter(ruling="not-played").exists()


def test_not_played_is_undone_from_the_audit(night):
    meeting = night.meeting(1, 1)
    [result] = services.boards_not_played(meeting=meeting, boards=meeting.boards[:1],
                                          actor=night.actor, reason="time")
    entry = AuditEntry.objects.get(result=result, action="rule")
    services.audit_undo(entry=entry, actor=night.actor, reason="it was played")
    result.refresh_from_db()
    assert result.voided
    # The table may then enter it as ever.
    result, created = enter(night, meeting, meeting.boards[0], table(night, 1))
    assert created and result.ruling == "" and not result.late_play


def test_leave_is_given_withdrawn_and_audited(night):
    meeting = night.meeting(1, 1)
    services.late_play_allow(meeting=meeting, boards=[meeting.boards[1]], actor=night.actor,
                             reason="slow play, played at the end")
    meeting.refresh_from_db()
    assert meeting.late_boards == [meeting.boards[1]]
    entry = AuditEntry.objects.get(event=night.event, action="late leave")
    assert entry.after["late_boards"] == [meeting.boards[1]] and entry.before["late_boards"] == []
    services.late_play_withdraw(meeting=meeting, actor=night.actor, reason="no time after all")
    meeting.refresh_from_db()
    assert meeting.late_boards == []
    assert AuditEntry.objects.filter(action="late leave withdrawn").count() == 1
    with pytest.raises(Forbidden):
        services.late_play_allow(meeting=meeting, boards=meeting.boards, actor=table(night, 1))
    # A board with a played result is corrected, not played again.
    night.enter(1, 1, meeting.boards[0])
    with pytest.raises(ServiceError, match="correct it instead"):
        services.late_play_allow(meeting=meeting, boards=meeting.boards, actor=night.actor,
                                 reason="late")


def test_a_table_enters_an_agreed_rounds_board_with_leave_and_not_without(night):
    meeting = night.meeting(1, 1)
    board = meeting.boards[1]
    night.enter(1, 1, meeting.boards[0])
    services.round_agree(section=meeting.section, round_number=1, actor=night.actor)
    meeting.refresh_from_db()
    # Without leave: refused (Duplicate Law E).
    with pytest.raises(Forbidden, match="is agreed"):
        enter(night, meeting, board, table(night, 1))
    # A later round's board is refused too, until the director gives leave for it.
    later = night.meeting(1, 3)
    with pytest.raises(Forbidden, match="is played in round 3"):
        enter(night, later, later.boards[0], table(night, 1))
    services.late_play_allow(meeting=meeting, boards=[board], actor=night.actor,
                             reason="slow play")
    result, created = enter(night, meeting, board, table(night, 1))
    assert created and result.late_play and result.status == Result.Status.ENTERED
    meeting.refresh_from_db()
    assert meeting.late_boards == []  # the leave is used up
    # Only one late result a leave: the table cannot change it now...
    with pytest.raises(Forbidden, match="is agreed"):
        services.result_correct(result=result, actor=table(night, 1), data=THREE_HEARTS)
    # ...but the opponents confirm it, though the round was agreed before it was played.
    confirmed = services.result_confirm(result=result, actor=table(night, 1), by="E-W")
    assert confirmed.status == Result.Status.CONFIRMED
    # Another board of the agreed round stays closed to the table.
    first = Result.objects.get(meeting=meeting, board__number=meeting.boards[0])
    with pytest.raises(Forbidden, match="is agreed"):
        services.result_confirm(result=first, actor=table(night, 1))


def test_a_late_result_replaces_the_not_played_ruling_and_undo_brings_it_back(night):
    meeting = night.meeting(2, 1)
    board = meeting.boards[0]
    [ruled] = services.boards_not_played(meeting=meeting, boards=[board], actor=night.actor,
                                         reason="time")
    # Without leave the table finds the board ruled.
    with pytest.raises(ResultConflict):
        enter(night, meeting, board, table(night, 2))
    services.late_play_allow(meeting=meeting, boards=[board], actor=night.actor,
                             reason="played at the end")
    result, created = enter(night, meeting, board, table(night, 2))
    assert created and result.pk == ruled.pk
    assert (result.ruling, result.late_play, result.level) == ("", True, 2)
    assert result.ns_score is not None
    entry = AuditEntry.objects.get(result=result, action="late play")
    assert entry.before["ruling"] == "not-played" and entry.after["late_play"] is True
    meeting.refresh_from_db()
    assert meeting.late_boards == []
    services.audit_undo(entry=entry, actor=night.actor, reason="entered by mistake")
    result.refresh_from_db()
    assert (result.ruling, result.late_play, result.level, result.voided) == (
        "not-played", False, None, False)


def test_the_directors_result_for_a_board_not_played_is_late(night):
    meeting = night.meeting(3, 1)
    board = meeting.boards[1]
    services.boards_not_played(meeting=meeting, boards=[board], actor=night.actor,
                               reason="time")
    result, created = enter(night, meeting, board, night.actor)
    assert created and result.late_play and result.status == Result.Status.DIRECTOR
    # The director may also say so for a board entered late without a ruling before.
    other, _ = enter(night, meeting, meeting.boards[0], night.actor, late_play=True)
    assert other.late_play
    # A table cannot flag its own result late.
    later = night.meeting(1, 1)
    with pytest.raises(Forbidden, match="Only the director marks"):
        enter(night, later, later.boards[0], table(night, 1), late_play=True)


def test_a_correction_of_a_not_played_board_is_late(night):
    meeting = night.meeting(3, 1)
    [ruled] = services.boards_not_played(meeting=meeting, boards=meeting.boards[:1],
                                         actor=night.actor, reason="time")
    corrected = services.result_correct(result=ruled, actor=night.actor, data=TWO_HEARTS,
                                        reason="played at the end of the session")
    assert corrected.late_play and corrected.ruling == ""
    ruled_again = services.ruling_award(event=night.event, board=meeting.boards[0],
                                        ns=meeting.ns_pair.number, ew=meeting.ew_pair.number,
                                        kind="average", actor=night.actor, reason="fouled",
                                        meeting=meeting)
    assert not ruled_again.late_play


def test_the_later_round_rule_opens_for_a_board_with_leave(night):
    later = night.meeting(1, 3)
    seated = night.meeting(1, 1)
    assert selectors.later_round_refusal(later, seated, later.boards[0])
    later.late_boards = [later.boards[0]]
    assert selectors.later_round_refusal(later, seated, later.boards[0]) == ""
    assert selectors.later_round_refusal(later, seated, later.boards[1])
