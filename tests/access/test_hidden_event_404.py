"""An event a caller may not see answers exactly as an id no event has: the same status
and the same bytes, on the public pages, the API and the print room (access.shown_event).
Event ids are sequential; any difference would tell which exist, and what they are called."""

import pytest
from django.db.models import Max
from django.test import Client
from rest_framework.test import APIClient

from tests.reports.night import build_night, make_director
from tournaments.models import Event, TableCode

pytestmark = pytest.mark.django_db
NAME = "Secret Tuesday night"

PAGES = ["", "standings/", "standings/?fragment=1", "boards/1/", "boards/1/?fragment=1",
         "pairs/1/", "pairs/1/?fragment=1", "live/"]
# Every address a GET can read (rulings/ takes only POST: its 405 comes before any event
# is looked up, so it says nothing of one).
API = ["", "standings/", "pairs/", "pairs/1/", "pairs/1/scorecard/", "teams/", "boards/",
       "boards/1/", "boards/1/traveller/", "movement/", "results/", "audit/",
       "sections/A/tables/1/"]
PRINT_ROOM = ["reports/", "reports/standings/", "reports/standings/status/",
              "reports/standings/file/"]


@pytest.fixture
def ids():
    """(the hidden event's id, an id no event has)."""
    director = make_director()
    hidden = build_night(director, name=NAME, published="none").event
    build_night(director, name="Another club's night", published="none")
    return hidden.pk, Event.objects.aggregate(top=Max("pk"))["top"] + 1


def foreign_code() -> str:
    """A table code of the other event: to the hidden one, that table is the public."""
    return TableCode.objects.exclude(section__event__name=NAME).first().code


def callers() -> dict[str, Client]:
    player = Client()
    player.force_login(make_director("player").__class__.objects.create_user(
        "bob", password="pass-word-123"))
    table = Client()
    assert table.get(f"/t/{foreign_code()}/").status_code == 200  # the phone holds its code
    return {"anonymous": Client(), "logged-in player": player, "another event's table": table}


def same(first, second, hidden: int, missing: int) -> list[str]:
    """How two answers differ (an empty list: not at all)."""
    problems = []
    if first.status_code != second.status_code:
        problems.append(f"status {first.status_code} != {second.status_code}")
    if first.content != second.content:
        problems.append("bodies differ")
    for header in ("Content-Type", "Location"):
        one = (first.get(header) or "").replace(f"/{hidden}/", "/ID/")
        two = (second.get(header) or "").replace(f"/{missing}/", "/ID/")
        if one != two:  # a redirect names the address asked for, and nothing more
            problems.append(f"{header}: {one!r} != {two!r}")
    if NAME.encode() in first.content:
        problems.append("the event's name is shown")
    return problems


def test_public_pages(ids):
    hidden, missing = ids
    wrong = {}
    for who, client in callers().items():
        for page in PAGES:
            one = client.get(f"/events/{hidden}/{page}")
            two = client.get(f"/events/{missing}/{page}")
            assert one.status_code == 404, (who, page)
            if problems := same(one, two, hidden, missing):
                wrong[(who, page)] = problems
    assert not wrong


def test_api(ids):
    hidden, missing = ids
    anonymous, table = APIClient(), APIClient()
    table.credentials(HTTP_AUTHORIZATION=f"Table {foreign_code()}")
    wrong = {}
    for who, client in {"anonymous": anonymous, "another event's table": table}.items():
        for path in API:
            one = client.get(f"/api/events/{hidden}/{path}")
            two = client.get(f"/api/events/{missing}/{path}")
            assert one.status_code in (401, 403, 404), (who, path)
            if problems := same(one, two, hidden, missing):
                wrong[(who, path)] = problems
    assert not wrong
    answer = anonymous.get(f"/api/events/{hidden}/")
    assert answer.json() == {"error": "There is no such event.", "field": None}


def test_print_room(ids):
    hidden, missing = ids
    wrong = {}
    for who, client in callers().items():
        for path in PRINT_ROOM:
            for method in ("get", "post"):
                one = getattr(client, method)(f"/events/{hidden}/{path}")
                two = getattr(client, method)(f"/events/{missing}/{path}")
                if problems := same(one, two, hidden, missing):
                    wrong[(who, method, path)] = problems
    assert not wrong


def test_the_404_page_is_the_sites_own(ids, client):
    hidden, _ = ids
    text = client.get(f"/events/{hidden}/standings/").content.decode()
    assert "<h1>Not found</h1>" in text
    assert "the director may not have published them yet" in text
