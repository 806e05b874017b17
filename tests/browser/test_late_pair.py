"""A late pair: seven pairs play a Mitchell (an N–S pair sits out each round); in round 1
the director seats a late pair from round 2, and the table that would have sat out meets
it on its phone and enters a result against it."""

import datetime
import random

import pytest
from playwright.sync_api import expect

from boards.dealing import deal_boards
from boards.movements import generate
from tests.browser.conftest import PAIR_NAMES, Night, log_in
from tournaments import services
from tournaments.forms import PairLine
from tournaments.models import Event, Pair, Result

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def seven_pair_night(director) -> Night:
    actor = services.Actor.director(director)
    event = services.event_create(name="Monday duplicate", date=datetime.date(2026, 11, 23),
                                  rules="american-1913", kind="pairs", method="plus-minus",
                                  actor=actor)
    services.pairs_set(event=event, actor=actor, lines=[
        PairLine(number=n, players=list(p), team=None)
        for n, p in enumerate(PAIR_NAMES[:7], start=1)])
    movement = generate("mitchell", tables=4, boards_per_round=2, variant="skip", pairs=7)
    services.movement_and_boards_set(section=event.sections.get(), movement=movement,
                                     actor=actor)
    deals = dict(enumerate(deal_boards(movement.boards, random.Random(1913)), start=1))
    services.boards_set(event=event, count=movement.boards, deals=deals, actor=actor)
    services.event_set_status(event=event, status=Event.Status.RUNNING, actor=actor)
    return Night(event=Event.objects.get(pk=event.pk), director=director)


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_a_late_pair_joins_and_the_sit_out_table_plays_it(browser, director, phone):
    night = seven_pair_night(director)
    # In round 1 pair 8 is missing at table 4; in round 2 it would meet table 1's N–S pair.
    table = 1
    first = night.meeting(1, table)
    for board in first.boards:
        night.enter(first, board)
    services.round_agree(section=first.section, round_number=1, actor=night.actor,
                         tables=[table])

    sitter = browser.page(phone=True)
    sitter.goto(f"/t/{night.code(table)}/")
    expect(sitter.locator("[data-testid=sits-out]")).to_contain_text(
        "Round 2: no game at this table")
    browser.shot(sitter, "table 1 sits out round 2")

    page = browser.page(phone=phone)
    log_in(page, director, next_url=f"/director/events/{night.event.pk}/pairs/")
    page.click("[data-testid=late-pair]")
    expect(page.locator("[data-testid=field-from_round]")).to_have_value("2")
    page.fill("[data-testid=field-player_1]", "Nan Kirk")
    page.fill("[data-testid=field-player_2]", "Obed Hale")
    page.fill("[data-testid=field-reason]", "came at nine")
    browser.shot(page, "late pair form")
    page.click("[data-testid=check-change]")
    plan = page.locator("[data-testid=plan]")
    expect(plan).to_contain_text("Nan Kirk & Obed Hale become pair 8")
    expect(plan).to_contain_text("Round 2, table 1: N–S pair 1 against E–W pair 8")
    assert not Pair.objects.filter(event=night.event, number=8).exists()
    browser.shot(page, "late pair plan")
    page.click("[data-testid=confirm-change]")
    expect(page.locator(".messages")).to_contain_text("Pair 8 (Nan Kirk & Obed Hale) plays "
                                                      "from round 2")
    expect(page.locator("[data-testid=changes]")).to_contain_text("joined from round 2")
    browser.shot(page, "pairs page after")

    sitter.reload()
    expect(sitter.locator("#table-title")).to_have_text("Table 1 · round 2")
    expect(sitter.locator("[data-testid=sits-out]")).to_have_count(0)
    expect(sitter.locator("#pair-ew")).to_contain_text("Nan Kirk & Obed Hale")
    board = night.meeting(2, table).boards[0]
    sitter.tap(f"[data-testid=open-board-{board}]")
    for label in ("level-2", "denomination-H", "declarer-S", "tricks-8"):
        sitter.tap(f"label[for={label}]")
    sitter.tap("#save-result")
    expect(sitter.locator("#result-status")).to_have_attribute("data-status", "entered")
    browser.shot(sitter, "result against the late pair")
    result = Result.objects.get(event=night.event, board__number=board, ns_pair__number=1)
    assert result.ew_pair.number == 8 and result.tricks == 8


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_a_pair_leaves_and_a_substitute_comes(browser, director, phone):
    night = seven_pair_night(director)
    page = browser.page(phone=phone)
    log_in(page, director, next_url=f"/director/events/{night.event.pk}/pairs/")
    page.click("[data-testid=pair-leaves]")
    page.fill("[data-testid=field-pair]", "5")
    page.fill("[data-testid=field-after_round]", "1")
    page.fill("[data-testid=field-reason]", "a train to catch")
    page.click("[data-testid=check-change]")
    expect(page.locator("[data-testid=plan]")).to_contain_text("not played for both pairs")
    browser.shot(page, "pair leaves plan")
    page.click("[data-testid=confirm-change]")
    expect(page.locator("[data-testid=changes]")).to_contain_text("left after round 1")

    page.click("[data-testid=substitute]")
    page.fill("[data-testid=field-pair]", "1")
    page.select_option("[data-testid=field-seat]", "2")
    page.fill("[data-testid=field-player]", "Carl Day")
    page.fill("[data-testid=field-from_round]", "2")
    page.fill("[data-testid=field-reason]", "Bob is ill")
    browser.shot(page, "substitute form")
    page.click("[data-testid=check-change]")
    expect(page.locator("[data-testid=plan]")).to_contain_text(
        "Ann Lee & Bob Ray (Carl Day for Bob Ray from round 2)")
    browser.shot(page, "substitute plan")
    page.click("[data-testid=confirm-change]")
    expect(page.locator("[data-testid=changes]")).to_contain_text(
        "Pair 1: Carl Day plays for Bob Ray from round 2.")
    assert Pair.objects.get(event=night.event, number=5).left_after_round == 1
