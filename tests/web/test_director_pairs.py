"""The console's pair changes (web/director_pairs.py) and what the tables' phones show."""

import pytest
from django.db import models

from boards.movements import generate
from tests.reports.night import movement_event
from tests.web.conftest import code_of
from tests.web.test_table_where_next import play_round
from tournaments import services
from tournaments.models import AuditEntry, Meeting, Pair, Substitute


@pytest.fixture
def seven(director):
    """Seven pairs, a 4-table skip Mitchell of 2-board rounds: pair 8 is missing."""
    return movement_event(director, generate("mitchell", tables=4, boards_per_round=2,
                                             variant="skip", pairs=7))


def _sit_out_table(event, rnd: int) -> int:
    """The table whose N–S pair meets the missing pair 8 in round `rnd`."""
    full = generate("mitchell", tables=4, boards_per_round=2, variant="skip")
    return next(t.table for t in full.rounds[rnd - 1].tables if t.ew == 8)


def test_the_pairs_page_offers_the_three_changes(director_client, seven):
    page = director_client.get(f"/director/events/{seven.pk}/pairs/").content.decode()
    for testid in ("late-pair", "pair-leaves", "substitute"):
        assert f'data-testid="{testid}"' in page


def test_a_late_pair_is_shown_first_then_seated(director_client, seven):
    url = f"/director/events/{seven.pk}/pairs/late/"
    assert 'value="1"' in director_client.get(url).content.decode()  # round 1 not begun
    form = {"player_1": "Nan Kirk", "player_2": "Obed Hale", "from_round": 2,
            "reason": "came at nine"}
    page = director_client.post(url, form).content.decode()
    assert 'data-testid="plan"' in page
    assert "Nan Kirk &amp; Obed Hale become pair 8" in page
    assert "They miss round 1" in page
    assert not Pair.objects.filter(event=seven, number=8).exists()  # nothing stored yet
    response = director_client.post(url, {**form, "confirm": "1"})
    assert response.status_code == 302
    assert Pair.objects.get(event=seven, number=8).joined_round == 2
    pairs_page = director_client.get(response.url).content.decode()
    assert "Pair 8 (Nan Kirk &amp; Obed Hale) joined from round 2." in pairs_page
    assert AuditEntry.objects.get(event=seven, action="late pair").reason == "came at nine"


def test_a_late_pair_refused_says_why(director, director_client):
    full = movement_event(director, generate("mitchell", tables=3, boards_per_round=2),
                          name="Full")
    url = f"/director/events/{full.pk}/pairs/late/"
    response = director_client.post(url, {"player_1": "A B", "player_2": "C D",
                                           "from_round": 2, "reason": "x"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "its 3 tables were made for all 6 pairs" in page  # not "(pair 6 plays)"
    assert "add it on the Pairs page, then change the movement from the next round" in page
    assert "it seats the 7 pairs then playing at 4 tables" in page


def test_a_reason_is_required(director_client, seven):
    response = director_client.post(f"/director/events/{seven.pk}/pairs/late/",
                                     {"player_1": "A B", "player_2": "C D", "from_round": 2})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'data-field="reason">Say why: a change of pairs needs a reason' in page
    assert "Why (for the audit trail): required" in page  # the label said it beforehand


def test_the_substitute_form_names_each_pair_s_players(director_client, seven):
    page = director_client.get(f"/director/events/{seven.pk}/pairs/substitute/"
                               ).content.decode()
    pair = Pair.objects.filter(event=seven).order_by("number").first()
    names = " &amp; ".join(pair.names)
    assert 'list="pair-list"' in page
    assert f'<option value="{pair.number}" label="{names}"></option>' in page
    assert f"<li>Pair {pair.number}: {names}</li>" in page
    assert "the first player named" in page


def test_a_pair_leaves_from_the_console(director_client, seven):
    url = f"/director/events/{seven.pk}/pairs/leaves/"
    form = {"pair": 5, "after_round": 1, "reason": "a train to catch"}
    page = director_client.post(url, form).content.decode()
    assert "Pair 5 (" in page and "leaves after round 1" in page and "sits out" in page
    assert "not played for both pairs" in page
    director_client.post(url, {**form, "confirm": "1"})
    assert Pair.objects.get(event=seven, number=5).left_after_round == 1


def test_a_substitute_from_the_console(director_client, seven):
    url = f"/director/events/{seven.pk}/pairs/substitute/"
    pair = Pair.objects.get(event=seven, number=1)
    form = {"pair": 1, "seat": 2, "player": "Carl Day", "from_round": 2, "reason": "ill"}
    page = director_client.post(url, form).content.decode()
    assert f"Carl Day plays for {pair.names[1]} in pair 1 from round 2." in page
    director_client.post(url, {**form, "confirm": "1"})
    assert Substitute.objects.get(pair=pair).player.name == "Carl Day"
    card = director_client.get(f"/events/{seven.pk}/pairs/1/")
    if card.status_code == 200:  # the public score card, when the event shows it
        assert "Carl Day" in card.content.decode()


def test_the_table_that_sits_out_is_told_and_then_meets_the_late_pair(
        director, director_client, client, seven):
    table = _sit_out_table(seven, 2)
    play_round(seven, 1, table)
    page = client.get(f"/t/{code_of(seven, table)}/").content.decode()
    assert 'data-testid="sits-out"' in page and "Round 2: no game at this table" in page
    # Its E–W pair and the boards still have to be told where to go after round 1: the
    # box had been shown only when the table played the next round.
    over = page.split('data-testid="round-over"', 1)[1].split("</section>", 1)[0]
    assert "Round 1 is over: where to go" in over
    services.pair_join_late(event=seven, players=["Nan Kirk", "Obed Hale"], from_round=2,
                            actor=services.Actor.director(director), reason="late")
    page = client.get(f"/t/{code_of(seven, table)}/").content.decode()
    assert f"Table {table} · round 2" in page
    assert 'data-testid="sits-out"' not in page
    assert "Nan Kirk" in page


def test_a_leaving_pair_is_told_its_night_ends_and_its_opponents_sit_out(
        director, client, seven):
    services.pair_leave(event=seven, number=5, after_round=1,
                        actor=services.Actor.director(director), reason="a train")
    meeting = Meeting.objects.get(section__event=seven, round=1, ew_pair__number=5)
    page = client.get(f"/t/{code_of(seven, meeting.table)}/").content.decode()
    assert "Your night ends here" in page


def test_the_table_shows_the_substitute_from_the_round_they_play(director, client, seven):
    services.substitute_set(event=seven, number=1, seat=2, player="Carl Day", from_round=2,
                            actor=services.Actor.director(director), reason="ill")
    code = code_of(seven, 1)
    pair = Pair.objects.get(event=seven, number=1)
    first = client.get(f"/t/{code}/round/1/").content.decode()
    assert f"{pair.names[0]} &amp; {pair.names[1]}" in first and "Carl Day" not in first
    later = client.get(f"/t/{code}/round/3/").content.decode()
    assert f"{pair.names[0]} &amp; Carl Day" in later


def test_the_audit_page_names_the_pair_changes(director, director_client, seven):
    actor = services.Actor.director(director)
    services.pair_join_late(event=seven, players=["Nan Kirk", "Obed Hale"], from_round=2,
                            actor=actor, reason="came at nine")
    services.pair_leave(event=seven, number=5, after_round=1, actor=actor, reason="train")
    page = director_client.get(f"/director/events/{seven.pk}/audit/").content.decode()
    assert "Late pairs" in page and "Pairs that left" in page
    assert "round 2 table 1: 1 v 8" in page
    assert "came at nine" in page


def test_a_late_pair_or_substitute_named_as_a_member_is_told_it_is_a_visitor(
        director_client, seven):
    # As the pairs page: a member's name alone is a visitor, and the console says so.
    from tests.factories import PlayerFactory

    PlayerFactory(name="Nan Kirk", number="301")
    PlayerFactory(name="Carl Day", number="302")
    late = f"/director/events/{seven.pk}/pairs/late/"
    done = director_client.post(late, {"player_1": "nan kirk", "player_2": "Obed Hale",
                                       "from_round": 2, "reason": "late", "confirm": "1"},
                                follow=True).content.decode()
    assert "Saved as a visitor: nan kirk (pair 8) is the name of member #301." in done
    sub = f"/director/events/{seven.pk}/pairs/substitute/"
    form = {"pair": 1, "seat": 2, "from_round": 2, "reason": "ill", "confirm": "1"}
    done = director_client.post(sub, {**form, "player": "Carl Day"},
                                follow=True).content.decode()
    assert "Saved as a visitor: Carl Day (pair 1) is the name of member #302." in done
    done = director_client.post(sub, {**form, "pair": 2, "player": "Carl Day #302"},
                                follow=True).content.decode()
    assert "Saved as a visitor" not in done


def two_sections_of_19(director):
    """Section A: pairs 1 to 10, a full 5-table Mitchell; section B: pairs 11 to 19, the
    same movement with a sit-out each round."""
    import datetime

    from tests.web.test_director_sections import Line
    from tournaments.services import Actor

    actor = Actor.director(director)
    event = services.event_create(name="Two sections", date=datetime.date(2026, 11, 23),
                                  actor=actor)
    services.pairs_set(event=event, lines=[Line(n) for n in range(1, 20)], actor=actor)
    b = services.section_add(event=event, actor=actor)
    services.pairs_section_set(section=b, numbers=range(11, 20), actor=actor)
    for section in event.sections.all():
        movement, problems = services.movement_generate(
            event=event, kind="mitchell", boards_per_round=3, tables=5, section=section)
        assert not problems
        services.movement_and_boards_set(section=section, movement=movement, actor=actor)
    return event


def test_a_late_pair_joins_the_section_chosen(director, director_client):
    """With two sections the late pair's page asks which one it joins: section B's
    sit-out is filled, section A is left as it was."""
    event = two_sections_of_19(director)
    url = f"/director/events/{event.pk}/pairs/late/"
    page = director_client.get(url).content.decode()
    assert 'data-testid="field-section"' in page
    # Section A is full: the page offers B, the section with a sit-out to fill.
    assert '<option value="B" selected>Section B</option>' in page
    a_before = list(Meeting.objects.filter(section__name="A", section__event=event)
                    .values_list("round", "table", "ns_pair__number", "ew_pair__number"))
    form = {"section": "B", "player_1": "Nan Kirk", "player_2": "Obed Hale",
            "from_round": 2, "reason": "came at nine"}
    page = director_client.post(url, form).content.decode()
    assert "Nan Kirk &amp; Obed Hale become pair 20 and take the sit-out" in page
    assert 'name="section" value="B"' in page  # kept for the confirm
    response = director_client.post(url, {**form, "confirm": "1"})
    assert response.status_code == 302
    late = Pair.objects.get(event=event, player_1__name="Nan Kirk")
    assert (late.number, late.section.name, late.joined_round) == (20, "B", 2)
    assert Meeting.objects.filter(section__name="B", round=2).filter(
        models.Q(ns_pair=late) | models.Q(ew_pair=late)).exists()
    assert a_before == list(Meeting.objects.filter(section__name="A", section__event=event)
                            .values_list("round", "table", "ns_pair__number",
                                         "ew_pair__number"))


def test_a_late_pair_in_a_one_section_night_is_not_asked_the_section(director_client, seven):
    page = director_client.get(f"/director/events/{seven.pk}/pairs/late/").content.decode()
    assert 'data-testid="field-section"' not in page


def test_the_pair_changes_default_to_the_round_of_the_pairs_own_section(
        director, director_client):
    """Section B had played two rounds and section A none: the late pair's page offered
    section A's round 1 (section A has no sit-out), and a pair of B leaving "after round 0"."""
    event = two_sections_of_19(director)
    meeting = None
    for rnd in (1, 2):
        meeting = Meeting.objects.select_related("section", "ns_pair", "ew_pair").filter(
            section__name="B", section__event=event, round=rnd).first()
        services.result_record(
            event=event, board=meeting.boards[0], ns=meeting.ns_pair.number,
            ew=meeting.ew_pair.number, meeting=meeting,
            data={"contract": {"level": 1, "denomination": "NT", "declarer": "N"},
                  "tricks": 7, "honours": {"N": 1, "E": 1, "S": 1, "W": 1}},
            actor=services.Actor.director(director))
    page = director_client.get(f"/director/events/{event.pk}/pairs/late/").content.decode()
    assert '<option value="B" selected>Section B</option>' in page
    assert 'id="id_from_round" value="3"' in page
    pair = meeting.ns_pair.number
    page = director_client.get(
        f"/director/events/{event.pk}/pairs/leaves/?pair={pair}").content.decode()
    assert 'id="id_after_round" value="2"' in page
    page = director_client.get(
        f"/director/events/{event.pk}/pairs/substitute/?pair={pair}").content.decode()
    assert 'id="id_from_round" value="3"' in page
    # A pair of section A (no result yet) is offered its own section's round.
    page = director_client.get(
        f"/director/events/{event.pk}/pairs/substitute/?pair=1").content.decode()
    assert 'id="id_from_round" value="1"' in page


def test_a_pair_asked_for_by_a_number_no_pair_has_is_the_plain_form(director_client, seven):
    for asked in ("99999999999999999999", "x", "-1", "12"):
        page = director_client.get(f"/director/events/{seven.pk}/pairs/leaves/?pair={asked}")
        assert page.status_code == 200, asked


def test_the_console_says_which_pair_has_left_beside_the_movements_size(director,
                                                                        director_client):
    """The movement's pairs are still all its pairs, one of them gone: "6 pairs (pair 5
    left after round 1)", which explains the sit-out its opponents now have."""
    event = movement_event(director, generate("mitchell", tables=3, boards_per_round=2),
                           name="Full")
    services.pair_leave(event=event, number=5, after_round=1,
                        actor=services.Actor.director(director), reason="a train to catch")
    page = director_client.get(f"/director/events/{event.pk}/").content.decode()
    assert "3 tables and one sit-out, 6 pairs (pair 5 left after round 1)" in page
