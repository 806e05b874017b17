"""The live pages' polls: nothing new is a 304 from the cache, with no database query.

A phone polls its round's state (/t/<code>/round/<n>/state.json) and a public page the
event's live JSON (/events/<id>/live/), each bringing back the ETag of its last answer.
While the event is still at that change number the answer is a bare 304 made from the
cache (tournaments/polls.py); after any change it is the full answer, with a new tag.
The cache's mark moves when a change commits, so the tests run the on-commit callbacks.
"""

import datetime

import pytest
from django.conf import settings
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tests.web.conftest import code_of
from tournaments import polls, services
from tournaments.models import Event
from tournaments.services import Actor
from tournaments.web.polling import POLL_PATHS

pytestmark = pytest.mark.redis


def poll(client: Client, url: str, tag: str = ""):
    headers = {"HTTP_IF_NONE_MATCH": tag} if tag else {}
    return client.get(url, **headers)


@pytest.fixture
def phone(event):
    """A table's phone: its session holds the table's code (it opened the table page)."""
    client = Client()
    assert client.get(f"/t/{code_of(event, 1)}/").status_code == 200
    return client


@pytest.fixture
def published(event, director):
    return services.event_publish(event=event, level=Event.Published.PROVISIONAL,
                                  actor=Actor.director(director))


def state_url(event) -> str:
    return f"/t/{code_of(event, 1)}/round/1/state.json"


def test_an_unchanged_table_poll_is_a_304_without_a_query(phone, event,
                                                          django_assert_num_queries):
    first = poll(phone, state_url(event))
    assert first.status_code == 200 and first.json()["open"] is True
    tag = first["ETag"]
    assert tag.startswith(f'"{event.pk}.{Event.objects.get(pk=event.pk).seq}.')
    url = state_url(event)
    with django_assert_num_queries(0):
        again = poll(phone, url, tag)
    assert again.status_code == 304
    assert again["ETag"] == tag and again.content == b""
    assert "no-store" in again["Cache-Control"]


def test_an_unchanged_public_poll_is_a_304_without_a_query(client, event, published,
                                                           django_assert_num_queries):
    url = f"/events/{event.pk}/live/"
    first = poll(client, url)
    assert first.status_code == 200 and first.json()["seq"] == published.seq
    with django_assert_num_queries(0):
        again = poll(client, url, first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    assert not again.cookies  # no session made for it


def test_a_poll_after_a_change_gets_the_new_state_and_a_new_tag(
        phone, event, director, django_capture_on_commit_callbacks):
    url = state_url(event)
    first = poll(phone, url)
    with django_capture_on_commit_callbacks(execute=True):
        services.round_agree(section=event.sections.get(), round_number=1,
                             actor=Actor.director(director), tables=[1])
    changed = poll(phone, url, first["ETag"])
    assert changed.status_code == 200
    assert (changed.json()["open"], changed.json()["agreed"]) == (False, True)
    assert changed["ETag"] != first["ETag"]
    assert poll(phone, url, changed["ETag"]).status_code == 304


def test_a_public_poll_after_a_change_is_answered_from_the_cache_while_published(
        client, event, director, published, django_assert_num_queries,
        django_capture_on_commit_callbacks):
    url = f"/events/{event.pk}/live/"
    first = poll(client, url)
    with django_capture_on_commit_callbacks(execute=True):
        services.round_agree(section=event.sections.get(), round_number=1,
                             actor=Actor.director(director), tables=[1])
    with django_assert_num_queries(0):
        changed = poll(client, url, first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert "no-store" in changed["Cache-Control"]
    polls.forget()
    # The same answer, and the same tag, as the view gives reading the event.
    assert changed.json() == poll(client, url).json() == {
        "event": event.pk, "seq": Event.objects.get(pk=event.pk).seq,
        "published": "provisional", "status": "running"}
    assert poll(client, url)["ETag"] == changed["ETag"]
    assert poll(client, url, changed["ETag"]).status_code == 304


def test_a_phone_poll_after_another_tables_change_is_a_304_with_a_new_tag(
        phone, event, director, django_assert_num_queries, django_capture_on_commit_callbacks):
    """Another table's round agreed (or its score entered) moves the event's change number
    but not this table's state: one query, no session, and a 304 naming the new number."""
    url = state_url(event)
    first = poll(phone, url)
    with django_capture_on_commit_callbacks(execute=True):
        services.round_agree(section=event.sections.get(), round_number=1,
                             actor=Actor.director(director), tables=[2])
    seq = Event.objects.get(pk=event.pk).seq
    with django_assert_num_queries(1):
        again = poll(phone, url, first["ETag"])
    assert again.status_code == 304
    assert again["ETag"] != first["ETag"] and again["ETag"].startswith(f'"{event.pk}.{seq}.')
    with django_assert_num_queries(0):
        assert poll(phone, url, again["ETag"]).status_code == 304
    # The view gives the same tag for the same state.
    polls.forget()
    assert poll(phone, url)["ETag"] == again["ETag"]
    # The event agreed: this table's state has changed, the view answers.
    with django_capture_on_commit_callbacks(execute=True):
        services.event_set_status(event=event, status="agreed", actor=Actor.director(director),
                                  reason="Time")
    changed = poll(phone, url, again["ETag"])
    assert changed.status_code == 200 and changed.json()["open"] is False


def test_the_public_poll_after_publishing_and_taking_down(
        client, event, director, published, django_capture_on_commit_callbacks):
    url = f"/events/{event.pk}/live/"
    tag = poll(client, url)["ETag"]
    with django_capture_on_commit_callbacks(execute=True):
        services.event_publish(event=event, level=Event.Published.NONE,
                               actor=Actor.director(director))
    # Taken down: the old tag no longer answers 304, the event is not there for the public.
    assert poll(client, url, tag).status_code == 404


def test_a_made_up_tag_gets_no_304(client, phone, event, django_capture_on_commit_callbacks):
    """An unpublished event: a guessed tag must not tell it from an id no event has."""
    url = f"/events/{event.pk}/live/"
    real = poll(phone, url)  # the table may see its own event
    assert real.status_code == 200
    seq = real.json()["seq"]
    for guess in (f'"{event.pk}.{seq}.{"0" * 24}"', f'"{event.pk}.{seq}"', "*", '"x.y.z"',
                  real["ETag"].replace(f".{seq}.", f".{seq + 1}.")):
        assert poll(client, url, guess).status_code == 404
    # A tag is for the URL it was given with: not another round's state, nor the page's.
    table_tag = poll(phone, state_url(event))["ETag"]
    assert poll(client, url, table_tag).status_code == 404
    other = f"/t/{code_of(event, 1)}/round/2/state.json"
    assert poll(phone, other, table_tag).status_code == 200


def test_a_wrong_code_is_never_answered_from_the_cache(client, event):
    tag = poll(Client(), state_url(event))["ETag"]
    wrong = "/t/ZZZZZZ/round/1/state.json"
    assert poll(client, wrong, tag).status_code == 404


def test_a_change_rolled_back_does_not_move_the_mark(phone, event, director,
                                                     django_capture_on_commit_callbacks):
    url = state_url(event)
    tag = poll(phone, url)["ETag"]
    with (django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError),
          transaction.atomic()):
        services.round_agree(section=event.sections.get(), round_number=1,
                             actor=Actor.director(director), tables=[1])
        raise RuntimeError("refused")
    assert poll(phone, url, tag).status_code == 304


def test_the_mark_never_goes_back(event):
    event = Event.objects.get(pk=event.pk)
    at = event.seq
    polls.remember(event)
    event.seq = at - 1  # a poll that read the event before a change committed
    polls.remember(event)
    assert polls.current(event.pk).seq == at
    event.seq, event.status = at + 1, Event.Status.AGREED
    polls.remember(event)
    assert polls.current(event.pk) == (at + 1, 0, "none", "agreed")


def test_marks_that_meet_on_the_way_are_sent_by_the_thread_sending(monkeypatch):
    """A mark left while another is being sent goes with the sending thread's next batch
    (the highest of an event's, once); nothing is left behind, and none is sent twice."""
    sent = []

    def send(event_id, mark):
        sent.append((event_id, mark.seq))
        if len(sent) == 1:  # other threads' writes, while this one is on its way
            polls.remember_mark(1, polls.Mark(5, 0, "none", "running"))
            polls.remember_mark(1, polls.Mark(4, 0, "none", "running"))
            polls.remember_mark(2, polls.Mark(7, 0, "none", "running"))

    monkeypatch.setattr(polls, "_keep_highest", send)
    polls.remember_mark(1, polls.Mark(3, 0, "none", "running"))
    assert sent == [(1, 3), (1, 5), (2, 7)]
    assert not polls._sending.busy and not polls._sending.pending
    polls.remember_mark(2, polls.Mark(8, 0, "none", "running"))  # alone: sent at once
    assert sent[-1] == (2, 8)


def test_a_failed_send_does_not_stop_the_marks(monkeypatch):
    def down(event_id, mark):
        raise ConnectionError("cache down")

    monkeypatch.setattr(polls, "_keep_highest", down)
    with pytest.raises(ConnectionError):
        polls.remember_mark(1, polls.Mark(3, 0, "none", "running"))
    sent = []
    monkeypatch.setattr(polls, "_keep_highest", lambda e, m: sent.append((e, m.seq)))
    polls.remember_mark(1, polls.Mark(4, 0, "none", "running"))
    assert sent == [(1, 4)]


def test_the_end_of_the_correction_period_is_not_answered_from_the_cache(
        client, event, director, published, django_capture_on_commit_callbacks):
    """Closed with a correction period: when it ends the standings are published final
    by the next full answer, so a poll then is not a 304 even though nothing was written."""
    actor = Actor.director(director)
    with django_capture_on_commit_callbacks(execute=True):
        services.event_close(event=event, actor=actor, reason="Time", correction_minutes=10)
    url = f"/events/{event.pk}/live/"
    first = poll(client, url)
    assert first.json()["published"] == "provisional"
    assert poll(client, url, first["ETag"]).status_code == 304
    Event.objects.filter(pk=event.pk).update(
        final_after=datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC))
    polls.remember(Event.objects.get(pk=event.pk))
    answer = poll(client, url, first["ETag"])
    assert answer.status_code == 200 and answer.json()["published"] == "final"


def test_without_redis_a_poll_reads_the_database(settings, client, phone, event, published,
                                                 django_assert_num_queries):
    """The local-memory cache is each process's own: the marks are kept only in Redis, so
    a page's poll is answered in full, and a phone's reads its table's rounds."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    live = f"/events/{event.pk}/live/"
    tag = poll(client, live)["ETag"]
    again = poll(client, live, tag)
    assert again.status_code == 200 and again["ETag"] == tag
    url = state_url(event)
    tag = poll(phone, url)["ETag"]
    with django_assert_num_queries(1):
        assert poll(phone, url, tag).status_code == 304


def test_the_middleware_knows_the_poll_urls_and_no_others():
    """LivePollMiddleware matches paths before the URL resolver: they must be the polls'."""
    polled = [reverse("public-live", kwargs={"pk": 12}),
              reverse("table-state", kwargs={"code": "ABC123", "round_number": 3})]
    others = [reverse("public-standings", kwargs={"pk": 12}),
              reverse("table-round", kwargs={"code": "ABC123", "round_number": 3}),
              "/events/12/live/x", "/api/events/12/live/", "/t/A/B/round/1/state.json"]
    assert all(POLL_PATHS.fullmatch(path) for path in polled)
    assert not any(POLL_PATHS.fullmatch(path) for path in others)
    assert "tournaments.web.polling.LivePollMiddleware" in settings.MIDDLEWARE


def test_a_phones_state_is_read_alike_by_the_prepared_statement_and_the_orm(
        event, director, monkeypatch, django_capture_on_commit_callbacks):
    """A phone's poll after a change reads its table's state with a statement planned once
    per connection (PostgreSQL); the ORM's query (SQLite, ``make run``) reads the same."""
    from tournaments import prepared, selectors

    with django_capture_on_commit_callbacks(execute=True):
        services.round_agree(section=event.sections.get(), round_number=1,
                             actor=Actor.director(director), tables=[2])
    codes = [code_of(event, 1), code_of(event, 2), code_of(event, 2).lower(), "NOSUCH", ""]
    assert prepared.available()
    read = [selectors.table_state_inputs(code) for code in codes]
    monkeypatch.setattr(prepared, "available", lambda: False)
    assert [selectors.table_state_inputs(code) for code in codes] == read
    assert read[1].rounds[0] == (1, True) and read[0].rounds[0] == (1, False)
    assert read[1] == read[2] and read[3] is None and read[4] is None
