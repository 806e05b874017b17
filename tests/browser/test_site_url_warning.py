"""The event page, where the score cards are e-mailed, warns while SITE_URL is still this
computer's own address (the links in the mails would lead no player anywhere): looked at
on a phone and on the director's laptop."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tournaments import services

pytestmark = [pytest.mark.browser]


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_a_local_site_url_is_warned_of(browser, night, director, settings, phone):
    settings.SITE_URL = "http://127.0.0.1:8000"  # the default
    services.event_close(event=night.event, actor=night.actor, correction_minutes=30,
                         reason="the last round was played but not confirmed")
    # Final with no card sent yet: the page offers to send them (no mail in this test).
    services.event_publish(event=night.event, level="final", actor=night.actor,
                           send_cards=False)
    page = browser.page(phone=phone)
    log_in(page, director, next_url=f"/director/events/{night.event.pk}/")
    warning = page.get_by_test_id("site-url-warning")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text(
        "The links in these mails start with http://127.0.0.1:8000, this computer's own "
        "address: players cannot open them. Set SITE_URL to the club's web address")
    expect(page.get_by_test_id("send-score-cards")).to_be_visible()
    # Nothing wider than a phone's screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    warning.scroll_into_view_if_needed()
    browser.shot(page, "site url warning")
    assert browser.errors == []
