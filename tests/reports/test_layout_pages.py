"""Where the travellers and the score cards break between pages.

A board or a card that fits on a page is printed whole on one: a board split over two
pages once left its last results and its average opening a page under a bare header row,
with no board number. One longer than a page runs on, and each page it runs on to says
whose it is ("Board 3 (continued)") above the header row. Score cards go as many to a page
as fit, a cut line between two (they went one to a page, some 15% of it used).
"""

from __future__ import annotations

import copy
import io

import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, Spacer

from tournaments import presenters
from tournaments.reports.base import BaseRenderer, KeptBlock, Line
from tournaments.reports.documents import ScorecardsRenderer, TravellersRenderer
from tournaments.reports.services import report_data

from .night import PLAYERS, build_night
from .pdf import pdf_pages, score_cards
from .test_renderers import NOW
from .test_travellers_big import _long_board, expected_row, words

FOOTER = ("Printed ", "page ")
DOCUMENTS = ("Travellers", "Personal score cards", "Blocks")  # a header: "Event · Travellers"


def content_lines(page: str) -> list[str]:
    """A page's lines, in order, without its header and footer."""
    lines = [line.strip() for line in page.splitlines() if line.strip()]
    return [line for line in lines if not line.startswith(FOOTER)
            and not line.partition(" · ")[2].startswith(DOCUMENTS)]


def pages_of(renderer_class: type[BaseRenderer], data: dict) -> list[str]:
    return pdf_pages(renderer_class(now=NOW).render(data)[2])


def cut_lines(content: bytes) -> list[int]:
    """The dashed lines drawn on each page (the cut lines: nothing else is dashed)."""
    return [page.get_contents().get_data().count(b"[4 3] 0 d")
            for page in PdfReader(io.BytesIO(content)).pages]


# --- travellers ----------------------------------------------------------------------------


def test_a_board_that_fits_on_a_page_is_never_split(director):
    """A 5-table night: ten boards, five results each with their exact fractions, and the
    hands of five. Each board is whole on the page of its heading, and every page opens
    with a board's heading, never with results under a bare header row."""
    night = build_night(director, tables=5)
    data = report_data(night.event, "travellers")
    assert any(board["hands"] for board in data["boards"])
    pages = pages_of(TravellersRenderer, data)
    for board in data["boards"]:
        heading = f"Board {board['board']} · dealer"
        (page,) = [page for page in pages if heading in page]
        found = words(page[page.index(heading):])
        for row in board["rows"]:
            assert expected_row(row) in found, (board["board"], row["table"])
        assert words(presenters.traveller_average(board)) in found, board["board"]
    for number, page in enumerate(pages, start=1):
        assert content_lines(page)[0].startswith("Board "), number
        assert "(continued)" not in page
    # Two boards to a page, hands and all: the diagram names the seats on its compass, not
    # over each hand, which had made a board of five results just over half a page.
    assert all(page.count(" · dealer ") >= 2 for page in pages[:-1])


def test_a_board_longer_than_a_page_runs_on_saying_whose_it_is():
    """A big event's board, 250 results: it begins under the short board before it, and
    each page it runs on to opens "Board 1 (continued)" over the header row; its results
    are all printed, in order, and its average closes it; the next board follows on its
    last page."""
    data = {"event": "Big night", "rules": "american-1913", "method": "plus-minus",
            "boards": [{**_long_board(3), "board": 2}, _long_board(250),
                       {**_long_board(3), "board": 3}]}
    long_board = data["boards"][1]
    pages = pages_of(TravellersRenderer, data)
    assert len(pages) > 5
    first = pages[0]
    assert first.index("Board 2 · dealer") < first.index("Board 1 · dealer North")
    printed = 0
    ends = next(n for n, page in enumerate(pages)  # the page of board 1's average
                if "Average of the tables" in page.partition("Board 1 · dealer North")[
                    2 if n == 0 else 0])
    for number, page in enumerate(pages[:ends + 1], start=1):
        if number == 1:
            page = page[page.index("Board 1 · dealer North"):]
        else:
            assert content_lines(page)[0] == "Board 1 (continued)", number
        lines = content_lines(page)
        assert " N–S E–W Contract By Tricks " in words("\n".join(lines[1:4])), number
        found = words(page)
        tables = [row["table"] for row in long_board["rows"] if expected_row(row) in found]
        assert tables == list(range(printed + 1, printed + 1 + len(tables))), number
        printed += len(tables)
    assert printed == 250
    # The next board whole after it: under its average, or at the top of the next page.
    after = "".join(pages[ends:]).split("Average of the tables", 1)[1]
    assert "Board 3 · dealer" in after and "(continued)" not in after


def test_a_board_that_would_not_fit_under_another_starts_a_new_page_whole():
    """Two boards, each a little over half a page: the second goes over whole, rather than
    its heading and first results ending the first page."""
    first, second = _long_board(17), {**_long_board(17), "board": 2}
    data = {"event": "Night", "rules": "american-1913", "method": "plus-minus",
            "boards": [first, second]}
    pages = pages_of(TravellersRenderer, data)
    assert len(pages) == 2
    assert "Board 2" not in pages[0] and "Board 1" not in pages[1]
    for page, board in zip(pages, data["boards"], strict=True):
        assert all(expected_row(row) in words(page) for row in board["rows"])


# --- score cards ---------------------------------------------------------------------------


def test_score_cards_go_as_many_to_a_page_as_fit_with_a_cut_line_between(night):
    """The night's six cards of six boards fill two sides, not six, three to a side; each
    card is whole on its page; a dashed cut line between two cards on a page, none above a
    page's first."""
    data = report_data(night.event, "scorecards")
    _, _, content = ScorecardsRenderer(now=NOW).render(data)
    pages = pdf_pages(content)
    assert len(pages) == 2
    on_page = []
    for card in data["cards"]:
        title = f"Pair {card['pair']}: {' & '.join(PLAYERS[card['pair']])}"
        (page,) = [n for n, page in enumerate(pages) if title in page]
        assert f"Total: {presenters.signed(card['shown'])}" in pages[page].split(title)[1]
        on_page.append(page)
    counts = [on_page.count(n) for n in range(len(pages))]
    assert counts == [3, 3]
    assert cut_lines(content) == [count - 1 for count in counts]
    for page in pages:
        assert content_lines(page)[0].startswith("Pair ")
    assert "(continued)" not in "".join(pages)


def test_a_card_longer_than_a_page_runs_on_under_its_pairs_name(night):
    """Pair 2 played 60 boards (a long evening's card, longer than a page): it runs on, its
    pair's name "(continued)" opening each page after its first, while the short cards
    around it stay whole, and the next one follows it on its last page."""
    data = report_data(night.event, "scorecards")
    cards = data["cards"][:3]
    long_card = copy.deepcopy(cards[1])
    long_card["rows"] = [{**row, "board": n} for n, row in
                         enumerate(long_card["rows"] * 10, start=1)]
    data = {**data, "cards": [cards[0], long_card, cards[2]]}
    _, _, content = ScorecardsRenderer(now=NOW).render(data)
    pages = pdf_pages(content)
    title = f"Pair 2: {' & '.join(PLAYERS[2])}"
    runs_on = [n for n, page in enumerate(pages) if f"{title} (continued)" in page]
    assert runs_on and runs_on == list(range(runs_on[0], len(pages)))
    for n in runs_on:
        assert content_lines(pages[n])[0] == f"{title} (continued)"
    assert "Pair 3: " in pages[-1].split("(continued)")[1]  # on the long card's last page
    printed = score_cards(content)
    assert [card.splitlines()[0] for card in printed] == [
        f"Pair {n}: {' & '.join(PLAYERS[n])}" for n in (1, 2, 3)]
    found = words(printed[1])
    assert all(f" {row['board']} N–S " in found or f" {row['board']} E–W " in found
               for row in long_card["rows"])
    assert "Pair 1: " in pages[0] and "Total: " in pages[0].split("Pair 1: ")[1]


# --- the block kept whole ------------------------------------------------------------------


class Blocks(BaseRenderer):
    """Prints the blocks it is given, each kept whole."""

    document = "Blocks"

    def __init__(self, parts: list[list], **kwargs):
        super().__init__(now=NOW, **kwargs)
        self.parts = parts

    def count(self, data: dict) -> int:
        return len(self.parts)

    def blocks(self, data: dict):
        for parts in self.parts:
            yield [KeptBlock(parts, room=self.frame_height, continued=[
                Line("The long block (continued)", self.styles["h2"])])]


def test_frame_height_is_what_an_empty_page_holds_to_the_point(settings):
    """A block half a point shorter than `frame_height` goes over to a page of its own and
    fills it (no blank page, no run-on); one half a point taller than it cannot be printed
    at all (a spacer does not split)."""
    for size in ("letter", "a4"):
        settings.REPORTS_PAGE_SIZE = size
        room = Blocks([]).frame_height
        small = [Paragraph("A short block", Blocks([]).styles["body"])]
        content = Blocks([small, [Spacer(0, room - 0.5)]]).render({"event": "E"})[2]
        assert len(pdf_pages(content)) == 2, size
        with pytest.raises(ValueError, match="could not be laid out"):
            Blocks([[Spacer(0, room + 0.5)]]).render({"event": "E"})


def test_a_block_longer_than_a_page_runs_on_from_under_another_given_half_a_page():
    """60 lines, a page and a bit, under a short block: it begins where it is and takes
    the rest of the next page, two pages in all (begun on a page of its own, a big
    event's boards had left every other page three quarters empty); with less than half
    a page left, it begins the next page."""
    renderer = Blocks([])
    long = [Paragraph("The long block", renderer.styles["h2"]),
            Paragraph("<br/>".join(["line"] * 60), renderer.styles["body"])]
    pages = pdf_pages(Blocks([[Spacer(0, 20 * mm)], long]).render({"event": "E"})[2])
    assert len(pages) == 2
    assert content_lines(pages[0])[0] == "The long block"
    assert content_lines(pages[1])[0] == "The long block (continued)"
    assert sum(content_lines(page).count("line") for page in pages) == 60
    tall = renderer.frame_height * 0.6
    pages = pdf_pages(Blocks([[Spacer(0, tall)], long]).render({"event": "E"})[2])
    assert len(pages) == 3
    assert "The long block" not in pages[0]
    assert content_lines(pages[1])[0] == "The long block"
    assert content_lines(pages[2])[0] == "The long block (continued)"


def test_a_line_that_does_not_fit_under_a_page_full_goes_over_and_is_printed():
    """A block's last line (a card's total) one that does not fit under the rest, which
    fill the page: it goes over under the running head. Reportlab's paragraph, asked to
    split and unable, had dropped its lines, and the page failed to print."""
    renderer = Blocks([])
    block = [Spacer(0, renderer.frame_height - 5),
             Paragraph("Total: +45", renderer.styles["body"])]
    pages = pdf_pages(Blocks([block]).render({"event": "E"})[2])
    assert len(pages) == 2
    assert content_lines(pages[1]) == ["The long block (continued)", "Total: +45"]


@pytest.mark.parametrize("size", ["letter", "a4"])
def test_score_cards_of_every_length_print_with_their_totals(night, settings, size):
    """Cards of 20 to 40 boards: whatever falls at a page's foot, each prints, whole or run
    on, with its total (a card of 28 boards on letter, of 30 on A4, had failed)."""
    settings.REPORTS_PAGE_SIZE = size
    data = report_data(night.event, "scorecards")
    card = data["cards"][0]
    for boards in range(20, 41):
        rows = [{**row, "board": n} for n, row in
                enumerate((card["rows"] * 7)[:boards], start=1)]
        _, _, content = ScorecardsRenderer(now=NOW).render(
            {**data, "cards": [{**card, "rows": rows}, data["cards"][1]]})
        printed = score_cards(content)
        assert len(printed) == 2, boards
        assert all("Total: " in text for text in printed), boards
