"""On the phone: honours are an explicit answer when the board has no hand record (Law 3),
and an unusual result gets a second look before it is saved."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tournaments.models import Board, Result

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def open_board_without_hand_record(browser, night, *, phone: bool):
    Board.objects.filter(event=night.event, number=1).update(deal="")
    page = browser.page(phone=phone)
    page.goto(f"/t/{night.code(1)}/round/1/board/1/")
    expect(page.locator("#result-form")).to_be_visible()
    return page


def test_honours_are_asked_and_an_unusual_result_is_looked_at_again(browser, night):
    phone = open_board_without_hand_record(browser, night, phone=True)
    expect(phone.locator("[data-testid=honours-why]")).to_contain_text(
        "Every honour is in some hand")
    expect(phone.locator("input[name^=honours_]:checked")).to_have_count(0)  # no default
    tap = phone.tap
    for label in ("level-4", "denomination-H", "declarer-S", "tricks-10"):
        tap(f"label[for={label}]")
    # The live score does not pretend: the honours are still to be given.
    expect(phone.locator("#preview-error")).to_contain_text("Say who held the honours")
    expect(phone.locator("#preview-ns-total")).to_have_text("")
    browser.shot(phone, "honours still to be given")

    tap("label[for=honours-N-3]")
    tap("label[for=honours-S-1]")
    expect(phone.locator("#preview-error")).to_have_text(
        "Honours add up to 4, but the five honours of the trump suit are always in some "
        "hand: say who held the last honour")
    tap("#save-result")
    expect(phone.locator("[data-testid=honours-error]")).to_contain_text("Honours add up to 4")
    assert not Result.objects.exists()
    browser.shot(phone, "impossible split refused")

    tap("label[for=honours-S-2]")  # N 3 + S 2: all five; E and W held none
    expect(phone.locator("#preview-error")).to_have_text("")
    expect(phone.locator("#preview-ns-total")).to_have_text("197")  # 32 + 40 + 125

    # Nine revokes typed for none: the score is shown with a warning, and Save asks again.
    phone.locator("summary", has_text="Revokes").tap()
    phone.fill("#revokes-defending", "9")
    phone.select_option("#first-penalty", "points")
    expect(phone.locator("#preview-warnings")).to_contain_text(
        "The defenders revoked 9 times on this board")
    tap("#save-result")
    expect(phone.locator("[data-testid=look-again]")).to_contain_text(
        "Please look again before saving")
    expect(phone.locator("[data-testid=look-again]")).to_contain_text(
        "North–South score 1,097 on this board")
    assert not Result.objects.exists()
    # The phone layout: nothing wider than the screen.
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    browser.shot(phone, "look again before saving")

    tap("[data-testid=save-as-entered]")
    expect(phone.locator("#result-status")).to_have_attribute("data-status", "entered")
    result = Result.objects.get()
    assert result.details["revokes"]["defending"] == 9
    assert result.details["honours"] == {"N": 3, "S": 2}
    browser.shot(phone, "saved as entered")


def test_the_same_on_a_desktop(browser, night):
    page = open_board_without_hand_record(browser, night, phone=False)
    for label in ("level-3", "denomination-NT", "declarer-N", "tricks-9"):
        page.click(f"label[for={label}]")
    # At no trump the honours are the four aces: no 5 to tap.
    expect(page.locator("label[for=honours-N-5]")).to_be_hidden()
    expect(page.locator("#preview-error")).to_contain_text("Say who held the aces")
    browser.shot(page, "no trump asks for the aces")
    for label in ("honours-N-2", "honours-E-1", "honours-S-1"):
        page.click(f"label[for={label}]")
    expect(page.locator("#preview-error")).to_have_text("")
    page.locator("summary", has_text="Penalties").click()
    for seat in "NES":
        page.click(f"label[for=penalty-90-{seat}]")
    page.click("#save-result")
    expect(page.locator("[data-testid=look-again]")).to_contain_text(
        "3 penalties on this board")
    browser.shot(page, "look again before saving")
    page.click("[data-testid=save-as-entered]")
    expect(page.locator("#result-status")).to_have_attribute("data-status", "entered")
    assert len(Result.objects.get().details["penalties"]) == 3


def test_the_directors_form_asks_the_same(browser, night):
    Board.objects.filter(event=night.event, number=1).update(deal="")
    meeting = night.meeting(1, 1)
    url = f"/director/events/{night.event.pk}/meetings/{meeting.pk}/boards/1/enter/"
    for phone in (False, True):
        page = browser.page(phone=phone)
        log_in(page, night.director, next_url=url)
        for label in ("level-2", "denomination-S", "declarer-E", "doubled-XX", "tricks-3",
                      "honours-E-4", "honours-W-1"):
            page.click(f"label[for={label}]")
        page.click("#save-result")
        look = page.locator("[data-testid=look-again]")
        expect(look).to_contain_text("The declaring side won 3 tricks in 2♠: 5 short")
        expect(look).to_contain_text("North–South score 1,000 on this board")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        browser.shot(page, f"director look again {'phone' if phone else 'desktop'}")
        assert not Result.objects.exists()
    page.click("[data-testid=save-as-entered]")
    expect(page.locator(".messages")).to_contain_text("Board 1 entered.")
    assert Result.objects.get().tricks == 3


def test_no_trump_lets_go_of_a_five_and_an_old_message_goes_with_a_new_answer(browser, night):
    """Five honours tapped at a suit, then no trump: the hidden "5" is not kept (it would
    be sent and refused, with N's row showing nothing chosen). The page's message about
    the honours from the last save goes once they are answered again."""
    phone = open_board_without_hand_record(browser, night, phone=True)
    for label in ("level-1", "denomination-H", "declarer-S", "tricks-7", "honours-N-5",
                  "honours-E-0", "honours-S-0", "honours-W-0"):
        phone.tap(f"label[for={label}]")
    expect(phone.locator("#preview-error")).to_have_text("")
    phone.tap("label[for=denomination-NT]")
    expect(phone.locator("input[name=honours_N]:checked")).to_have_count(0)
    expect(phone.locator("#preview-error")).to_contain_text("say who held the other 4")
    browser.shot(phone, "no trump lets go of the five")

    # Saved with six honours at spades: the page says so under the honours.
    for label in ("denomination-S", "honours-N-3", "honours-S-3"):
        phone.tap(f"label[for={label}]")
    phone.tap("#save-result")
    expect(phone.locator("[data-testid=honours-error]")).to_contain_text("Honours add up to 6")
    # Now at no trump, N 4 and S 0: the old message goes, the live score says what is so.
    phone.tap("label[for=denomination-NT]")
    expect(phone.locator("[data-testid=honours-error]")).to_be_hidden()
    phone.tap("label[for=honours-N-4]")
    phone.tap("label[for=honours-S-0]")
    expect(phone.locator("#preview-error")).to_have_text("")
    phone.tap("#save-result")
    expect(phone.locator("#result-status")).to_have_attribute("data-status", "entered")
    assert Result.objects.get().details["honours"] == {"N": 4, "E": 0, "S": 0, "W": 0}
    assert not browser.errors
