"""After a save is refused with a message under a field, putting the field right and
clicking Save once saves: the message going must not move the button away between the
press and the release (a text field's change comes as it loses the focus, which is on
that press). Real mouse clicks, on the director's Correct page and on the table's form,
each short enough to fit the window, as on the night the click was lost."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.reports.night import build_night
from tournaments import services
from tournaments.models import AuditEntry, Result, TableCode
from tournaments.services import Actor

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def whist(director):
    """A duplicate whist night, nothing played yet (its form fits a laptop's window)."""
    return build_night(director, name="Whist night", rules="duplicate-whist", play=False,
                       published="none")


def saves_sent(page, path: str) -> list[str]:
    """The POSTs to `path` that are not the live score's (the Save clicks that arrived)."""
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.post_data or "") if (
        r.method == "POST" and r.url.split("?")[0].endswith(path)
        and "action=preview" not in (r.post_data or "")) else None)
    return sent


def test_the_director_saves_a_correction_with_one_click_after_the_reason_was_asked_for(
        browser, whist):
    meeting = whist.meetings()[0]
    table = Actor.at_table(meeting.section, meeting.table)
    board = meeting.boards[0]
    result, _ = services.result_record(
        event=whist.event, board=board, ns=meeting.ns_pair.number, ew=meeting.ew_pair.number,
        data={"tricks_ns": 8}, actor=table, meeting=meeting)
    services.result_confirm(result=result, actor=table)
    path = f"/director/events/{whist.event.pk}/results/{result.pk}/correct/"

    page = browser.page()
    log_in(page, whist.director, next_url=path)
    sent = saves_sent(page, path)
    page.click("label[for=tricks-ns-7]")
    page.click("#save-result")
    expect(page.locator("p.field-error[data-field=reason]")).to_contain_text(
        "a correction needs a reason")
    expect(page.locator("#form-errors")).to_contain_text("Nothing was saved")
    assert len(sent) == 1 and Result.objects.get(pk=result.pk).tricks == 8
    browser.shot(page, "the reason asked for")

    page.fill("#reason", "table misread 8 for 7")
    page.click("#save-result")  # once
    expect(page.locator(".messages")).to_contain_text(f"Board {board} corrected.")
    assert len(sent) == 2
    assert Result.objects.get(pk=result.pk).tricks == 7
    assert AuditEntry.objects.get(result=result, action="correct").reason == \
        "table misread 8 for 7"
    browser.shot(page, "corrected with one click")


def test_the_table_saves_with_one_click_after_a_count_was_refused(browser, whist):
    meeting = whist.meetings()[0]
    board = meeting.boards[0]
    code = TableCode.objects.get(section=meeting.section, table=meeting.table).code
    path = f"/t/{code}/round/{meeting.round}/board/{board}/"

    page = browser.page()  # a tablet on the table, with a mouse
    page.goto(path)
    sent = saves_sent(page, path)
    page.click("label[for=tricks-ns-7]")
    page.fill("#revokes-ns", "14")
    page.click("#save-result")
    error = page.locator("p.field-error[data-field=revokes_ns]")
    expect(error).to_contain_text("at most 13")
    assert len(sent) == 1 and not Result.objects.exists()
    browser.shot(page, "a count refused")

    page.fill("#revokes-ns", "0")
    page.click("#save-result")  # once
    expect(page.locator(".messages")).to_contain_text(f"Board {board} saved.")
    assert len(sent) == 2
    assert Result.objects.get().tricks == 7
    browser.shot(page, "saved with one click")


def test_a_message_answered_again_keeps_its_place_until_the_page_is_drawn_again(
        browser, whist):
    """The field's message goes from sight as it is answered, without the form moving."""
    meeting = whist.meetings()[0]
    code = TableCode.objects.get(section=meeting.section, table=meeting.table).code
    page = browser.page(phone=True)
    page.goto(f"/t/{code}/round/{meeting.round}/board/{meeting.boards[0]}/")
    page.tap("label[for=tricks-ns-6]")
    page.fill("#revokes-ns", "14")
    page.tap("#save-result")
    error = page.locator("p.field-error[data-field=revokes_ns]")
    expect(error).to_be_visible()
    where = page.locator("#save-result").bounding_box()["y"]
    page.fill("#revokes-ns", "1")
    page.locator("#revokes-ns").blur()  # its change
    expect(error).to_be_hidden()
    assert page.locator("#save-result").bounding_box()["y"] == where
