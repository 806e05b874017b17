"""Sending each player their personal score card once the standings are final.

Terms: a *publication* is one publishing of an event's final standings, named by the
event's change number (``Event.seq``) at that moment (``services._publish_final`` puts it
in the audit entry and sends ``mail_score_cards`` after the commit). A *send* is one
``ScoreCardMail`` row: one player, one publication.

Never twice, and why:

- ``score_cards_prepare`` writes a row for every player of the event's pairs (and their
  substitutes) with ``bulk_create(ignore_conflicts=True)``: the unique constraint on
  (event, publication, player) makes a second run, or two at once, add nothing.
  A player with no address or who opted out gets a row saying so, and no mail.
- ``score_card_send`` *claims* its row before sending: under ``select_for_update`` a
  row waiting to be sent becomes "sending", and that commits before the mail server is
  spoken to. A second worker, a re-delivered task (acks_late) or a retry that finds the
  row sending, sent or failed does nothing. So a card goes at most once; a worker killed
  in the middle of the mail server's conversation leaves its row "sending" for good
  (the console counts it), which is a card perhaps missing rather than one sent twice.
  Once a row has been sending for ``selectors.STUCK_AFTER`` (far beyond a try's time), the
  console names it as stopped, and the director, who can ask the player or read the
  mail server's log, may send it again (``score_cards_resend_stopped``): the one case
  where a card may go twice, by the director's choice.
- A mail server's temporary refusal (4xx, a dropped or refused connection, a timeout)
  puts the row back to waiting, with the error, and the task is tried again with
  backoff (Celery's autoretry); a permanent one (5xx: no such mailbox) marks it failed
  at once, with the server's words; so does the last retry.
"""

from __future__ import annotations

import logging
import smtplib
import threading
from collections.abc import Iterable
from textwrap import fill

from celery import Task, shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import OperationalError, connections, transaction
from django.db.models import Q
from django.utils import timezone

from config.celery import app

from .. import selectors
from ..models import Event, Pair, Player, Result, ScoreCardMail, Substitute
from ..services import MAIL_TASK
from .cards import Card, pair_card, standings_url
from .optout import opt_out_url

log = logging.getLogger(__name__)

SEND_TASK = "tournaments.send_score_card"
Status = ScoreCardMail.Status

# What sending may raise that is worth another try (a 5xx reply is not: see _permanent).
MAIL_ERRORS = (smtplib.SMTPException, OSError)
# Tried again as well: the database busy or away for a moment (SQLite's "database is
# locked" while another process writes, a PostgreSQL connection lost). The card's row is
# untouched then (its claim rolled back), so the next try sends it, and never twice.
RETRY_ERRORS = (*MAIL_ERRORS, OperationalError)
MAX_RETRIES = 5  # after the first try: six in all, over about a quarter of an hour


# --- who gets a card -------------------------------------------------------------------------


def _recipients(event: Event) -> Iterable[tuple[int, Player]]:
    """(pair number, player) for everyone who played for a pair: both players and any
    substitute. A player in two pairs of one night (a substitute who also played in
    another pair) gets the first pair's card only: one mail a player a publication. A
    pair with nothing on its card (a night called off, a pair listed that never came)
    gets no mail: an empty card tells a player nothing (decision 131)."""
    seen: set[int] = set()
    played = Result.objects.filter(event=event, voided=False)
    pairs = (Pair.objects.filter(event=event)
             .filter(Q(pk__in=played.values("ns_pair")) | Q(pk__in=played.values("ew_pair")))
             .select_related("player_1", "player_2"))
    subs: dict[int, list[Player]] = {}
    for sub in (Substitute.objects.filter(pair__event=event).select_related("player")
                .order_by("pair_id", "from_round", "seat")):
        subs.setdefault(sub.pair_id, []).append(sub.player)
    for pair in pairs.order_by("number"):
        for player in (pair.player_1, pair.player_2, *subs.get(pair.pk, [])):
            if player.pk not in seen:
                seen.add(player.pk)
                yield pair.number, player


def _first_status(player: Player) -> str:
    if player.email_opt_out:
        return Status.OPTED_OUT
    if not player.email:
        return Status.NO_ADDRESS
    return Status.PENDING


@transaction.atomic
def score_cards_prepare(*, event_id: int, publication: int) -> list[int]:
    """Record a send for every player of the publication; the ids still waiting to be sent.

    Nothing is recorded for an event whose standings are no longer final (taken down
    before the worker came to it), nor for a publication a later one has replaced (both
    before the worker came: the later one's cards go); rows already there (a second run)
    are kept as they are.
    """
    event = Event.objects.filter(pk=event_id).first()
    if event is None or latest_publication(event) != publication:
        return []
    rows = [ScoreCardMail(event=event, publication=publication, player=player,
                          pair_number=number, address=player.email,
                          status=_first_status(player))
            for number, player in _recipients(event)]
    ScoreCardMail.objects.bulk_create(rows, ignore_conflicts=True)
    return list(ScoreCardMail.objects.filter(event=event, publication=publication,
                                             status=Status.PENDING)
                .order_by("pair_number", "player_id").values_list("pk", flat=True))


def latest_publication(event: Event) -> int | None:
    """The change number of the event's latest publishing final (from its audit), if any."""
    if event.published != Event.Published.FINAL:
        return None
    entry = (event.audit.filter(action="publish", after__has_key="publication")
             .order_by("-at", "-id").values_list("after", flat=True).first())
    return entry["publication"] if entry else None


# --- one card, once --------------------------------------------------------------------------


def _claim(mail_id: int) -> ScoreCardMail | None:
    """Take a waiting send for this attempt (committed before the mail server is asked);
    None when there is nothing to send: done, being sent, failed, or skipped."""
    with transaction.atomic():
        mail = (ScoreCardMail.objects.select_for_update(of=("self",))
                .select_related("player", "event").filter(pk=mail_id).first())
        if mail is None or mail.status != Status.PENDING:
            return None
        status = _first_status(mail.player)  # they may have opted out since
        mail.attempts += 1
        mail.status = Status.SENDING if status == Status.PENDING else status
        mail.address = mail.player.email
        mail.save(update_fields=["status", "attempts", "address", "updated_at"])
        return mail if mail.status == Status.SENDING else None


def _record(mail_id: int, status: str, error: str = "") -> None:
    fields = {"status": status, "error": error, "updated_at": timezone.now()}
    if status == Status.SENT:
        fields["sent_at"] = timezone.now()
    # Only the attempt that claimed it moves it on from "sending".
    ScoreCardMail.objects.filter(pk=mail_id, status=Status.SENDING).update(**fields)


def message_for(mail: ScoreCardMail, card: Card) -> EmailMultiAlternatives:
    """The mail: the card as text in the body, the PDF attached, the opt-out headers."""
    event, player = mail.event, mail.player
    unsubscribe = opt_out_url(player)
    club = f" at {settings.CLUB_NAME}" if settings.CLUB_NAME else ""
    body = "\n".join([
        f"Dear {player.name},",
        "",
        fill(f"The final standings of {event.name}{club} are published. Here is the "
             f"personal score card of pair {card.pair}, {card.names}, board by board; the "
             "same card is attached as a PDF."),
        "",
        card.text,
        "",
        "The card and every board on the club's site:",
        standings_url(event, card.pair),
        "",
        "-- ",  # the signature's separator: mail programs set what follows apart
        fill("You get this because the club has your e-mail address. To get no more "
             "score cards by e-mail, open this link:"),
        unsubscribe,
        "",
    ])
    message = EmailMultiAlternatives(
        subject=card.subject, body=body, from_email=settings.DEFAULT_FROM_EMAIL,
        to=[mail.address],
        headers={
            # RFC 8058: a mail program may offer "unsubscribe", which POSTs
            # "List-Unsubscribe=One-Click" to the https address, with no page in between.
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        })
    message.attach(card.filename, card.pdf, "application/pdf")
    return message


def _permanent(exc: BaseException) -> bool:
    """A 5xx reply: the server will say the same next time (no such mailbox, refused)."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _text in exc.recipients.values()]
        return bool(codes) and all(code >= 500 for code in codes)
    code = getattr(exc, "smtp_code", None)
    return isinstance(code, int) and code >= 500


def _words(exc: BaseException) -> str:
    """The mail server's reply as a director reads it."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        # One recipient a mail: the console names the address beside the reply.
        return "; ".join(f"{code} {_text(text)}" for code, text in exc.recipients.values())
    code = getattr(exc, "smtp_code", None)
    if code is not None:
        return f"{code} {_text(getattr(exc, 'smtp_error', b''))}"
    if isinstance(exc, smtplib.SMTPServerDisconnected):
        return "the mail server closed the connection"
    if isinstance(exc, OSError):
        return f"the mail server could not be reached ({exc.strerror or exc})"
    return str(exc) or type(exc).__name__


def _text(value) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def score_card_send(*, mail_id: int) -> str:
    """Send one claimed card; the row's status after. Raises a temporary failure (the
    row is waiting again) for the task to retry; records a permanent one."""
    waiting = (ScoreCardMail.objects.select_related("event", "player")
               .filter(pk=mail_id, status=Status.PENDING).first())
    if waiting is None:
        return "nothing to send"
    card = pair_card(waiting.event, waiting.pair_number)  # before the claim: a bug here
    mail = _claim(mail_id)                                # leaves the row waiting
    if mail is None:
        return "nothing to send"
    try:
        message_for(mail, card).send(fail_silently=False)
    except MAIL_ERRORS as exc:
        if _permanent(exc):
            _record(mail_id, Status.FAILED, _words(exc))
            return Status.FAILED
        _record(mail_id, Status.PENDING, _words(exc))
        raise
    _record(mail_id, Status.SENT)
    return Status.SENT


def score_card_gave_up(*, mail_id: int, error: str) -> None:
    """The last retry failed too: the card is recorded failed (never sent again)."""
    ScoreCardMail.objects.filter(pk=mail_id).filter(
        Q(status=Status.PENDING) | Q(status=Status.SENDING)).update(
        status=Status.FAILED, error=error, updated_at=timezone.now())


def score_cards_send(*, event: Event) -> int:
    """Send now what the event's latest publication has not sent yet (after a broker that
    was down): how many cards were waiting. Never a card twice."""
    publication = latest_publication(event)
    if publication is None:
        return 0
    waiting = score_cards_prepare(event_id=event.pk, publication=publication)
    _send_each(waiting)
    return len(waiting)


def score_cards_resend_stopped(*, event: Event) -> int:
    """The director's choice: send again the latest publication's cards whose sending
    stopped (they may have gone: the mail server's log says). How many."""
    publication = latest_publication(event)
    if publication is None:
        return 0
    with transaction.atomic():
        ids = list(selectors.stopped_sends(event, publication).select_for_update()
                   .values_list("id", flat=True))
        ScoreCardMail.objects.filter(pk__in=ids).update(
            status=Status.PENDING, updated_at=timezone.now(),
            error="its sending stopped: sent again by the director")
    _send_each(ids)
    return len(ids)


def _send_each(mail_ids: list[int]) -> None:
    """One task a card: to the workers, or (no broker) to a thread of this process."""
    if not mail_ids:
        return
    if app.conf.task_always_eager:
        in_process.start(mail_ids)
        return
    for mail_id in mail_ids:
        send_score_card.apply_async(args=[mail_id], ignore_result=True)


class InProcessMail:
    """Without a broker (no REDIS_URL) the cards go from a thread of the web process, one
    after another, so publishing answers at once however slow the mail server is; each
    card is tried and retried as a worker would (at once, with no wait between tries).
    ``wait`` waits for the threads started so far (tests use it)."""

    def __init__(self) -> None:
        self._threads: set[threading.Thread] = set()
        self._lock = threading.Lock()

    def start(self, mail_ids: list[int]) -> None:
        # Not a daemon: a process that ends (a command such as load_demo, a server
        # stopped) waits for its cards, where a daemon thread would stop mid-send and
        # leave a card "sending" for good.
        thread = threading.Thread(target=self._run, args=(list(mail_ids),), daemon=False,
                                  name="score-card-mail")
        with self._lock:
            self._threads.add(thread)
        thread.start()

    def _run(self, mail_ids: list[int]) -> None:
        try:
            for mail_id in mail_ids:
                send_score_card.apply(args=[mail_id])
        except Exception:
            log.exception("score card mail stopped in-process")
        finally:
            connections.close_all()
            with self._lock:
                self._threads.discard(threading.current_thread())

    def wait(self, timeout: float | None = 60) -> bool:
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join(timeout)
        return not any(thread.is_alive() for thread in threads)


in_process = InProcessMail()


# --- the Celery tasks (sent by services._publish_final, run the services above) ---------------


class MailTask(Task):
    """In-process (no REDIS_URL) a card's task retries and records as in a worker, and one
    card's failure does not stop the others (task_eager_propagates would raise it)."""

    def apply(self, *args, throw=None, **kwargs):
        return super().apply(*args, throw=False, **kwargs)

    def on_failure(self, exc, task_id, args, kwargs, einfo) -> None:
        mail_id = args[0] if args else kwargs.get("mail_id")
        try:
            score_card_gave_up(mail_id=mail_id, error=_words(exc))
        except Exception:  # the database may be down too: the log keeps the story
            log.exception("could not record the failure of score card mail %s", mail_id)


@shared_task(name=MAIL_TASK, acks_late=True, ignore_result=True)
def mail_score_cards(event_id: int, publication: int) -> int:
    """Record a send for every player of the publication and start one task a card."""
    waiting = score_cards_prepare(event_id=event_id, publication=publication)
    _send_each(waiting)
    return len(waiting)


@shared_task(
    bind=True,
    base=MailTask,
    name=SEND_TASK,
    autoretry_for=RETRY_ERRORS,
    max_retries=MAX_RETRIES,
    retry_backoff=30,
    retry_backoff_max=600,
    retry_jitter=True,
    acks_late=True,
    ignore_result=True,
)
def send_score_card(self, mail_id: int) -> str:
    """E-mail one player their card, at most once (``score_card_send``); a mail server
    that is down or answers "try later" is tried again after 30 s, 1, 2, 4 and 8 min."""
    return score_card_send(mail_id=mail_id)
