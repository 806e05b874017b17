"""Two sessions from the console: the director adds session 2 (the pairs carry over),
sets the carry-over at 50 %, and the overall standings show each session and the total,
an odd session score halved to "½" (the nearest whole shown, the "½" on a tap)."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tournaments import services
from tournaments.forms import PairLine
from tournaments.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ONE_SPADE = {"contract": {"level": 1, "denomination": "S", "declarer": "S"}, "tricks": 7,
             "honours": {"N": 1, "E": 2, "S": 1, "W": 1}}
THREE_HEARTS = {"contract": {"level": 3, "denomination": "H", "declarer": "S"}, "tricks": 9,
                "honours": {"N": 2, "E": 1, "S": 1, "W": 1}}


def first_session(director) -> Event:
    actor = services.Actor.director(director)
    event = services.event_create(name="Autumn pairs", date=datetime.date(2026, 11, 23),
                                  actor=actor)
    services.pairs_set(event=event, actor=actor, lines=[
        PairLine(number=n, players=[f"North {n}", f"South {n}"], team=None)
        for n in range(1, 5)])
    services.boards_set(event=event, count=1, actor=actor)
    for ns, ew, data in ((1, 2, THREE_HEARTS), (3, 4, ONE_SPADE)):
        services.result_record(event=event, board=1, ns=ns, ew=ew, data=data, actor=actor)
    return event


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_two_sessions_and_the_overall(browser, director, phone):
    event = first_session(director)
    actor = services.Actor.director(director)
    page = browser.page(phone=phone)
    log_in(page, director, next_url=f"/director/events/{event.pk}/sessions/")
    page.fill("[data-testid=session-date]", "2026-11-30")
    page.click("[data-testid=add-session-button]")
    expect(page.locator(".messages")).to_contain_text("Session 2 added with 4 pairs")
    second = Event.objects.get(session_of=event)
    services.boards_set(event=second, count=1, actor=actor)
    for ns, ew, data in ((1, 3, ONE_SPADE), (2, 4, THREE_HEARTS)):
        services.result_record(event=second, board=1, ns=ns, ew=ew, data=data, actor=actor)
    page.goto(f"/director/events/{second.pk}/sessions/")
    expect(page.locator("[data-testid=session-2]")).to_contain_text("Autumn pairs, session 2")
    page.fill("[data-testid=carry-over-input]", "50")
    page.click("[data-testid=save-carry-over]")
    expect(page.locator(".messages")).to_contain_text("count at 50%")
    browser.shot(page, "sessions")
    page.click("[data-testid=overall-link]")
    table = page.locator("[data-testid=overall]")
    expect(table).to_contain_text("counts 50%")  # the column gives the full score
    # As the standings show a score: the nearest whole, its exact value on a tap.
    total = table.locator("[data-testid=overall-row-1] td.total")
    expect(total).to_have_attribute("title", re.compile(r"exactly [+−]\d+½"))
    expect(total).not_to_contain_text("½")
    # The overall score comes before the sessions': on a phone it shows without scrolling.
    box = table.locator("th", has_text="Overall").bounding_box()
    assert box["x"] + box["width"] <= page.viewport_size["width"]
    browser.shot(page, "overall")
