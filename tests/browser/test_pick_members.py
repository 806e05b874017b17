"""Picking members as you type on the pairs page: a number or part of a name brings
suggestions from the member list (static/js/members.js, no inline script); a new name is
a visitor, "Name #number" a new member."""

import datetime
import os
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.reports.night import build_night
from tournaments import services
from tournaments.models import Event, Pair, Player
from tournaments.services import Actor

pytestmark = [pytest.mark.browser]

MEMBERS = ("number,first_name,last_name,email\n"
           "1001,Ann,Lee,ann@example.org\n"
           "1002,Bob,Ray,\n"
           "1003,Cora,Day,cora@example.org\n")
# Extra copies of the screenshots for a person to look at, when asked for.
SHOTS = os.environ.get("MEMBER_SHOTS")


def pairs_page(browser, director, *, phone: bool, lines=(), **event):
    """The club's members imported (MEMBERS), an event ("Monday duplicate" unless `event`
    says otherwise) with any pair `lines` stored, and its pairs page opened by the
    director at a phone's or a desktop's width: (the page, the event)."""
    actor = Actor.director(director)
    services.members_import(text=MEMBERS, actor=actor)
    event = services.event_create(**{"name": "Monday duplicate",
                                     "date": datetime.date(2026, 11, 23), **event},
                                  actor=actor)
    if lines:
        services.pairs_set(event=event, lines=lines, actor=actor)
    page = browser.page(phone=phone)
    log_in(page, director, next_url=f"/director/events/{event.pk}/pairs/")
    return page, event


def _copy(path: Path, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(SHOTS) / name)


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_pick_members_as_you_type(browser, director, phone):
    page, event = pairs_page(browser, director, phone=phone)
    picker = page.get_by_test_id("member-picker")
    expect(picker).to_be_visible()
    expect(page.get_by_test_id("pick-team")).to_have_count(0)  # a pairs event: no teams

    page.get_by_test_id("pick-1").press_sequentially("100", delay=40)
    suggestions = page.get_by_test_id("pick-1-list")
    expect(suggestions.get_by_role("button")).to_have_count(3)
    expect(suggestions).to_contain_text("1001 · Ann Lee")
    _copy(browser.shot(page, "suggestions"), f"pick-{'phone' if phone else 'desktop'}.png")
    suggestions.get_by_role("button", name="1001 · Ann Lee").click()
    expect(page.get_by_test_id("pick-1")).to_have_value("Ann Lee #1001")
    page.get_by_test_id("pick-2").press_sequentially("bob", delay=40)
    page.get_by_test_id("pick-2-list").get_by_role("button", name="1002 · Bob Ray").click()
    page.get_by_test_id("pick-add").click()
    expect(page.get_by_test_id("pick-note")).to_contain_text("added as pair 1")
    expect(page.get_by_test_id("pick-1")).to_have_value("")
    # A visitor (a name alone) and a new member (a name and a new number).
    page.get_by_test_id("pick-1").fill("Vic Visitor")
    page.get_by_test_id("pick-2").fill("Nell New #2001")
    page.get_by_test_id("pick-add").click()
    expect(page.get_by_test_id("pairs-text")).to_have_value(
        "Ann Lee #1001 & Bob Ray #1002\nVic Visitor & Nell New #2001\n")
    page.get_by_test_id("save-pairs").click()
    page.wait_for_url(f"**/director/events/{event.pk}/movement/")
    one, two = Pair.objects.filter(event=event).order_by("number")
    assert (one.player_1.number, one.player_2.number) == ("1001", "1002")
    assert two.player_1.number is None and two.player_1.name == "Vic Visitor"
    assert Player.objects.get(number="2001").name == "Nell New"
    assert Event.objects.get(pk=event.pk).pairs.count() == 2
    assert browser.errors == []


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_pick_pairs_for_a_teams_event(browser, director, phone):
    """A teams event's picker asks for the team too and writes the line the pairs page
    saves, "Gramercy: Ann Lee #1001 & Bob Ray #1002" (it once left the team out, and
    saving refused every line)."""
    page, event = pairs_page(browser, director, phone=phone, name="Challenge match",
                             date=datetime.date(2026, 11, 24), kind="teams",
                             method="total-points")
    team = page.get_by_test_id("pick-team")
    expect(team).to_be_visible()

    # The team is required here: without it nothing is added.
    page.get_by_test_id("pick-1").fill("Ann Lee #1001")
    page.get_by_test_id("pick-2").fill("Bob Ray #1002")
    page.get_by_test_id("pick-add").click()
    expect(page.get_by_test_id("pick-note")).to_have_text("Type the team's name first.")
    expect(team).to_be_focused()
    expect(page.get_by_test_id("pairs-text")).to_have_value("")

    team.fill("Gramercy")
    team.press("Enter")  # on to the first player, not a save of the list
    expect(page.get_by_test_id("pick-1")).to_be_focused()
    page.get_by_test_id("pick-add").click()
    expect(page.get_by_test_id("pick-note")).to_contain_text("added as pair 1 (Gramercy)")
    expect(team).to_have_value("Gramercy")  # kept for the team's next pair
    page.get_by_test_id("pick-1").press_sequentially("cora", delay=40)
    page.get_by_test_id("pick-1-list").get_by_role("button", name="1003 · Cora Day").click()
    page.get_by_test_id("pick-2").fill("Vic Visitor")
    page.get_by_test_id("pick-add").click()
    team.fill("Murray Hill")
    for first, second in (("Ed Fox", "Flo Gay"), ("Gus Hay", "Hal Ing")):
        page.get_by_test_id("pick-1").fill(first)
        page.get_by_test_id("pick-2").fill(second)
        page.get_by_test_id("pick-add").click()
    expect(page.get_by_test_id("pairs-text")).to_have_value(
        "Gramercy: Ann Lee #1001 & Bob Ray #1002\nGramercy: Cora Day #1003 & Vic Visitor\n"
        "Murray Hill: Ed Fox & Flo Gay\nMurray Hill: Gus Hay & Hal Ing\n")
    browser.shot(page, "team pairs picked")
    page.get_by_test_id("save-pairs").click()
    page.wait_for_url(f"**/director/events/{event.pk}/movement/")
    teams = {p.number: p.team.name for p in Pair.objects.filter(event=event)}
    assert teams == {1: "Gramercy", 2: "Gramercy", 3: "Murray Hill", 4: "Murray Hill"}
    assert Pair.objects.get(event=event, number=1).player_1.number == "1001"
    assert browser.errors == []


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_member_pages_screens(browser, director, phone):
    """The member list, one member, and the pairs page: looked at on a phone and a desk."""
    actor = Actor.director(director)
    services.members_import(text=MEMBERS, actor=actor)
    ann = Player.objects.get(number="1001")
    night = build_night(director, name="Tuesday duplicate").event
    pair = Pair.objects.get(event=night, number=1)
    pair.player_1 = ann
    pair.save(update_fields=["player_1"])
    page = browser.page(phone=phone)
    log_in(page, director, next_url="/director/members/")
    expect(page.get_by_test_id("members")).to_contain_text("Cora Day")
    kind = "phone" if phone else "desktop"
    _copy(browser.shot(page, "member list"), f"members-{kind}.png")
    page.goto(f"/director/members/{ann.pk}/?merge=Lee")
    expect(page.get_by_test_id("m-first")).to_have_value("Ann")
    _copy(browser.shot(page, "one member"), f"member-{kind}.png")
    page.goto("/members/1001/")
    expect(page.get_by_test_id("member-results")).to_contain_text("Tuesday duplicate")
    _copy(browser.shot(page, "public member"), f"public-member-{kind}.png")
    assert browser.errors == []
