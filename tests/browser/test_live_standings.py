"""The public standings page updates itself while the night runs: nobody reloads it."""

import contextlib

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.browser.conftest import ROWS_JS, expected_rows, ranking_rows
from tournaments import standings

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LIVE_WAIT_MS = 15_000  # live.js polls every few seconds


def test_standings_update_without_a_reload(browser, night):
    spectator = browser.page(phone=True)
    polls = []  # the live JSON's answers: 200 with a new change number, else 304
    spectator.on("response", lambda r: polls.append(r.status) if "/live/" in r.url else None)
    spectator.goto(f"/events/{night.event.pk}/standings/")
    expect(spectator.locator("[data-testid=published]")).to_contain_text("Provisional")
    expect(spectator.locator("[data-testid=ranking-NS]")).to_contain_text("No boards scored yet.")
    # A mark on this very document: a reload (or a navigation) would wipe it.
    spectator.evaluate("window.__sameDocument = true")
    browser.shot(spectator, "before any score")

    # Rounds 1 and 2 are played: the tables enter their boards (through the services).
    assert night.play(keep=lambda meeting, board: meeting.round <= 2) == 16
    wait_for_standings(spectator, night.event)
    expect(spectator.locator("#live-note")).to_contain_text("Updated at")
    browser.shot(spectator, "after round 2")

    # And again after the last round: the page keeps following the night.
    assert night.play() == 8
    wait_for_standings(spectator, night.event)
    assert spectator.evaluate("window.__sameDocument === true"), "the page was reloaded"
    # The polls bring back their ETag: between the changes, nothing new is a 304.
    spectator.wait_for_timeout(6_000)
    assert 304 in polls and set(polls) <= {200, 304}, polls
    browser.shot(spectator, "after round 3")


def wait_for_standings(page, event) -> None:
    """Wait until the page shows tournaments.standings.standings(event), row for row."""
    table = standings.standings(event)
    want = {direction: expected_rows(table, direction) for direction in ("NS", "EW")}
    assert len(want["NS"]) == len(want["EW"]) == 4
    # Plus/minus needs a board played at two tables or more: the scores are not all 0.
    assert {row["score"] for row in want["NS"]} != {"0"}
    # live.js swaps the table in when the event's change number moves: wait for it.
    # On a timeout the comparison below shows what the page has instead.
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            f"""want => ['NS', 'EW'].every(d =>
                 JSON.stringify(({ROWS_JS})(d)) === JSON.stringify(want[d]))""",
            arg=want, timeout=LIVE_WAIT_MS)
    assert ranking_rows(page, "NS") == want["NS"]
    assert ranking_rows(page, "EW") == want["EW"]
