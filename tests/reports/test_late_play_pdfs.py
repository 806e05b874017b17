"""The travellers and score-card PDFs show a board not played ("Not played", no score)
and a board played late ("played late")."""

import pytest

from tests.reports.night import build_night, play_for
from tournaments import services
from tournaments.models import Meeting
from tournaments.reports.documents import ScorecardsRenderer, TravellersRenderer
from tournaments.reports.services import report_data

from .pdf import pdf_text, score_cards
from .test_renderers import render

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(director):
    """Round 1 played, then at table 1 board 1 played late (in place of "not played") and
    board 2 marked not played."""
    night = build_night(director, play=False, published="provisional")
    meetings = night.meetings()
    for meeting in meetings:
        if meeting.round == 1 and meeting.table != 1:
            for board in meeting.boards:
                night.enter(meeting, board)
    first = next(m for m in meetings if (m.round, m.table) == (1, 1))
    services.boards_not_played(meeting=first, boards=first.boards, actor=night.actor,
                               reason="slow play")
    services.result_record(event=night.event, board=first.boards[0],
                           ns=first.ns_pair.number, ew=first.ew_pair.number,
                           data=play_for(first.boards[0], 1), actor=night.actor,
                           meeting=first)
    night.first = Meeting.objects.select_related("ns_pair").get(pk=first.pk)
    return night


def test_travellers_mark_not_played_and_played_late(night):
    data = report_data(night.event, "travellers")
    text = pdf_text(render(TravellersRenderer, data)[1])
    late, not_played = night.first.boards
    board_late = text[text.index(f"Board {late} · dealer"):]
    assert "played late" in board_late.split(f"Board {late + 1} · dealer")[0]
    board_np = text[text.index(f"Board {not_played} · dealer"):]
    assert "Not played" in board_np.split(f"Board {not_played + 1} · dealer")[0]


def test_score_cards_mark_not_played_and_played_late(night):
    data = report_data(night.event, "scorecards")
    cards = score_cards(render(ScorecardsRenderer, data)[1])
    card = cards[night.first.ns_pair.number - 1]
    assert card.startswith(f"Pair {night.first.ns_pair.number}: ")
    assert "(played late)" in card and "Not played" in card
