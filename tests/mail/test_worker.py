"""The cards through the real paths: a Celery worker on Redis, and (without a broker)
the web process's own thread; both against the real SMTP server, committed data."""

from __future__ import annotations

import time

import pytest
from celery.contrib.testing.worker import start_worker

from config.celery import app
from tournaments import services
from tournaments.mail import services as mail
from tournaments.models import ScoreCardMail

from ..reports.night import build_night
from .conftest import address_of, give_addresses

DONE = "the last round was played but not confirmed"


def wait_for(predicate, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    pytest.fail(f"timed out after {timeout:.0f} s waiting for the mail")


@pytest.mark.redis
@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_mails_the_cards_once(director, smtp, redis_queue):
    assert not app.conf.task_always_eager  # a real broker, not in-process
    night = build_night(director)
    give_addresses()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        night.event = services.event_close(event=night.event, actor=night.actor,
                                           reason=DONE, publish_final=True)
        wait_for(lambda: len(smtp.arrived) == 10)
        # The same publication's task again, as a re-delivered message: nothing more.
        publication = ScoreCardMail.objects.values_list("publication", flat=True).first()
        app.send_task(services.MAIL_TASK, args=[night.event.pk, publication])
        mail.score_cards_send(event=night.event)
        time.sleep(2)
    assert len(smtp.arrived) == 10
    assert len(smtp.to(address_of("Ann Lee"))) == 1
    assert ScoreCardMail.objects.filter(status="sent").count() == 10


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_a_thread_sends_them(director, smtp):
    threads = mail.InProcessMail()
    before, mail.in_process = mail.in_process, threads
    try:
        night = build_night(director)
        give_addresses()
        night.event = services.event_close(event=night.event, actor=night.actor,
                                           reason=DONE, publish_final=True)
        assert threads.wait(60)
    finally:
        mail.in_process = before
    assert len(smtp.arrived) == 10
    assert ScoreCardMail.objects.filter(status="sent").count() == 10


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_at_one_card_send_it_once(director, smtp):
    """Two workers take the same card at the same moment (a re-delivered message while
    the first still runs): the row lock lets one claim it; the other finds it being sent."""
    import threading

    from django.db import connections

    night = build_night(director)
    give_addresses()
    night.event = services.event_close(event=night.event, actor=night.actor, reason=DONE,
                                       publish_final=True)
    publication = ScoreCardMail.objects.values_list("publication", flat=True).first()
    if publication is None:  # the commit's task ran in-process (InlineMail) already
        publication = night.event.seq
    ScoreCardMail.objects.all().delete()
    smtp.arrived.clear()
    [first, *_] = mail.score_cards_prepare(event_id=night.event.pk, publication=publication)
    start = threading.Barrier(2)
    answers = []

    def worker():
        try:
            start.wait()
            answers.append(mail.score_card_send(mail_id=first))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(answers) == ["nothing to send", "sent"]
    assert len(smtp.arrived) == 1
    row = ScoreCardMail.objects.get(pk=first)
    assert (row.status, row.attempts) == ("sent", 1)
