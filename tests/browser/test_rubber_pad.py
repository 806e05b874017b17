"""A table keeps a short Auction rubber on one phone: from the home page's link, the
players are named, each deal is tapped in with its live score and laws, the last deal is
corrected, and the sheet rules off the games and gives the rubber's result."""

import pytest
from playwright.sync_api import expect

from config.celery import app
from tournaments.models import Rubber
from tournaments.reports import services as reports

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def tap_deal(phone, level, denomination, declarer, tricks):
    for label in (f"level-{level}", f"denomination-{denomination}", f"declarer-{declarer}",
                  f"tricks-{tricks}"):
        phone.tap(f"label[for={label}]")


def test_a_short_auction_rubber_on_a_phone(browser, transactional_db):
    phone = browser.page(phone=True)
    phone.goto("/")
    browser.shot(phone, "home")
    phone.tap("[data-testid=keep-rubber-link]")
    expect(phone.locator("h1")).to_have_text("Keep a rubber score")
    # Auction is chosen: four names, no whist choices, no three-hand names.
    expect(phone.locator("#player-N")).to_be_visible()
    expect(phone.locator("#form-dummy")).to_be_hidden()
    expect(phone.locator("#player-A")).to_be_hidden()
    for seat, name in zip("NESW", ("Ann", "Bob", "Cy", "Di"), strict=True):
        phone.fill(f"#player-{seat}", name)
    browser.shot(phone, "new rubber")
    phone.tap("[data-testid=pad-start]")

    expect(phone.locator("[data-testid=next-dealer]")).to_have_text(
        "No deals yet: Ann deals first.")
    phone.tap("[data-testid=enter-deal]")
    expect(phone.locator("#deal-title")).to_have_text("Deal 1")
    tap_deal(phone, 4, "RS", "S", 9)  # one down
    preview = phone.locator("[data-testid=pad-preview]")
    expect(preview).to_contain_text("Law")
    expect(preview).to_contain_text("Bob & Di: 50")
    browser.shot(phone, "deal one down")
    phone.tap("[data-testid=save-deal]")
    expect(phone.locator("[data-testid=sheet-deal-1]")).to_contain_text("4R♠ by Cy (S), 9 tricks")

    # The players remember: it was made. Correct the last deal.
    phone.tap("[data-testid=correct-last]")
    expect(phone.locator("#deal-title")).to_have_text("Correct deal 1")
    expect(phone.locator("#tricks-9")).to_be_checked()
    phone.tap("label[for=tricks-10]")
    expect(preview).to_contain_text("Game to Ann & Cy")
    browser.shot(phone, "correct deal one")
    phone.tap("[data-testid=save-deal]")
    expect(phone.locator("[data-testid=game-1]")).to_contain_text("Game 1 to Ann & Cy")
    expect(phone.locator("[data-testid=next-dealer]")).to_contain_text("Bob deals next")
    browser.shot(phone, "sheet after game one")

    phone.tap("[data-testid=enter-deal]")
    tap_deal(phone, 3, "NT", "N", 9)
    expect(preview).to_contain_text("Game to Ann & Cy")
    phone.tap("[data-testid=save-deal]")
    result = phone.locator("[data-testid=pad-result]")
    expect(result).to_contain_text("Rubber to Ann & Cy")
    expect(phone.locator("[data-testid=sheet-totals]")).to_contain_text("316")  # 36 + 30 + 250
    expect(phone.locator("[data-testid=enter-deal]")).to_have_count(0)
    # Nothing on the sheet is wider than the phone.
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    browser.shot(phone, "rubber won")

    pad = Rubber.objects.get()
    assert pad.finished and pad.deals.count() == 2

    # The same pages at a desktop's width.
    desk = browser.page()
    desk.goto("/")
    expect(desk.locator("[data-testid=keep-rubber-link]")).to_be_visible()
    browser.shot(desk, "desktop home")
    desk.goto(f"/pad/{pad.code}/")
    expect(desk.locator("[data-testid=pad-result]")).to_contain_text("Rubber to Ann & Cy")
    browser.shot(desk, "desktop sheet")
    desk.goto(f"/pad/{pad.code}/last/")
    expect(desk.locator("#deal-title")).to_have_text("Correct deal 2")
    browser.shot(desk, "desktop correct")
    desk.goto("/pad/")
    expect(desk.locator("#pad-new")).to_be_visible()
    desk.click("label[for=game-whist]")
    desk.click("label[for=form-double-dummy]")
    expect(desk.locator("#dummy-N")).to_be_attached()
    browser.shot(desk, "desktop new whist")


@pytest.fixture
def printing_in_process(settings, tmp_path):
    """No worker here: the print job runs in a thread of the live server (as `make run`)."""
    settings.MEDIA_ROOT = str(tmp_path)
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    reports.in_process.wait(30)
    app.conf.task_always_eager = before


def test_whist_and_three_hand_pads_and_the_printed_sheet(browser, transactional_db,
                                                         printing_in_process):
    for phone_width in (True, False):
        page = browser.page(phone=phone_width)
        where = "phone" if phone_width else "desktop"
        page.goto("/pad/")
        page.click("label[for=game-whist]")
        expect(page.locator("#first-dealer-E")).to_be_visible()  # who deals first: a choice
        page.click("label[for=form-dummy]")
        page.click("label[for=dummy-S]")
        # ... except at Dummy Whist, where the dummy deals first: the page says so.
        expect(page.locator("#first-dealer-E")).to_be_hidden()
        expect(page.locator("[data-testid=dummy-deals-first]")).to_be_visible()
        browser.shot(page, f"{where} new dummy whist")
        for seat, name in zip("NESW", ("Ann", "Bob", "Cy", "Di"), strict=True):
            page.fill(f"#player-{seat}", name)
        page.click("[data-testid=pad-start]")
        expect(page.locator("[data-testid=pad-players]")).to_contain_text("South: Cy (dummy)")
        page.click("[data-testid=enter-deal]")
        page.click("label[for=tricks-ns-9]")
        page.click("text=Revokes (Whist Law 75)")
        page.fill("#revokes-S", "1")
        page.click("[data-testid=save-deal]")
        expect(page.locator("[data-testid=form-errors]")).to_contain_text(
            "never liable for a revoke")
        browser.shot(page, f"{where} whist dummy revoke refused")
        page.fill("#revokes-S", "0")
        page.click("label[for=honours-ns-3]")
        expect(page.locator("[data-testid=pad-preview]")).to_contain_text("Game to Ann & Cy")
        page.click("[data-testid=save-deal]")
        expect(page.locator("[data-testid=game-1]")).to_contain_text("worth 3")
        browser.shot(page, f"{where} whist sheet")

        page.goto("/pad/")
        page.click("label[for=game-three-hand]")
        for seat, name in zip("ABC", ("Ann", "Bob", "Cy"), strict=True):
            page.fill(f"#player-{seat}", name)
        page.click("[data-testid=pad-start]")
        page.click("[data-testid=enter-deal]")
        for label in ("level-2", "denomination-RS", "declarer-B", "tricks-9",
                      "honours-dummy-2"):
            page.click(f"label[for={label}]")
        expect(page.locator("[data-testid=pad-preview]")).to_contain_text("Three-Hand rule 13")
        browser.shot(page, f"{where} three-hand deal")
        page.click("[data-testid=save-deal]")
        expect(page.locator("[data-testid=next-dealer]")).to_contain_text("Bob deals next")
        page.click("[data-testid=print-sheet]")
        expect(page.locator("[data-testid=print-file]")).to_be_visible(timeout=30_000)
        browser.shot(page, f"{where} printed")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_long_names_leave_every_column_on_a_phone(browser, transactional_db):
    """A side's heading is its players' names: with a long one, the other side's column
    (its scores, its total) still shows on a phone's screen, with nothing to scroll."""
    from tournaments.services.rubbers import rubber_create, rubber_deal_add

    pad = rubber_create(game="auction", players=["Alice Van Rensselaer", "Bertram Fish",
                                                 "Clara Schermerhorn", "Dudley Stuyvesant"])
    rubber_deal_add(rubber=pad, deal={"contract": {"level": 2, "denomination": "D",
                                                   "declarer": "W", "doubled": ""},
                                      "tricks": 8})
    phone = browser.page(phone=True)
    phone.goto(f"/pad/{pad.code}/")
    sheet = phone.locator("[data-testid=pad-sheet]")
    for heading in ("Alice Van Rensselaer & Clara Schermerhorn",
                    "Bertram Fish & Dudley Stuyvesant"):
        box = sheet.locator("th", has_text=heading).bounding_box()
        assert box["x"] + box["width"] <= phone.viewport_size["width"], heading
    expect(phone.locator("[data-testid=sheet-totals]")).to_contain_text("14")  # 2♦ made: 2 × 7
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    browser.shot(phone, "long names")
    # Saved with only the level tapped: one message names every choice still to make.
    phone.tap("[data-testid=enter-deal]")
    phone.tap("label[for=level-3]")
    phone.tap("[data-testid=save-deal]")
    expect(phone.locator("[data-testid=form-errors]")).to_have_text(
        "Still to choose: the denomination, the declarer and the tricks the declaring side "
        "won.")
    browser.shot(phone, "choices still to make")
    assert not browser.errors


def test_a_long_rubber_on_a_phone_offers_the_next_deal_first_and_corrects_any_deal(
        browser, transactional_db):
    """Eight deals of whist: "Enter deal 9" had been far below the fold of a 390×844 phone,
    the top line saying only who deals. Any deal is corrected from its line, and a rubber
    stopped there says what it settles."""
    from tournaments.services.rubbers import rubber_create, rubber_deal_add

    pad = rubber_create(game="whist", players=["Ann", "Bob", "Cy", "Di"])
    # N–S 1 a deal: game at deal 5 (worth 3), then 2–0 in game 2; deal 8 E–W's 1, and 3
    # for N–S's revoke: 2–4.
    for _ in range(7):
        rubber_deal_add(rubber=pad, deal={"tricks_ns": 7})
    rubber_deal_add(rubber=pad, deal={"tricks_ns": 6, "revokes": {"NS": 1, "EW": 0},
                                      "revoke_penalty": "add"})
    phone = browser.page(phone=True)
    phone.goto(f"/pad/{pad.code}/")
    enter = phone.locator("[data-testid=enter-deal]")
    expect(enter).to_have_text("Enter deal 9")
    box = enter.bounding_box()
    assert box["y"] + box["height"] <= phone.viewport_size["height"]  # seen without scrolling
    expect(phone.locator("[data-testid=pad-stop-here]")).to_have_text(
        "If the rubber stops here: Ann & Cy win 3 from Bob & Di (game values).")
    expect(phone.locator("[data-testid=sheet-deal-8]")).to_contain_text(
        "N–S 6 tricks, E–W 7; revoke by N–S: 3 added to E–W")
    browser.shot(phone, "eight deals")
    # Deal 2 was 6 tricks, not 7: E–W's point; N–S's game now comes a deal later.
    phone.tap("[data-testid=correct-deal-2]")
    expect(phone.locator("#deal-title")).to_have_text("Correct deal 2")
    expect(phone.locator("[data-testid=correct-note]")).to_contain_text("scores the whole "
                                                                        "rubber again")
    expect(phone.locator("[data-testid=tricks-in-play]")).to_be_visible()
    phone.tap("label[for=tricks-ns-6]")
    expect(phone.locator("[data-testid=pad-preview]")).to_contain_text(
        "Bob & Di: 1 for 1 trick above six")
    browser.shot(phone, "correct deal two")
    phone.tap("[data-testid=save-deal]")
    expect(phone.locator("[data-testid=game-1]")).to_contain_text("Game 1 to Ann & Cy")
    expect(phone.locator("[data-testid=sheet-deal-2]")).to_contain_text("N–S 6 tricks, E–W 7")
    expect(phone.locator("[data-testid=enter-deal]")).to_be_in_viewport()
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    browser.shot(phone, "after the correction")
    # Tapping: the live score names what is still to tap in the form's words.
    phone.tap("[data-testid=enter-deal]")
    phone.tap("label[for=honours-ns-3]")
    expect(phone.locator("[data-testid=preview-pending]")).to_have_text(
        "Still to choose: the tricks North–South won.")
    browser.shot(phone, "still to choose")
    desk = browser.page()
    desk.goto(f"/pad/{pad.code}/")
    expect(desk.locator("[data-testid=enter-deal]")).to_be_in_viewport()
    browser.shot(desk, "desktop eight deals")
    assert not browser.errors
