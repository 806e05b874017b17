"""The pages the access policy and the table-code throttle answer with, on a phone and a
desktop: "too many tries" (and the table still opens on the phone that holds its code),
and the public page of a board still being played (nothing of it shown)."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.usefixtures("throttle_clock")]


@pytest.fixture
def three_a_minute(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                               "DEFAULT_THROTTLE_RATES": {"table-code": "3/minute"}}


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_too_many_tries_then_the_table_that_holds_its_code_goes_on(browser, night,
                                                                   three_a_minute, phone):
    table = browser.page(phone=phone)
    table.goto(f"/t/{night.code(1)}/")  # the table is open on this device
    expect(table.locator("#table-title")).to_have_text("Table 1 · round 1")
    guesser = browser.page(phone=phone)  # another device on the same wifi
    guesser.goto("/t/")
    browser.shot(guesser, "open your table")
    for _ in range(3):
        guesser.fill("#table-code", "WRONG1")
        guesser.click("#table-code-submit")
        expect(guesser.locator("#table-code-error")).to_have_text("No table has that code")
    guesser.fill("#table-code", night.code(2))
    guesser.click("#table-code-submit")
    expect(guesser.locator("#table-code-error")).to_contain_text(
        "Too many wrong codes from this device or network. Wait")
    browser.shot(guesser, "too many tries")
    # The table that holds its code is never throttled: its page and its QR link open.
    response = table.goto(f"/t/{night.code(1)}/")
    assert response.status == 200
    expect(table.locator("#table-title")).to_have_text("Table 1 · round 1")


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_a_board_still_being_played_shows_nothing(browser, night, phone):
    first = night.meeting(1, 1)
    night.enter(first, first.boards[0])
    page = browser.page(phone=phone)
    response = page.goto(f"/events/{night.event.pk}/boards/{first.boards[0]}/")
    assert response.status == 403
    expect(page.locator("[data-testid=board-hidden]")).to_have_text(
        f"Board {first.boards[0]} is still being played: its results show here once every "
        "table has played it.")
    expect(page.locator("[data-testid=traveller]")).to_have_count(0)
    expect(page.locator("[data-testid=hand-record]")).to_have_count(0)
    browser.shot(page, "board still being played")
