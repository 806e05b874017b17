"""A night of changes in print (changes_night.py): the score cards say why a board was not
played and give a ruled board's award as the traveller does, with the web card's words;
the standings print a late pair's Boards as "5 of 7"."""

from tournaments import presenters, selectors
from tournaments.reports.documents import ScorecardsRenderer, StandingsRenderer
from tournaments.reports.services import report_data

from .changes_night import JOINED, LATE, LEFT, LEFT_AFTER, build_changes_night
from .pdf import cells_of, pdf_text, score_cards
from .test_renderers import render


def printed_cards(event) -> dict[int, str]:
    """Each pair's printed card, one cell or line a line, by pair."""
    _, content, _ = render(ScorecardsRenderer, report_data(event, "scorecards"))
    cards = [cells_of(card) for card in score_cards(content)]
    return {int(card.split(":", 1)[0].removeprefix("Pair ")): card for card in cards}


def test_the_printed_cards_say_why_and_give_the_award(director):
    night = build_changes_night(director)
    cards = printed_cards(night.event)
    # A pair that left: its card and its would-be opponents' cards.
    gone = f"Not played: pair {LEFT} left after round {LEFT_AFTER}"
    assert gone in cards[LEFT]
    opponents = {r["opponents"] for r in selectors.scorecard(night.event, LEFT)["rows"]
                 if r.get("left")}
    assert opponents and all(gone in cards[pair] for pair in opponents)
    # The director's ruling, on both its pairs' cards.
    for pair in (night.not_played.ns_pair.number, night.not_played.ew_pair.number):
        assert "Not played at the table (the director's ruling)" in cards[pair]
    # The late pair: the rounds its rows leave out, under its title.
    assert (f"Rounds 1 and 2 not played: pair {LATE} joined late, from round {JOINED}."
            in cards[LATE])
    assert "joined late" not in cards[1]
    # A ruled board: the traveller's award in words, and the pair's own in the Score column.
    for result in (night.average, night.fouled):
        board = result.board.number
        award = next(r["award"] for r in selectors.traveller(night.event, board)["rows"]
                     if r["result_id"] == result.pk)
        for pair, side in ((result.ns_pair.number, 0), (result.ew_pair.number, 1)):
            words = (f"{presenters.ruling(result.ruling, result.offending)} "  # two lines
                     f"{presenters.award_words({'award': award})}")
            line = next(line for line in cards[pair].splitlines()
                        if line.startswith(f"{board} "))
            # The Score column follows the award's words: "+2⅔", never "8/3" or blank.
            assert words in line, line
            assert line.split(words)[1].split()[0] == presenters.signed_exact(award[side]), line
            assert "/" not in line


def test_the_printed_standings_read_5_of_7_for_the_late_pair(director):
    night = build_changes_night(director)
    _, content, _ = render(StandingsRenderer, report_data(night.event, "standings"))
    text = cells_of(pdf_text(content))
    lines = text.splitlines()
    at = lines.index("Late Lou & Tardy Ted")  # a cell a line: players, score, exact, boards
    assert lines[at - 1] == str(LATE) and lines[at + 3] == "5 of 7", lines[at - 2:at + 4]
    assert (f"Pair {LATE} joined late, from round {JOINED}: “5 of 7” means it played 5 of "
            "its 7 boards") in " ".join(text.split())
