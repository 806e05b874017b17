"""A board not played because a pair left (decision 103) says so on its traveller, in the
score card's words ("Not played: pair 2 left after round 5"), wherever a traveller is
shown: the public board page, the director's, the table's phone and the printed
travellers; the travellers and the score cards word a ruling through one function
(reports.base.contract_words, presenters.ruling_words). The left pairs are read once an
event, not once a row. And the standings command's text gives a late pair's Boards as
"5 of 7", as the page and the PDF do."""

from html import unescape
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.reports.changes_night import JOINED, LATE, LEFT, LEFT_AFTER, build_changes_night
from tests.reports.pdf import cells_of, pdf_text
from tests.reports.test_renderers import render
from tournaments import presenters, selectors, standings
from tournaments.mail.cards import card_text
from tournaments.models import Result, TableCode
from tournaments.reports.base import contract_words
from tournaments.reports.documents import TravellersRenderer
from tournaments.reports.services import report_data

from .test_pages import page
from .test_queries import LIMITS

pytestmark = pytest.mark.django_db

GONE = f"Not played: pair {LEFT} left after round {LEFT_AFTER}"
RULED = "Not played at the table (the director's ruling)"


@pytest.fixture
def changes(director):
    return build_changes_night(director)


def _gone(changes) -> list[Result]:
    """The boards not played because pair 2 left: "not-played", no meeting."""
    found = list(Result.objects.filter(event=changes.event, ruling="not-played", meeting=None,
                                       voided=False).select_related("board"))
    assert found
    return found


def test_a_travellers_row_says_which_pair_left(changes):
    gone = _gone(changes)
    for result in gone:
        rows = selectors.traveller(changes.event, result.board.number)["rows"]
        row = next(r for r in rows if r["result_id"] == result.pk)
        assert tuple(row["left"]) == (LEFT, LEFT_AFTER)
        assert presenters.ruling_words(row) == contract_words(row) == GONE
        # The other rows of the board: played, or the director's ruling; nobody left.
        assert all(r["left"] is None for r in rows if r["result_id"] != result.pk)
    # Every traveller at once (the PDF's read) gives the same rows.
    every = {r["result_id"]: r for t in selectors.travellers(changes.event) for r in t["rows"]}
    assert {pk for pk, r in every.items() if r["left"]} == {r.pk for r in gone}
    director = every[changes.not_played.pk]
    assert director["left"] is None and contract_words(director) == RULED


@pytest.mark.parametrize("who", ["public", "director"])
def test_the_board_page_says_which_pair_left(request, changes, who):
    client = request.getfixturevalue("client" if who == "public" else "director_client")
    for result in _gone(changes):
        html = unescape(page(client, changes, f"boards/{result.board.number}/"))
        assert f'<span data-testid="ruling">{GONE}</span>' in html
    html = unescape(page(client, changes, f"boards/{changes.not_played.board.number}/"))
    assert f'<span data-testid="ruling">{RULED}</span>' in html


def test_the_tables_phone_says_which_pair_left(client, changes):
    seen = 0
    for result in _gone(changes):
        for code in TableCode.objects.filter(section__event=changes.event):
            response = client.get(f"/t/{code.code}/board/{result.board.number}/traveller/")
            if response.status_code != 200:
                continue
            seen += 1
            html = unescape(response.content.decode())
            assert f'<span data-testid="ruling">{GONE}</span>' in html
    assert seen  # some table could see such a traveller


def test_the_printed_travellers_say_which_pair_left(changes):
    text = cells_of(pdf_text(render(TravellersRenderer,
                                    report_data(changes.event, "travellers"))[1]))
    assert text.count(GONE) == len(_gone(changes))
    assert RULED in text


def test_the_score_cards_and_the_travellers_word_it_alike(changes):
    """One wording: the mailed card and the traveller both through contract_words."""
    gone = _gone(changes)[0]
    card = selectors.scorecard(changes.event, LEFT)
    assert any(r["left"] and contract_words(r) == GONE for r in card["rows"])
    traveller = selectors.traveller(changes.event, gone.board.number)
    row = next(r for r in traveller["rows"] if r["result_id"] == gone.pk)
    assert contract_words(row) == GONE
    assert GONE in card_text(changes.event, card)
    # A ruling with an award reads the same on both.
    for result in (changes.average, changes.fouled):
        row = next(r for r in selectors.traveller(changes.event, result.board.number)["rows"]
                   if r["result_id"] == result.pk)
        on_card = next(r for r in selectors.scorecard(changes.event, result.ns_pair.number)
                       ["rows"] if r["board"] == result.board.number)
        assert contract_words(row) == contract_words(on_card) == presenters.ruling_words(row)


def test_the_left_pairs_are_read_once(client, changes, django_assert_max_num_queries):
    """The board page keeps its budget with a pair gone; the whole night's travellers read
    who left with the results, in their one query, not once a row (nor in one more)."""
    board = _gone(changes)[0].board.number
    standings.clear_cache()
    with django_assert_max_num_queries(LIMITS["boards/1/"]):
        client.get(f"/events/{changes.event.pk}/boards/{board}/")
    with CaptureQueriesContext(connection) as queries:
        selectors.travellers(changes.event)
    sqls = [q["sql"] for q in queries.captured_queries]
    assert any(sql.startswith('SELECT "tournaments_result"') and "left_after_round" in sql
               for sql in sqls)
    assert not any('FROM "tournaments_pair"' in sql and "left_after_round" in sql
                   for sql in sqls)


def test_the_standings_command_gives_a_late_pairs_boards_as_the_page_does(changes):
    out = StringIO()
    call_command("standings", str(changes.event.pk), "--format", "text", stdout=out)
    text = out.getvalue()
    line = next(line for line in text.splitlines() if "Late Lou & Tardy Ted" in line)
    assert line.rstrip().endswith("5 of 7"), line
    assert (f"Pair {LATE} joined late, from round {JOINED}: “5 of 7” means it played 5 of "
            "its 7 boards, and its score is over those it played.") in text
    # A pair there from the start, with every board played: a bare count, as before.
    rows = {r["pair"]: r for ranking in standings.standings(changes.event)["rankings"]
            for r in ranking["rows"]}
    full = next(p for p, r in rows.items() if p != LATE and not r.get("not_played"))
    names = " & ".join(rows[full]["names"])
    line = next(line for line in text.splitlines() if names in line)
    assert line.rstrip().endswith(f" {rows[full]['boards']}"), line
