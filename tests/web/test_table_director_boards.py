"""The table's round page names a board the director ruled on or entered as what it is:
"director's ruling: fouled board ...", never "confirmed" (the players neither entered nor
confirmed it), with a button that says what it opens."""

import html
import re

import pytest

from tests.irregular_nights import THREE_HEARTS
from tournaments import services
from tournaments.models import Meeting
from tournaments.services import Actor

pytestmark = pytest.mark.django_db


def board_line(page: str, number: int) -> str:
    """The round page's <li> of one board."""
    match = re.search(rf'<li [^>]*data-testid="board-{number}">(.*?)</li>', page, re.S)
    assert match, f"board {number} is listed"
    return match.group(0)


def status_of(line: str) -> str:
    return html.unescape(re.search(r'data-testid="status-\d+">(.*?)</span>', line,
                                   re.S).group(1))


def first_round(event) -> Meeting:
    return Meeting.objects.select_related("section", "ns_pair", "ew_pair").get(
        section__event=event, table=1, round=1)


def test_a_fouled_board_and_a_directors_entry_are_not_called_confirmed(
        client, director, event, table1):
    actor = Actor.director(director)
    m = first_round(event)
    services.ruling_award(event=event, board=1, ns=1, ew=3, kind="fouled", offending="ns",
                          actor=actor, reason="a hand of twelve", meeting=m)
    services.result_record(event=event, board=2, ns=1, ew=3, data=THREE_HEARTS, actor=actor,
                           meeting=m, as_entered=True)
    page = client.get(f"/t/{table1}/").content.decode()

    fouled = board_line(page, 1)
    assert status_of(fouled) == ("director's ruling: fouled board (Duplicate Law B), "
                                 "N–S at fault")
    assert 'data-status="director"' in fouled and "confirmed" not in fouled
    assert re.search(r'data-testid="open-board-1"[^>]*>See the ruling</a>', fouled)

    entered = board_line(page, 2)
    assert status_of(entered) == "entered or corrected by the director"
    assert 'data-status="director"' in entered and "confirmed" not in entered
    assert re.search(r'data-testid="open-board-2"[^>]*>See the score</a>', entered)
    # Nothing is left for the players to confirm: they may agree the round.
    assert 'data-testid="agree-round"' in page
    # "See the ruling" opens the ruling, and who gave it; there is nothing to change.
    shown = client.get(f"/t/{table1}/round/1/board/1/").content.decode()
    assert "Fouled board (Duplicate Law B), N–S at fault" in shown
    assert "by the director" in shown and 'data-testid="change-result"' not in shown


def test_a_board_marked_not_played_is_to_enter_once_the_director_gives_leave(
        client, director, event, table1):
    actor = Actor.director(director)
    m = first_round(event)
    services.boards_not_played(meeting=m, boards=[2], actor=actor, reason="slow play")
    line = board_line(client.get(f"/t/{table1}/").content.decode(), 2)
    assert status_of(line) == "director's ruling: not played"
    assert re.search(r'data-testid="open-board-2"[^>]*>See the ruling</a>', line)
    assert 'data-testid="traveller-2"' not in line  # the pairs may yet play it

    services.late_play_allow(meeting=m, boards=[2], actor=actor, reason="time found")
    line = board_line(client.get(f"/t/{table1}/").content.decode(), 2)
    assert status_of(line) == ("director's ruling: not played; play it now, with the "
                               "director's leave")
    assert re.search(r'data-testid="open-board-2"[^>]*>Enter</a>', line)
    form = client.get(f"/t/{table1}/round/1/board/2/").content.decode()
    assert 'data-testid="result-form"' in form  # "Enter" opens the form
