"""Agreeing and closing in a real browser (Duplicate Law E).

- A table still on a board when the director agrees its round is told so at once on
  its phone (the page polls its round's state), without pressing Save.
- The director's page lists the boards not in, agrees only with a reason while any are
  missing, closes with a correction period ("final after HH:MM" on the standings),
  reopens within it with a reason, and shows the standings final once it ends.
"""

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tournaments.models import AuditEntry, Event

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def both(browser, desktop, phone, url: str, step: str) -> None:
    """Screenshots of one director page on the laptop and on a phone."""
    for page, where in ((desktop, "desktop"), (phone, "phone")):
        page.goto(url)
        browser.shot(page, f"{step} {where}")


def test_a_table_on_a_board_is_told_its_round_is_agreed(browser, night, director):
    # Table 1 is in the middle of board 1 of round 1 (board 2 not played yet).
    phone = browser.page(phone=True)
    phone.goto(f"/t/{night.code(1)}/round/1/board/1/")
    expect(phone.locator("#result-form")).to_be_visible()
    expect(phone.locator("#locked-banner")).to_be_hidden()
    phone.tap("label[for=level-2]")  # the players have started to fill it in

    # The director agrees the whole round from the console; the confirmation lists
    # every board not in yet.
    night.enter(night.meeting(1, 2), 3)
    night.enter(night.meeting(1, 2), 4, confirm=False)
    desktop = browser.page()
    log_in(desktop, director, next_url=f"/director/events/{night.event.pk}/")
    desktop.click("[data-testid=agree-round-1]")
    outstanding = desktop.locator("[data-testid=outstanding-item]")
    expect(outstanding.first).to_have_text("Round 1, table 1: board 1 not entered")
    expect(desktop.locator("#confirm-outstanding")).to_contain_text(
        "Round 1, table 2: board 4 not confirmed")
    expect(desktop.locator("#confirm-outstanding")).to_contain_text("Not in yet: 7 board results")
    browser.shot(desktop, "agree round confirmation desktop")
    director_phone = browser.page(phone=True)
    log_in(director_phone, director, next_url=f"/director/events/{night.event.pk}/")
    director_phone.goto(desktop.url)
    browser.shot(director_phone, "agree round confirmation phone")
    desktop.click("[data-testid=confirm-agree]")
    expect(desktop.locator(".messages")).to_contain_text("Round 1 agreed at every table")

    # The phone says so by itself, and Save is gone.
    banner = phone.locator("#locked-banner")
    expect(banner).to_be_visible(timeout=15_000)
    expect(banner).to_have_text(
        "Round 1 is agreed (Duplicate Law E): only the director can change its scores now. "
        "Ask the director if a score is wrong.")
    expect(phone.locator("#save-result")).to_be_disabled()
    browser.shot(phone, "table told its round is agreed")
    phone.tap("[data-testid=back-to-round]")
    expect(phone.locator("[data-testid=round-agreed]")).to_be_visible()
    expect(phone.locator("#agree-round")).to_have_count(0)
    browser.shot(phone, "table round agreed")


def test_closing_with_a_correction_period(browser, night, director):
    # Everything played but table 4's boards of round 3.
    night.play(keep=lambda meeting, board: (meeting.round, meeting.table) != (3, 4))
    event_url = f"/director/events/{night.event.pk}/"
    desktop = browser.page()
    log_in(desktop, director, next_url=event_url)
    phone = browser.page(phone=True)
    log_in(phone, director, next_url=event_url)

    # Running, two boards missing: "mark agreed" is not offered as the main button.
    expect(desktop.locator("[data-testid=status-agreed]")).to_have_count(0)
    expect(desktop.locator("[data-testid=outstanding]")).to_contain_text(
        "Not in yet: 2 board results.")
    expect(desktop.locator("[data-testid=agreed-means]")).to_contain_text(
        "only the director changes a score")
    expect(desktop.locator("#event-published")).to_have_text("provisional")
    both(browser, desktop, phone, event_url, "running with boards missing")

    desktop.click("[data-testid=agree-anyway]")
    expect(desktop.locator("[data-testid=outstanding-item]")).to_have_count(2)
    both(browser, desktop, phone, desktop.url, "agree anyway confirmation")
    desktop.fill("#reason", "Table 4 left before the last round")
    desktop.click("[data-testid=confirm-agree-event]")
    expect(desktop.locator("#event-status")).to_have_attribute("data-status", "agreed")
    both(browser, desktop, phone, event_url, "agreed")
    entry = AuditEntry.objects.filter(event=night.event, action="status").latest("id")
    assert entry.reason == "Table 4 left before the last round"

    desktop.click("[data-testid=close-event]")
    expect(desktop.locator("[data-testid=confirm-close-final]")).to_have_text(
        "Close and publish final now")
    both(browser, desktop, phone, desktop.url, "close confirmation")
    desktop.fill("#correction_minutes", "20")
    desktop.click("[data-testid=confirm-close]")
    event = Event.objects.get(pk=night.event.pk)
    final_after = f"{timezone.localtime(event.final_after):%H:%M}"
    expect(desktop.locator("[data-testid=correction-period]")).to_contain_text(
        f"Correction period until {final_after}.")
    expect(desktop.locator("[data-testid=final-after]")).to_have_text(
        f"· final after {final_after}")
    both(browser, desktop, phone, event_url, "closed in the correction period")

    spectator = browser.page(phone=True)
    spectator.goto(f"/events/{event.pk}/standings/")
    expect(spectator.locator("[data-testid=published]")).to_have_text(
        f"Provisional results: final after {final_after}. Tell the director of any error "
        "before then.")
    browser.shot(spectator, "public standings final after")

    # A player finds an error: the director reopens, then closes again.
    desktop.click("[data-testid=reopen-event]")
    both(browser, desktop, phone, desktop.url, "reopen confirmation")
    desktop.fill("#reason", "Pair 5 showed a revoke on board 3")
    desktop.click("[data-testid=confirm-reopen]")
    expect(desktop.locator("#event-status")).to_have_attribute("data-status", "agreed")
    desktop.click("[data-testid=close-event]")
    desktop.click("[data-testid=confirm-close]")
    expect(desktop.locator("#event-status")).to_have_attribute("data-status", "closed")

    # The period ends (no worker here: the next look publishes final).
    Event.objects.filter(pk=event.pk).update(
        final_after=timezone.now() - datetime.timedelta(seconds=1))
    spectator.reload()
    expect(spectator.locator("[data-testid=published]")).to_have_text("Final results")
    both(browser, desktop, phone, event_url, "final")
    expect(desktop.locator("#event-published")).to_have_attribute("data-published", "final")
    expect(desktop.locator("[data-testid=closed-final]")).to_be_visible()
    expect(desktop.locator("[data-testid=reopen-event]")).to_have_count(0)
