"""Every kind of page works under the site's Content-Security-Policy, in Chromium.

The policy (config/settings.py) runs no inline script or style, so each page's scripts
and style sheets must come from the static files. The `browser` fixture fails a test on
anything the policy blocked (Chromium's console and the securitypolicyviolation event);
these tests visit each kind of page, check the header is really sent, and check what the
moved scripts and styles do still happens: the table's taps and live score, the
director's live grid, the print button, the QR codes, the API docs.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tournaments import services
from tournaments.models import AuditEntry, Result

pytestmark = [pytest.mark.browser, pytest.mark.slow]

STRICT = ["default-src 'self'", "img-src 'self'", "object-src 'none'", "base-uri 'none'",
          "frame-ancestors 'none'", "form-action 'self'"]


def visit(page, address: str, *, extra: tuple[str, ...] = ()):
    """Open a page and check it came with the strict policy (nothing inline allowed)."""
    response = page.goto(address)
    assert response.status == 200, address
    policy = response.headers.get("content-security-policy", "")
    for directive in [*STRICT, *extra]:
        assert directive in policy, (address, policy)
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, policy
    return response


def css(page, selector: str, prop: str) -> str:
    return page.eval_on_selector(selector, f"el => getComputedStyle(el)[{prop!r}]")


def test_public_pages(browser, night):
    night.play()
    event = night.event
    page = browser.page()
    visit(page, "/")
    # home.css: the table-code box keeps its framed look.
    assert css(page, "[data-testid=enter-table]", "borderTopWidth") == "2px"
    visit(page, f"/events/{event.pk}/")
    visit(page, f"/events/{event.pk}/standings/")
    assert css(page, ".published", "borderTopLeftRadius") == "999px"  # public.css
    expect(page.locator("[data-testid=ranking-NS] tbody tr").first).to_be_visible()
    browser.shot(page, "standings")
    visit(page, f"/events/{event.pk}/boards/1/")
    expect(page.locator("[data-testid=traveller] tbody tr")).not_to_have_count(0)
    visit(page, f"/events/{event.pk}/pairs/1/")
    expect(page.locator("[data-testid=scorecard]")).to_be_visible()


def test_table_pages_enter_a_result(browser, night):
    phone = browser.page(phone=True)
    visit(phone, "/")
    phone.fill("[data-testid=home-table-code]", night.code(1))
    phone.tap("[data-testid=home-table-code-submit]")
    expect(phone.locator("#table-title")).to_have_text("Table 1 · round 1")
    browser.shot(phone, "table round")

    visit(phone, f"/t/{night.code(1)}/round/1/board/1/")
    # table.js: passed out hides the contract, and taps fill the score box live.
    for label in ("level-2", "denomination-H", "declarer-S", "tricks-9"):
        phone.tap(f"label[for={label}]")
    expect(phone.locator("#preview-net")).to_contain_text("Net N–S:")
    expect(phone.locator("#preview-ns-total")).not_to_have_text("")
    # table.css: the two revoke counts share a row (was an inline style).
    columns = css(phone, ".counts.two", "gridTemplateColumns").split()
    assert len(columns) == 2, columns
    browser.shot(phone, "table board live score")
    phone.tap("#save-result")
    expect(phone.locator("#result-status")).to_have_attribute("data-status", "entered")
    assert css(phone, "#result-text", "fontSize") == "20px"  # 1.25rem
    phone.tap("#confirm-result")
    expect(phone.locator("#board-1")).to_have_attribute("data-status", "confirmed")

    visit(phone, f"/t/{night.code(1)}/board/1/traveller/")
    own = phone.locator("#traveller tbody tr.own")
    expect(own).to_have_count(1)
    assert css(phone, "#traveller tbody tr.own", "fontWeight") == "700"
    browser.shot(phone, "table traveller")


def test_director_pages(browser, night):
    night.play(keep=lambda meeting, board: meeting.round == 1 and meeting.table != 4)
    event = night.event
    meeting = night.meeting(1, 4)
    page = browser.page()
    # The guide cards' Print button calls window.print (stubbed: no print dialog here).
    page.add_init_script("window.print = () => { window.printed = (window.printed || 0) + 1; };")
    response = page.goto("/accounts/login/?next=/director/")
    assert "form-action 'self'" in response.headers["content-security-policy"]
    log_in(page, night.director)
    visit(page, "/director/")
    visit(page, f"/director/events/{event.pk}/")
    # director.js repaints the live grid and stamps the time.
    expect(page.locator("#grid-updated")).to_contain_text("Updated", timeout=15_000)
    expect(page.locator("[data-testid=agree-round-2]")).to_be_visible()
    # Round 2 agreed meanwhile (another tab): the next repaint says so in its row.
    services.round_agree(section=meeting.section, round_number=2,
                         actor=services.Actor.director(night.director))
    expect(page.locator("[data-testid=round-agreed-2]")).to_have_text("Agreed", timeout=15_000)
    expect(page.locator("[data-testid=agree-round-2]")).to_have_count(0)
    expect(page.locator("[data-testid=agree-round-1]")).to_be_visible()  # table 4 is not
    browser.shot(page, "director event")
    for part in ("pairs", "movement", "boards"):
        visit(page, f"/director/events/{event.pk}/{part}/")

    visit(page, f"/director/events/{event.pk}/tables/")
    qr = page.locator("[data-testid=table-card-1] svg")
    expect(qr).to_be_visible()
    assert qr.bounding_box()["width"] == 170  # tables.css sizes the inline SVG codes
    visit(page, f"/director/events/{event.pk}/guide-cards/")
    page.click("[data-testid=print-cards]")
    assert page.evaluate("window.printed") == 1

    visit(page, f"/director/events/{event.pk}/meetings/{meeting.pk}/")
    visit(page, f"/director/events/{event.pk}/meetings/{meeting.pk}/boards/7/enter/")
    for label in ("level-1", "denomination-S", "declarer-N", "tricks-7"):
        page.click(f"label[for={label}]")
    expect(page.locator("#preview-net")).to_contain_text("Net N–S:")
    visit(page, f"/director/events/{event.pk}/meetings/{meeting.pk}/boards/7/rule/")
    assert css(page, "label.choice", "fontWeight") == "400"

    section = meeting.section_id
    visit(page, f"/director/events/{event.pk}/sections/{section}/rounds/1/agree/")
    page.click("[data-testid=go-back]")
    page.wait_for_url(f"**/director/events/{event.pk}/")
    visit(page, f"/director/events/{event.pk}/close/")
    assert css(page, "input.minutes", "width") == "80px"  # 5rem

    visit(page, f"/director/events/{event.pk}/audit/")
    expect(page.locator("[data-testid=audit] tbody tr")).not_to_have_count(0)
    browser.shot(page, "director audit")
    entry = AuditEntry.objects.filter(event=event, result__isnull=False).latest("pk")
    visit(page, f"/director/events/{event.pk}/audit/{entry.pk}/undo/")
    page.click("[data-testid=go-back]")
    page.wait_for_url(f"**/director/events/{event.pk}/audit/")

    visit(page, f"/events/{event.pk}/reports/")
    expect(page.locator("[data-testid=report-standings]")).to_be_visible()
    browser.shot(page, "print room")
    assert Result.objects.filter(event=event).count() == 6


def test_api_docs(browser, transactional_db):
    page = browser.page()
    visit(page, "/api/docs/", extra=("img-src 'self' data:",))
    expect(page.locator(".opblock-summary-path", has_text="/api/events/").first).to_be_visible()
    # The operations open and say what they take (Swagger UI's own script at work).
    page.locator(".opblock-summary", has_text="/api/events/").first.click()
    expect(page.locator(".opblock-body").first).to_be_visible()
    browser.shot(page, "api docs operation open")
