"""One table-code throttle for the web and the API (tournaments/throttle.py).

A room of tables shares one public address: tables that hold their code are never
throttled, guessing stays slow for whoever guesses, and the count-and-decide is one
atomic step (real threads against the cache: Redis under REDIS_URL).
"""

import threading

import pytest
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from tests.api.helpers import build_night
from tests.factories import DirectorFactory
from tournaments.throttle import CodeGate

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("throttle_clock")]
ROOM = "203.0.113.7"  # the club's one public address


@pytest.fixture
def night():
    return build_night(DirectorFactory(username="alice"), tables=15)  # 30 pairs, 15 tables


def test_the_address_limit_is_six_times_the_setting():
    from types import SimpleNamespace

    gate = CodeGate(SimpleNamespace(META={"REMOTE_ADDR": ROOM}, session=None))
    assert (gate.limit, gate.window, gate.address_limit) == (10, 60, 60)


def test_one_device_guessing_is_slowed(night):
    phone = Client(REMOTE_ADDR=ROOM)
    for _ in range(10):
        assert phone.get("/t/ZZZZZZ/").status_code == 404
    assert phone.get("/t/ZZZZZZ/").status_code == 429
    # The right code too, or the guesser would learn which guess was right.
    assert phone.get(f"/t/{night.codes[1]}/").status_code == 429
    api = APIClient(REMOTE_ADDR="198.51.100.1")  # another network: the API counts alike
    api.credentials(HTTP_AUTHORIZATION="Table ZZZZZZ")
    for _ in range(10):
        assert api.get("/api/table/").status_code == 401
    assert api.get("/api/table/").status_code == 429


def test_thirty_phones_on_one_address_keep_playing_past_a_guesser(night):
    codes = list(night.codes.values())
    phones, apis = [], []
    for code in codes:  # 15 tables by the web, 15 by the API: 30 devices
        phone = Client(REMOTE_ADDR=ROOM)
        assert phone.get(f"/t/{code}/").status_code == 200
        phones.append((phone, code))
        api = APIClient(REMOTE_ADDR=ROOM)
        api.credentials(HTTP_AUTHORIZATION=f"Table {code}")
        assert api.get("/api/table/").status_code == 200
        apis.append(api)
    # One table mistypes a few times: nobody notices.
    typo = Client(REMOTE_ADDR=ROOM)
    for _ in range(3):
        assert typo.post("/t/", {"code": "WRONG1"}).status_code == 404
    assert typo.post("/t/", {"code": codes[0]}).status_code == 302
    # A guesser on the same wifi, shedding cookies, runs the address over its limit.
    for n in range(80):
        Client(REMOTE_ADDR=ROOM, HTTP_USER_AGENT=f"guess {n}").get(f"/t/ZZZZ{n:02d}/")
    assert Client(REMOTE_ADDR=ROOM, HTTP_USER_AGENT="guess 99").get(
        "/t/ZZZZ99/").status_code == 429
    # Every table already playing goes on: its page, a valid QR link, the API.
    for phone, code in phones:
        assert phone.get(f"/t/{code}/").status_code == 200
        assert phone.get(f"/t/{code}/round/1/").status_code == 200
    for api in apis:
        assert api.get("/api/table/").status_code == 200
    fresh = Client(REMOTE_ADDR=ROOM)  # a phone that lost its cookie scans the QR again
    assert fresh.get(f"/t/{codes[4]}/").status_code == 200


def all_at_once(address: str, codes: list[str], *, web: int = 0) -> list[int]:
    """One client a code, all asking at the same moment from `address` (real threads, each
    with its own database connection); their answers' statuses. The first `web` codes are
    opened as a table page (GET /t/<code>/, no cookie yet), the rest through the API
    (GET /api/table/); all send the same User-Agent, so all are one device."""
    answers: list[int] = []
    lock = threading.Lock()
    start = threading.Barrier(len(codes))

    def ask(code: str, page: bool) -> None:
        try:
            if page:
                client = Client(REMOTE_ADDR=address, HTTP_USER_AGENT="one phone")
                url = f"/t/{code}/"
            else:
                client = APIClient(REMOTE_ADDR=address, HTTP_USER_AGENT="one phone")
                client.credentials(HTTP_AUTHORIZATION=f"Table {code}")
                url = "/api/table/"
            start.wait()
            status = client.get(url).status_code
            with lock:
                answers.append(status)
        finally:
            connection.close()

    threads = [threading.Thread(target=ask, args=(code, n < web))
               for n, code in enumerate(codes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_parallel_guesses_cannot_pass_the_limit(night):
    """16 threads guessing at once: at most 10 guesses are tried (count first, then decide)."""
    answers = all_at_once("198.51.100.9", [f"GUES{n:02d}" for n in range(16)])
    assert len(answers) == 16
    assert answers.count(401) == 10 and answers.count(429) == 6


@pytest.mark.django_db(transaction=True)
def test_a_room_of_tables_opening_at_once_is_never_throttled():
    """30 tables' apps behind one address, alike to the server, send their first request at
    the same moment: right codes are never counted, so none of them is held up."""
    codes = list(build_night(DirectorFactory(username="alice"), tables=15).codes.values())
    codes += list(build_night(DirectorFactory(username="bob"), tables=15).codes.values())
    assert all_at_once(ROOM, codes) == [200] * 30


@pytest.mark.redis
def test_parallel_guesses_on_both_edges_share_one_limit(night, settings):
    """16 threads of one device guessing at once, half on table pages and half through the
    API, against real Redis: one counter for both edges, so 10 guesses in all are tried."""
    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    answers = all_at_once("198.51.100.10", [f"GUES{n:02d}" for n in range(16)], web=8)
    assert len(answers) == 16
    tried = answers.count(404) + answers.count(401)  # "no such code": web 404, API 401
    assert tried == 10 and answers.count(429) == 6, answers
