"""The director's console: agreeing (what is missing first), closing with a correction
period, reopening, the publishing state, and the table told when its round is agreed."""

import datetime

import pytest
from django.utils import timezone

from tests.web.conftest import code_of, contract_post, make_event
from tournaments import services
from tournaments.models import AuditEntry, Event, Meeting, Result
from tournaments.services import Actor

NT_MADE = {"contract": {"level": 1, "denomination": "NT", "declarer": "N"}, "tricks": 8,
           "honours": {"N": 2, "E": 1, "S": 1}}


def play(event, director, *, rounds=(1, 2), skip=()):
    """Every board of the given rounds entered by the director (so it is in)."""
    for meeting in Meeting.objects.filter(section__event=event, round__in=rounds):
        for board in meeting.boards:
            if board in skip:
                continue
            services.result_record(event=event, board=board, ns=meeting.ns_pair.number,
                                   ew=meeting.ew_pair.number, data=NT_MADE, meeting=meeting,
                                   actor=Actor.director(director))


def page(client, event) -> str:
    return client.get(f"/director/events/{event.pk}/").content.decode()


@pytest.fixture
def event(director):
    return make_event(director)


def test_mark_agreed_is_not_the_main_button_while_boards_are_missing(director_client, event,
                                                                     director):
    play(event, director, rounds=(1,))
    html = page(director_client, event)
    assert 'data-testid="status-agreed"' not in html
    assert "Not in yet: 4 board results." in html
    assert "Round 2, table 1: board 5 not entered" in html
    assert 'data-testid="agree-anyway"' in html
    assert "Agreed (Duplicate Law E) means the scores are agreed" in html
    # The old one-click POST is refused with the list.
    response = director_client.post(f"/director/events/{event.pk}/status/",
                                    {"status": "agreed"}, follow=True)
    assert "4 boards are not in yet" in response.content.decode()
    assert Event.objects.get(pk=event.pk).status == "running"


def test_agree_anyway_lists_the_boards_and_needs_a_reason(director_client, event, director):
    play(event, director, skip=(8,))
    url = f"/director/events/{event.pk}/agree/"
    confirm = director_client.get(url).content.decode()
    assert "Not in yet: 1 board result" in confirm
    assert "Round 2, table 2: board 8 not entered" in confirm
    assert 'name="reason"' in confirm and "required" in confirm
    refused = director_client.post(url, {"status": "agreed"}).content.decode()
    assert "say why the scores are agreed without them" in refused
    director_client.post(url, {"status": "agreed", "reason": "Table 2 had to leave"})
    assert Event.objects.get(pk=event.pk).status == "agreed"
    entry = AuditEntry.objects.filter(event=event, action="status").latest("id")
    assert entry.reason == "Table 2 had to leave"


def test_a_complete_night_offers_mark_agreed(director_client, event, director):
    play(event, director)
    html = page(director_client, event)
    assert 'data-testid="status-agreed"' in html and "Not in yet" not in html
    director_client.post(f"/director/events/{event.pk}/status/", {"status": "agreed"})
    assert Event.objects.get(pk=event.pk).status == "agreed"


def test_round_confirmation_lists_missing_and_unconfirmed_boards(director_client, event):
    meeting = Meeting.objects.get(section__event=event, round=1, table=1)
    services.result_record(event=event, board=1, ns=meeting.ns_pair.number,
                           ew=meeting.ew_pair.number, data=NT_MADE, meeting=meeting,
                           actor=Actor.at_table(meeting.section, 1))
    url = f"/director/events/{event.pk}/sections/{meeting.section_id}/rounds/1/agree/"
    whole = director_client.get(url).content.decode()
    assert "Not in yet: 4 board results" in whole
    assert "Round 1, table 1: board 1 not confirmed" in whole
    assert "Round 1, table 1: board 2 not entered" in whole
    assert "Round 1, table 2: board 3 not entered" in whole
    assert "Agree the round anyway" in whole
    one = director_client.get(url + "?table=1").content.decode()
    assert "Not in yet: 2 board results" in one and "table 2" not in one.split("Not in yet")[1]


def test_close_page_offers_final_now_or_after_the_period(director_client, event, director):
    play(event, director)
    url = f"/director/events/{event.pk}/close/"
    confirm = director_client.get(url).content.decode()
    assert "Close; publish final after the correction period" in confirm
    assert "Close and publish final now" in confirm
    assert 'name="correction_minutes"' in confirm and 'value="30"' in confirm
    done = director_client.post(url, {"publish": "later", "correction_minutes": "15"},
                                follow=True).content.decode()
    event.refresh_from_db()
    assert (event.status, event.correction_minutes) == ("closed", 15)
    final_after = f"{timezone.localtime(event.final_after):%H:%M}"
    assert f"The standings become final at {final_after}" in done
    html = page(director_client, event)
    assert f"Correction period until {final_after}." in html
    assert f"final after {final_after}" in html
    assert 'data-testid="reopen-event"' in html
    assert 'data-testid="publish-final"' in html  # "Publish final now" ends the period
    public = director_client.get(f"/events/{event.pk}/standings/").content.decode()
    assert f"final after {final_after}" in public


def test_close_and_publish_final_now(director_client, event, director):
    play(event, director)
    director_client.post(f"/director/events/{event.pk}/close/", {"publish": "now"})
    event.refresh_from_db()
    assert (event.status, event.published, event.final_after) == ("closed", "final", None)
    html = page(director_client, event)
    assert "Closed: every score is final." in html
    assert 'data-testid="reopen-event"' not in html


def test_reopen_needs_a_reason_and_only_in_the_period(director_client, event, director):
    play(event, director)
    services.event_close(event=event, actor=Actor.director(director))
    url = f"/director/events/{event.pk}/reopen/"
    assert 'name="reason"' in director_client.get(url).content.decode()
    refused = director_client.post(url, {"reason": ""}).content.decode()
    assert "Say why the event is reopened" in refused
    final_after = f"{timezone.localtime(Event.objects.get(pk=event.pk).final_after):%H:%M}"
    director_client.post(url, {"reason": "Board 3 was scored for the wrong side"})
    event.refresh_from_db()
    assert (event.status, event.final_after) == ("agreed", None)
    audit = director_client.get(f"/director/events/{event.pk}/audit/").content.decode()
    assert f"status: closed, final after: {final_after}" in audit
    assert "Board 3 was scored for the wrong side" in audit
    # Once final, there is nothing to reopen.
    services.event_close(event=event, actor=Actor.director(director), publish_final=True)
    response = director_client.get(url, follow=True).content.decode()
    assert "Only a closed event in its correction period can be reopened." in response


def test_the_period_ending_shows_final_on_the_director_page(director_client, event, director):
    play(event, director)
    services.event_close(event=event, actor=Actor.director(director))
    Event.objects.filter(pk=event.pk).update(
        final_after=timezone.now() - datetime.timedelta(seconds=1))
    html = page(director_client, event)
    assert 'data-published="final"' in html and "Closed: every score is final." in html


def test_correction_period_setting(director_client, event):
    url = f"/director/events/{event.pk}/correction-period/"
    director_client.post(url, {"correction_minutes": "45"})
    assert Event.objects.get(pk=event.pk).correction_minutes == 45
    bad = director_client.post(url, {"correction_minutes": "9999"}, follow=True)
    assert "A correction period is from 0 to 1440 minutes" in bad.content.decode()
    assert Event.objects.get(pk=event.pk).correction_minutes == 45


@pytest.mark.parametrize(("published", "status", "offered"), [
    ("none", "running", ["provisional"]),
    ("provisional", "running", ["none"]),
    ("provisional", "closed-period", ["final", "none"]),
    ("final", "closed-final", ["none"]),
])
def test_publish_buttons_are_the_changes_possible(director_client, event, director, published,
                                                  status, offered):
    actor = Actor.director(director)
    if status.startswith("closed"):
        play(event, director)
        services.event_close(event=event, actor=actor, publish_final=status == "closed-final")
    if published != "final":
        services.event_publish(event=event, level=published, actor=actor)
    html = page(director_client, event)
    shown = [level for level in ("none", "provisional", "final")
             if f'data-testid="publish-{level}"' in html]
    assert shown == sorted(offered, key=("none", "provisional", "final").index)
    assert f'data-published="{published}"' in html
    assert "disabled" not in html.split('id="event-publish"')[1].split("</section>")[0]


# --- the table is told ----------------------------------------------------------------------


def test_the_table_state_says_when_the_round_is_agreed(client, event, director):
    code = code_of(event, 1)
    url = f"/t/{code}/round/1/state.json"
    assert client.get(url).json() == {"round": 1, "open": True, "message": "", "agreed": False,
                                      "status": "running"}
    section = event.sections.get()
    services.round_agree(section=section, round_number=1, actor=Actor.director(director),
                         tables=[1])
    state = client.get(url).json()
    assert (state["open"], state["agreed"]) == (False, True)
    assert state["message"].startswith("Round 1 is agreed (Duplicate Law E)")
    assert client.get(f"/t/{code}/round/2/state.json").json()["open"] is True
    services.event_set_status(event=event, status="agreed", actor=Actor.director(director),
                              reason="Time")
    state = client.get(f"/t/{code}/round/2/state.json").json()
    assert state["message"].startswith("The director has agreed the event's scores")
    assert client.get(f"/t/{code}/round/9/state.json").status_code == 404


def test_the_table_page_polls_and_refuses_after_agreed(client, event, director):
    code = code_of(event, 1)
    html = client.get(f"/t/{code}/round/1/board/1/").content.decode()
    assert f'data-state-url="/t/{code}/round/1/state.json"' in html
    assert 'data-open="1"' in html
    services.event_set_status(event=event, status="agreed", actor=Actor.director(director),
                              reason="Time")
    html = client.get(f"/t/{code}/round/1/").content.decode()
    assert "The director has agreed the event&#x27;s scores" in html
    assert 'id="agree-round"' not in html
    response = client.post(f"/t/{code}/round/1/board/1/", contract_post(token="t1"))
    assert response.status_code == 403
    assert not Result.objects.exists()
