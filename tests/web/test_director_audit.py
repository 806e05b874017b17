"""The audit page narrows by table, board, who and kind of change, and pages 50 at a time."""

import re

import pytest

from tournaments import services
from tournaments.models import AuditEntry, Event, Meeting
from tournaments.services import Actor
from tournaments.web.director import _audit_text

from .conftest import make_event

PLAY = {"contract": {"level": 2, "denomination": "H", "declarer": "S", "doubled": ""},
        "tricks": 8, "honours": {"N": 2, "E": 1, "S": 1, "W": 1}}


@pytest.fixture
def night(director):
    """Round 1 played: table 1 boards 1-2, table 2 boards 3-4, each entered and confirmed
    at the table; the director corrects board 3 and removes board 4."""
    event = make_event(director)
    results = {}
    for meeting in Meeting.objects.filter(section__event=event, round=1):
        actor = Actor.at_table(meeting.section, meeting.table)
        for board in meeting.boards:
            result, _ = services.result_record(
                event=event, board=board, ns=meeting.ns_pair.number,
                ew=meeting.ew_pair.number, data=PLAY, actor=actor, meeting=meeting)
            results[board] = services.result_confirm(result=result, actor=actor,
                                                     by=f"E-W pair {meeting.ew_pair.number}")
    boss = Actor.director(director)
    services.result_correct(result=results[3], actor=boss, data={**PLAY, "tricks": 9},
                            reason="tricks miscounted")
    services.result_void(result=results[4], actor=boss, reason="played at the wrong table")
    return event


def shown(director_client, event, query: str = "") -> list[int]:
    """The change numbers the page lists, in order."""
    html = director_client.get(f"/director/events/{event.pk}/audit/{query}").content.decode()
    return [int(pk) for pk in re.findall(r'<tr id="audit-(\d+)"', html)]


def ids(event, **filters) -> list[int]:
    return list(AuditEntry.objects.filter(event=event, **filters)
                .order_by("-id").values_list("id", flat=True))


def test_unfiltered_the_page_lists_every_change_newest_first(director_client, night):
    assert shown(director_client, night) == ids(night)


def test_by_table(director_client, night):
    table2 = shown(director_client, night, "?table=2")
    assert table2 == ids(night, result__meeting__table=2)
    assert len(table2) == 6  # boards 3 and 4 entered and confirmed, one correction, one removal
    assert shown(director_client, night, "?table=1") == ids(night, result__meeting__table=1)


def test_by_board(director_client, night):
    board3 = shown(director_client, night, "?board=3")
    actions = [AuditEntry.objects.get(pk=pk).action for pk in board3]
    assert actions == ["correct", "confirm", "enter"]


def test_director_actions_against_table_actions(director_client, night):
    director = shown(director_client, night, "?who=director")
    assert director == ids(night, actor__isnull=False)
    assert {"correct", "void", "create event", "boards"} <= {
        AuditEntry.objects.get(pk=pk).action for pk in director}
    tables = shown(director_client, night, "?who=table")
    assert {AuditEntry.objects.get(pk=pk).actor_label for pk in tables} == {"table 1", "table 2"}
    assert len(tables) == 8
    assert set(director).isdisjoint(tables)


def test_by_kind_of_change(director_client, night):
    assert shown(director_client, night, "?kind=correct") == ids(night, action="correct")
    html = director_client.get(f"/director/events/{night.pk}/audit/").content.decode()
    # The kinds offered are those this event has, in words.
    assert '<option value="correct">Corrections</option>' in html
    assert '<option value="enter">Scores entered</option>' in html
    assert 'value="undo"' not in html


def test_filters_combine_and_an_empty_answer_says_so(director_client, night):
    assert shown(director_client, night, "?table=2&who=director&kind=void") == ids(
        night, action="void")
    html = director_client.get(
        f"/director/events/{night.pk}/audit/?board=1&who=director").content.decode()
    assert "No change matches these filters." in html
    one = director_client.get(f"/director/events/{night.pk}/audit/?kind=void").content.decode()
    assert "1 change that matches, newest first." in one
    assert 'data-testid="audit-all"' in html  # the way back to every change


def test_a_value_the_event_does_not_have_is_ignored(director_client, night):
    assert shown(director_client, night, "?table=9&board=x&who=nobody&kind=drop") == ids(night)


def test_the_filters_keep_their_values_on_the_page(director_client, night):
    html = director_client.get(
        f"/director/events/{night.pk}/audit/?table=2&kind=confirm").content.decode()
    assert '<option value="2" selected>Table 2</option>' in html
    assert '<option value="confirm" selected>Scores confirmed</option>' in html


def test_fifty_a_page_newest_first_with_the_filters_kept_in_the_page_links(
        director, director_client, night):
    boss = Actor.director(director)
    for n in range(90):  # ninety changes of pair 1's names, by the director
        services.pair_set(event=night, number=1, players=[f"Ann Lee {n}", "Bob Ray"],
                          actor=boss)
    everything = ids(night)
    assert len(everything) > 100
    first = shown(director_client, night)
    assert first == everything[:50]
    assert shown(director_client, night, "?page=2") == everything[50:100]
    assert shown(director_client, night, "?page=99") == everything[100:]  # the last page

    pairs = ids(night, action="pair")
    html = director_client.get(f"/director/events/{night.pk}/audit/?kind=pair").content.decode()
    assert f"Changes 1–50 of {len(pairs)} that match, newest first." in html
    older = re.search(r'href="([^"]+)" rel="next"', html).group(1).replace("&amp;", "&")
    assert "kind=pair" in older and "page=2" in older
    assert shown(director_client, night, older) == pairs[50:]
    second = director_client.get(f"/director/events/{night.pk}/audit/{older}").content.decode()
    newer = re.search(r'href="([^"]+)" rel="prev"', second).group(1).replace("&amp;", "&")
    assert "kind=pair" in newer and "page=1" in newer


def test_undo_is_offered_by_the_whole_history_not_by_the_page(
        director, director_client, night):
    boss = Actor.director(director)
    correction = AuditEntry.objects.get(event=night, action="correct")
    for n in range(60):  # push the correction onto page 2
        services.pair_set(event=night, number=1, players=[f"Ann Lee {n}", "Bob Ray"],
                          actor=boss)
    html = director_client.get(f"/director/events/{night.pk}/audit/?page=2").content.decode()
    assert f'data-testid="undo-{correction.pk}"' in html
    # Board 3's earlier entries are not undoable: the correction came after them.
    board3 = director_client.get(f"/director/events/{night.pk}/audit/?board=3").content.decode()
    assert re.findall(r'data-testid="undo-(\d+)"', board3) == [str(correction.pk)]


def test_a_set_up_change_reads_in_words_not_field_names():
    text = _audit_text({"pair": 2, "from_round": 4, "late_boards": []}, Event(rules="english"))
    assert text == "pair: 2, from round: 4, leave to play late: none"
    # No True/False, no database ids, the law's stages and outcomes in words.
    assert _audit_text({"club_adjustments": True}, Event()) == "club adjustments: on"
    assert _audit_text({"published": "none"}, Event()) == "standings: not published"
    assert _audit_text({"board": 2, "stage": "overplay", "status": "resolved",
                        "outcome": "fouled", "result": 240}, Event()) == (
        "board: 2, found: after the overplay began, status: decided, outcome: fouled board")


def test_a_removal_is_called_so_and_a_result_s_state_in_words(director_client, night):
    html = director_client.get(f"/director/events/{night.pk}/audit/").content.decode()
    assert '<td data-label="What">remove</td>' in html
    assert '<td data-label="What">void</td>' not in html
    assert ", confirmed</td>" in html and "[confirmed]" not in html


def test_a_tables_changes_name_its_section_on_a_night_of_several(director, director_client):
    # Section A's table 3 and section B's table 3 are two tables: "Table 3" told neither.
    from tests.tournaments.test_sections import two_section_night

    event = two_section_night(Actor.director(director))
    for meeting in Meeting.objects.filter(section__event=event, round=1, table=3):
        actor = Actor.at_table(meeting.section, meeting.table)
        board = meeting.boards[0]
        result, _ = services.result_record(
            event=event, board=board, ns=meeting.ns_pair.number, ew=meeting.ew_pair.number,
            data=PLAY, actor=actor, meeting=meeting)
        services.result_confirm(result=result, actor=actor)
    html = director_client.get(f"/director/events/{event.pk}/audit/").content.decode()
    who = re.findall(r'<td data-label="Who">([^<]*)</td>', html)
    assert "Section A, table 3" in who and "Section B, table 3" in who
    assert "Table 3" not in who


def test_a_publication_number_is_not_shown():
    """The audit showed "publication: 151", the score card mails' key, to the director."""
    text = _audit_text({"published": "final", "publication": 151}, Event(rules="english"))
    assert text == "standings: final"
