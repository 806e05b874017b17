"""A night of changes on the score card page and the standings page: a board not played
says why (a pair that left, a late pair's rounds, the director's ruling), a ruled board
shows its award as the traveller does, and a late pair's Boards read "5 of 7"."""

import re
from html import unescape

import pytest

from tests.reports.changes_night import JOINED, LATE, LEFT, LEFT_AFTER, build_changes_night
from tournaments import presenters, selectors, standings
from tournaments.models import Result

from .test_pages import cells, page


@pytest.fixture
def changes(director):
    return build_changes_night(director)


def _row_cells(html: str, board: int) -> list[str]:
    """The cells of a score card's row of `board`."""
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S):
        got = [unescape(cell) for cell in cells(f"<table>{row}</table>")]
        if got and got[0] == str(board):
            return got
    raise AssertionError(f"no row for board {board}")


def _award(traveller_rows: list[dict], result: Result) -> list[str]:
    return next(r["award"] for r in traveller_rows if r["result_id"] == result.pk)


def test_a_pair_that_left_its_boards_say_so_on_both_cards(client, changes):
    gone = Result.objects.filter(event=changes.event, ruling="not-played", meeting=None,
                                 voided=False).select_related("board", "ns_pair", "ew_pair")
    assert gone
    why = f"Not played: pair {LEFT} left after round {LEFT_AFTER}"
    for result in gone:
        for pair, other in ((result.ns_pair.number, result.ew_pair.number),
                            (result.ew_pair.number, result.ns_pair.number)):
            html = page(client, changes, f"pairs/{pair}/")
            row = _row_cells(html, result.board.number)
            assert row[2] == str(other) and row[3] == why, row
    assert LEFT in {r.ns_pair.number for r in gone} | {r.ew_pair.number for r in gone}


def test_a_board_the_director_marked_not_played_says_so(client, changes):
    result = changes.not_played
    for pair in (result.ns_pair.number, result.ew_pair.number):
        row = _row_cells(page(client, changes, f"pairs/{pair}/"), result.board.number)
        assert row[3] == "Not played at the table (the director's ruling)"
    assert "Not played: pair" not in page(client, changes, f"pairs/{result.ns_pair.number}/")


def test_a_late_pairs_card_says_which_rounds_it_missed(client, changes):
    html = page(client, changes, f"pairs/{LATE}/")
    words = f"Rounds 1 and 2 not played: pair {LATE} joined late, from round {JOINED}."
    assert f'<p class="muted" data-testid="joined-late">{words}</p>' in html
    assert 'data-testid="joined-late"' not in page(client, changes, "pairs/1/")
    assert presenters.joined_late_words(8, 2) == ("Round 1 not played: pair 8 joined late, "
                                                  "from round 2.")
    assert presenters.joined_late_words(8, 6).startswith("Rounds 1 to 5 not played")
    assert presenters.joined_late_words(8, 1) == presenters.joined_late_words(8, None) == ""


@pytest.mark.parametrize("ruled", ["average", "fouled"])
def test_a_ruled_boards_card_shows_the_award_the_traveller_gives(client, changes, ruled):
    result = getattr(changes, ruled)
    board = result.board.number
    award = _award(selectors.traveller(changes.event, board)["rows"], result)
    assert award  # plus/minus: an average scores the average, a fouled board the extremes
    words = presenters.award_words({"award": award})
    for pair, side in ((result.ns_pair.number, 0), (result.ew_pair.number, 1)):
        html = page(client, changes, f"pairs/{pair}/")
        row = _row_cells(html, board)
        assert row[3] == f"{presenters.ruling(result.ruling, result.offending)}; {words}"
        assert row[4] == presenters.signed_exact(award[side]) != ""  # the Score column
        assert "/" not in row[4]  # "+16⅔", never "50/3"
        # A pair's own card (one pair's results read) and every card agree.
        card = next(c for c in selectors.scorecards(changes.event) if c["pair"] == pair)
        assert next(r for r in card["rows"] if r["board"] == board)["award"] == award


def test_a_fouled_boards_award_at_matchpoints(client, director):
    changes = build_changes_night(director, method="matchpoints")
    result = changes.fouled
    award = _award(selectors.traveller(changes.event, result.board.number)["rows"], result)
    card = selectors.scorecard(changes.event, result.ns_pair.number)
    row = next(r for r in card["rows"] if r["board"] == result.board.number)
    assert row["award"] == award and presenters.side_award(row) == presenters.signed_exact(
        award[0])
    html = page(client, changes, f"pairs/{result.ns_pair.number}/")
    assert _row_cells(html, result.board.number)[4] == presenters.signed_exact(award[0])
    # An average at matchpoints scores half the top, no score: nothing in the column.
    average = selectors.scorecard(changes.event, changes.average.ns_pair.number)
    assert not next(r for r in average["rows"]
                    if r["board"] == changes.average.board.number)["award"]


def test_the_late_pairs_boards_read_5_of_7(client, changes):
    data = standings.standings(changes.event)
    rows = {r["pair"]: r for ranking in data["rankings"] for r in ranking["rows"]}
    assert rows[LATE]["boards"] == 5 and not rows[LATE].get("not_played")
    html = page(client, changes, "standings/")
    text = cells(html)
    at = text.index("Late Lou & Tardy Ted")
    assert text[at - 1] == str(LATE) and text[at + 2] == "5 of 7"
    assert 'title="2 boards before it joined late"' in html
    assert (f"Pair {LATE} joined late, from round {JOINED}: “5 of 7” means it played 5 of "
            "its 7 boards, and its score is over those it played.") in html
    # A pair there from the start: as before.
    full = next(p for p, r in rows.items() if p != LATE and not r.get("not_played"))
    assert text[text.index(" & ".join(rows[full]["names"])) + 2] == str(rows[full]["boards"])
    assert selectors.late_pairs(changes.event) == [
        {"pair": LATE, "joined_round": JOINED, "missed": 2}]
