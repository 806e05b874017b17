"""What the table's phone refuses, and says so in words the players understand.

- a code no table has;
- the traveller of a board the pairs now seated have not both played;
- a change after the round is agreed (Duplicate Law E): the change button goes, the
  change page sends the players back with the law, and a change form left open on
  another tab before the round was agreed says so by itself, and is refused if sent.
"""

import pytest
from playwright.sync_api import expect

from tournaments import presenters
from tournaments.models import Result

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LAW_E = "Round 1 at table 1 is agreed (Duplicate Law E): ask the director to correct a score"


def test_wrong_code_and_unplayed_traveller(browser, night):
    phone = browser.page(phone=True)
    phone.goto("/t/")
    phone.fill("#table-code", "MWMWMW")  # the widest capitals a code can have
    phone.tap("#table-code-submit")
    expect(phone.locator("#table-code-error")).to_have_text("No table has that code")
    expect(phone.locator("#table-code")).to_have_value("MWMWMW")  # kept, to fix a typo
    # The whole code shows in the box, none of it scrolled out of sight.
    assert phone.eval_on_selector("#table-code", "el => el.scrollWidth <= el.clientWidth")
    browser.shot(phone, "wrong code")

    phone.fill("#table-code", night.code(1))
    phone.tap("#table-code-submit")
    expect(phone.locator("#table-title")).to_have_text("Table 1 · round 1")
    # Nothing played yet: no traveller links on the round page.
    expect(phone.locator("#board-1")).to_have_attribute("data-status", "missing")
    expect(phone.locator("[data-testid^=traveller-]")).to_have_count(0)

    # Board 3 is played elsewhere this round and by neither pair here yet.
    night.enter(night.meeting(1, 2), 3)
    response = phone.goto(f"/t/{night.code(1)}/board/3/traveller/")
    assert response.status == 403
    expect(phone.locator("[data-testid=forbidden-message]")).to_have_text(
        "Board 3's traveller is shown here once a pair at this table has played it and "
        "neither pair here still has it to play.")
    expect(phone.locator("#traveller")).to_have_count(0)
    browser.shot(phone, "traveller not yet")
    phone.tap("[data-testid=back-to-round]")
    expect(phone.locator("#table-title")).to_have_text("Table 1 · round 1")


def test_no_change_after_the_round_is_agreed(browser, night):
    meeting = night.meeting(1, 1)
    first = night.enter(meeting, 1, confirm=False)
    night.enter(meeting, 2, confirm=False)
    code = night.code(1)

    phone = browser.page(phone=True)
    phone.goto(f"/t/{code}/")
    expect(phone.locator("#board-1")).to_have_attribute("data-status", "entered")
    expect(phone.locator("#agree-round")).to_have_count(0)  # East-West must confirm first

    # A change form opened now, on a second tab, and forgotten there.
    stale = phone.context.new_page()
    browser.watch(stale)
    stale.goto(f"/t/{code}/round/1/board/1/change/")
    expect(stale.locator("#board-title")).to_have_text("Change board 1")

    for board in (1, 2):
        phone.tap(f"[data-testid=open-board-{board}]")
        phone.tap("#confirm-result")
        expect(phone.locator(f"#board-{board}")).to_have_attribute("data-status", "confirmed")
    browser.shot(phone, "round ready to agree")
    phone.tap("#agree-round")
    # It asks first, with the round's scores; "Not yet" goes back with nothing agreed.
    expect(phone.locator("#agree-title")).to_have_text("Agree round 1?")
    row = phone.locator("[data-testid=agree-board-1]")
    expect(row).to_contain_text(presenters.result_line(first))
    expect(row).to_contain_text(presenters.signed(first.ns_score))
    browser.shot(phone, "agree round asks first")
    phone.tap("[data-testid=agree-round-not-yet]")
    expect(phone.locator("#table-title")).to_have_text("Table 1 · round 1")
    phone.tap("#agree-round")
    phone.tap("#agree-round-yes")
    expect(phone.locator(".messages")).to_contain_text("Round 1 agreed. Thank you.")
    expect(phone.locator("#table-title")).to_have_text("Table 1 · round 2")

    phone.tap("[data-testid=round-1]")
    expect(phone.locator("[data-testid=round-agreed]")).to_be_visible()
    expect(phone.locator("#agree-round")).to_have_count(0)
    phone.tap("[data-testid=open-board-1]")
    expect(phone.locator("#result-status")).to_contain_text(
        "Round 1 is agreed (Duplicate Law E).")
    expect(phone.locator("#change-result")).to_have_count(0)
    expect(phone.locator("#confirm-result")).to_have_count(0)
    browser.shot(phone, "agreed board has no change button")

    # Typing the change page's address does not get round it.
    phone.goto(f"/t/{code}/round/1/board/1/change/")
    expect(phone.locator("#result-text")).to_be_visible()
    expect(phone.locator(".messages li.error")).to_have_text(LAW_E)
    expect(phone.locator("#result-form")).to_have_count(0)
    browser.shot(phone, "change page refused")

    # The form left open before the round was agreed says so by itself (it polls the
    # round's state) and takes its Save button away ...
    stale.tap(f"label[for=tricks-{(first.tricks + 1) % 14}]")
    expect(stale.locator("#locked-banner")).to_contain_text(
        "Round 1 is agreed (Duplicate Law E)", timeout=15_000)
    expect(stale.locator("#save-result")).to_be_hidden()
    # ... and a form sent anyway (a phone that could not poll) is refused: the board's
    # page shows the result as it stands, not a form holding what was refused.
    stale.evaluate("document.getElementById('result-form').requestSubmit()")
    expect(stale.locator(".messages li.error")).to_have_text(
        "Nothing was changed: r" + LAW_E[1:])
    expect(stale.locator("#result-text")).to_be_visible()
    expect(stale.locator("#result-form")).to_have_count(0)
    browser.shot(stale, "stale change refused")

    stored = Result.objects.get(pk=first.pk)
    assert (stored.tricks, stored.version) == (first.tricks, first.version)  # never changed
    assert stored.status == Result.Status.CONFIRMED
