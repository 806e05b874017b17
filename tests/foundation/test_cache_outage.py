"""Entry goes on while the cache (Redis) is down: a table with its right code is let in.

A private redis-server is the cache and the broker here (the fixture ``private_redis``);
the test stops it and starts it again. While it is down the table-code throttle cannot
count: a right code still opens the table, a wrong one is still refused as wrong (only
not counted), the outage is logged once and /health/ shows it. Once Redis is back the
throttle counts again.
"""

import logging
import time

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.api.helpers import TWO_HEARTS, build_night, post, url
from tests.factories import DirectorFactory
from tests.web.conftest import code_of, contract_post, make_event
from tournaments import outages, polls, services
from tournaments.models import Result
from tournaments.services import Actor

pytestmark = [pytest.mark.redis, pytest.mark.django_db,
              pytest.mark.usefixtures("throttle_clock")]


@pytest.fixture
def director(db):
    return DirectorFactory(username="alice")


@pytest.fixture
def three_a_minute(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                               "DEFAULT_THROTTLE_RATES": {"table-code": "3/minute"}}


@pytest.fixture
def retry_at_once(monkeypatch):
    """Try Redis again on the next request after a failure (production waits a little)."""
    monkeypatch.setattr(outages, "RETRY_SECONDS", 0.0)


def api_table(code: str, address: str = "10.0.0.1") -> APIClient:
    client = APIClient(REMOTE_ADDR=address)
    client.credentials(HTTP_AUTHORIZATION=f"Table {code}")
    return client


def outage_warnings(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records
            if r.levelno == logging.WARNING and "cache" in r.getMessage().lower()]


def test_a_table_enters_and_confirms_over_the_api_while_the_cache_is_down(
        private_redis, director, caplog):
    night = build_night(director)
    private_redis.stop()
    client = api_table(night.codes[1])
    meeting = night.meeting(1, 1)
    with caplog.at_level(logging.WARNING):
        response = post(client, url(night.event, "results/"),
                        {"board": meeting.boards[0], "round": 1, "result": TWO_HEARTS})
        assert response.status_code == 201, response.content
        confirm = post(client, url(night.event, f"results/{response.json()['id']}/confirm/"),
                       {"by": "Pair 4"})
        assert confirm.status_code == 200, confirm.content
        assert confirm.json()["status"] == "confirmed"
        assert client.get("/api/table/").status_code == 200
        for _ in range(20):  # many requests, one outage: one warning
            assert api_table(night.codes[2]).get("/api/table/").status_code == 200
    assert Result.objects.get().status == Result.Status.CONFIRMED
    assert len(outage_warnings(caplog)) == 1


def test_wrong_codes_are_still_refused_as_wrong_but_not_counted(
        private_redis, director, three_a_minute):
    night = build_night(director)
    private_redis.stop()
    guesser = api_table("ZZZZZZ", address="10.0.0.9")
    for _ in range(6):  # past the limit of 3: nothing counts, so never "too many"
        response = guesser.get("/api/table/")
        assert response.status_code == 401
        assert response.json()["error"].startswith("That table code is not known")
    assert api_table(night.codes[1], address="10.0.0.9").get("/api/table/").status_code == 200


def test_the_table_pages_work_while_the_cache_is_down(private_redis, director, caplog):
    event = make_event(director)
    code = code_of(event, 1)
    private_redis.stop()
    phone = Client()
    with caplog.at_level(logging.WARNING):
        assert phone.post("/t/", {"code": code}).status_code == 302
        assert phone.get(f"/t/{code}/").status_code == 200
        assert phone.get(f"/t/{code}/round/1/state.json").json()["open"] is True
        page = f"/t/{code}/round/1/board/1/"
        form = phone.get(page)
        assert form.status_code == 200
        saved = phone.post(page, contract_post(token="a-token"))
        assert saved.status_code == 302, saved.content.decode()[:2000]
        assert phone.post(page + "confirm/").status_code == 302
        # A phone that lost its cookie opens the page by the link again.
        assert Client().get(f"/t/{code}/").status_code == 200
        wrong = Client().get("/t/ZZZZZZ/")
        assert wrong.status_code == 404 and b"No table has that code" in wrong.content
    assert Result.objects.get(board__number=1).status == Result.Status.CONFIRMED
    assert len(outage_warnings(caplog)) == 1


def test_health_shows_the_outage_and_the_throttle_counts_again_after_a_restart(
        private_redis, director, three_a_minute, retry_at_once, caplog):
    night = build_night(director)
    private_redis.stop()
    assert api_table(night.codes[1]).get("/api/table/").status_code == 200
    health = Client().get("/health/").json()
    assert health["cache"].startswith("unreachable since "), health
    assert health["status"] == "degraded"

    private_redis.start()
    with caplog.at_level(logging.WARNING):
        guesser = api_table("ZZZZZZ", address="10.0.0.8")
        answers = [guesser.get("/api/table/").status_code for _ in range(4)]
    assert answers == [401, 401, 401, 429]
    assert any("answers again" in r.getMessage() for r in outage_warnings(caplog))
    assert Client().get("/health/").json()["cache"] == "ok"


def test_a_hung_redis_costs_a_table_at_most_a_moment(private_redis, director):
    """Redis accepts the connection and never answers: the cache's socket timeout ends the
    wait (redis-py alone would wait 5 s), and later requests do not wait at all."""
    night = build_night(director)
    assert api_table(night.codes[1]).get("/api/table/").status_code == 200
    private_redis.pause()
    started = time.monotonic()
    assert api_table(night.codes[1]).get("/api/table/").status_code == 200
    assert time.monotonic() - started < 2.5
    started = time.monotonic()
    for table in (1, 2, 3, 1, 2):
        assert api_table(night.codes[table]).get("/api/table/").status_code == 200
    assert time.monotonic() - started < 1.0


def test_the_live_polls_read_the_event_while_the_cache_is_down(
        private_redis, director, retry_at_once, django_capture_on_commit_callbacks):
    """An unchanged poll is a 304 from the cache; with the cache gone the poll reads the
    database, as before, and a change made meanwhile is seen at once."""
    event = make_event(director)
    services.event_publish(event=event, level="provisional", actor=Actor.director(director))
    code = code_of(event, 1)
    phone, page = Client(), Client()
    url, live = f"/t/{code}/round/1/state.json", f"/events/{event.pk}/live/"
    first, shown = phone.get(url), page.get(live)
    assert phone.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert page.get(live, HTTP_IF_NONE_MATCH=shown["ETag"]).status_code == 304
    private_redis.stop()
    polls.forget()  # a second later: the process no longer trusts the mark it read
    # The phone's state is read from the database: the same, so still a 304.
    assert phone.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    down = page.get(live, HTTP_IF_NONE_MATCH=shown["ETag"])
    assert down.status_code == 200 and down["ETag"] == shown["ETag"]
    with django_capture_on_commit_callbacks(execute=True):  # its mark cannot be written
        services.round_agree(section=event.sections.get(), round_number=1,
                             actor=Actor.director(director), tables=[1])
    agreed = phone.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert agreed.status_code == 200 and agreed.json()["agreed"] is True
    moved = page.get(live, HTTP_IF_NONE_MATCH=shown["ETag"])
    assert moved.status_code == 200 and moved.json()["seq"] > shown.json()["seq"]
    private_redis.start()  # empty again: the first poll reads the event, the next is a 304
    assert page.get(live, HTTP_IF_NONE_MATCH=moved["ETag"]).status_code == 200
    assert page.get(live, HTTP_IF_NONE_MATCH=moved["ETag"]).status_code == 304
    assert phone.get(url, HTTP_IF_NONE_MATCH=agreed["ETag"]).status_code == 304
