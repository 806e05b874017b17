"""The director's hand on results: correct, rule (Duplicate Law B), remove, enter, agree, undo."""

import pytest
from django.utils.html import strip_tags

from tests.web.conftest import PAIR_NAMES, console_event, contract_post
from tournaments import presenters, services
from tournaments.models import AuditEntry, Meeting, Result
from tournaments.services import Actor

NT_MADE = {"contract": {"level": 1, "denomination": "NT", "declarer": "N"}, "tricks": 8,
           "honours": {"N": 2, "E": 1, "S": 1}}


@pytest.fixture
def running(mitchell, director):
    services.event_set_status(event=mitchell, status="running", actor=Actor.director(director))
    mitchell.refresh_from_db()
    return mitchell


def meeting_at(event, rnd=1, table=1) -> Meeting:
    return Meeting.objects.select_related("section", "ns_pair", "ew_pair").get(
        section__event=event, round=rnd, table=table)


def table_result(event, meeting, board, data=NT_MADE) -> Result:
    result, _ = services.result_record(
        event=event, board=board, ns=meeting.ns_pair.number, ew=meeting.ew_pair.number,
        data=data, actor=Actor.at_table(meeting.section, meeting.table), meeting=meeting)
    return result


def test_the_meeting_page_lists_boards_and_actions(director_client, running):
    m = meeting_at(running)
    result = table_result(running, m, 1)
    page = director_client.get(f"/director/events/{running.pk}/meetings/{m.pk}/").content.decode()
    assert "Round 1, table 1" in page
    # The words as read (N–S and E–W sit in spans that keep them on one line).
    text = strip_tags(page)
    assert "1NT by N, 8 tricks" in text and "N–S 50 (20 trick + 30 honour), E–W 0" in text
    assert f"/results/{result.pk}/correct/" in page and 'data-testid="enter-2"' in page
    assert 'data-testid="agree-table"' in page and 'data-testid="agree-whole-round"' in page


def test_correct_needs_a_reason(director_client, running):
    m = meeting_at(running)
    result = table_result(running, m, 1)
    url = f"/director/events/{running.pk}/results/{result.pk}/correct/"
    form = director_client.get(url).content.decode()
    assert 'id="reason"' in form and 'value="1" id="level-1" data-testid="level-1" checked' in form
    refused = director_client.post(url, contract_post(level=1, denomination="NT", declarer="N",
                                                      tricks=9, honours_N=2, honours_E=1,
                                                      honours_S=1))
    assert refused.status_code == 200
    assert "Say why: a correction needs a reason for the audit trail" in refused.content.decode()
    assert 'data-field="reason"' in refused.content.decode()
    result.refresh_from_db()
    assert result.tricks == 8 and result.version == 1

    done = director_client.post(url, contract_post(
        level=1, denomination="NT", declarer="N", tricks=9, honours_N=2, honours_E=1, honours_S=1,
        reason="the table miscounted the tricks"))
    assert done.status_code == 302
    result.refresh_from_db()
    assert result.tricks == 9 and result.status == "director" and result.ns_trick == 30
    entry = AuditEntry.objects.get(result=result, action="correct")
    assert entry.reason == "the table miscounted the tricks"
    assert entry.actor_label == "director alice"
    assert entry.before["tricks"] == 8 and entry.after["tricks"] == 9


def test_director_corrects_after_the_round_is_agreed(director_client, running, director):
    m = meeting_at(running)
    result = table_result(running, m, 1)
    services.round_agree(section=m.section, round_number=1, actor=Actor.director(director))
    response = director_client.post(
        f"/director/events/{running.pk}/results/{result.pk}/correct/",
        contract_post(level=2, denomination="NT", declarer="N", tricks=8, honours_N=2, honours_E=1,
                      honours_S=1, reason="wrong level"))
    assert response.status_code == 302
    result.refresh_from_db()
    assert result.level == 2


def test_enter_a_missing_result(director_client, running):
    m = meeting_at(running)
    url = f"/director/events/{running.pk}/meetings/{m.pk}/boards/2/enter/"
    assert director_client.get(url).status_code == 200
    response = director_client.post(url, contract_post(level=3, denomination="H", declarer="S",
                                                       tricks=9))
    assert response.status_code == 302
    result = Result.objects.get(event=running, board__number=2)
    assert (result.ns_pair.number, result.ew_pair.number) == (1, 8)
    assert result.status == "director" and result.entered_by == "director alice"
    # A board the meeting does not play cannot be entered there.
    assert director_client.get(
        f"/director/events/{running.pk}/meetings/{m.pk}/boards/7/enter/").status_code == 404


def test_average_and_fouled_rulings(director_client, running):
    # Boards 4 to 6 come to table 1 in round 2 from table 2, which played them in round 1:
    # found wrong there, it is after the overplay began (Duplicate Law B(3)).
    m = meeting_at(running, 2, 1)
    url = f"/director/events/{running.pk}/meetings/{m.pk}/boards/4/rule/"
    page = director_client.get(url).content.decode()
    assert 'id="ruling-average"' in page and 'id="ruling-fouled"' in page
    assert 'id="ruling-cancelled"' not in page  # seven tables: no new deal (Duplicate Law B)

    no_reason = director_client.post(url, {"kind": "average", "reason": ""})
    assert "Say why" in no_reason.content.decode()
    no_side = director_client.post(url, {"kind": "fouled", "reason": "13 and 12 cards"})
    assert "names the side whose player was short" in no_side.content.decode()
    cancel = director_client.post(url, {"kind": "cancelled", "reason": "x"})
    assert "Select a valid choice" in cancel.content.decode()
    # Board 1 at table 1 in round 1 is its first play: found wrong there, it is a new deal
    # (B(1)), not an artificial result (a review's average there replaced the table's
    # confirmed result).
    first = meeting_at(running)
    table_result(running, first, 1)
    at_first = director_client.post(
        f"/director/events/{running.pk}/meetings/{first.pk}/boards/1/rule/",
        {"kind": "average", "reason": "short hand"}).content.decode()
    assert ("Board 1 has not been played at another table before table 1 in round 1: an "
            "average or a fouled board (Duplicate Law B(3)) is for a board found wrong after "
            "the overplay began. Found at its first play, it is a new deal (Duplicate Law "
            "B(1)): report it under Irregular boards") in at_first
    assert list(Result.objects.values_list("ruling", flat=True)) == [""]

    done = director_client.post(url, {"kind": "fouled", "offending": "ew",
                                      "reason": "East had 12 cards, West 14"})
    assert done.status_code == 302
    result = Result.objects.get(event=running, board__number=4)
    assert (result.ruling, result.offending, result.ns_score) == ("fouled", "ew", None)
    url2 = f"/director/events/{running.pk}/meetings/{m.pk}/boards/5/rule/"
    director_client.post(url2, {"kind": "average", "reason": "short hand, adversary surplus"})
    assert Result.objects.get(event=running, board__number=5).ruling == "average"
    page = director_client.get(f"/director/events/{running.pk}/meetings/{m.pk}/").content.decode()
    assert "Fouled board (Duplicate Law B), E–W at fault" in page
    assert "Average (Duplicate Law B)" in page


def test_cancelled_at_both_tables_in_a_two_table_event(director_client, director):
    event = console_event(director_client, name="Two tables")
    director_client.post(f"/director/events/{event.pk}/pairs/",
                         {"pairs": "\n".join(PAIR_NAMES[:4])})
    response = director_client.post(f"/director/events/{event.pk}/movement/", {
        "kind": "howell", "tables": "2", "boards_per_round": "2", "action": "save"})
    assert response.status_code == 302
    playing = [m for m in Meeting.objects.filter(section__event=event) if 1 in m.boards]
    assert len(playing) == 2
    m = playing[0]
    url = f"/director/events/{event.pk}/meetings/{m.pk}/boards/1/rule/"
    assert 'id="ruling-cancelled"' in director_client.get(url).content.decode()
    done = director_client.post(url, {"kind": "cancelled", "reason": "a card missing at "
                                                                     "the overplay"},
                                follow=True)
    assert "cancelled at table 1, 2" in done.content.decode()
    rulings = Result.objects.filter(event=event, board__number=1, voided=False)
    assert rulings.count() == 2 and {r.ruling for r in rulings} == {"cancelled"}
    assert {r.meeting_id for r in rulings} == {p.pk for p in playing}


def test_remove_then_undo(director_client, running):
    m = meeting_at(running)
    result = table_result(running, m, 1)
    url = f"/director/events/{running.pk}/results/{result.pk}/void/"
    assert "Remove board 1" in director_client.get(url).content.decode()
    refused = director_client.post(url, {"reason": ""})
    assert "Say why" in refused.content.decode()
    result.refresh_from_db()
    assert not result.voided
    director_client.post(url, {"reason": "entered at the wrong table"})
    result.refresh_from_db()
    assert result.voided

    audit = director_client.get(f"/director/events/{running.pk}/audit/").content.decode()
    entry = AuditEntry.objects.get(result=result, action="void")
    assert f'data-testid="undo-{entry.pk}"' in audit
    assert "entered at the wrong table" in audit and "removed" in audit
    confirm = director_client.get(f"/director/events/{running.pk}/audit/{entry.pk}/undo/")
    assert "Undo change #" in confirm.content.decode()
    result.refresh_from_db()
    assert result.voided  # the confirmation page changes nothing
    done = director_client.post(f"/director/events/{running.pk}/audit/{entry.pk}/undo/",
                                follow=True)
    assert f"Change #{entry.pk} undone." in done.content.decode()
    result.refresh_from_db()
    assert not result.voided
    entry.refresh_from_db()
    assert entry.undone_by is not None
    again = director_client.post(f"/director/events/{running.pk}/audit/{entry.pk}/undo/",
                                 follow=True)
    assert "This change has been undone already" in again.content.decode()
    # Opened again from a stale tab or the back button: it says so, with no Undo button.
    stale = director_client.get(f"/director/events/{running.pk}/audit/{entry.pk}/undo/")
    text = stale.content.decode()
    assert f"Change #{entry.pk} is undone already" in text
    assert f"Change #{entry.undone_by_id} undid it: there is nothing more to undo." in text
    assert 'data-testid="confirm-undo"' not in text and 'type="submit"' not in text


def test_undo_a_correction(director_client, running):
    m = meeting_at(running)
    result = table_result(running, m, 1)
    director_client.post(f"/director/events/{running.pk}/results/{result.pk}/correct/",
                         contract_post(level=1, denomination="NT", declarer="N", tricks=10,
                                       honours_N=2, honours_E=1, honours_S=1, reason="typo"))
    entry = AuditEntry.objects.get(result=result, action="correct")
    audit = director_client.get(f"/director/events/{running.pk}/audit/").content.decode()
    assert "1NT by N, 8 tricks" in audit and "1NT by N, 10 tricks" in audit
    # The table's page in the console names who changed it, beside who entered it (its
    # "By" had kept the table's name alone).
    page = f"/director/events/{running.pk}/meetings/{m.pk}/"
    row = director_client.get(page).content.decode().split(
        'data-testid="meeting-board-1"')[1].split("</tr>")[0]
    by = presenters.person(entry.actor)
    assert f"{result.entered_by}; changed by {by}</td>" in row
    director_client.post(f"/director/events/{running.pk}/audit/{entry.pk}/undo/",
                         {"reason": "the first count was right"})
    result.refresh_from_db()
    assert result.tricks == 8
    assert AuditEntry.objects.get(action="undo").reason == "the first count was right"
    assert "changed by" not in director_client.get(page).content.decode()  # undone


def test_agree_one_table_then_the_whole_round(director_client, running):
    m = meeting_at(running)
    url = f"/director/events/{running.pk}/sections/{m.section_id}/rounds/1/agree/"
    confirm = director_client.get(url + "?table=1").content.decode()
    assert "Agree round 1 at table 1?" in confirm and 'name="table" value="1"' in confirm
    assert not Meeting.objects.filter(agreed_at__isnull=False).exists()
    done = director_client.post(url, {"table": "1"}, follow=True)
    assert "Round 1 agreed at table 1 (1 newly agreed)." in done.content.decode()
    agreed = set(Meeting.objects.filter(agreed_at__isnull=False).values_list("round", "table"))
    assert agreed == {(1, 1)}
    done = director_client.post(url, follow=True)
    assert "Round 1 agreed at every table (6 newly agreed)." in done.content.decode()
    assert Meeting.objects.filter(round=1, agreed_at__isnull=False).count() == 7
    assert not Meeting.objects.filter(round=2, agreed_at__isnull=False).exists()


def test_closed_event_offers_no_changes(director_client, running, director):
    m = meeting_at(running)
    result = table_result(running, m, 1)
    services.event_close(event=running, actor=Actor.director(director),
                         reason="The hall closes early")
    page = director_client.get(f"/director/events/{running.pk}/meetings/{m.pk}/").content.decode()
    assert "/correct/" not in page
    response = director_client.post(
        f"/director/events/{running.pk}/results/{result.pk}/correct/",
        contract_post(level=2, denomination="NT", declarer="N", tricks=8, honours_N=2, honours_E=1,
                      honours_S=1, reason="late"))
    assert "The event is closed" in response.content.decode()
    result.refresh_from_db()
    assert result.level == 1


def test_correction_page_shows_the_stored_score_and_previews_changes(director_client, running):
    """The director sees the score before saving a correction, as the tables do."""
    meeting = meeting_at(running)
    result = table_result(running, meeting, meeting.boards[0])
    page = director_client.get(f"/director/events/{running.pk}/results/{result.pk}/correct/")
    assert page.status_code == 200
    assert 'id="score-preview"' in page.content.decode()
    assert page.context["score"]["net_ns"] == result.ns_score
    url = f"/director/events/{running.pk}/boards/{meeting.boards[0]}/preview/"
    answer = director_client.post(url, contract_post(level=4, denomination="NT",
                                                     declarer="N", tricks=10)).json()
    # Law 47: 4 odd tricks at no trump, 40; Duplicate Law A: the 125 premium.
    assert answer["ok"], answer
    assert answer["score"]["ns"]["trick_score"] == 40
    assert answer["score"]["ns"]["honour_score"] == 125


def test_a_correction_begun_before_another_is_not_saved_over_it(director_client, running):
    """Two tabs open on one result: the second tab's correction was made to a result that
    is no longer there. It is refused in words, and saving again after looking corrects
    the result as it now stands."""
    m = meeting_at(running)
    result = table_result(running, m, 1)
    url = f"/director/events/{running.pk}/results/{result.pk}/correct/"
    first, second = director_client.get(url), director_client.get(url)
    assert 'name="version" value="1"' in first.content.decode()
    assert 'name="version" value="1"' in second.content.decode()
    fields = {"level": 1, "denomination": "NT", "declarer": "N", "honours_N": 2,
              "honours_E": 1, "honours_S": 1, "version": 1}
    assert director_client.post(url, contract_post(
        **fields, tricks=5, reason="tricks miscounted")).status_code == 302
    stale = director_client.post(url, contract_post(**fields, tricks=6, reason="second tab"))
    assert stale.status_code == 409
    text = strip_tags(stale.content.decode())
    assert ("Board 1 was changed after this correction was begun: it now reads 1NT by N, "
            "5 tricks. Nothing was saved") in text
    result.refresh_from_db()
    assert (result.tricks, result.version) == (5, 2)
    assert AuditEntry.objects.filter(result=result, action="correct").count() == 1
    # The form comes back with the director's entry, now on the result as it stands.
    page = stale.content.decode()
    assert 'name="version" value="2"' in page and 'value="6"' in page
    again = director_client.post(url, contract_post(**{**fields, "version": 2}, tricks=6,
                                                    reason="second tab, looked again"))
    assert again.status_code == 302
    result.refresh_from_db()
    assert (result.tricks, result.version) == (6, 3)
