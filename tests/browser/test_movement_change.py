"""The director changes the movement after round 1 (two pairs go home, a table closes):
the console previews and makes the change, shows the guide cards again, and the closed
table's phone says where its players go."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tournaments import services
from tournaments.models import Pair

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def after_round_1(night):
    """Round 1 played and agreed; pairs 4 and 8 (table 4's, in round 1) go home."""
    night.play(keep=lambda meeting, board: meeting.round == 1)
    services.round_agree(section=night.event.sections.get(), round_number=1,
                         actor=night.actor)
    Pair.objects.filter(event=night.event, number__in=(4, 8)).update(left_after_round=1)
    return night


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_the_director_changes_the_movement_and_the_table_closes(browser, after_round_1,
                                                                 phone):
    night = after_round_1
    page = browser.page(phone=phone)
    change = f"/director/events/{night.event.pk}/movement/change/"
    log_in(page, night.director, next_url=change)
    expect(page.locator("[data-testid=change-round]")).to_have_value("2")
    page.select_option("[data-testid=change-kind]", "mitchell")
    page.fill("[data-testid=change-tables]", "3")
    page.select_option("[data-testid=change-variant]", "")
    page.fill("[data-testid=change-reason]", "pairs 4 and 8 went home")
    page.locator("[data-testid=show-change]").click()
    expect(page.locator("[data-testid=change-sound]")).to_be_visible()
    expect(page.locator("[data-testid=change-notes]")).to_contain_text(
        "Table 4 closes after round 1")
    browser.shot(page, "change preview")
    page.locator("[data-testid=make-change]").click()
    notice = page.locator("[data-testid=movement-changed]")
    expect(notice).to_contain_text("The movement changed from round 2.")
    expect(notice).to_contain_text("Closed after round 1: table 4.")
    expect(page.locator("[data-testid=guide-table-4]")).to_have_count(0)
    browser.shot(page, "guide cards again")
    table = browser.page(phone=phone)
    table.goto(f"/t/{night.code(4)}/")
    closed = table.locator("[data-testid=table-closed]")
    expect(closed).to_contain_text("This table has closed after round 1")
    expect(closed).to_contain_text("N–S pair 4: Your play is over for tonight")
    expect(closed).to_contain_text("Boards 7–8: Go back to the director.")
    expect(table.locator("[data-testid=round-over]")).to_have_count(0)
    browser.shot(table, "closed table")


@pytest.fixture
def round_1_played(night):
    """Round 1 of the 4-table skip Mitchell played and agreed; every pair stays."""
    night.play(keep=lambda meeting, board: meeting.round == 1)
    services.round_agree(section=night.event.sections.get(), round_number=1,
                         actor=night.actor)
    return night


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_choosing_a_howell_takes_the_mitchells_variant_away(browser, round_1_played, phone):
    """The skip chosen for the Mitchell is hidden and not sent once a Howell is chosen,
    and comes back with the Mitchell; the Howell's preview has no variant problem."""
    night = round_1_played
    page = browser.page(phone=phone)
    log_in(page, night.director, next_url=f"/director/events/{night.event.pk}/movement/change/")
    variant = page.locator("[data-testid=change-variant]")
    expect(variant).to_be_visible()
    expect(variant).to_have_value("skip")
    page.select_option("[data-testid=change-kind]", "howell")
    expect(variant).to_be_hidden()
    expect(variant).to_be_disabled()
    browser.shot(page, "howell chosen")
    page.select_option("[data-testid=change-kind]", "mitchell")
    expect(variant).to_be_visible()
    expect(variant).to_have_value("skip")
    page.select_option("[data-testid=change-kind]", "howell")
    page.fill("[data-testid=change-tables]", "4")
    page.locator("[data-testid=show-change]").click()
    preview = page.locator("[data-testid=change-preview]")
    expect(preview).to_contain_text("From round 2: Howell, 4 tables, 8 pairs")
    expect(preview).not_to_contain_text("variant")
    expect(page.locator("[data-testid=change-variant]")).to_be_hidden()
    expect(page.locator("input[name=previewed]")).to_have_value("2|howell|4||2")
    browser.shot(page, "howell preview")
