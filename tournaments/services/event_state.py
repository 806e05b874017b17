"""Rounds and the event's state: agreeing rounds (Duplicate Law E), status, closing,
the correction period, publishing, and the final standings when the period ends."""


from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.celery import app

from .. import polls, prepared, selectors
from ..models import (
    MAX_CORRECTION_MINUTES,
    AuditEntry,
    Event,
    Meeting,
    Result,
    Section,
)
from .base import (
    Actor,
    Answer,
    Forbidden,
    ServiceError,
    _audit,
    _lock_event,
    _require_open,
    _require_table_scoring,
    _row,
    _table_write,
    log,
)

# --- rounds and the event's state ------------------------------------------------------------


@transaction.atomic
def round_agree(
    *, section: Section, round_number: int, actor: Actor, tables: Iterable[int] | None = None
) -> int:
    """Duplicate Law E: the round's scores are agreed; the table can no longer change them.

    A table agrees its own meeting once every board there has a result; the
    director may agree a whole round (or some tables of it) at any time.
    Returns how many meetings became agreed.
    """
    event = _lock_event(section.event_id)
    _require_open(event)
    meetings = Meeting.objects.select_for_update().filter(
        section=section, round=round_number, agreed_at__isnull=True)
    if actor.is_table:
        meetings = meetings.filter(table=actor.table)
        if actor.section_id != section.pk:
            raise Forbidden("a table can only agree its own round")
        _require_table_scoring(event)
    elif not actor.directs:
        raise Forbidden("only the director or the table agrees a round")
    if tables is not None:
        meetings = meetings.filter(table__in=list(tables))
    meetings = list(meetings)
    if not meetings:
        # Nothing left to agree (agreed already: an old page, another tab): no change, so
        # the change number the lock took goes back with the rest, and the live pages are
        # not woken for nothing.
        transaction.set_rollback(True)
        return 0
    if actor.is_table:
        outstanding = []
        for meeting in meetings:  # its own meeting: one query tells all the table needs
            state = selectors.meeting_in(event, section, meeting)
            if state.played < len(meeting.boards):
                raise ServiceError(
                    f"enter all {len(meeting.boards)} boards before agreeing the round "
                    f"({state.played} entered)", field="round")
            if state.unconfirmed:
                raise ServiceError("the opponents must confirm every board first",
                                   field="round")
            outstanding += [str(o) for o in state.outstanding]
    else:
        # The director may agree a round that is not all in (a table gone home, say):
        # the audit keeps what was still outstanding at that moment.
        outstanding = [str(o) for o in selectors.boards_outstanding(
            event, section=section, round_number=round_number,
            tables=[m.table for m in meetings])]
    after = {"section": section.name, "round": round_number,
             "tables": [m.table for m in meetings]}
    if outstanding:
        after["outstanding"] = outstanding
    now = timezone.now()
    Meeting.objects.filter(pk__in=[m.pk for m in meetings]).update(agreed_at=now)
    for meeting in meetings:
        meeting.agreed_at = now
    _audit(event=event, actor=actor, action="agree round", after=after)
    return len(meetings)


# An event in which a table agrees nothing (round_agree refuses it: _require_open and
# _require_table_scoring).
_SHUT_TO_TABLES = (Event.Status.CLOSED, Event.Status.AGREED)


def round_agree_at_table(*, event: Event, section: Section, meeting: Meeting, actor: Actor,
                         answer: Answer | None = None) -> int | None:
    """A table agrees its own meeting of a round: round_agree's common case, every board
    in and confirmed, in ONE statement (PostgreSQL: the function tournaments_table_agree,
    made by migration 0018), its own transaction when no other is open.

    `meeting` is the table's meeting of the round as read (its id, section, table and
    round are all it needs: the rest is checked under the lock). The statement claims the
    answer's Idempotency-Key if it is to, locks the event's row, checks what round_agree
    checks for a table (the event open to the tables' scores; the meeting not agreed yet;
    every board of it with a live result of the meeting, with its pairs, that the opponents
    confirmed) and, only if all hold, stores the meeting's agreement, its audit entry (as
    round_agree writes it: no board outstanding), the event's next change number (Event.seq:
    live pages see the change) and `answer`, whose body is rendered from the count (1).

    Returns 1, the meetings agreed, or None when this is not the common case (a board
    missing or unconfirmed, the round agreed already, the event agreed or closed, a key
    another request holds, not PostgreSQL): nothing is written then, and the caller runs
    round_agree (through the API's full road for a key it did not claim), which answers
    each of those as it always has. A key another request holds puts that request's
    stored answer in `answer.replay`, for the caller to replay.
    """
    if (not prepared.available() or not actor.is_table or meeting is None
            or meeting.section_id != actor.section_id or meeting.table != actor.table
            or section.pk != meeting.section_id or event.status in _SHUT_TO_TABLES):
        return None
    now = timezone.now()
    audit = AuditEntry(event=event, action="agree round", actor=None,
                       actor_label=actor.label[:80], at=now,
                       after={"section": section.name, "round": meeting.round,
                              "tables": [meeting.table]})
    call = {"event": event.pk, "meeting": meeting.pk, "section": section.pk,
            "table": meeting.table, "round": meeting.round, "at": now, "audit": _row(audit),
            "shut": list(_SHUT_TO_TABLES), "unconfirmed": Result.Status.ENTERED}
    stored = _table_write("tournaments_table_agree", call, answer, 1, now)
    if stored is None:
        return None
    meeting.agreed_at = now
    event.seq = stored["seq"]
    # The live pages' polls hear of it once it commits (at once, with no transaction
    # open), as from every other change (_lock_event's work: this path locks the row).
    polls.changed(event)
    return 1


_NEXT_STATUS = {
    Event.Status.SETTING_UP: {Event.Status.RUNNING},
    Event.Status.RUNNING: {Event.Status.AGREED, Event.Status.SETTING_UP},
    Event.Status.AGREED: {Event.Status.CLOSED, Event.Status.RUNNING},
    # Reopening, during the correction period only, and with a reason.
    Event.Status.CLOSED: {Event.Status.AGREED},
}
# The task that publishes final standings when a correction period ends (tasks.py). Sent by
# name, so this module does not import the tasks (the tasks import the services).
FINAL_TASK = "tournaments.publish_final_if_due"
FINAL_BY = "end of the correction period"
# The task that e-mails the players their score cards once the standings are final
# (tournaments/mail/services.py), sent by name for the same reason.
MAIL_TASK = "tournaments.mail_score_cards"


def _outstanding_text(outstanding: list) -> str:
    shown = "; ".join(str(o) for o in outstanding[:3])
    more = len(outstanding) - 3
    return shown + (f"; and {more} more" if more > 0 else "")


@transaction.atomic
def event_set_status(*, event: Event, status: str, actor: Actor, reason: str = "",
                     publish_final: bool = False, send_cards: bool = True) -> Event:
    """setting up → running → agreed → closed → final (a closed event's scores are final).

    Agreed (Duplicate Law E): the scores are agreed; the tables enter and confirm nothing
    more, and only the director changes a score. The director agrees the event when every
    board is in, or says why not (the reason and what was outstanding go to the audit).
    Closed: see ``event_close``. Reopening a closed event (back to agreed) is possible
    only in its correction period, with a reason. ``send_cards=False``: final standings
    published here e-mail no score card (the night-file import: decisions.md).
    """
    if not actor.directs:
        raise Forbidden("only the director changes the event's state")
    if status not in Event.Status.values:
        raise ServiceError("the event is setting up, running, agreed or closed", field="status")
    reason = (reason or "").strip()
    locked = _final_if_due(_lock_event(event.pk))
    if status == locked.status:
        return locked
    if status not in _NEXT_STATUS[Event.Status(locked.status)] or (
            locked.status == Event.Status.CLOSED and not locked.in_correction_period):
        if locked.status == Event.Status.CLOSED:
            raise Forbidden("the event is closed and its correction period is over: "
                            "the scores are final")
        raise ServiceError(
            f"an event that is {locked.get_status_display().lower()} cannot become "
            f"{Event.Status(status).label.lower()}", field="status")
    before: dict[str, Any] = {"status": locked.status}
    after: dict[str, Any] = {"status": status}
    if status == Event.Status.AGREED and locked.status == Event.Status.RUNNING:
        outstanding = selectors.boards_outstanding(locked)
        # The operator's programs (the importer) record a night as it was played.
        if outstanding and not actor.is_system:
            if not reason:
                raise ServiceError(
                    f"{len(outstanding)} board{'s are' if len(outstanding) > 1 else ' is'} "
                    f"not in yet ({_outstanding_text(outstanding)}): say why the scores "
                    "are agreed without them", field="reason")
            after["outstanding"] = [str(o) for o in outstanding]
    if (status == Event.Status.SETTING_UP and locked.status == Event.Status.RUNNING
            and not reason and not actor.is_system
            and Result.objects.filter(event=locked, voided=False).exists()):
        # It sounds like undoing the night, and changes nothing of its scores: the audit
        # says why a night with results in was said not to have started.
        raise ServiceError("say why the event goes back to setting up: results are in "
                           "already, and the reason goes in the audit", field="reason")
    if locked.status == Event.Status.CLOSED:
        if not reason:
            raise ServiceError("say why the event is reopened: the reason goes in the audit",
                               field="reason")
        before["final_after"] = locked.final_after.isoformat()
        locked.final_after = None
    fields = ["status", "updated_at", "final_after"]
    if status == Event.Status.CLOSED:
        fields.append("published")
        if (publish_final or not locked.correction_minutes
                or locked.published == Event.Published.FINAL):
            _publish_final(locked, actor, send_cards=send_cards)
        else:
            locked.final_after = timezone.now() + timedelta(minutes=locked.correction_minutes)
            after["final_after"] = locked.final_after.isoformat()
            if locked.published == Event.Published.NONE:
                # The correction period is the players' time to check the standings:
                # they see them, provisional (they had gone from hidden straight to final).
                before["published"] = locked.published
                locked.published = after["published"] = Event.Published.PROVISIONAL
            event_id, eta = locked.pk, locked.final_after
            transaction.on_commit(lambda: _schedule_final(event_id, eta))
    locked.status = status
    locked.save(update_fields=fields)
    _audit(event=locked, actor=actor, action="status", before=before, after=after,
           reason=reason)
    return locked


def event_close(*, event: Event, actor: Actor, reason: str = "", publish_final: bool = False,
                correction_minutes: int | None = None) -> Event:
    """Close the event: a running one is agreed first (every board in, or a reason).

    Closing starts the correction period (Duplicate Law E, and every club's practice):
    the standings are still provisional; the director can reopen the event, with a
    reason, until it ends; then the standings are published final (``event_final_if_due``,
    run by a scheduled task and whenever the event is read). ``publish_final`` ends it at
    once. Nothing changes after.
    """
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if correction_minutes is not None:
            event = correction_period_set(event=event, minutes=correction_minutes, actor=actor)
        if event.status == Event.Status.RUNNING:
            event = event_set_status(event=event, status=Event.Status.AGREED, actor=actor,
                                     reason=reason)
        if event.status == Event.Status.SETTING_UP:
            raise ServiceError("an event that has not started cannot be closed", field="status")
        if event.status == Event.Status.CLOSED and publish_final:
            return event_publish(event=event, level=Event.Published.FINAL, actor=actor)
        return event_set_status(event=event, status=Event.Status.CLOSED, actor=actor,
                                reason=reason, publish_final=publish_final)


def event_reopen(*, event: Event, actor: Actor, reason: str) -> Event:
    """Reopen a closed event in its correction period, to correct a score (back to agreed)."""
    return event_set_status(event=event, status=Event.Status.AGREED, actor=actor,
                            reason=reason)


@transaction.atomic
def correction_period_set(*, event: Event, minutes: int, actor: Actor) -> Event:
    """How long the correction period after closing lasts (0: final at closing)."""
    if not actor.directs:
        raise Forbidden("only the director sets the correction period")
    if not isinstance(minutes, int) or not 0 <= minutes <= MAX_CORRECTION_MINUTES:
        raise ServiceError(f"A correction period is from 0 to {MAX_CORRECTION_MINUTES} "
                           "minutes", field="correction_minutes")
    locked = _lock_event(event.pk)
    if locked.correction_minutes == minutes:
        return locked
    before = {"correction_minutes": locked.correction_minutes}
    locked.correction_minutes = minutes
    locked.save(update_fields=["correction_minutes", "updated_at"])
    _audit(event=locked, actor=actor, action="correction period", before=before,
           after={"correction_minutes": minutes})
    return locked


@transaction.atomic
def event_publish(*, event: Event, level: str, actor: Actor, send_cards: bool = True) -> Event:
    """Publish standings as provisional or final, or take them down ("none").

    Publishing final during the correction period ends it, and e-mails each player their
    score card (unless ``send_cards=False``: the night-file import).
    """
    if not actor.directs:
        raise Forbidden("only the director publishes standings")
    if level not in Event.Published.values:
        raise ServiceError("publish as none, provisional or final", field="published")
    locked = _final_if_due(_lock_event(event.pk))
    if level == Event.Published.FINAL:
        if locked.published != level or locked.final_after is not None:
            _publish_final(locked, actor, send_cards=send_cards)
            locked.save(update_fields=["published", "final_after", "updated_at"])
        return locked
    before = {"published": locked.published}
    locked.published = level
    locked.save(update_fields=["published", "updated_at"])
    _audit(event=locked, actor=actor, action="publish", before=before, after={"published": level})
    return locked



def _publish_final(locked: Event, actor: Actor, *, send_cards: bool = True) -> None:
    """Final standings (the caller saves the row): the correction period, if any, is over;
    after the commit each player is e-mailed their score card (``send_cards``)."""
    before = {"published": locked.published}
    if locked.final_after is not None:
        before["final_after"] = locked.final_after.isoformat()
    locked.published = Event.Published.FINAL
    locked.final_after = None
    # The publication is named by the event's change number now (the lock just took it):
    # each player's score card is e-mailed once per publication (ScoreCardMail).
    event_id, publication = locked.pk, locked.seq
    _audit(event=locked, actor=actor, action="publish", before=before,
           after={"published": Event.Published.FINAL, "publication": publication})
    if send_cards:
        transaction.on_commit(lambda: _send_score_cards(event_id, publication))


def _due(event: Event, now=None) -> bool:
    return (event.status == Event.Status.CLOSED and event.final_after is not None
            and event.final_after <= (now or timezone.now()))


def _final_if_due(locked: Event) -> Event:
    if _due(locked):
        _publish_final(locked, Actor.system(FINAL_BY))
        locked.save(update_fields=["published", "final_after", "updated_at"])
    return locked


def event_final_if_due(*, event: Event) -> Event:
    """Publish final standings if the event's correction period is over; the event as it is.

    Idempotent and cheap when nothing is due (no query): the scheduled task calls it,
    and so does every page and API call that reads an event, so neither a lost task
    (a restart, no worker) nor an in-process set-up without Redis can miss the moment.
    """
    if not _due(event):
        return event
    with transaction.atomic():
        return _final_if_due(_lock_event(event.pk))


def events_final_due() -> int:
    """Publish final every event whose correction period is over; how many there were."""
    due = list(Event.objects.filter(status=Event.Status.CLOSED,
                                    final_after__lte=timezone.now()).values_list("pk", flat=True))
    for pk in due:
        with transaction.atomic():
            _final_if_due(_lock_event(pk))
    return len(due)


def _send_score_cards(event_id: int, publication: int) -> None:
    """After the commit: e-mail each player their score card (tournaments/mail).

    Sent by name, as the final standings' task is (the mail package imports the services,
    never the reverse). With a broker a worker sends the mail. In-process (no Redis) the
    task records the sends here, after the commit, and hands the cards to a thread, so
    the director's page answers at once. A broker that is down loses nothing that cannot
    be sent again: the console's "Send the cards not sent yet" (``manage.py
    send_score_cards``) sends what the latest publication has not, never a card twice.
    """
    try:
        if app.conf.task_always_eager:
            app.loader.import_default_modules()  # registers the tasks in this process
            app.tasks[MAIL_TASK].apply_async(args=[event_id, publication])
        else:
            app.send_task(MAIL_TASK, args=[event_id, publication], ignore_result=True,
                          retry=True, retry_policy={"max_retries": 2, "interval_start": 0,
                                                    "interval_step": 0.2, "interval_max": 0.2})
    except Exception:  # never undo a publication over its mail: the log says what happened
        log.warning("could not send the score cards of event %s (publication %s)", event_id,
                    publication, exc_info=True)


def _schedule_final(event_id: int, eta) -> None:
    """Ask a worker to publish final at the end of the correction period.

    In-process (no Redis) there is no worker and an eta would be ignored, so nothing is
    sent: the reads publish it (``event_final_if_due``). A broker that is down is no
    loss for the same reason.
    """
    if app.conf.task_always_eager:
        return
    try:
        app.send_task(FINAL_TASK, args=[event_id], eta=eta, ignore_result=True, retry=True,
                      retry_policy={"max_retries": 2, "interval_start": 0,
                                    "interval_step": 0.2, "interval_max": 0.2})
    except Exception:  # the broker is down: the next read of the event publishes it
        log.warning("could not schedule the final standings of event %s", event_id,
                    exc_info=True)
