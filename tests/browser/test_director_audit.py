"""The director corrects a board, then undoes the correction from the audit page."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tournaments import selectors, services
from tournaments.models import AuditEntry, Result

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_correct_then_undo_from_the_audit_page(browser, night):
    meeting = night.meeting(1, 1)
    original = night.enter(meeting, 1)  # entered at the table, confirmed by East-West
    night.enter(meeting, 2)
    was = selectors.describe(original)
    new_tricks = (original.tricks + 3) % 14
    event = night.event

    page = browser.page()
    log_in(page, night.director, next_url=f"/director/events/{event.pk}/")
    expect(page.locator("[data-testid=cell-1-1]")).to_have_attribute("data-status", "confirmed")
    page.click("[data-testid=cell-1-1] a")
    expect(page.locator("[data-testid=meeting-board-1]")).to_contain_text(was)
    page.click("[data-testid=correct-1]")
    page.click(f"label[for=tricks-{new_tricks}]")

    # Duplicate Law E: the director's change needs a reason.
    page.click("#save-result")
    expect(page.locator("p.field-error[data-field=reason]")).to_be_visible()
    assert Result.objects.get(pk=original.pk).tricks == original.tricks
    browser.shot(page, "correction needs a reason")

    page.fill("#reason", "tricks miscounted at the table")
    page.click("#save-result")
    expect(page.locator(".messages")).to_contain_text("Board 1 corrected.")
    corrected = Result.objects.get(pk=original.pk)
    assert (corrected.tricks, corrected.status) == (new_tricks, Result.Status.DIRECTOR)
    expect(page.locator("[data-testid=meeting-board-1]")).to_contain_text(
        selectors.describe(corrected))
    browser.shot(page, "corrected")

    # The audit page lists the correction with its reason, and offers to undo it.
    page.click("[data-testid=nav-audit]")
    entry = AuditEntry.objects.get(event=event, action="correct")
    row = page.locator(f"#audit-{entry.pk}")
    expect(row).to_contain_text("tricks miscounted at the table")
    expect(row).to_contain_text(f"{original.tricks} tricks")  # before
    expect(row).to_contain_text(f"{new_tricks} tricks")  # after
    browser.shot(page, "audit with the correction")
    page.click(f"[data-testid=undo-{entry.pk}]")
    expect(page.locator("#confirm-title")).to_have_text(f"Undo change #{entry.pk}?")
    page.fill("#reason", "corrected the wrong board")
    browser.shot(page, "confirm undo")
    page.click("#confirm-undo")

    expect(page.locator(".messages")).to_contain_text(f"Change #{entry.pk} undone.")
    undo = AuditEntry.objects.get(event=event, action="undo")
    expect(row).to_have_class("undone")
    expect(row).to_contain_text(f"undone by #{undo.pk}")
    expect(page.locator(f"[data-testid=undo-{entry.pk}]")).to_have_count(0)
    expect(page.locator(f"#audit-{undo.pk}")).to_contain_text("corrected the wrong board")
    browser.shot(page, "audit after undo")

    # The result is back as the table entered and East-West confirmed it.
    back = Result.objects.get(pk=original.pk)
    assert (back.tricks, back.status) == (original.tricks, Result.Status.CONFIRMED)
    assert (back.ns_score, back.ew_score) == (original.ns_score, original.ew_score)
    page.click("[data-testid=nav-event]")
    page.click("[data-testid=cell-1-1] a")
    line = page.locator("[data-testid=meeting-board-1]")
    expect(line).to_contain_text(was)
    expect(line).to_contain_text("Confirmed by the opponents")
    browser.shot(page, "meeting after undo")


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_director_narrows_the_audit_and_pages_through_it(browser, night, phone):
    night.play()  # every table enters and confirms every board: two changes a board
    result = Result.objects.get(event=night.event, board__number=3, meeting__table=2)
    services.result_correct(result=result, actor=night.actor,
                            data={"contract": {"level": 1, "denomination": "NT",
                                               "declarer": "N", "doubled": ""},
                                  "tricks": 7},  # honours from the hand record
                            reason="wrong contract written down")
    event = night.event
    for n in range(50):  # the director fixes a pair's names again and again
        services.pair_set(event=event, number=1, players=[f"Ann Lee-{n}", "Bob Ray"],
                          actor=night.actor)
    total = AuditEntry.objects.filter(event=event).count()
    page = browser.page(phone=phone)
    log_in(page, night.director, next_url=f"/director/events/{event.pk}/audit/")
    rows = page.locator("#audit tbody tr")
    expect(page.locator("[data-testid=audit-count]")).to_have_text(
        f"Changes 1–50 of {total}, newest first.")
    expect(rows).to_have_count(50)
    browser.shot(page, "audit, every change")

    # Table 2, then only the director's changes there: the one correction.
    page.select_option("#audit-table", label="Table 2")
    page.click("[data-testid=audit-show]")
    at_table = AuditEntry.objects.filter(event=event, result__meeting__table=2).count()
    expect(rows).to_have_count(at_table)
    page.select_option("#audit-who", label="The director")
    page.click("[data-testid=audit-show]")
    correction = AuditEntry.objects.get(event=event, action="correct")
    expect(rows).to_have_count(1)
    expect(page.locator(f"#audit-{correction.pk}")).to_contain_text("wrong contract written down")
    expect(page.locator("#audit-table")).to_have_value("2")
    browser.shot(page, "audit, the director's changes at table 2")

    # The director's changes run over two pages; the page links keep the filter.
    page.click("[data-testid=audit-all]")
    page.select_option("#audit-who", label="The director")
    page.click("[data-testid=audit-show]")
    by_director = AuditEntry.objects.filter(event=event, actor__isnull=False).count()
    assert 50 < by_director <= 100
    expect(page.locator("[data-testid=audit-count]")).to_have_text(
        f"Changes 1–50 of {by_director} that match, newest first.")
    page.click("[data-testid=audit-older]")
    expect(page.locator("[data-testid=audit-count]")).to_have_text(
        f"Changes 51–{by_director} of {by_director} that match, newest first.")
    expect(rows).to_have_count(by_director - 50)
    expect(page.locator("#audit-who")).to_have_value("director")
    assert "who=director" in page.url and "page=2" in page.url
    browser.shot(page, "audit, the director's changes, page 2")
