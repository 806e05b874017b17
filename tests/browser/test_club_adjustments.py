"""Club adjustments in the browser, at phone and desktop widths: the director turns them
on, gives an adjusted score and a split assigned score from a table's round, and the
public traveller marks both."""

import pytest

from tests.browser.conftest import log_in
from tournaments.models import Result

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_club_adjustments_from_the_console(browser, night, phone):
    event = night.event
    m = night.meeting(1, 1)
    first, second = m.boards[:2]
    page = browser.page(phone=phone)
    log_in(page, night.director, next_url=f"/director/events/{event.pk}/")
    page.get_by_test_id("club-adjustments").check()
    page.get_by_test_id("save-club-adjustments").click()
    page.wait_for_load_state()
    assert page.get_by_test_id("club-adjustments").is_checked()
    browser.shot(page, "event settings")

    page.goto(f"/director/events/{event.pk}/meetings/{m.pk}/")
    browser.shot(page, "meeting with adjustment links")
    page.get_by_test_id(f"adjusted-{first}").click()
    page.get_by_test_id("ns_grade-plus").check()
    page.get_by_test_id("ew_grade-minus").check()
    page.get_by_test_id("reason").fill("slow play: the board was not reached")
    browser.shot(page, "adjusted form")
    page.get_by_test_id("save-adjusted").click()
    page.wait_for_url(f"**/meetings/{m.pk}/")
    assert "Adjusted: N–S average-plus, E–W average-minus" in page.content()

    page.get_by_test_id(f"assigned-{second}").click()
    for testid in ("level-3", "denomination-H", "declarer-S", "doubled-none", "tricks-9"):
        page.get_by_test_id(testid).check()
    page.get_by_test_id("split").check()
    page.get_by_test_id("reason").fill("misinformation to E-W")
    browser.shot(page, "assigned form")
    page.get_by_test_id("save-assigned").click()
    page.wait_for_url("**?side=ew")
    for testid in ("level-4", "denomination-H", "declarer-S", "doubled-none", "tricks-9"):
        page.get_by_test_id(testid).check()
    browser.shot(page, "split second step")
    page.get_by_test_id("save-assigned").click()
    page.wait_for_url(f"**/meetings/{m.pk}/")
    assert Result.objects.get(board__number=second, ns_pair=m.ns_pair).ruling == "assigned"

    page.goto(f"/events/{event.pk}/boards/{second}/")
    assert "Assigned: N–S 3♥ by S" in page.get_by_test_id("traveller").inner_text()
    browser.shot(page, "public traveller")
