"""One rule, two pages: "every board of this table's round is in but the round is not
agreed: the table must still agree it on its phone".

selectors.table_must_agree decides it, for the director's page of one table's round (the
`meeting` view's must-agree note) and for the live grid (the cell's hover text and
grid.json's must_agree and title). Each case below is read off both pages, which must
say the same; once the event is agreed or closed the tables enter nothing, so neither
page waits for a phone.
"""

import html
import re
from datetime import UTC, datetime

import pytest

from tests.web.test_director_results import meeting_at, table_result
from tournaments import selectors, services
from tournaments.models import Event, Meeting, Section
from tournaments.services import Actor

pytestmark = pytest.mark.django_db

WAIT = ": every board is in; the table must still agree round 1 on its phone"
PLAIN = "Round 1, table 1"


# --- the rule itself -----------------------------------------------------------------------


@pytest.mark.parametrize(("agreed", "boards", "confirmed", "status", "expected"), [
    (False, 2, 2, Event.Status.RUNNING, True),  # every board in, not agreed
    (False, 2, 2, Event.Status.SETTING_UP, True),
    (False, 2, 1, Event.Status.RUNNING, False),  # one entered, not yet confirmed
    (False, 2, 0, Event.Status.RUNNING, False),
    (True, 2, 2, Event.Status.RUNNING, False),  # agreed
    (False, 0, 0, Event.Status.RUNNING, False),  # no boards
    (False, 2, 2, Event.Status.AGREED, False),  # the event agreed: no phone to wait for
    (False, 2, 2, Event.Status.CLOSED, False),
])
def test_the_rule(agreed, boards, confirmed, status, expected):
    meeting = Meeting(round=1, table=1, boards=list(range(1, boards + 1)),
                      agreed_at=datetime(2026, 11, 17, 21, tzinfo=UTC) if agreed else None)
    assert selectors.table_must_agree(meeting, boards=boards, confirmed=confirmed,
                                      event_status=status) is expected


# --- both pages ----------------------------------------------------------------------------


def both_pages(client, event: Event, meeting: Meeting) -> dict:
    """What the meeting page, the grid's page and grid.json say of this table's round."""
    page = client.get(f"/director/events/{event.pk}/meetings/{meeting.pk}/")
    assert page.status_code == 200
    grid = client.get(f"/director/events/{event.pk}/").content.decode()
    cell = grid.split(f'id="cell-{meeting.pk}"')[1].split("</td>")[0]
    title = html.unescape(re.search(r'title="([^"]*)" data-cell-link', cell).group(1))
    body = client.get(f"/director/events/{event.pk}/grid.json").json()
    data = next(c for c in body["cells"] if c["id"] == meeting.pk)
    return {"meeting_page": 'data-testid="must-agree"' in page.content.decode(),
            "grid_title": title, "json_flag": data["must_agree"], "json_title": data["title"]}


def says(client, event, meeting, *, must: bool) -> None:
    title = PLAIN + WAIT if must else PLAIN
    assert both_pages(client, event, meeting) == {
        "meeting_page": must, "grid_title": title, "json_flag": must, "json_title": title}


def confirm_all(event, meeting) -> None:
    table = Actor.at_table(meeting.section, meeting.table)
    for board in meeting.boards:
        services.result_confirm(result=table_result(event, meeting, board), actor=table)


def test_every_board_confirmed_not_agreed_must_agree(director_client, event):
    m = meeting_at(event)
    confirm_all(event, m)
    says(director_client, event, m, must=True)
    other = meeting_at(event, 1, 2)  # nothing in at table 2
    assert both_pages(director_client, event, other)["json_title"] == "Round 1, table 2"


def test_one_board_entered_not_confirmed_need_not(director_client, event):
    m = meeting_at(event)
    services.result_confirm(result=table_result(event, m, 1),
                            actor=Actor.at_table(m.section, 1))
    table_result(event, m, 2)  # entered; East-West have not confirmed it
    says(director_client, event, m, must=False)


def test_a_board_ruled_by_the_director_counts_as_in(director_client, event, director):
    m = meeting_at(event)
    services.result_confirm(result=table_result(event, m, 1),
                            actor=Actor.at_table(m.section, 1))
    services.ruling_award(event=event, board=2, ns=m.ns_pair.number, ew=m.ew_pair.number,
                          kind="average", reason="short hand", actor=Actor.director(director),
                          meeting=m)
    says(director_client, event, m, must=True)


def test_an_agreed_round_need_not(director_client, event):
    m = meeting_at(event)
    confirm_all(event, m)
    services.round_agree(section=Section.objects.get(event=event), round_number=1,
                         actor=Actor.at_table(m.section, 1), tables=[1])
    m.refresh_from_db()
    says(director_client, event, m, must=False)


def test_a_meeting_without_boards_need_not(director_client, event):
    m = meeting_at(event)
    Meeting.objects.filter(pk=m.pk).update(boards=[])
    m.refresh_from_db()
    says(director_client, event, m, must=False)


def test_an_agreed_event_need_not(director_client, event, director):
    m = meeting_at(event)
    confirm_all(event, m)
    services.event_set_status(event=event, status=Event.Status.AGREED,
                              actor=Actor.director(director), reason="the last table left")
    event.refresh_from_db()
    m.refresh_from_db()
    assert m.agreed_at is None  # the event is agreed, not this table's round
    says(director_client, event, m, must=False)


def test_a_closed_event_need_not(director_client, event, director):
    m = meeting_at(event)
    confirm_all(event, m)
    services.event_close(event=event, actor=Actor.director(director),
                         reason="the last table left")
    event.refresh_from_db()
    m.refresh_from_db()
    assert event.status == Event.Status.CLOSED and m.agreed_at is None
    says(director_client, event, m, must=False)
