"""Boards not played and late play in the browser: the director marks a board not played
and gives leave to play it late from the console; after the round is agreed the table's
phone offers the board under "Late play" and enters it; the console marks it played late."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tournaments import services
from tournaments.models import Result

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_a_board_not_played_is_played_late(browser, night, director, phone):
    meeting = night.meeting(1, 1)
    first, late = meeting.boards
    night.enter(meeting, first)
    console = browser.page(phone=phone)
    log_in(console, director)
    console.goto(f"/director/events/{night.event.pk}/meetings/{meeting.pk}/")
    console.locator(f"[data-testid=not-played-{late}]").click()
    expect(console.locator(f"[data-testid=board-{late}]")).to_be_checked()
    console.fill("#reason", "slow play: no time for the last board")
    browser.shot(console, "not played form")
    console.locator("[data-testid=save-late]").click()
    expect(console.locator(".messages")).to_contain_text("marked not played")
    expect(console.locator(f"[data-testid=meeting-board-{late}]")).to_contain_text("Not played")
    browser.shot(console, "meeting with a board not played")

    console.locator(f"[data-testid=late-{late}]").click()
    expect(console.locator(f"[data-testid=board-{late}]")).to_be_checked()
    console.fill("#reason", "played at the end of the session")
    browser.shot(console, "late play leave form")
    console.locator("[data-testid=save-late]").click()
    expect(console.locator(".messages")).to_contain_text(f"may now enter board {late}")
    expect(console.locator(f"[data-testid=leave-{late}]")).to_be_visible()
    services.round_agree(section=meeting.section, round_number=1, actor=night.actor,
                         tables=[1])
    console.goto(f"/director/events/{night.event.pk}/")
    expect(console.locator("[data-testid=cell-1-1]")).to_contain_text(f"late play: board {late}")
    browser.shot(console, "round grid with late play leave")

    table = browser.page(phone=phone)
    table.goto(f"/t/{night.code(1)}/")
    expect(table.locator("#table-title")).to_have_text("Table 1 · round 2")
    section = table.locator("[data-testid=late-play]")
    expect(section).to_contain_text(
        f"Late play: board {late} (round 1, pair {meeting.ns_pair.number} against pair "
        f"{meeting.ew_pair.number})")
    browser.shot(table, "table page with late play")
    table.locator(f"[data-testid=late-enter-{late}]").click()
    expect(table.locator("[data-testid=late-play-note]")).to_contain_text("in place of")
    for label in ("level-2", "denomination-H", "declarer-S", "tricks-8"):
        table.locator(f"label[for={label}]").click()
    expect(table.locator("#preview-net")).to_contain_text("Net N–S:")
    browser.shot(table, "late board form")
    table.locator("#save-result").click()
    expect(table.locator("[data-testid=played-late]")).to_be_visible()
    browser.shot(table, "late board saved")
    table.locator("#confirm-result").click()  # East-West confirm it at once
    expect(table.locator("#table-title")).to_have_text("Table 1 · round 1")
    result = Result.objects.get(meeting=meeting, board__number=late, voided=False)
    assert result.late_play and result.ruling == "" and result.status == "confirmed"
    table.goto(f"/t/{night.code(1)}/")
    expect(table.locator("[data-testid=late-play]")).to_have_count(0)

    console.goto(f"/director/events/{night.event.pk}/meetings/{meeting.pk}/")
    expect(console.locator(f"[data-testid=played-late-{late}]")).to_be_visible()
    browser.shot(console, "meeting with a board played late")
    console.goto(f"/events/{night.event.pk}/boards/{late}/")
    expect(console.locator("[data-testid=played-late]")).to_be_visible()
    browser.shot(console, "traveller with a board played late")
