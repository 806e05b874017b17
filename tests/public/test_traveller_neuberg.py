"""A matchpoint board played fewer times than the others is factored up by Neuberg's
formula (rules.md §4): its traveller says so under the results, on the public board page,
on the table's phone and in the printed travellers, with the numbers a member can check.

The reports' night: a 3-table Mitchell, every board played at every table except board 6,
ruled average at one table, so board 6 has two results compared where the others have
three (tops 2 and 4 on the 2/1 scale)."""

import re

import pytest

from tests.reports.night import build_night
from tests.reports.pdf import pdf_text
from tests.reports.test_renderers import render
from tournaments import presenters, selectors
from tournaments.models import Meeting, Result, TableCode
from tournaments.reports.documents import TravellersRenderer
from tournaments.reports.services import report_data

from .test_pages import page

NOTE = ("Matchpoints factored (Neuberg): played twice, not 3 times, so each score is "
        "scaled from a top of 2 on this board to a top of 4")


@pytest.fixture
def mp_night(director):
    return build_night(director, method="matchpoints")


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_traveller_knows_what_the_standings_factored(mp_night):
    board6 = selectors.traveller(mp_night.event, 6)
    assert board6["factored"] == [{"section": "", "played": 2, "top": 2, "scaled_top": 4}]
    assert selectors.traveller(mp_night.event, 1)["factored"] == []
    assert presenters.neuberg_notes(board6) == [NOTE]


def test_the_public_board_page_says_it_under_the_traveller(client, mp_night):
    html = page(client, mp_night, "boards/6/")
    assert html.count('data-testid="neuberg-note"') == 1
    assert NOTE + "." in text_of(html)
    assert text_of(html).index("Traveller") < text_of(html).index(NOTE)
    assert 'data-testid="neuberg-note"' not in page(client, mp_night, "boards/1/")


def test_the_table_phone_traveller_says_it(client, mp_night):
    meeting = Result.objects.filter(event=mp_night.event, board__number=6,
                                    ruling="").select_related("meeting").first().meeting
    code = TableCode.objects.get(section=meeting.section, table=meeting.table).code
    response = client.get(f"/t/{code}/board/6/traveller/", follow=True)
    assert response.status_code == 200
    assert NOTE + "." in text_of(response.content.decode())


def test_the_printed_travellers_say_it_under_board_6_only(mp_night):
    text = " ".join(pdf_text(render(TravellersRenderer,
                                    report_data(mp_night.event, "travellers"))[1]).split())
    assert text.count("Matchpoints factored (Neuberg)") == 1
    assert NOTE + "." in text
    assert text.index("Board 6 · dealer") < text.index(NOTE)


def test_no_note_at_plus_minus(client, director):
    night = build_night(director)  # plus/minus: nothing is factored
    assert selectors.traveller(night.event, 6)["factored"] == []
    assert 'data-testid="neuberg-note"' not in page(client, night, "boards/6/")


def test_the_words_for_a_board_played_once_and_for_a_section():
    once = {"factored": [{"section": "", "played": 1, "top": 0, "scaled_top": 12}]}
    assert presenters.neuberg_notes(once) == [
        "Matchpoints factored (Neuberg): played once, not 7 times, so it scores the "
        "average, 6 of a top of 12"]
    sections = {"factored": [{"section": "B", "played": 5, "top": 8, "scaled_top": 12}]}
    assert presenters.neuberg_notes(sections) == [
        "In section B, matchpoints factored (Neuberg): played 5 times, not 7 times, so each "
        "score is scaled from a top of 8 on this board to a top of 12"]
    assert presenters.neuberg_notes({"factored": []}) == []
    assert presenters.neuberg_notes({}) == []


def test_meetings_are_what_the_night_says(mp_night):
    # The night this module relies on: board 6 ruled average at exactly one table.
    assert Result.objects.filter(event=mp_night.event, board__number=6,
                                 ruling="average").count() == 1
    assert Meeting.objects.filter(section__event=mp_night.event).count() == 9
