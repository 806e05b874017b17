"""The director downloads the night's hand record as a PBN file from the boards page."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from boards.pbn import parse_pbn
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_download_the_hand_record(browser, night, phone):
    page = browser.page(phone=phone)
    boards_url = f"/director/events/{night.event.pk}/boards/"
    log_in(page, night.director, next_url=boards_url)
    link = page.get_by_role("link", name="Download the hand record (PBN)")
    expect(link).to_be_visible()
    browser.shot(page, "boards page")
    with page.expect_download() as caught:
        link.click()
    download = caught.value
    assert download.suggested_filename.endswith(".pbn")
    boards = parse_pbn(Path(download.path()).read_text(encoding="utf-8"))
    stored = dict(night.event.boards.values_list("number", "deal"))
    assert {b.number: b.deal for b in boards} == stored
    assert [b.dealer for b in boards[:4]] == ["N", "E", "S", "W"]
