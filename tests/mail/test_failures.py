"""A mail server that says "try later" is tried again (with backoff, in a worker); one
that says "no such mailbox" is recorded at once, never tried forever; the console says
which cards failed and why."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from tournaments import selectors, services
from tournaments.mail import services as mail
from tournaments.models import Player, ScoreCardMail

from .conftest import address_of, free_port, mails

Status = ScoreCardMail.Status
DONE = "the last round was played but not confirmed"


def publish_final(night, capture) -> None:
    with capture(execute=True):
        night.event = services.event_close(event=night.event, actor=night.actor, reason=DONE,
                                           publish_final=True)


def test_a_temporary_refusal_is_tried_again_and_the_card_arrives_once(
        night, smtp, django_capture_on_commit_callbacks):
    smtp.defer = ["451 4.3.0 Mailbox busy, try again later"] * 2  # the first card, twice
    publish_final(night, django_capture_on_commit_callbacks)
    assert len(smtp.arrived) == 10
    first = mails(night.event, status=Status.SENT)[0]
    assert first.player.name == "Ann Lee"
    assert len(smtp.to(address_of("Ann Lee"))) == 1
    assert first.attempts == 3 and first.error == ""
    assert all(m.attempts == 1 for m in mails(night.event, status=Status.SENT)[1:])


def test_the_retries_use_backoff():
    task = mail.send_score_card
    assert set(task.autoretry_for) >= {OSError}
    assert task.max_retries == mail.MAX_RETRIES and task.retry_backoff == 30
    assert task.retry_backoff_max == 600 and task.acks_late


def test_a_server_that_keeps_refusing_is_given_up_on(night, smtp,
                                                     django_capture_on_commit_callbacks):
    smtp.defer = ["451 4.3.0 Mailbox busy, try again later"] * (mail.MAX_RETRIES + 1)
    publish_final(night, django_capture_on_commit_callbacks)
    [failed] = mails(night.event, status=Status.FAILED)
    assert failed.player.name == "Ann Lee"
    assert failed.attempts == mail.MAX_RETRIES + 1
    assert failed.error == "451 4.3.0 Mailbox busy, try again later"
    assert len(smtp.arrived) == 9 and not smtp.to(address_of("Ann Lee"))
    # Given up is final for this publication: sending what is waiting sends nothing more.
    assert mail.score_cards_send(event=night.event) == 0
    assert len(smtp.arrived) == 9


def test_no_such_mailbox_fails_at_once(night, smtp, django_capture_on_commit_callbacks):
    smtp.refuse = {address_of("Cy Dow")}
    publish_final(night, django_capture_on_commit_callbacks)
    [failed] = mails(night.event, status=Status.FAILED)
    assert (failed.player.name, failed.attempts) == ("Cy Dow", 1)
    assert failed.error == "550 5.1.1 No such mailbox here"
    assert len(smtp.arrived) == 9


def test_a_mail_server_that_is_down(night, smtp, settings, django_capture_on_commit_callbacks):
    settings.EMAIL_PORT = free_port()  # nothing listens there
    publish_final(night, django_capture_on_commit_callbacks)  # publishing is not held up
    assert night.event.published == "final"
    rows = mails(night.event, status=Status.FAILED)
    assert len(rows) == 10
    assert all(r.attempts == mail.MAX_RETRIES + 1 for r in rows)
    assert rows[0].error.startswith("the mail server could not be reached")
    assert not smtp.arrived


def test_the_console_shows_sent_failed_and_skipped(night, smtp, client,
                                                   django_capture_on_commit_callbacks):
    smtp.refuse = {address_of("Cy Dow")}
    services.player_email_opt_out(player=Player.objects.get(name="Ed Fox"))
    publish_final(night, django_capture_on_commit_callbacks)
    summary = selectors.score_card_mails(night.event)
    assert {k: summary[k] for k in ("sent", "failed", "waiting", "sending", "no_address",
                                    "opted_out")} == {
        "sent": 8, "failed": 1, "waiting": 0, "sending": 0, "no_address": 2, "opted_out": 1}
    client.force_login(night.director)
    page = client.get(reverse("director-event", kwargs={"event_id": night.event.pk}))
    html = page.content.decode()
    assert "<strong>8</strong> sent" in html and ">1</strong> failed" in html
    assert "Not sent: 2 with no e-mail address, 1 opted out" in html
    assert "Pair 2, Cy Dow (cy.dow@club.example): 550 5.1.1 No such mailbox here" in html
    assert 'data-testid="send-score-cards"' not in html  # nothing is waiting


def test_the_console_sends_what_the_broker_never_got(night, smtp, client):
    """Published final while the broker was down: no card recorded; one button sends them."""
    night.event = services.event_close(event=night.event, actor=night.actor, reason=DONE,
                                       publish_final=True)  # the commit's task never ran
    client.force_login(night.director)
    url = reverse("director-event", kwargs={"event_id": night.event.pk})
    assert "No card recorded yet." in client.get(url).content.decode()
    page = client.post(reverse("director-score-cards-send",
                               kwargs={"event_id": night.event.pk}), follow=True)
    assert "Sending 10 score cards." in page.content.decode()
    assert len(smtp.arrived) == 10
    page = client.post(reverse("director-score-cards-send",
                               kwargs={"event_id": night.event.pk}), follow=True)
    assert "nothing is waiting" in page.content.decode()
    assert len(smtp.arrived) == 10


def test_the_command_sends_what_is_waiting(night, smtp):
    night.event = services.event_close(event=night.event, actor=night.actor, reason=DONE,
                                       publish_final=True)  # the commit's task never ran
    out = io.StringIO()
    call_command("send_score_cards", str(night.event.pk), stdout=out)
    assert out.getvalue() == "10 score card(s) sent to the mail worker\n"
    assert len(smtp.arrived) == 10
    call_command("send_score_cards", str(night.event.pk), stdout=io.StringIO())
    assert len(smtp.arrived) == 10
    services.event_publish(event=night.event, level="none", actor=night.actor)
    with pytest.raises(CommandError, match="are not final"):
        call_command("send_score_cards", str(night.event.pk))


def test_a_card_whose_sending_stopped_is_named_and_the_director_may_send_it_again(
        night, smtp, client, django_capture_on_commit_callbacks):
    """A process that ended mid-send leaves its card "sending" for good: it is never sent
    twice by itself. After a while the console names it, says it may have gone, and
    sends it again only when the director asks."""
    import datetime

    from django.utils import timezone

    publish_final(night, django_capture_on_commit_callbacks)
    assert len(smtp.arrived) == 10
    card = ScoreCardMail.objects.get(event=night.event, player__name="Cy Dow")
    ScoreCardMail.objects.filter(pk=card.pk).update(status=Status.SENDING)  # mid-send
    client.force_login(night.director)
    url = reverse("director-event", kwargs={"event_id": night.event.pk})
    send = reverse("director-score-cards-send", kwargs={"event_id": night.event.pk})
    html = client.get(url).content.decode()
    assert "1 being sent" in html and 'data-testid="mail-stopped"' not in html  # just now
    assert "No card&#x27;s sending has stopped: nothing to send again" in client.post(
        send, {"stopped": "1"}, follow=True).content.decode()
    ScoreCardMail.objects.filter(pk=card.pk).update(
        updated_at=timezone.now() - selectors.STUCK_AFTER - datetime.timedelta(seconds=1))
    html = client.get(url).content.decode()
    assert "This card's sending stopped" in html and "it may or may not have gone" in html
    assert "Pair 2, Cy Dow (cy.dow@club.example), since" in html
    page = client.post(send, {"stopped": "1"}, follow=True).content.decode()
    assert "Sending 1 score card again." in page
    assert len(smtp.to(address_of("Cy Dow"))) == 2 and len(smtp.arrived) == 11
    card.refresh_from_db()
    assert card.status == Status.SENT and 'data-testid="mail-stopped"' not in page


def test_the_in_process_mail_thread_is_waited_for_at_exit():
    """A command that publishes final (load_demo) must not end with a card mid-send: the
    thread that sends without a broker is not a daemon, so the process waits for it."""
    import threading

    started = []
    sender = mail.InProcessMail()
    sender._run = lambda ids: started.append(threading.current_thread().daemon)
    sender.start([1])
    assert sender.wait(5) and started == [False]


def test_a_database_busy_for_a_moment_is_tried_again(night, smtp, monkeypatch,
                                                     django_capture_on_commit_callbacks):
    """SQLite says "database is locked" while another process writes (make run's demo
    loading its next night as the last one's cards go): the card is tried again, not
    recorded failed with the database's words."""
    from django.db import OperationalError

    claim, busy = mail._claim, ["database is locked"]

    def claim_once_busy(mail_id):
        if busy:
            raise OperationalError(busy.pop())
        return claim(mail_id)

    monkeypatch.setattr(mail, "_claim", claim_once_busy)
    publish_final(night, django_capture_on_commit_callbacks)
    assert not busy and len(smtp.arrived) == 10
    assert not mails(night.event, status=Status.FAILED)
    first = mails(night.event, status=Status.SENT)[0]
    assert (first.player.name, first.attempts, first.error) == ("Ann Lee", 1, "")
