"""A two-section night from the console: the director adds section B and puts pairs 11 to
20 in it, sets each section's movement, a table of each section enters a result on its
phone, and the standings show the whole field and each section's places."""

import datetime
import random

import pytest
from playwright.sync_api import expect

from boards.dealing import deal_boards
from tests.browser.conftest import log_in
from tournaments import services
from tournaments.forms import PairLine
from tournaments.models import Event, Meeting, Result, TableCode

pytestmark = [pytest.mark.browser, pytest.mark.slow]



def twenty_pairs(director) -> Event:
    actor = services.Actor.director(director)
    event = services.event_create(name="Grand night", date=datetime.date(2026, 11, 24),
                                  rules="american-1913", kind="pairs", method="plus-minus",
                                  actor=actor)
    services.pairs_set(event=event, actor=actor, lines=[
        PairLine(number=n, players=[f"North {n}", f"South {n}"], team=None)
        for n in range(1, 21)])
    return event


def shoot(browser, page, step: str) -> None:
    browser.shot(page, step)


def set_movement(page, event, section: str) -> None:
    page.goto(f"/director/events/{event.pk}/movement/?section={section}")
    expect(page.locator("[data-testid=movement-section]")).to_have_text(f"Section {section}")
    page.select_option("[data-testid=movement-kind]", "mitchell")
    page.fill("[data-testid=movement-tables]", "5")
    page.fill("[data-testid=movement-boards]", "3")
    page.click("[data-testid=save-movement]")
    expect(page.locator(".messages")).to_contain_text("Movement stored")


def enter_on_phone(phone, code: str, section: str) -> None:
    phone.goto(f"/t/{code}/")
    expect(phone.locator("#table-title")).to_have_text(f"Section {section}, table 1 · round 1")
    phone.tap("[data-testid=open-board-1]")
    for label in ("level-1", "denomination-H", "declarer-S", "tricks-7"):
        phone.tap(f"label[for={label}]")
    phone.tap("#save-result")
    expect(phone.locator("#result-status")).to_have_attribute("data-status", "entered")


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_a_two_section_night(browser, director, phone):
    event = twenty_pairs(director)
    page = browser.page(phone=phone)
    log_in(page, director, next_url=f"/director/events/{event.pk}/sections/")
    page.click("[data-testid=add-section]")
    expect(page.locator(".messages")).to_contain_text("Section B added")
    page.fill("[data-testid=pairs-B]", "11-20")
    page.click("[data-testid=save-pairs-B]")
    expect(page.locator(".messages")).to_contain_text("10 pairs now in section B")
    expect(page.locator("[data-testid=section-row-B]")).to_contain_text("Pairs 11, 12")
    expect(page.locator("[data-testid=compare-field]")).to_be_checked()
    shoot(browser, page, "sections")

    set_movement(page, event, "A")
    set_movement(page, event, "B")
    page.goto(f"/director/events/{event.pk}/movement/?section=B")
    shoot(browser, page, "movement section B")
    b_pairs = {m.ns_pair.number for m in Meeting.objects.filter(section__event=event,
                                                                 section__name="B")}
    assert b_pairs == set(range(11, 16))

    page.goto(f"/director/events/{event.pk}/tables/")
    expect(page.locator("[data-testid=table-card-B-1] h2")).to_have_text("Section B, table 1")
    shoot(browser, page, "table links")
    page.goto(f"/director/events/{event.pk}/guide-cards/?section=B")
    expect(page.locator("[data-testid=cards-section-B]")).to_have_attribute("aria-current",
                                                                            "page")
    shoot(browser, page, "guide cards section B")

    actor = services.Actor.director(director)
    deals = dict(enumerate(deal_boards(event.boards.count(), random.Random(1913)), start=1))
    services.boards_set(event=event, count=len(deals), deals=deals, actor=actor)
    services.event_set_status(event=event, status=Event.Status.RUNNING, actor=actor)
    services.event_publish(event=event, level=Event.Published.PROVISIONAL, actor=actor)

    page.goto(f"/director/events/{event.pk}/")
    expect(page.locator("[data-testid=setup-section-B]")).to_contain_text("Section B: Mitchell")
    shoot(browser, page, "overview")

    table = browser.page(phone=True)
    for section in ("A", "B"):
        code = TableCode.objects.get(section__event=event, section__name=section, table=1).code
        enter_on_phone(table, code, section)
    shoot(browser, table, "section B table 1 entered")
    assert Result.objects.filter(event=event).count() == 2

    page.goto(f"/events/{event.pk}/standings/")
    expect(page.locator("[data-testid=ranking-NS]")).to_contain_text("North 1")
    expect(page.locator("[data-testid=ranking-NS]")).to_contain_text("North 11")
    expect(page.locator("[data-testid=section-rankings]")).to_be_visible()
    expect(page.locator("[data-testid=ranking-A-NS]")).to_contain_text("North 1")
    expect(page.locator("[data-testid=ranking-B-NS]")).to_contain_text("North 11")
    shoot(browser, page, "standings across the field")

    page.goto(f"/director/events/{event.pk}/sections/")
    page.check("[data-testid=compare-section]")
    page.click("[data-testid=save-compare]")
    expect(page.locator(".messages")).to_contain_text("within their own section")
    page.goto(f"/events/{event.pk}/standings/")
    expect(page.locator("[data-testid=ranking-B-NS]")).to_contain_text("North 11")
    expect(page.locator("[data-testid=section-rankings]")).to_have_count(0)
    shoot(browser, page, "standings within each section")
    assert not browser.errors
