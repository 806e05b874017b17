"""A party night on the tables' phones: the director sets it up and starts it, a table
taps its deal in with the live score, the public standings and the director's console
follow by themselves, and when the next round is called the waiting phone shows where
everyone went."""

import datetime

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tournaments.models import Party
from tournaments.services import Actor, party_create, party_deal_add, party_start, table_actor

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def tap_deal(phone, level, denomination, declarer, tricks):
    for label in (f"level-{level}", f"denomination-{denomination}", f"declarer-{declarer}",
                  f"tricks-{tricks}"):
        phone.tap(f"label[for={label}]")


def test_a_party_night_from_the_console_to_the_phones_and_the_live_standings(
        browser, director):
    desk = browser.page()
    log_in(desk, director, next_url="/director/parties/")
    desk.fill("[data-testid=party-name]", "Friday party")
    desk.fill("[data-testid=deals-per-round]", "1")
    desk.fill("[data-testid=party-rounds]", "2")
    desk.fill("[data-testid=party-visitors]", "Ann\nBob\nCy\nDi\nEve\nFay\nGus\nHal")
    browser.shot(desk, "new party")
    desk.click("[data-testid=party-create]")
    expect(desk.locator("[data-testid=party-players] li")).to_have_count(8)
    desk.click("[data-testid=party-start]")
    expect(desk.locator("[data-testid=party-status]")).to_contain_text("Playing: round 1")
    browser.shot(desk, "console round 1")
    party = Party.objects.get()
    codes = {t.number: t.code for t in party.tables.all()}

    standings = browser.page()
    standings.goto(f"/party/{party.pk}/")
    expect(standings.locator("[data-testid=party-state]")).to_contain_text("Round 1 of 2")

    phone = browser.page(phone=True)
    phone.goto(f"/party/t/{codes[1]}/")
    expect(phone.locator("[data-testid=next-dealer]")).to_have_text("Ann deals next.")
    browser.shot(phone, "table 1 round 1")
    phone.tap("[data-testid=enter-deal]")
    expect(phone.locator("#deal-title")).to_have_text("Deal 1")
    tap_deal(phone, 2, "H", "S", 9)
    preview = phone.locator("[data-testid=pad-preview]")
    expect(preview).to_contain_text("Ann & Bob: 24")
    browser.shot(phone, "table 1 deal 1")
    phone.tap("[data-testid=save-deal]")
    expect(phone.locator("[data-testid=round-over]")).to_be_visible()
    expect(phone.locator("[data-testid=party-deal-1-1]")).to_contain_text("2♥ by Bob (S), 9 tricks")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # The public standings follow without a reload (live.js polls the night's seq).
    # (Each live page polls every few seconds: a wait of one poll and some to spare.)
    expect(standings.locator("[data-testid=standing-1]")).to_contain_text("+24",
                                                                          timeout=15_000)
    expect(standings.locator("[data-testid=standing-3]")).to_contain_text("−24")
    browser.shot(standings, "standings live")

    other = browser.page(phone=True)
    other.goto(f"/party/t/{codes[2]}/")
    other.tap("[data-testid=enter-deal]")
    tap_deal(other, 1, "NT", "E", 7)
    other.tap("[data-testid=save-deal]")
    expect(other.locator("[data-testid=where-next]")).to_contain_text("Gus moves up to table 1")
    browser.shot(other, "table 2 where next")

    # The director's console has followed the tables' entry by itself.
    expect(desk.locator("[data-testid=party-table-2]")).to_contain_text("round over",
                                                                        timeout=15_000)
    expect(desk.locator("[data-testid=progression-link]")).to_be_visible()
    desk.click("[data-testid=party-advance]")
    expect(desk.locator("h1")).to_have_text("Friday party: round 2")
    expect(desk.locator("[data-testid=progression-players]")).to_contain_text("Gus")
    browser.shot(desk, "progression card")

    # Table 1's phone, left waiting, shows round 2 as soon as it is called.
    expect(phone.locator("[data-testid=moved]")).to_contain_text("Cy moves down to table 2",
                                                                 timeout=15_000)
    expect(phone.locator("[data-testid=round-title]")).to_have_text("Round 2 of 2")
    browser.shot(phone, "table 1 round 2")
    phone_phone = browser.page(phone=True)
    phone_phone.goto(f"/party/{party.pk}/")
    browser.shot(phone_phone, "standings on a phone")
    assert browser.errors == []


def test_long_names_leave_both_sides_on_a_table_phone(browser, director):
    """A side's heading is its players' names: with long ones, the other side's column
    (its points, its tally) still shows on the table's phone, nothing to scroll."""
    names = ["Louisa Beekman", "Chauncey Bleecker", "Mr. Vanderbilt",
             "Thaddeus Brinckerhoff", "Eve", "Fay", "Gus", "Hal"]
    party = party_create(name="Friday whist drive", date=datetime.date(2026, 11, 27),
                         game="auction", rounds=2, deals_per_round=2, players=names,
                         actor=Actor.director(director))
    party = party_start(party=party, actor=Actor.director(director))
    table = party.tables.get(number=1)
    party_deal_add(table=table, actor=table_actor(table), deal={
        "contract": {"level": 1, "denomination": "NT", "declarer": "E"}, "tricks": 9})
    phone = browser.page(phone=True)
    phone.goto(f"/party/t/{table.code}/")
    deals = phone.locator("[data-testid=party-deals-1]")
    headings = deals.locator("thead th.num")
    expect(headings).to_have_count(3)  # the deal's number, then each side
    for n in (1, 2):
        box = headings.nth(n).bounding_box()
        assert box["x"] + box["width"] <= phone.viewport_size["width"], n
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    browser.shot(phone, "long names")
    assert not browser.errors
