"""The mailed score card's text says what the web card and the PDF say on a night of
changes: why a board was not played, a ruled board's award in the Score column, and the
rounds a late pair missed."""

import pytest

from tests.reports.changes_night import JOINED, LATE, LEFT, LEFT_AFTER, build_changes_night
from tests.reports.night import make_director
from tournaments import presenters, selectors
from tournaments.mail.cards import card_text


def _line(text: str, board: int) -> str:
    return next(line for line in text.splitlines() if line.split()[:1] == [str(board)])


@pytest.mark.django_db
def test_the_mailed_card_says_why_gives_the_award_and_the_rounds_missed():
    changes = build_changes_night(make_director())
    event = changes.event
    cards = {c["pair"]: c for c in selectors.scorecards(event)}
    # A pair that left: its own card says why each later board was not played.
    text = card_text(event, cards[LEFT])
    gone = f"Not played: pair {LEFT} left after round {LEFT_AFTER}"
    assert gone in text and "Not played\n" not in text
    # The board the director marked not played.
    marked = changes.not_played
    line = _line(card_text(event, cards[marked.ns_pair.number]), marked.board.number)
    assert "Not played at the table (the director's ruling)" in line
    # A ruled board: the ruling with its award, and the pair's side of it as its score.
    average = changes.average
    row = next(r for r in cards[average.ew_pair.number]["rows"]
               if r["board"] == average.board.number)
    line = _line(card_text(event, cards[average.ew_pair.number]), average.board.number)
    assert presenters.award_words(row) in line
    text = card_text(event, cards[average.ew_pair.number])
    at = text.splitlines()[0].index("Score")  # the column's right edge: "Score" ends it
    assert line[:at + len("Score")].split()[-1] == presenters.side_award(row) == "+2⅔"
    # The late pair: the rounds before it joined.
    late = card_text(event, cards[LATE])
    assert late.splitlines()[0] == (f"Rounds 1 and 2 not played: pair {LATE} joined late, "
                                    f"from round {JOINED}.")
