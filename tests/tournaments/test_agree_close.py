"""Agreeing and closing the event (Duplicate Law E; rules.md §7).

Agreed: every board is in (or the director says why not); then the tables enter and
confirm nothing more. Closed: a correction period starts, in which the director may
reopen the event with a reason; when it ends the standings are published final.
"""

import datetime

import pytest
from django.db import transaction
from django.utils import timezone

from tests.reports.night import build_night, make_director
from tournaments import selectors, services
from tournaments.models import AuditEntry, Event, Meeting, Result
from tournaments.services import Actor, Forbidden, ServiceError


@pytest.fixture
def director(db):
    return make_director()


@pytest.fixture
def half(director):
    """A 3-table Mitchell with round 1 played (entered, not confirmed) and rounds 2-3 not."""
    night = build_night(director, play=False, published="provisional")
    night.play(rounds=1)
    return night


@pytest.fixture
def whole(director):
    """Every board played and confirmed by the opponents (the tables agreeing each round
    they leave; the last round is still open)."""
    night = build_night(director, play=False)
    night.play(confirm=True)
    return night


def _close(night, **kwargs) -> Event:
    return services.event_close(event=night.event, actor=night.actor, **kwargs)


# --- what is not in yet ----------------------------------------------------------------


def test_outstanding_boards_name_round_table_and_board(half):
    outstanding = selectors.boards_outstanding(half.event)
    # Round 1: five boards entered but not confirmed (the sixth is the director's ruling);
    # rounds 2 and 3: six boards each missing.
    assert [o.state for o in outstanding].count("unconfirmed") == 5
    assert [o.state for o in outstanding].count("missing") == 12
    first = outstanding[0]
    assert (first.round, first.table) == (1, 1)
    assert str(first) == f"Round 1, table 1: board {first.board} not confirmed"
    assert str(outstanding[-1]).endswith("not entered")


def test_an_agreed_round_has_nothing_unconfirmed(half):
    section = half.event.sections.get()
    services.round_agree(section=section, round_number=1, actor=half.actor)
    assert all(o.state == "missing" for o in selectors.boards_outstanding(half.event))


# --- agreeing the event -----------------------------------------------------------------


def test_a_half_played_event_is_not_agreed_in_one_click(half):
    with pytest.raises(ServiceError, match="17 boards are not in yet") as refused:
        services.event_set_status(event=half.event, status="agreed", actor=half.actor)
    assert refused.value.field == "reason"
    assert "Round 1, table 1: board 1 not confirmed" in refused.value.message
    assert Event.objects.get(pk=half.event.pk).status == "running"


def test_the_director_may_agree_anyway_with_a_reason_that_is_audited(half):
    event = services.event_set_status(event=half.event, status="agreed", actor=half.actor,
                                      reason="Table 3 went home after round 1")
    assert event.status == "agreed"
    entry = AuditEntry.objects.filter(event=event, action="status").latest("id")
    assert entry.reason == "Table 3 went home after round 1"
    assert entry.after["status"] == "agreed"
    assert len(entry.after["outstanding"]) == 17


def test_a_complete_night_is_agreed_without_a_reason(whole):
    event = services.event_set_status(event=whole.event, status="agreed", actor=whole.actor)
    assert event.status == "agreed"


def test_no_table_entry_or_confirmation_after_the_event_is_agreed(half):
    meeting = Meeting.objects.get(section__event=half.event, round=2, table=1)
    table = Actor.at_table(meeting.section, meeting.table)
    entered = Result.objects.filter(meeting__round=1, meeting__table=1).first()
    services.event_set_status(event=half.event, status="agreed", actor=half.actor,
                              reason="Time")
    with pytest.raises(Forbidden, match="agreed the event's scores"):
        services.result_record(event=half.event, board=meeting.boards[0],
                               ns=meeting.ns_pair.number, ew=meeting.ew_pair.number,
                               data={"contract": {"level": 1, "denomination": "NT",
                                                  "declarer": "N"}, "tricks": 7},
                               actor=table, meeting=meeting)
    first = entered.meeting
    with pytest.raises(Forbidden, match="agreed the event's scores"):
        services.result_confirm(result=entered,
                                actor=Actor.at_table(first.section, first.table))
    with pytest.raises(Forbidden, match="agreed the event's scores"):
        services.round_agree(section=first.section, round_number=1,
                             actor=Actor.at_table(first.section, first.table))
    # The director still corrects.
    services.result_correct(result=entered, actor=half.actor, reason="Checked the slip",
                            data={"contract": {"level": 1, "denomination": "NT",
                                               "declarer": "N"}, "tricks": 8})


def test_a_round_agreed_with_boards_missing_keeps_them_in_the_audit(half):
    section = half.event.sections.get()
    services.round_agree(section=section, round_number=2, actor=half.actor)
    entry = AuditEntry.objects.filter(event=half.event, action="agree round").latest("id")
    assert entry.after["round"] == 2
    assert len(entry.after["outstanding"]) == 6


def test_agreeing_a_round_agreed_already_changes_nothing(half, django_capture_on_commit_callbacks):
    """Agreed again (the API, an old page, another tab): 0 agreed, no audit entry, and no
    change number taken, so no live page is woken for nothing; nor inside a caller's own
    transaction, whose other work stays."""
    section = half.event.sections.get()
    assert services.round_agree(section=section, round_number=2, actor=half.actor) == 3
    half.event.refresh_from_db()
    seq, audits = half.event.seq, AuditEntry.objects.filter(event=half.event).count()
    with django_capture_on_commit_callbacks(execute=True) as marks:
        assert services.round_agree(section=section, round_number=2, actor=half.actor) == 0
    assert marks == []  # the live pages' mark is not moved
    with transaction.atomic():
        Event.objects.filter(pk=half.event.pk).update(name="Renamed in the same transaction")
        assert services.round_agree(section=section, round_number=2, actor=half.actor,
                                    tables=[1]) == 0
    half.event.refresh_from_db()
    assert half.event.seq == seq and half.event.name == "Renamed in the same transaction"
    assert AuditEntry.objects.filter(event=half.event).count() == audits


# --- closing and the correction period ------------------------------------------------


def test_closing_starts_the_correction_period_and_does_not_publish_final(whole):
    before = timezone.now()
    event = _close(whole)
    assert event.status == "closed"
    assert event.published == "provisional"
    assert event.in_correction_period
    period = datetime.timedelta(minutes=event.correction_minutes)
    assert before + period <= event.final_after <= timezone.now() + period


def test_closing_an_unpublished_night_shows_its_standings_for_the_correction_period(
        director):
    """The standings had stayed hidden through the correction period, the players' time
    to check them, and gone from hidden straight to final."""
    night = build_night(director, play=False, published="none")
    night.play(confirm=True)
    event = _close(night)
    assert (event.status, event.published) == ("closed", "provisional")
    assert event.in_correction_period
    entry = AuditEntry.objects.filter(event=event, action="status").order_by("-pk").first()
    assert entry.before["published"] == "none" and entry.after["published"] == "provisional"
    assert Event.objects.get(pk=event.pk).published == "provisional"


def test_close_and_publish_final_now(whole):
    event = _close(whole, publish_final=True)
    assert (event.status, event.published, event.final_after) == ("closed", "final", None)
    assert not event.in_correction_period
    with pytest.raises(Forbidden, match="correction period is over"):
        services.event_reopen(event=event, actor=whole.actor, reason="Too late")


def test_the_correction_period_is_a_setting_of_the_event(whole):
    event = services.correction_period_set(event=whole.event, minutes=10, actor=whole.actor)
    assert event.correction_minutes == 10
    with pytest.raises(ServiceError) as refused:
        services.correction_period_set(event=event, minutes=24 * 60 + 1, actor=whole.actor)
    assert refused.value.field == "correction_minutes"
    event = _close(whole, correction_minutes=0)
    assert event.published == "final"  # no period: final at closing


def test_the_director_reopens_with_a_reason_during_the_period(whole):
    event = _close(whole)
    with pytest.raises(ServiceError, match="Say why") as refused:
        services.event_reopen(event=event, actor=whole.actor, reason="")
    assert refused.value.field == "reason"
    event = services.event_reopen(event=event, actor=whole.actor,
                                  reason="Pair 4 showed a revoke on board 3")
    assert (event.status, event.final_after) == ("agreed", None)
    event.refresh_from_db()
    assert (event.status, event.final_after) == ("agreed", None)
    entry = AuditEntry.objects.filter(event=event, action="status").latest("id")
    assert entry.reason == "Pair 4 showed a revoke on board 3"
    assert entry.before["status"] == "closed" and "final_after" in entry.before
    # Closing again starts a new period.
    assert _close(whole).in_correction_period


def test_a_table_cannot_reopen_or_close(whole):
    table = Actor.at_table(whole.event.sections.get(), 1)
    with pytest.raises(Forbidden):
        services.event_close(event=whole.event, actor=table)


def test_the_period_ending_publishes_final_once(whole):
    event = _close(whole)
    assert services.event_final_if_due(event=event).published == "provisional"  # not yet
    Event.objects.filter(pk=event.pk).update(
        final_after=timezone.now() - datetime.timedelta(seconds=1))
    event.refresh_from_db()
    final = services.event_final_if_due(event=event)
    assert (final.published, final.final_after, final.status) == ("final", None, "closed")
    entry = AuditEntry.objects.filter(event=event, action="publish").latest("id")
    assert entry.actor_label == "end of the correction period"
    assert services.event_final_if_due(event=final).published == "final"
    assert AuditEntry.objects.filter(event=event, action="publish").count() == 2
    with pytest.raises(Forbidden, match="correction period is over"):
        services.event_reopen(event=final, actor=whole.actor, reason="Too late")


def test_a_period_that_ended_unnoticed_is_final_before_a_reopen(whole):
    """Reopening after the end (no task ran, nobody looked) is refused: the scores are final
    (and the next read publishes them so)."""
    event = _close(whole)
    Event.objects.filter(pk=event.pk).update(
        final_after=timezone.now() - datetime.timedelta(minutes=1))
    with pytest.raises(Forbidden, match="correction period is over"):
        services.event_reopen(event=event, actor=whole.actor, reason="Too late")
    read = services.event_final_if_due(event=Event.objects.get(pk=event.pk))
    assert (read.status, read.published) == ("closed", "final")


def test_publishing_final_by_hand_ends_the_period(whole):
    event = _close(whole)
    event = services.event_publish(event=event, level="final", actor=whole.actor)
    assert (event.published, event.final_after) == ("final", None)
    assert not event.in_correction_period


def test_the_sweep_publishes_every_due_event(whole, director):
    other = build_night(director, name="Thursday duplicate", play=False)
    services.event_close(event=other.event, actor=other.actor, reason="Rained off")
    event = _close(whole)
    Event.objects.filter(pk=event.pk).update(
        final_after=timezone.now() - datetime.timedelta(seconds=1))
    assert services.events_final_due() == 1
    assert Event.objects.get(pk=event.pk).published == "final"
    assert Event.objects.get(pk=other.event.pk).published == "provisional"
    assert services.events_final_due() == 0
