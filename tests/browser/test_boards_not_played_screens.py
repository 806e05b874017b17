"""A board not played at a table, on screen: the standings' Boards column ("7 of 8") and
its note at phone and desktop widths, and the director's setting on the event page."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import expected_rows, log_in, ranking_rows
from tournaments import services, standings
from tournaments.models import Event

pytestmark = [pytest.mark.browser]


def _with_a_board_not_played(night, method: str, scoring: str = "neuberg"):
    Event.objects.filter(pk=night.event.pk).update(method=method, not_played_scoring=scoring)
    night.event.refresh_from_db()
    # Round 3, table 2 ran out of time: its first board was not played there.
    meeting = night.meeting(3, 2)
    night.play(keep=lambda m, board: not (m == meeting and board == meeting.boards[0]))
    services.ruling_award(event=night.event, board=meeting.boards[0],
                          ns=meeting.ns_pair.number, ew=meeting.ew_pair.number,
                          kind="not-played", actor=night.actor, meeting=meeting,
                          reason="no time left to play it")
    night.event.refresh_from_db()
    return meeting


@pytest.mark.parametrize(("method", "scoring"), [("plus-minus", "neuberg"),
                                                 ("matchpoints", "own-average")])
def test_the_standings_show_the_boards_each_pair_played(browser, night, method, scoring):
    meeting = _with_a_board_not_played(night, method, scoring)
    table = standings.standings(night.event)
    for phone in (True, False):
        page = browser.page(phone=phone)
        page.goto(f"/events/{night.event.pk}/standings/")
        note = page.locator("[data-testid=not-played-note]")
        expect(note).to_contain_text("A board not played at a pair's table is not compared")
        cell = page.locator("[data-testid=not-played]").first
        expect(cell).to_have_attribute("title", "1 board not played at its table")
        if method == "plus-minus":
            assert ranking_rows(page, "NS") == expected_rows(table, "NS")
        ns = next(r for r in table["rankings"][0]["rows"]
                  if r["pair"] == meeting.ns_pair.number)
        expect(page.locator("[data-testid=ranking-NS]")).to_contain_text(
            f"{ns['boards']} of {ns['boards'] + 1}")
        browser.shot(page, f"{method} standings {'phone' if phone else 'desktop'}")


def test_the_director_chooses_how_a_board_not_played_is_scored(browser, night, director):
    Event.objects.filter(pk=night.event.pk).update(method="matchpoints")
    for phone in (True, False):
        page = browser.page(phone=phone)
        log_in(page, director, next_url=f"/director/events/{night.event.pk}/")
        select = page.locator("[data-testid=not-played-scoring]")
        expect(select).to_have_value("neuberg")
        select.select_option("own-average")
        page.locator("[data-testid=save-not-played]").click()
        expect(page.locator("body")).to_contain_text("now gives the pair its own average")
        expect(page.locator("[data-testid=not-played-scoring]")).to_have_value("own-average")
        browser.shot(page, f"event page setting {'phone' if phone else 'desktop'}")
        Event.objects.filter(pk=night.event.pk).update(not_played_scoring="neuberg")
    assert Event.objects.get(pk=night.event.pk).not_played_scoring == "neuberg"

