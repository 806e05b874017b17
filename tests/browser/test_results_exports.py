"""The director downloads the results as USEBIO and PBN from the print room."""

from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from playwright.sync_api import expect

from boards.pbn import parse_games
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_download_the_results(browser, night, phone):
    night.play()
    page = browser.page(phone=phone)
    reports_url = f"/events/{night.event.pk}/reports/"
    log_in(page, night.director, next_url=reports_url)
    usebio = page.get_by_role("link", name="Download USEBIO (XML)")
    pbn = page.get_by_role("link", name="Download PBN")
    usebio.scroll_into_view_if_needed()
    expect(usebio).to_be_visible()
    expect(pbn).to_be_visible()
    browser.shot(page, "print room with the exports")
    with page.expect_download() as caught:
        usebio.click()
    xml = Path(caught.value.path()).read_bytes()
    assert caught.value.suggested_filename.endswith(".xml")
    assert ET.fromstring(xml).get("Version") == "1.2"
    with page.expect_download() as caught:
        pbn.click()
    assert caught.value.suggested_filename.endswith(".pbn")
    games = parse_games(Path(caught.value.path()).read_text(encoding="utf-8"))
    assert games and all(g.tags.get("Event") == night.event.name for g in games)
