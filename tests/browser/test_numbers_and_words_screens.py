"""The movement form, the new-event form and fractional standings on a phone and a desk.

Screenshots go to test-artifacts/browser/ (see conftest); the movement form at 390 px must
need no sideways scrolling, in its pre-filled and its error states.
"""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.factories import DirectorFactory
from tests.reports.night import PLAYERS, build_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_movement_event_and_standings_read_well(browser):
    director = DirectorFactory()
    night = build_night(director)  # three tables: plus/minus in thirds and sixths
    from tournaments import services
    from tournaments.services import Actor

    bare = services.event_create(name="Wednesday duplicate", date=timezone.localdate(),
                                 actor=Actor.director(director))

    for number in range(1, 11):
        services.pair_set(event=bare, number=number,
                          players=PLAYERS.get(number, (f"North {number}", f"South {number}")),
                          actor=Actor.director(director))
    for phone in (True, False):
        size = "phone" if phone else "desktop"
        page = browser.page(phone=phone)
        log_in(page, director)
        page.goto(f"/director/events/{bare.pk}/movement/")
        expect(page.locator("#movement-tables")).to_have_value("5")
        assert page.locator("#movement-ppt").count() == 0
        assert _fits(page)
        browser.shot(page, f"movement pre-filled {size}")
        page.fill("#movement-tables", "4")
        page.click("#show-movement")
        expect(page.locator("#form-errors")).to_contain_text("10 pairs need 5 tables")
        assert _fits(page)
        browser.shot(page, f"movement error {size}")
        page.goto("/director/events/new/")
        expect(page.locator("#event-date")).to_have_value(timezone.localdate().isoformat())
        browser.shot(page, f"new event {size}")
        page.goto(f"/events/{night.event.pk}/standings/")
        expect(page.locator("[data-testid=ranking-NS]")).to_be_visible()
        browser.shot(page, f"standings {size}")
        page.goto(f"/events/{night.event.pk}/boards/1/")
        # The pairs' scores come before each side's trick and honour scores: on a phone
        # they show without scrolling, and a line says the rest is a swipe away.
        traveller = page.locator("[data-testid=traveller]")
        for heading in ("Net N–S", "N–S ±", "E–W ±"):
            box = traveller.locator("th", has_text=heading).bounding_box()
            assert box["x"] + box["width"] <= page.viewport_size["width"], heading
        hint = page.locator("[data-testid=scroll-hint]")
        if phone:
            expect(hint).to_be_visible()
        else:
            expect(hint).to_be_hidden()
        browser.shot(page, f"traveller {size}")
    assert not browser.errors


def test_a_whist_traveller_fits_a_phone_with_a_revoke(browser):
    """The table's traveller of a whist board on a phone: every column in view, the
    revoke's mark and all (it had pushed the E–W ± off the screen, with no word of a
    swipe), and under it what "tricks scored" means."""
    from tournaments import services
    from tournaments.models import Meeting, Result, TableCode
    from tournaments.services import Actor

    director = DirectorFactory()
    night = build_night(director, name="Whist night", rules="duplicate-whist")
    meeting = Meeting.objects.filter(section__event=night.event, table=1).order_by("round")[0]
    board = meeting.boards[0]
    result = Result.objects.get(event=night.event, board__number=board, meeting=meeting)
    services.result_correct(result=result, actor=Actor.director(director),
                            data={"tricks_ns": 6, "revokes": {"NS": 1, "EW": 0}},
                            reason="a revoke found after the round")
    code = TableCode.objects.get(section__event=night.event, table=1).code
    page = browser.page(phone=True)
    page.goto(f"/t/{code}/")
    page.goto(f"/t/{code}/board/{board}/traveller/")
    expect(page.locator("[data-testid=result-mark]").first).to_contain_text("revoke")
    assert page.eval_on_selector(".traveller-scroll", "el => el.scrollWidth <= el.clientWidth")
    box = page.locator("#traveller th", has_text="E–W ±").bounding_box()
    assert box["x"] + box["width"] <= page.viewport_size["width"]
    expect(page.locator("[data-testid=tricks-scored-note]")).to_be_visible()
    browser.shot(page, "whist traveller on a phone")
    assert not browser.errors


def test_a_ruling_on_the_phones_traveller_leaves_the_scores_in_view(browser):
    """A fouled board's words on the table's traveller: they wrap, never inside "E–W", and
    the ± stay on the screen (they were one line, pushing the ± off a phone)."""
    from tournaments import services
    from tournaments.models import Meeting, Result, TableCode
    from tournaments.services import Actor

    director = DirectorFactory()
    night = build_night(director, name="Fouled night")
    meeting = Meeting.objects.filter(section__event=night.event, table=1).order_by("round")[0]
    board = meeting.boards[0]
    other = Result.objects.filter(event=night.event, board__number=board).exclude(
        meeting=meeting).first()
    services.result_correct(result=other, actor=Actor.director(director), ruling="fouled",
                            offending="ew", reason="East had 12 cards, West 14")
    code = TableCode.objects.get(section__event=night.event, table=1).code
    page = browser.page(phone=True)
    page.goto(f"/t/{code}/")
    page.goto(f"/t/{code}/board/{board}/traveller/")
    cell = page.locator("#traveller td.ruling")
    expect(cell).to_contain_text("Fouled board")
    expect(cell).to_contain_text("awarded N–S")
    assert cell.locator(".nowrap", has_text="E–W").count() == 2  # "E–W at fault", "E–W −…"
    box = page.locator("#traveller th", has_text="E–W ±").bounding_box()
    assert box["x"] + box["width"] <= page.viewport_size["width"]
    browser.shot(page, "fouled board on a phone's traveller")
    assert not browser.errors


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_the_movement_page_asks_only_what_the_movement_needs(browser, phone):
    """A team match asks the pairs in each team, not the tables nor an even Mitchell's
    variant; only a Mitchell has a variant. (The team match's page had shown them all.)"""
    from tournaments import services
    from tournaments.services import Actor

    director = DirectorFactory()
    event = services.event_create(name="Challenge match", date=timezone.localdate(),
                                  kind="teams", method="total-points",
                                  actor=Actor.director(director))
    page = browser.page(phone=phone)
    log_in(page, director)
    page.goto(f"/director/events/{event.pk}/movement/")
    fields = {"#movement-tables": "Tables", "#movement-variant": "Even Mitchell",
              "#movement-ppt": "Pairs per team"}
    for kind, shown in (("team-match", {"#movement-ppt"}),
                        ("mitchell", {"#movement-tables", "#movement-variant"}),
                        ("howell", {"#movement-tables"})):
        page.select_option("#movement-kind", kind)
        for field in fields:
            if field in shown:
                expect(page.locator(field)).to_be_visible()
            else:
                expect(page.locator(field)).to_be_hidden()
        browser.shot(page, f"movement form, {kind}, {'phone' if phone else 'desktop'}")
    assert not browser.errors


def test_the_tables_follow_the_movement_chosen(browser):
    """7 pairs: a Mitchell at 4 tables, a Howell at 3 (pair 8's table is left out). The
    form had kept the Mitchell's 4 when Howell was chosen; a count typed stays."""
    from tournaments import services
    from tournaments.services import Actor

    director = DirectorFactory()
    actor = Actor.director(director)
    event = services.event_create(name="Seven pairs", date=timezone.localdate(), actor=actor)
    for number in range(1, 8):
        services.pair_set(event=event, number=number,
                          players=[f"North {number}", f"South {number}"], actor=actor)
    page = browser.page()
    log_in(page, director)
    page.goto(f"/director/events/{event.pk}/movement/")
    expect(page.locator("#movement-tables")).to_have_value("4")
    page.select_option("#movement-kind", "howell")
    expect(page.locator("#movement-tables")).to_have_value("3")
    page.select_option("#movement-kind", "mitchell")
    expect(page.locator("#movement-tables")).to_have_value("4")
    page.fill("#movement-tables", "5")
    page.select_option("#movement-kind", "howell")
    expect(page.locator("#movement-tables")).to_have_value("5")
    browser.shot(page, "movement form, Howell of 7 pairs")
    assert not browser.errors
