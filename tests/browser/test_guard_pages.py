"""The pages a director or a table meets when refused, on a phone and a desktop: log-in
paused after too many wrong passwords, the one 404 for an event not published, and a
board of a round the table has not reached."""

import pytest
from playwright.sync_api import expect

from tournaments.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def still_in(n: int) -> str:
    """What a table is told of a later round's board while round `n` is not agreed."""
    return (f"this table is still in round {n}. Finish round {n} first (its boards entered "
            "and confirmed, then agreed on its page), or call the director.")


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_log_in_paused_after_five_wrong_passwords(browser, director, phone):
    page = browser.page(phone=phone)
    for n in range(5):
        page.goto("/accounts/login/")
        page.fill("#id_username", director.username)
        page.fill("#id_password", f"wrong-{n}")
        page.get_by_role("button", name="Log in").click()
    expect(page.locator("[data-testid=locked-out]")).to_contain_text(
        "Too many wrong passwords: log-in is paused until")
    browser.shot(page, "log-in paused")


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_an_unpublished_event_is_not_found(browser, night, phone):
    Event.objects.filter(pk=night.event.pk).update(published=Event.Published.NONE)
    page = browser.page(phone=phone)
    response = page.goto(f"/events/{night.event.pk}/standings/")
    assert response.status == 404
    expect(page.locator("h1")).to_have_text("Not found")
    assert night.event.name not in page.content()
    browser.shot(page, "not found")


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_a_board_of_a_later_round_is_refused(browser, night, phone):
    meeting = night.meeting(3, 1)
    page = browser.page(phone=phone)
    page.goto(f"/t/{night.code(1)}/round/3/")
    expect(page.locator("[data-testid=round-locked]")).to_have_text(
        "Round 3 is not played here yet: " + still_in(1))
    browser.shot(page, "later round")
    response = page.goto(f"/t/{night.code(1)}/round/3/board/{meeting.boards[0]}/")
    assert response.status == 403
    expect(page.locator("[data-testid=forbidden-message]")).to_have_text(
        f"Board {meeting.boards[0]} is played in round 3: " + still_in(1))
    browser.shot(page, "later board")
