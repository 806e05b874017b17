"""A member plays in one pair: the pairs page's picker (static/js/members.js) neither
offers nor adds a member already written in the list, or already in the other seat of the
pair being added, and says where they are; saving the list still refuses one by hand.

It once offered them all, and only the save said no, after the whole list was typed."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_pick_members import pairs_page
from tournaments.forms import PairLine

pytestmark = [pytest.mark.browser]

STORED = [["Ann Lee #1001", "Vic Visitor"], ["Di Eck", "Ed Fox"], ["Bob Ray #1002", "Flo Gay"]]
STORED_TEXT = "Ann Lee #1001 & Vic Visitor\nDi Eck & Ed Fox\nBob Ray #1002 & Flo Gay"


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_the_picker_refuses_a_member_already_in_a_pair(browser, director, phone):
    page, event = pairs_page(browser, director, phone=phone, lines=[
        PairLine(number=n, players=p, team=None) for n, p in enumerate(STORED, start=1)])
    text, note = page.get_by_test_id("pairs-text"), page.get_by_test_id("pick-note")
    first, second = page.get_by_test_id("pick-1"), page.get_by_test_id("pick-2")
    expect(text).to_have_value(STORED_TEXT)

    # Ann (pair 1) and Bob (pair 3) are not offered; the note says where they are.
    first.press_sequentially("100", delay=40)
    suggestions = page.get_by_test_id("pick-1-list").get_by_role("button")
    expect(suggestions).to_have_count(1)
    expect(suggestions).to_have_text("1003 · Cora Day")
    expect(note).to_have_text("Ann Lee #1001 is already in pair 1. "
                              "Bob Ray #1002 is already in pair 3.")
    expect(note).to_have_class("nonfield")
    browser.shot(page, "members already in a pair")
    suggestions.click()
    expect(first).to_have_value("Cora Day #1003")

    # Cora, picked for the first seat, is not offered for the second.
    second.press_sequentially("cora", delay=40)
    expect(note).to_have_text("Cora Day #1003 is already the first player of this pair.")
    expect(page.get_by_test_id("pick-2-list")).to_be_hidden()

    # Typed by hand, with the number: refused at "Add the pair", the list left as it was.
    second.fill("Ann Lee #1001")
    page.get_by_test_id("pick-add").click()
    expect(note).to_have_text("Ann Lee #1001 is already in pair 1.")
    expect(second).to_be_focused()
    expect(text).to_have_value(STORED_TEXT)
    browser.shot(page, "typed member refused")

    second.fill("Gus Hay")  # a visitor
    page.get_by_test_id("pick-add").click()
    expect(note).to_contain_text("Cora Day #1003 & Gus Hay added as pair 4")
    expect(note).to_have_class("helptext")
    expect(text).to_have_value(STORED_TEXT + "\nCora Day #1003 & Gus Hay\n")

    # A member written by number alone counts too, and the save keeps its own refusal.
    text.fill(STORED_TEXT + "\nCora Day #1003 & Gus Hay\nHal Ing & 1002\n")
    first.press_sequentially("bob", delay=40)
    expect(note).to_have_text("Bob Ray #1002 is already in pair 3.")
    expect(page.get_by_test_id("pick-1-list")).to_be_hidden()
    page.get_by_test_id("save-pairs").click()
    expect(page.get_by_test_id("pairs-errors")).to_contain_text(
        "Bob Ray (member 1002) is in pairs 3 and 5: a member plays in one pair of a night")
    assert event.pairs.count() == 3
    assert browser.errors == []
