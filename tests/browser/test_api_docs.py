"""/api/docs/ renders in Chromium with every request outside the server refused (no internet)."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser]


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_api_docs_render_offline(browser, transactional_db, live_server, phone):
    page = browser.page(phone=phone)
    outside = []

    def offline(route):
        if route.request.url.startswith(live_server.url):
            route.continue_()
        else:  # as on a club laptop without internet
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", offline)
    page.goto("/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text(
        "Duplicate Auction & Whist tournament API")
    expect(page.locator(".opblock-summary-path", has_text="/api/events/").first).to_be_visible()
    assert outside == []
    browser.shot(page, "api docs")
