"""The console's words where a new director read them wrong: members typed by name alone
(saved as visitors, and told so), going back to setting up (asked first, and what it means),
a ruling's missing reason, and a mistyped e-mail kept as typed."""

import pytest
from django.contrib.messages import get_messages
from django.utils.html import strip_tags

from tests.web.conftest import PAIR_NAMES, code_of, console_event, make_event
from tests.web.test_director_results import meeting_at, table_result
from tournaments import services
from tournaments.models import AuditEntry, Event, Pair, Player
from tournaments.services import Actor

# --- 1. a member's name without their number -----------------------------------------------


def _members(*rows):
    for number, first, last, active in rows:
        Player.objects.create(number=number, first_name=first, last_name=last,
                              name=f"{first} {last}", active=active)


def _warnings(response) -> list[str]:
    return [m.message for m in get_messages(response.wsgi_request) if m.level_tag == "warning"]


def test_members_named_without_numbers_are_visitors_and_the_page_says_so(director_client):
    _members(("109", "Winifred", "Delancey", True), ("110", "Ada", "Lispenard", False))
    event = console_event(director_client)
    lines = [*PAIR_NAMES[:4], "  winifred delancey  & Ada Lispenard", "Ida Jay & 109"]
    response = director_client.post(f"/director/events/{event.pk}/pairs/",
                                    {"pairs": "\n".join(lines)})
    assert response.status_code == 302  # the rule stands: saved, not refused
    pair = Pair.objects.select_related("player_1", "player_2").get(event=event, number=5)
    assert (pair.player_1.number, pair.player_2.number) == (None, None)
    # Member 109 plays in pair 6 ("Ida Jay & 109"): only the member not seated is offered,
    # so following the advice is never refused as a member in two pairs.
    assert _warnings(response) == [
        "Saved as a visitor: Ada Lispenard (pair 5) is the name of member #110. To credit "
        "the member, write “Ada Lispenard #110”."]
    # Shown on the page the save leads to.
    page = director_client.get(response["Location"]).content.decode()
    assert "Saved as a visitor: Ada Lispenard (pair 5)" in page


def test_a_number_typed_with_another_members_name_is_told(director_client):
    """"Ann Lee #109" seated member 109, Winifred Delancey, without a word."""
    _members(("109", "Winifred", "Delancey", True), ("110", "Ada", "Lispenard", True))
    event = console_event(director_client)
    lines = [*PAIR_NAMES[:4], "Ann Lee #109 & ada lispenard #110"]
    response = director_client.post(f"/director/events/{event.pk}/pairs/",
                                    {"pairs": "\n".join(lines)})
    assert response.status_code == 302
    pair = Pair.objects.select_related("player_1").get(event=event, number=5)
    assert pair.player_1.name == "Winifred Delancey"  # the number decides
    assert _warnings(response) == [
        "Pair 5: “Ann Lee #109”: member #109 is Winifred Delancey, who is seated. If you "
        "meant someone else, correct the number."]  # (the name's case is no matter)


def test_one_visitor_named_as_two_members_and_no_warning_without_one(director_client):
    _members(("12", "Ann", "Lee", True), ("40", "Ann", "Lee", True))
    event = console_event(director_client)
    url = f"/director/events/{event.pk}/pairs/"
    response = director_client.post(url, {"pairs": "\n".join(PAIR_NAMES[:4])})
    assert response.status_code == 302 and _warnings(response) == [
        "Saved as a visitor: Ann Lee (pair 1) is the name of members #12 and #40. To credit "
        "the member, write “Ann Lee #12”."]
    director_client.get(response["Location"])  # the warning is read: the next save is new
    named = "\n".join(["Ann Lee #40 & Bob Ray", *PAIR_NAMES[1:4]])
    response = director_client.post(url, {"pairs": named})
    assert response.status_code == 302 and _warnings(response) == []
    assert Pair.objects.get(event=event, number=1).player_1.number == "40"


# --- 2. back to setting up -----------------------------------------------------------------


def test_back_to_setting_up_asks_first_and_says_what_it_means(director_client, event):
    url = f"/director/events/{event.pk}/status/"
    page = director_client.get(f"/director/events/{event.pk}/").content.decode()
    assert f'href="{url}?status=setting-up"' in page  # a link to a page, not a switch
    # A POST from an old page (or a script) is asked too: nothing changes yet.
    asked = director_client.post(url, {"status": "setting-up"})
    assert asked.status_code == 200
    event.refresh_from_db()
    assert event.status == "running"
    text = strip_tags(director_client.get(url, {"status": "setting-up"}).content.decode())
    assert "Put Tuesday duplicate back to setting up?" in text
    assert "it does not stop the tables" in text and "No result is in yet." in text
    done = director_client.post(url, {"status": "setting-up", "confirmed": "1"})
    assert done.status_code == 302
    event.refresh_from_db()
    assert event.status == "setting-up"


def test_back_to_setting_up_with_results_in_wants_a_reason(director_client, event):
    table_result(event, meeting_at(event), 1)
    url = f"/director/events/{event.pk}/status/"
    text = strip_tags(director_client.get(url, {"status": "setting-up"}).content.decode())
    assert "Already in: 1 board result" in text and "Round 1, table 1: board 1" in text
    assert "going back to setting up removes no score" in text
    refused = director_client.post(url, {"status": "setting-up", "confirmed": "1"})
    assert refused.status_code == 200
    assert "Say why the event goes back to setting up" in refused.content.decode()
    event.refresh_from_db()
    assert event.status == "running"
    director_client.post(url, {"status": "setting-up", "confirmed": "1",
                               "reason": "wrong movement, starting over"})
    event.refresh_from_db()
    assert event.status == "setting-up"
    entry = AuditEntry.objects.filter(event=event, action="status").latest("pk")
    assert entry.reason == "wrong movement, starting over"
    assert event.results.filter(voided=False).count() == 1  # the score stays


def test_a_setting_up_event_lists_the_results_already_in(director_client, director):
    """A table can enter a result before "Start the night" (only agreed and closed shut
    the tables out): the console says so, and lists what is in."""
    event = make_event(director, status=Event.Status.SETTING_UP)
    page = strip_tags(director_client.get(f"/director/events/{event.pk}/").content.decode())
    assert "the tables can already enter results" in page
    assert "Already in" not in page
    seated = meeting_at(event)
    services.result_record(event=event, board=1, ns=1, ew=3, actor=Actor.at_table(
        seated.section, seated.table), meeting=seated, data={
        "contract": {"level": 1, "denomination": "NT", "declarer": "N"}, "tricks": 8,
        "honours": {"N": 2, "E": 1, "S": 1}})
    assert code_of(event, 1)
    page = strip_tags(director_client.get(f"/director/events/{event.pk}/").content.decode())
    assert "Already in: 1 board result, entered before the night started." in page
    assert "Round 1, table 1: board 1" in page


# --- 3. a ruling's reason ------------------------------------------------------------------


def test_a_ruling_without_a_reason_asks_for_one_in_a_rulings_words(director_client, event):
    m = meeting_at(event)
    url = f"/director/events/{event.pk}/meetings/{m.pk}/boards/1/rule/"
    for reason in ("", "   "):
        page = director_client.post(url, {"kind": "average", "reason": reason}).content.decode()
        assert "Say why: a ruling needs a reason for the audit trail" in page
        assert "correction" not in strip_tags(page).split("Why (for the audit trail)")[1]
    assert not event.results.exists()


# --- 5. a mistyped e-mail ------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["not-an-email", "ann@"])
def test_a_wrong_e_mail_is_quoted_as_typed(director_client, typed):
    page = director_client.post("/director/members/new/", {
        "number": "", "first_name": "Ann", "last_name": "Lee", "email": typed,
        "active": "on"}).content.decode()
    assert f"That is not an e-mail address: “{typed}”<" in page
    assert not Player.objects.filter(last_name="Lee").exists()


# --- the standings, from the console ------------------------------------------------------


def test_the_console_leads_to_the_standings(director_client):
    """The Standings panel had publish buttons and no way to see what they publish."""
    event = console_event(director_client)
    page = director_client.get(f"/director/events/{event.pk}/").content.decode()
    panel = page.split('id="event-publish"', 1)[1].split("</section>", 1)[0]
    assert (f'<a href="/events/{event.pk}/standings/" data-testid="see-standings">See the '
            "standings</a>") in panel
    assert "only you see them until they are published" in panel
    assert director_client.get(f"/events/{event.pk}/standings/").status_code == 200


# --- the movement for a small night -------------------------------------------------------


@pytest.mark.parametrize("pairs", [3, 4])
def test_three_or_four_pairs_are_offered_a_howell(director_client, pairs):
    """The form offered a 2-table Mitchell, then refused it ("a Mitchell needs 3 to 20
    tables") with no word of the Howell that seats them."""
    event = console_event(director_client)
    director_client.post(f"/director/events/{event.pk}/pairs/",
                         {"pairs": "\n".join(PAIR_NAMES[:pairs])})
    page = director_client.get(f"/director/events/{event.pk}/movement/").content.decode()
    assert 'value="howell" checked' in page or 'value="howell" selected' in page
    saved = director_client.post(f"/director/events/{event.pk}/movement/", {
        "kind": "howell", "tables": "2" if pairs == 4 else "1", "boards_per_round": "3",
        "variant": "", "pairs_per_team": "", "action": "save"})
    assert saved.status_code == 302, saved.content.decode()[:2000]
    refused = director_client.post(f"/director/events/{event.pk}/movement/", {
        "kind": "mitchell", "tables": "2", "boards_per_round": "3", "variant": "",
        "pairs_per_team": "", "action": "show"}).content.decode()
    assert (f"A Mitchell needs at least 3 tables (5 pairs): {pairs} pairs play a Howell "
            "(choose Howell)") in refused


# --- boards a round, one or more ----------------------------------------------------------------


@pytest.mark.django_db
def test_the_event_page_says_one_board_a_round(director, director_client):
    """A movement of 1 board a round reads "1 board a round", never "1 boards a round", on
    the event page's set-up list, with one section and with several."""
    from tests.web.test_director_sections import night
    from tournaments.models import Section

    event = night(director)
    movement = f"/director/events/{event.pk}/movement/"
    director_client.post(movement, {"kind": "mitchell", "tables": 10, "boards_per_round": 1,
                                    "variant": "skip", "action": "save"})
    text = strip_tags(director_client.get(f"/director/events/{event.pk}/").content.decode())
    assert "1 board a round" in text
    assert "boards a round" not in text
    event = night(director)  # another night, in two sections
    movement = f"/director/events/{event.pk}/movement/"
    sections = f"/director/events/{event.pk}/sections/"
    director_client.post(sections, {"action": "add"})
    b = Section.objects.get(event=event, name="B")
    director_client.post(sections, {"action": "pairs", "section_id": b.pk, "pairs": "11-20"})
    for name, per_round in (("A", 1), ("B", 3)):
        director_client.post(movement, {"section": name, "kind": "mitchell", "tables": 5,
                                        "boards_per_round": per_round, "variant": "",
                                        "action": "save"})
    text = " ".join(strip_tags(director_client.get(
        f"/director/events/{event.pk}/").content.decode()).split())
    assert "Section A: Mitchell, 5 tables, 1 board a round" in text
    assert "Section B: Mitchell, 5 tables, 3 boards a round" in text
    assert "1 boards" not in text
