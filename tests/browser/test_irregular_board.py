"""Duplicate Law B(2) from the phone to the console and back: a table finds a hand with
the wrong number of cards when it takes the board up for overplay, reports it on its
phone; the console shows the board "sent back" to the table it came from; the director
marks it rectified; the table enters its result."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.irregular_nights import agree_round, code, play, three_tables
from tournaments.models import Irregularity, Result

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SHOTS = Path(os.environ.get("IRREGULAR_SHOTS", "")) if os.environ.get("IRREGULAR_SHOTS") \
    else None


def shot(browser, page, step: str) -> None:
    browser.shot(page, step)
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{step.replace(' ', '-')}.png"), full_page=True)


def test_b2_sent_back_rectified_then_entered(browser, director):
    event = three_tables(director)
    play(event, 1, 2, 1)  # board 1 was played at table 2 in round 1
    agree_round(event, 1)
    t1 = code(event, 1)

    # The director watches the console while the table reports.
    desk = browser.page()
    log_in(desk, director, next_url=f"/director/events/{event.pk}/")
    expect(desk.locator("[data-testid=irregular-new]")).to_be_hidden()

    phone = browser.page(phone=True)
    phone.goto(f"/t/{t1}/")
    expect(phone.locator("#table-title")).to_have_text("Table 1 · round 2")
    shot(browser, phone, "phone round before")
    phone.tap("[data-testid=report-irregular-1]")
    expect(phone.locator("#irregular-title")).to_contain_text("wrong number of cards")
    phone.tap("[data-testid=stage-before-overplay]")
    phone.select_option("[data-testid=short-seat]", "N")
    phone.select_option("[data-testid=surplus-seat]", "E")
    shot(browser, phone, "phone report form")
    phone.tap("[data-testid=send-report]")
    expect(phone.locator("#board-1")).to_have_attribute("data-status", "irregular")
    expect(phone.locator("[data-testid=open-board-1]")).to_have_count(0)

    # The console announces it at its next poll, without a reload, with a way to decide.
    new = desk.locator("[data-testid=irregular-new]")
    expect(new).to_be_visible(timeout=15_000)
    expect(new).to_have_text("New irregular board reported (Duplicate Law B): Board 1 at "
                             "table 1, round 2 Decide…")
    shot(browser, desk, "console new report")
    irr = Irregularity.objects.get()
    desk.click("[data-testid=decide-new-irregular-1]")
    expect(desk.locator("[data-testid=step-send-back]")).to_contain_text("table 2")
    shot(browser, desk, "console walk through")
    desk.click("[data-testid=do-send-back]")
    expect(desk.locator("[data-testid=irregular-status]")).to_have_attribute(
        "data-status", "sent-back")
    desk.goto(f"/director/events/{event.pk}/")
    expect(desk.locator("[data-testid=irregular-cell-2-1]")).to_have_text(
        "Board 1 sent back")
    expect(desk.locator("[data-testid=irregular-open]")).to_contain_text(
        "back at table 2 to be put right")
    shot(browser, desk, "console grid sent back")

    phone.reload()
    expect(phone.locator("[data-testid=irregular-wait-1]")).to_have_text(
        "Board 1 went back to table 2 to be put right (Duplicate Law B(2)); wait for it to "
        "come back.")
    shot(browser, phone, "phone waiting")

    desk.click("[data-testid=decide-irregular-1]")
    desk.click("[data-testid=do-rectified]")
    expect(desk.locator("[data-testid=irregular-status]")).to_have_attribute(
        "data-status", "resolved")
    irr.refresh_from_db()
    assert irr.outcome == "rectified"

    phone.reload()
    expect(phone.locator("#board-1")).to_have_attribute("data-status", "missing")
    phone.tap("[data-testid=open-board-1]")
    for label in ("level-3", "denomination-H", "declarer-S", "tricks-9"):
        phone.tap(f"label[for={label}]")
    phone.tap("#save-result")
    if phone.locator("#look-again").count():
        phone.tap("#save-as-entered")
    expect(phone.locator("#result-status")).to_have_attribute("data-status", "entered")
    assert Result.objects.filter(meeting=irr.meeting, board__number=1, voided=False).exists()
    assert not browser.errors, browser.errors
