"""In a real browser (Debian's Chromium): the standings page updates itself."""

import os

import pytest
from django.db import connections
from playwright.sync_api import expect

from tests.conftest import CHROMIUM
from tests.reports.night import build_night

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser_page(monkeypatch):
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the ORM calls made here
    # between page actions are ordinary blocking calls.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    executable = CHROMIUM if os.path.exists(CHROMIUM) else None
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        page = browser.new_page()
        yield page
        browser.close()
        # ORM calls made while Playwright's loop runs get their own connection (Django's
        # connections are context-local): close it here, or it outlives the test database.
        connections.close_all()


def test_standings_update_without_a_reload(live_server, browser_page, director):
    night = build_night(director, play=False)
    page = browser_page
    page.goto(f"{live_server.url}/events/{night.event.pk}/standings/")
    assert "No boards scored yet." in page.inner_text("#live")
    night.play(rounds=1)  # the tables enter their scores meanwhile
    # Waiting with expect, not wait_for_function: the page's Content-Security-Policy
    # refuses the eval that a string predicate needs.
    expect(page.locator("#live")).to_contain_text("Ann Lee & Bob Ray", timeout=15000)
    assert page.inner_text("#live-note").startswith("Updated at")
    night.publish("none")  # the director takes the results down
    expect(page.locator("#live-note")).to_contain_text("taken these results down",
                                                       timeout=15000)
