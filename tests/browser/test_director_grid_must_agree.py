"""The live grid's hover text follows the table, without a reload.

A cell's link says "every board is in; the table must still agree round R on its phone"
while that holds (selectors.table_must_agree). director.js repaints the cells from
grid.json every few seconds: the hover text must change with them, when the last board
is confirmed and again once the table agrees its round on its phone.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tournaments import services
from tournaments.services import Actor

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REPAINT_MS = 15_000  # director.js polls every 5 seconds
PLAIN = "Round 1, table 1"
MUST_AGREE = PLAIN + ": every board is in; the table must still agree round 1 on its phone"


def test_the_hover_text_follows_the_table(browser, night, director):
    meeting = night.meeting(1, 1)
    first, second = meeting.boards
    night.enter(meeting, first)
    unconfirmed = night.enter(meeting, second, confirm=False)

    console = browser.page()
    log_in(console, director)
    console.goto(f"/director/events/{night.event.pk}/")
    cell = console.locator("[data-testid=cell-1-1]")
    link = cell.locator("[data-cell-link]")
    expect(link).to_have_attribute("title", PLAIN)  # a board still to confirm
    console.evaluate("window.notReloaded = true")  # gone if the page is drawn again

    # East-West confirm the last board: every board is in, the round not agreed.
    services.result_confirm(result=unconfirmed, actor=Actor.at_table(meeting.section, 1),
                            by=f"E-W pair {meeting.ew_pair.number}")
    expect(link).to_have_attribute("title", MUST_AGREE, timeout=REPAINT_MS)
    expect(cell).to_have_attribute("data-status", "confirmed")
    browser.shot(console, "grid table 1 must still agree")

    # The table agrees round 1 on its phone.
    phone = browser.page(phone=True)
    phone.goto(f"/t/{night.code(1)}/")
    phone.tap("#agree-round")
    phone.tap("#agree-round-yes")
    expect(phone.locator(".messages")).to_contain_text("Round 1 agreed. Thank you.")

    expect(link).to_have_attribute("title", PLAIN, timeout=REPAINT_MS)
    expect(cell).to_have_attribute("data-status", "agreed")
    assert console.evaluate("window.notReloaded === true")
    browser.shot(console, "grid table 1 agreed")

    # The event page with its grid, at a phone's width and a laptop's.
    narrow = browser.page(phone=True)
    log_in(narrow, director)
    narrow.goto(f"/director/events/{night.event.pk}/")
    expect(narrow.locator("#grid-updated")).to_contain_text("Updated", timeout=REPAINT_MS)
    browser.shot(narrow, "director event 390")
    console.reload()
    expect(console.locator("#grid-updated")).to_contain_text("Updated", timeout=REPAINT_MS)
    expect(link).to_have_attribute("title", PLAIN)  # as drawn by the page itself
    browser.shot(console, "director event 1280")
