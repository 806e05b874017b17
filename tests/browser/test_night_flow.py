"""The night, end to end in a real browser.

The director sets the night up in the console (event, pairs, a 4-table skip
Mitchell, dealt hands), starts it and publishes provisional standings. Table 1
opens its page by code on a phone, taps in a board, sees the score the engine
gives before saving, saves, and East-West confirm; the traveller opens. The rest
of the night is played (through the services), the director corrects the board
from the grid with a reason, and a spectator's standings page shows the
corrected scores.
"""

import pytest
from playwright.sync_api import expect

from scoring.engine import get_rules, honours_from_deal, parse_result, score_result
from tests.browser.conftest import (
    PAIR_NAMES,
    Night,
    expected_rows,
    log_in,
    ranking_rows,
    signed,
)
from tournaments import presenters, selectors, standings
from tournaments.models import AuditEntry, Board, Event, Meeting, Result

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CONTRACT = {"level": 2, "denomination": "H", "declarer": "S", "doubled": ""}
TRICKS, CORRECTED_TRICKS = 9, 7


def engine_score(event: Event, board: Board, tricks: int) -> dict:
    """What the scoring engine gives for the test's contract on this board's deal."""
    rules = get_rules(event.rules)
    parsed = parse_result({"contract": CONTRACT, "tricks": tricks}, rules, board=board.number,
                          deal=board.deal)
    return score_result(parsed, rules).to_dict()


def set_up_in_console(browser, director) -> tuple[object, Event]:
    page = browser.page()
    log_in(page, director)
    expect(page.locator("#new-event")).to_be_visible()
    page.click("#new-event")
    page.fill("#event-name", "Tuesday duplicate")
    page.fill("#event-date", "2026-11-17")
    page.select_option("#event-rules", "american-1913")
    page.select_option("#event-kind", "pairs")
    page.select_option("#event-method", "plus-minus")
    browser.shot(page, "director new event")
    page.click("#create-event")

    # The pairs, one per line: the first line is pair 1.
    expect(page.locator("#pairs-text")).to_be_visible()
    event = Event.objects.get(name="Tuesday duplicate")
    page.fill("#pairs-text", "\n".join(f"{a} & {b}" for a, b in PAIR_NAMES))
    page.click("#save-pairs")
    page.wait_for_url(f"**/director/events/{event.pk}/movement/")
    expect(page.locator(".messages")).to_contain_text("8 pairs stored")

    # Eight pairs at four tables: an even Mitchell needs the skip (or a relay).
    page.select_option("#movement-kind", "mitchell")
    page.fill("#movement-tables", "4")
    page.fill("#movement-boards", "2")
    page.select_option("#movement-variant", "skip")
    page.click("#show-movement")
    expect(page.locator("#movement-preview")).to_contain_text("4 tables, 8 pairs, 8 boards")
    expect(page.locator("#movement-sound")).to_be_visible()
    browser.shot(page, "director movement shown")
    page.click("#save-movement")
    page.wait_for_url(f"**/director/events/{event.pk}/")
    expect(page.locator(".messages")).to_contain_text("Movement stored: 4 tables")

    page.click("[data-testid=nav-boards]")
    page.fill("#deal-count", "8")
    page.click("#deal-hands")
    expect(page.locator(".messages")).to_contain_text("8 new hands dealt")
    expect(page.locator("[data-testid=board-row-8] code")).to_contain_text("N:")
    assert Board.objects.filter(event=event).exclude(deal="").count() == 8
    browser.shot(page, "director hands dealt")

    page.click("[data-testid=nav-event]")
    page.click("[data-testid=status-running]")
    expect(page.locator("#event-status")).to_have_attribute("data-status", "running")
    page.click("[data-testid=publish-provisional]")
    expect(page.locator("#event-published")).to_have_attribute("data-published", "provisional")
    expect(page.locator("[data-testid=cell-1-1]")).to_have_attribute("data-status", "missing")
    browser.shot(page, "director night running")
    return page, event


def test_the_night(browser, director):
    director_page, event = set_up_in_console(browser, director)
    assert Meeting.objects.filter(section__event=event).count() == 12  # 3 rounds x 4 tables

    # The director reads table 1's code off its card.
    director_page.click("[data-testid=nav-tables]")
    code = director_page.inner_text("[data-testid=table-code-1]").strip()
    assert len(code) == 6

    # --- table 1, on a phone --------------------------------------------------------------
    phone = browser.page(phone=True)
    phone.goto("/t/")
    phone.fill("#table-code", code.lower())  # typed in lower case: still the table's code
    browser.shot(phone, "table code typed")
    phone.tap("#table-code-submit")
    expect(phone.locator("#table-title")).to_have_text("Table 1 · round 1")
    expect(phone.locator("#pair-ns")).to_contain_text("Ann Lee & Bob Ray")
    expect(phone.locator("#pair-ew")).to_contain_text("Ida Joy & Jo King")  # pair 5
    expect(phone.locator("#board-1")).to_have_attribute("data-status", "missing")
    browser.shot(phone, "table round 1")

    phone.tap("[data-testid=open-board-1]")
    expect(phone.locator("#result-form")).to_be_visible()
    for label in ("level-2", "denomination-H", "declarer-S", f"tricks-{TRICKS}"):
        phone.tap(f"label[for={label}]")
    board = Board.objects.get(event=event, number=1)
    score = engine_score(event, board, TRICKS)
    # The score box fills in as the players tap, before anything is saved.
    for side in ("ns", "ew"):
        for column, key in (("trick", "trick_score"), ("honour", "honour_score"),
                            ("total", "total")):
            expect(phone.locator(f"#preview-{side}-{column}")).to_have_text(
                str(score[side][key]))
    expect(phone.locator("#preview-net")).to_have_text(f"Net N–S: {signed(score['net_ns'])}")
    expect(phone.locator("#preview-items li")).to_have_count(len(score["items"]))
    for item in score["items"]:  # each point explained, with its law
        law = presenters.law_text(item["law"])
        expect(phone.locator("#preview-items")).to_contain_text(
            f"{item['column']} {presenters.number(item['points'])}: {item['what']} ({law})")
    honours = honours_from_deal(board.deal, "H")
    expect(phone.locator("#honours-derived")).to_have_text(
        ": " + " · ".join(f"{seat} {honours[seat]}" for seat in "NESW"))
    assert not Result.objects.filter(event=event).exists()  # nothing written by the preview
    browser.shot(phone, "table board 1 score preview")

    phone.tap("#save-result")
    expect(phone.locator("#result-status")).to_have_attribute("data-status", "entered")
    expect(phone.locator("#result-text")).to_contain_text(f"{TRICKS} tricks")
    expect(phone.locator("#preview-ns-total")).to_have_text(str(score["ns"]["total"]))
    result = Result.objects.get(event=event, board__number=1)
    assert (result.ns_pair.number, result.ew_pair.number, result.tricks) == (1, 5, TRICKS)
    assert (result.ns_trick, result.ns_honour) == (score["ns"]["trick_score"],
                                                   score["ns"]["honour_score"])
    browser.shot(phone, "table board 1 saved")

    # East-West take the phone and confirm.
    phone.tap("#confirm-result")
    expect(phone.locator("#board-1")).to_have_attribute("data-status", "confirmed")
    expect(phone.locator(".messages")).to_contain_text("Board 1 confirmed.")
    result.refresh_from_db()
    assert result.status == Result.Status.CONFIRMED

    # Both pairs here have played board 1: its traveller opens.
    phone.tap("[data-testid=traveller-1]")
    expect(phone.locator("#traveller tbody tr")).to_have_count(1)
    cells = phone.locator("#traveller tbody tr").first.locator("td")
    expect(cells.nth(0)).to_have_text("1")
    expect(cells.nth(1)).to_have_text("5")
    expect(cells.nth(3)).to_have_text(str(TRICKS))
    # The pairs' scores first, then each side's trick and honour scores (a phone shows
    # the first six columns without scrolling).
    expect(cells.nth(6)).to_have_text(
        f"{score['ns']['trick_score']} + {score['ns']['honour_score']}")
    for heading in ("N–S ±", "E–W ±"):  # on the phone's screen, without scrolling
        box = phone.locator("#traveller th", has_text=heading).bounding_box()
        assert box["x"] + box["width"] <= phone.viewport_size["width"], heading
    expect(phone.locator("[data-testid=scroll-hint]")).to_be_visible()
    browser.shot(phone, "table traveller board 1")

    # --- the rest of the night is played at the other tables --------------------------------
    night = Night(event=event, director=director)
    assert night.play() == 23  # 24 boards in all, board 1 at table 1 entered above
    before = standings.standings(event)

    # --- the director corrects board 1 at table 1 from the grid -------------------------------
    director_page.click("[data-testid=nav-event]")
    cell = director_page.locator("[data-testid=cell-1-1]")
    # The tables agreed round 1 as they moved on (a table enters only the round it is at).
    expect(cell).to_have_attribute("data-status", "agreed")
    browser.shot(director_page, "director grid all played")
    cell.locator("a").click()
    expect(director_page.locator("#meeting-title")).to_have_text("Round 1, table 1")
    expect(director_page.locator("[data-testid=meeting-board-1]")).to_contain_text(
        selectors.describe(result))
    director_page.click("[data-testid=correct-1]")
    expect(director_page.locator("#current-result")).to_have_text(selectors.describe(result))
    # The form holds the stored result: only the tricks change.
    expect(director_page.locator("#level-2")).to_be_checked()
    expect(director_page.locator(f"#tricks-{TRICKS}")).to_be_checked()
    director_page.click(f"label[for=tricks-{CORRECTED_TRICKS}]")
    director_page.fill("#reason", "N-S took 7 tricks, not 9: agreed by both pairs")
    browser.shot(director_page, "director correction")
    director_page.click("#save-result")
    expect(director_page.locator(".messages")).to_contain_text("Board 1 corrected.")
    result.refresh_from_db()
    corrected = engine_score(event, board, CORRECTED_TRICKS)
    assert (result.tricks, result.status) == (CORRECTED_TRICKS, Result.Status.DIRECTOR)
    assert (result.ns_trick, result.ns_honour, result.ew_trick, result.ew_honour) == (
        corrected["ns"]["trick_score"], corrected["ns"]["honour_score"],
        corrected["ew"]["trick_score"], corrected["ew"]["honour_score"])
    expect(director_page.locator("[data-testid=meeting-board-1]")).to_contain_text(
        selectors.describe(result))
    entry = AuditEntry.objects.get(event=event, action="correct")
    assert entry.reason.startswith("N-S took 7 tricks")
    browser.shot(director_page, "director meeting corrected")

    # --- a spectator's standings page (not logged in) shows the corrected scores -------------
    after = standings.standings(event)
    pair_1 = next(r for r in after["rankings"][0]["rows"] if r["pair"] == 1)
    pair_1_before = next(r for r in before["rankings"][0]["rows"] if r["pair"] == 1)
    assert pair_1["exact"] != pair_1_before["exact"]  # the correction moved pair 1's score
    spectator = browser.page(phone=True)
    spectator.goto(f"/events/{event.pk}/standings/")
    expect(spectator.locator("[data-testid=published]")).to_contain_text("Provisional")
    expect(spectator.locator("[data-testid=ranking-NS] tbody tr")).to_have_count(4)
    assert ranking_rows(spectator, "NS") == expected_rows(after, "NS")
    assert ranking_rows(spectator, "EW") == expected_rows(after, "EW")
    shown = next(r for r in ranking_rows(spectator, "NS") if r["pair"] == "1")
    assert shown["score"] == signed(pair_1["score"])
    assert shown["exact"] == f"exactly {presenters.signed_exact(pair_1['exact'])}"
    assert "Log out" not in spectator.inner_text("header")
    browser.shot(spectator, "public standings corrected")
