"""Agreeing, closing, the correction period and reopening, through the API."""

import datetime

import pytest
from django.utils import timezone

from tournaments.models import AuditEntry, Event, Result

from .helpers import TWO_HEARTS, post, url

pytestmark = pytest.mark.django_db


def status(client, night, **body):
    return post(client, url(night.event, "status/"), body)


def test_agreeing_a_half_played_event_needs_a_reason(night, director_client):
    night.play_round(1, 1)
    response = status(director_client, night, status="agreed")
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "reason" and "boards are not in yet" in body["error"]
    response = status(director_client, night, status="agreed", reason="Two tables left early")
    assert response.status_code == 200 and response.json()["status"] == "agreed"
    entry = AuditEntry.objects.filter(event=night.event, action="status").latest("id")
    assert entry.reason == "Two tables left early" and entry.after["outstanding"]


def test_after_agreed_a_table_enters_and_confirms_nothing(night, director_client, table_client):
    meeting = night.meeting(1, 1)
    entered = night.enter(1, 1)
    status(director_client, night, status="agreed", reason="Time")
    client = table_client(1)
    response = post(client, url(night.event, "results/"),
                    {"board": meeting.boards[1], "round": 1, "result": TWO_HEARTS})
    assert response.status_code == 403
    assert response.json()["error"].startswith("The director has agreed the event's scores")
    response = post(client, url(night.event, f"results/{entered.pk}/confirm/"), {"by": "EW"})
    assert response.status_code == 403
    assert Result.objects.get(pk=entered.pk).status == "entered"


def test_close_starts_the_correction_period_then_reopen_and_final(night, director_client):
    night.play_all()
    response = status(director_client, night, status="closed", reason="All played",
                      correction_minutes=20)
    assert response.status_code == 200
    body = response.json()
    # Not published before: shown provisional for the players to check in the period.
    assert (body["status"], body["published"], body["correction_minutes"]) == (
        "closed", "provisional", 20)
    final_after = datetime.datetime.fromisoformat(body["final_after"])
    assert abs((final_after - timezone.now()).total_seconds() - 20 * 60) < 60
    # Reopening needs a reason, and is a step back to agreed.
    response = status(director_client, night, status="agreed")
    assert response.status_code == 400 and response.json()["field"] == "reason"
    response = status(director_client, night, status="agreed", reason="Board 2 was misscored")
    assert response.json()["status"] == "agreed" and response.json()["final_after"] is None
    # Close again and publish final at once: no period, no reopening.
    response = status(director_client, night, status="closed", publish_final=True)
    assert (response.json()["published"], response.json()["final_after"]) == ("final", None)
    response = status(director_client, night, status="agreed", reason="Too late")
    assert response.status_code == 403
    assert "correction period is over" in response.json()["error"]


def test_reading_the_event_after_the_period_publishes_final(night, director_client, public):
    night.play_all()
    status(director_client, night, status="closed", reason="All played")
    Event.objects.filter(pk=night.event.pk).update(
        final_after=timezone.now() - datetime.timedelta(seconds=1))
    # Closed, the standings were shown provisional; the period over, reading the event
    # publishes them final.
    assert public.get(url(night.event)).json()["published"] == "final"
    body = director_client.get(url(night.event)).json()
    assert (body["published"], body["final_after"]) == ("final", None)
    assert public.get(url(night.event)).json()["published"] == "final"


def test_the_list_publishes_every_due_event(night, director_client, public):
    night.play_all()
    status(director_client, night, status="closed", reason="All played")
    Event.objects.filter(pk=night.event.pk).update(
        final_after=timezone.now() - datetime.timedelta(seconds=1))
    listed = public.get("/api/events/").json()
    assert [(e["id"], e["published"]) for e in listed] == [(night.event.pk, "final")]
