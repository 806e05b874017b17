"""After agreeing a round the phone says where each pair and the boards go."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_the_phone_sends_the_pairs_and_boards_on(browser, night, phone):
    # The 4-table skip Mitchell: table 2 plays pairs 2 v 6 in round 1.
    meeting = night.meeting(1, 2)
    for board in meeting.boards:
        night.enter(meeting, board)
    page = browser.page(phone=phone)
    page.goto(f"/t/{night.code(2)}/")
    box = page.locator("[data-testid=where-next]")
    expect(box).to_contain_text("After round 1: where to go")
    page.locator("#agree-round").click()
    expect(page.locator("#agree-title")).to_have_text("Agree round 1?")
    page.locator("#agree-round-yes").click()
    expect(page.locator("#table-title")).to_have_text("Table 2 · round 2")
    over = page.locator("[data-testid=round-over]")
    expect(over).to_contain_text("Round 1 is over: where to go")
    expect(over).to_contain_text("N–S pair 2: Stay at table 2, N–S.")
    expect(over).to_contain_text("E–W pair 6: Go to table 3, E–W.")
    expect(over).to_contain_text("Go to table 1.")
    expect(over).to_contain_text("Next round at this table: N–S pair 2 against E–W pair 5")
    expect(box).to_have_count(0)  # one box: round 2's moves wait until it begins
    browser.shot(page, "round over")
