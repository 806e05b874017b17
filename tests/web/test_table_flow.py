"""A table's night on its phone: code, round, enter, the opponents confirm, agree, Law E."""

import re

import pytest
from django.utils import timezone

from tests.web.conftest import code_of, contract_post
from tournaments.models import AuditEntry, Meeting, Result


def board_url(code, rnd, board, suffix=""):
    return f"/t/{code}/round/{rnd}/board/{board}/{suffix}"


def token_of(response) -> str:
    match = re.search(rb'name="token" value="([^"]+)"', response.content)
    assert match, "the form carries a submission token"
    return match.group(1).decode()


def test_enter_code_opens_the_round_and_remembers_it(client, event, table1):
    response = client.post("/t/", {"code": table1.lower()})
    assert response.status_code == 302
    assert response["Location"] == f"/t/{table1}/"
    assert client.session["table_code"] == table1

    page = client.get(f"/t/{table1}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Table 1 · round 1" in text
    assert "North–South · pair 1" in text and "Ann Lee &amp; Bob Ray" in text
    assert "East–West · pair 3" in text and "Ed Fox &amp; Flo Gay" in text
    assert 'data-testid="board-1"' in text and 'data-testid="board-2"' in text
    assert 'data-testid="board-3"' not in text
    assert text.count("to enter") == 2

    # Coming back to /t/ goes straight to the remembered table.
    again = client.get("/t/")
    assert again.status_code == 302 and again["Location"] == f"/t/{table1}/"
    assert client.get("/t/?new=1").status_code == 200


def test_the_whole_round(client, event, table1):
    opened = client.post("/t/", {"code": table1}, follow=True)
    assert opened.redirect_chain == [(f"/t/{table1}/", 302)]
    assert f'href="{board_url(table1, 1, 1)}"' in opened.content.decode()
    form = client.get(board_url(table1, 1, 1))
    assert form.status_code == 200
    html = form.content.decode()
    for control in ('id="level-4"', 'id="denomination-H"', 'id="declarer-S"', 'id="doubled-X"',
                    'id="tricks-13"', 'id="honours-N-0"', 'id="revokes-declaring"',
                    'id="first-penalty"', 'id="penalty-90-E"', 'id="save-result"',
                    'id="score-preview"'):
        assert control in html, control
    assert 'id="passed-out"' not in html, "the American rule has no passed-out deal (Law 42)"

    # 4H by S making 10 with N 2 + S 2 honours: 32 trick, 4 divided honours 32 + premium 125.
    post = contract_post(honours_N=2, honours_E=1, honours_S=2, token=token_of(form))
    saved = client.post(board_url(table1, 1, 1), post)
    assert saved.status_code == 302 and saved["Location"] == board_url(table1, 1, 1)
    result = Result.objects.get(board__number=1, voided=False)
    assert (result.ns_trick, result.ns_honour, result.ew_trick, result.ew_honour) == (32, 157, 0, 0)
    assert result.entered_by == "table 1" and result.status == "entered"

    shown = client.get(board_url(table1, 1, 1)).content.decode()
    assert "Board 1 saved." in shown
    assert "4<span" in shown and "by S" in shown and "10 tricks" in shown
    assert "East–West confirm: this is right" in shown
    assert 'id="preview-ns-total">189<' in shown
    assert "duplicate premium" in shown and "Duplicate Law A" in shown

    round_page = client.get(f"/t/{table1}/").content.decode()
    assert "entered: waiting for the opponents" in round_page
    assert "Agree round" not in round_page
    # Asked for anyway (an old page, a typed address): back to the round, which says why.
    early = client.get(f"/t/{table1}/round/1/agree/")
    assert early.status_code == 302 and early["Location"] == f"/t/{table1}/round/1/"

    confirmed = client.post(board_url(table1, 1, 1, "confirm/"))
    assert confirmed.status_code == 302
    result.refresh_from_db()
    assert result.status == "confirmed" and result.confirmed_by == "E–W pair 3"

    form2 = client.get(board_url(table1, 1, 2))
    client.post(board_url(table1, 1, 2), contract_post(level=1, denomination="NT", declarer="E",
                                                       tricks=5, token=token_of(form2)))
    client.post(board_url(table1, 1, 2, "confirm/"))
    round_page = client.get(f"/t/{table1}/round/1/").content.decode()
    assert 'id="agree-round"' in round_page
    assert "only the director can change these scores" in round_page
    # The button asks first: the round's scores, and the button that agrees them.
    assert f'href="/t/{table1}/round/1/agree/" id="agree-round"' in round_page
    ask = client.get(f"/t/{table1}/round/1/agree/")
    assert ask.status_code == 200
    asked = ask.content.decode()
    assert "Agree round 1?" in asked and 'id="agree-round-yes"' in asked
    assert 'data-testid="agree-board-1"' in asked and 'data-testid="agree-board-2"' in asked
    assert "<td>+189</td><td>−189</td>" in asked  # 4♥ by S making 10, as entered
    assert Meeting.objects.get(section__event=event, round=1, table=1).agreed_at is None

    agreed = client.post(f"/t/{table1}/round/1/agree/")
    assert agreed.status_code == 302 and agreed["Location"] == f"/t/{table1}/"
    assert Meeting.objects.get(section__event=event, round=1, table=1).agreed_at is not None
    # The table page now opens at round 2 (the lowest round not agreed).
    assert "Table 1 · round 2" in client.get(f"/t/{table1}/").content.decode()
    again = client.get(f"/t/{table1}/round/1/agree/", follow=True)
    assert again.redirect_chain == [(f"/t/{table1}/round/1/", 302)]
    assert "Round 1 is agreed already." in again.content.decode()

    # Duplicate Law E: after agreement the table cannot change the score.
    refused = client.post(board_url(table1, 1, 1, "change/"),
                          contract_post(tricks=11, honours_N=2, honours_E=1, honours_S=2,
                                        token="late-1"), follow=True)
    # Back to the board as it stands (the form had shown the 11 tricks refused).
    assert refused.redirect_chain == [(board_url(table1, 1, 1), 302)]
    text = refused.content.decode()
    assert "Nothing was changed: round 1 at table 1 is agreed (Duplicate Law E): ask the " \
        "director to correct a score" in text
    assert "10 tricks" in text and "11 tricks" not in text
    result.refresh_from_db()
    assert result.tricks == 10 and result.version == 1
    # The page of an agreed board offers no Change link.
    assert 'id="change-result"' not in client.get(board_url(table1, 1, 1)).content.decode()


def test_change_before_agreement_needs_confirming_again(client, event, table1):
    client.post(board_url(table1, 1, 1), contract_post(token="t-1"))
    client.post(board_url(table1, 1, 1, "confirm/"))
    form = client.get(board_url(table1, 1, 1, "change/"))
    assert form.status_code == 200
    assert 'value="4" id="level-4" data-testid="level-4" checked' in form.content.decode()
    changed = client.post(board_url(table1, 1, 1, "change/"),
                          contract_post(tricks=9, token=token_of(form)))
    assert changed.status_code == 302
    result = Result.objects.get(board__number=1, voided=False)
    assert result.tricks == 9 and result.status == "entered" and result.version == 2
    assert AuditEntry.objects.filter(result=result, action="correct").count() == 1


def test_a_change_saved_unchanged_keeps_the_confirmation(client, event, table1):
    client.post(board_url(table1, 1, 1), contract_post(token="t-1"))
    client.post(board_url(table1, 1, 1, "confirm/"))
    form = client.get(board_url(table1, 1, 1, "change/"))
    saved = client.post(board_url(table1, 1, 1, "change/"),
                        contract_post(token=token_of(form), version=1), follow=True)
    assert "Board 1 is unchanged: nothing was saved." in saved.content.decode()
    result = Result.objects.get(board__number=1, voided=False)
    assert (result.status, result.version) == ("confirmed", 1)
    assert not AuditEntry.objects.filter(result=result, action="correct").exists()


def test_a_change_begun_before_another_phones_is_not_saved_over_it(client, event, table1):
    client.post(board_url(table1, 1, 1), contract_post(token="t-1"))
    first = client.get(board_url(table1, 1, 1, "change/"))
    second = client.get(board_url(table1, 1, 1, "change/"))  # another phone, or tab
    assert 'name="version" value="1"' in second.content.decode()
    assert client.post(board_url(table1, 1, 1, "change/"), contract_post(
        tricks=9, token=token_of(first), version=1)).status_code == 302
    stale = client.post(board_url(table1, 1, 1, "change/"),
                        contract_post(tricks=6, token=token_of(second), version=1), follow=True)
    text = stale.content.decode()
    assert "Board 1 was changed after this correction was begun: it now reads" in text
    assert "9 tricks. Nothing was saved" in text
    result = Result.objects.get(board__number=1, voided=False)
    assert (result.tricks, result.version) == (9, 2)


def test_the_opponents_see_the_revokes_they_confirm(client, event, table1):
    client.post(board_url(table1, 1, 1), contract_post(
        tricks=6, revokes_defending=1, first_penalty="tricks", token="t-1"))
    shown = client.get(board_url(table1, 1, 1)).content.decode()
    assert '4♥ by S, 6 tricks; <span data-testid="result-mark">a revoke by E–W</span>' in \
        re.sub(r"<span class=\"red\">(.)</span>", r"\1", shown)


def test_the_opponents_confirm_only_the_result_they_were_shown(client, event, table1):
    client.post(board_url(table1, 1, 1), contract_post(token="t-1"))
    shown = client.get(board_url(table1, 1, 1)).content.decode()  # E-W's phone
    assert 'name="version" value="1"' in shown
    form = client.get(board_url(table1, 1, 1, "change/"))  # N-S change it meanwhile
    client.post(board_url(table1, 1, 1, "change/"),
                contract_post(tricks=9, token=token_of(form), version=1))
    stale = client.post(board_url(table1, 1, 1, "confirm/"), {"version": "1"}, follow=True)
    text = stale.content.decode()
    assert "Board 1 was changed after you looked at it: it now reads" in text
    assert "9 tricks. Nothing was confirmed" in text
    assert Result.objects.get(board__number=1, voided=False).status == "entered"
    client.post(board_url(table1, 1, 1, "confirm/"), {"version": "2"})
    assert Result.objects.get(board__number=1, voided=False).status == "confirmed"


def test_double_tap_and_resend_are_harmless(client, event, table1):
    post = contract_post(token="same-token")
    first = client.post(board_url(table1, 1, 1), post)
    second = client.post(board_url(table1, 1, 1), post)
    assert first.status_code == second.status_code == 302
    assert Result.objects.filter(board__number=1).count() == 1
    assert AuditEntry.objects.filter(action="enter").count() == 1

    # The same result under a new token: the service answers "saved already".
    third = client.post(board_url(table1, 1, 1), contract_post(token="another"), follow=True)
    assert "was saved already" in third.content.decode()
    assert Result.objects.filter(board__number=1).count() == 1

    # A resent correction under its used token does not correct twice.
    change = contract_post(tricks=8, token="change-token")
    client.post(board_url(table1, 1, 1, "change/"), change)
    client.post(board_url(table1, 1, 1, "change/"), change)
    assert AuditEntry.objects.filter(action="correct").count() == 1


def test_a_different_result_is_a_conflict(client, event, table1):
    client.post(board_url(table1, 1, 1), contract_post(token="a"))
    # A second device (or an old page) sends another result for the same board.
    other = client.post(board_url(table1, 1, 1), contract_post(level=2, tricks=7, token="b"),
                        follow=True)
    # Its board's page: the result stored, and the Change the table may still use.
    assert other.redirect_chain == [(board_url(table1, 1, 1), 302)]
    text = other.content.decode()
    assert ("Board 1 has a result already: 4♥ by S, 10 tricks. Nothing was saved; if it is "
            "wrong, tap Change.") in text
    assert 'data-testid="change-result"' in text
    assert Result.objects.get(board__number=1).level == 4
    # The director's entry: only the director changes it.
    Result.objects.filter(board__number=1).update(status=Result.Status.DIRECTOR)
    text = client.post(board_url(table1, 1, 1), contract_post(level=2, tricks=7, token="c"),
                       follow=True).content.decode()
    assert "Nothing was saved; ask the director if it is wrong." in text
    assert 'data-testid="change-result"' not in text


@pytest.mark.parametrize(("post", "field", "message"), [
    ({"level": ""}, "level", "Choose the contract&#x27;s level (1 to 7)"),
    ({"tricks": "14"}, "tricks", "Select a valid choice"),
    ({"honours_N": "3", "honours_S": "3"}, None, "Honours add up to 6; a suit has 5"),
    ({"revokes_defending": "1"}, "first_penalty", "takes, 100 points or three tricks (Law 84(b))"),
    ({"revokes_declaring": "-1"}, "revokes_declaring", "Revokes by the declaring side: 0 or more"),
])
def test_bad_input_is_explained_and_nothing_written(client, event, table1, post, field, message):
    response = client.post(board_url(table1, 1, 1), contract_post(token="x", **post))
    assert response.status_code in (200, 400)
    text = response.content.decode()
    assert message in text
    if field:
        assert f'data-field="{field}"' in text
    # Said at the top too, where a phone opens the page again: the field may be far below.
    top = text[text.index('data-testid="form-errors"'):text.index('id="level-1"')]
    assert message in top
    assert not Result.objects.exists()


def test_a_table_cannot_open_another_tables_board(client, event, table1):
    # Board 3 is played at table 2 in round 1.
    assert client.get(board_url(table1, 1, 3)).status_code == 404
    assert client.get(board_url(table1, 9, 1)).status_code == 404
    assert client.post(board_url(table1, 1, 3), contract_post(token="z")).status_code == 404
    assert not Result.objects.exists()


def test_agree_refused_until_every_board_confirmed(client, event, table1):
    client.post(board_url(table1, 1, 1), contract_post(token="a"))
    response = client.post(f"/t/{table1}/round/1/agree/", follow=True)
    assert "Enter all 2 boards before agreeing the round" in response.content.decode()
    assert Meeting.objects.get(section__event=event, round=1, table=1).agreed_at is None


def test_the_table_moves_between_its_rounds(client, event, table1):
    page = client.get(f"/t/{table1}/round/2/").content.decode()
    assert "Table 1 · round 2" in page
    assert "Gus Hay &amp; Hal Ing" in page  # pair 4 sits E-W in round 2
    assert 'data-testid="board-5"' in page
    assert client.get(f"/t/{table1}/round/3/").status_code == 404


def test_closed_event_shows_final_and_refuses_entry(client, event, table1, director):
    from tournaments import services
    from tournaments.services import Actor

    services.event_close(event=event, actor=Actor.director(director),
                         reason="The hall closes early")
    page = client.get(f"/t/{table1}/").content.decode()
    # In the correction period the table is told when the standings become final.
    event.refresh_from_db()
    assert ("The event is closed: the standings become final at "
            f"{timezone.localtime(event.final_after):%H:%M}.") in page
    services.event_publish(event=event, level="final", actor=Actor.director(director))
    page = client.get(f"/t/{table1}/").content.decode()
    assert "The event is closed: its scores are final." in page
    # The players are led to the standings from their table's page.
    assert (f'<a href="/events/{event.pk}/standings/" data-testid="see-standings">See the '
            "standings</a>") in page
    response = client.post(board_url(table1, 1, 1), contract_post(token="c"))
    assert response.status_code == 403
    assert "The event is closed" in response.content.decode()
    assert not Result.objects.exists()


def test_other_table_code_sees_its_own_round(client, event):
    code = code_of(event, 2)
    page = client.get(f"/t/{code}/").content.decode()
    assert "Table 2 · round 1" in page and "Cy Dow &amp; Di Eck" in page


def test_the_directors_entry_is_not_the_tables_to_change(client, event, table1, director):
    from tournaments import services
    from tournaments.services import Actor

    meeting = Meeting.objects.get(section__event=event, round=1, table=1)
    services.ruling_award(event=event, board=1, ns=1, ew=3, kind="average", reason="short hand",
                          actor=Actor.director(director), meeting=meeting)
    director.first_name, director.last_name = "Alice", "Moore"
    director.save()
    page = client.get(board_url(table1, 1, 1)).content.decode()
    assert "Entered or corrected by the director, Alice Moore." in page  # by name
    assert 'id="change-result"' not in page and 'id="confirm-result"' not in page
    response = client.post(board_url(table1, 1, 1, "change/"), contract_post(token="d"),
                           follow=True)
    assert "The director has entered or ruled on this board" in response.content.decode()
    client.post(board_url(table1, 1, 1, "confirm/"))
    result = Result.objects.get(board__number=1, voided=False)
    assert result.ruling == "average" and result.status == "director"


def test_a_team_matchs_agreement_shows_what_each_side_won_for_its_team(client, event, table1):
    """Duplicate Law G: a team scores the totals (trick + honour) its pairs won, not a net
    won by one side and lost by the other; the round's agreement shows those."""
    from tournaments.models import Event

    Event.objects.filter(pk=event.pk).update(kind="teams", method="total-points")
    client.post(board_url(table1, 1, 1), contract_post(token="t-1"))
    client.post(board_url(table1, 1, 2), contract_post(level=1, denomination="NT", declarer="E",
                                                       tricks=5, token="t-2"))
    for board in (1, 2):
        client.post(board_url(table1, 1, board, "confirm/"))
    asked = client.get(f"/t/{table1}/round/1/agree/").content.decode()
    assert "(the points, trick + honour, each side won for its team)" in asked
    for board in (1, 2):
        r = Result.objects.get(event=event, board__number=board)
        row = asked.split(f'data-testid="agree-board-{board}"')[1].split("</tr>")[0]
        assert row.endswith(f"<td>{r.ns_trick + r.ns_honour}</td>"
                            f"<td>{r.ew_trick + r.ew_honour}</td>")
    assert "−" not in asked.split('data-testid="agree-scores"')[1].split("</table>")[0]
