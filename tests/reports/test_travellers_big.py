"""The travellers of bigger events: every result printed, long travellers carried over
pages under their header, text kept inside its column, and no per-row Paragraphs."""

from __future__ import annotations

import datetime
import io

import pytest
from pypdf import PdfReader
from reportlab import rl_config
from reportlab.platypus import Paragraph, SimpleDocTemplate

from tournaments import presenters
from tournaments.reports import base
from tournaments.reports.base import Column, Grid, GridRow, contract_words
from tournaments.reports.documents import TravellersRenderer
from tournaments.reports.services import report_data

from .night import build_night
from .pdf import pdf_pages, pdf_text, signed

NOW = datetime.datetime(2026, 11, 17, 23, 5)
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "RS": "R♠", "NT": "NT"}
DOUBLINGS = {"": "", "X": " ×", "XX": " ××"}


def render(data: dict) -> tuple[bytes, list[tuple[int, int]]]:
    calls: list[tuple[int, int]] = []
    content = TravellersRenderer(progress=lambda done, total: calls.append((done, total)),
                                 now=NOW).render(data)[2]
    return content, calls


def words(text: str) -> str:
    """The text as single-spaced words, padded, so a row is found whole and in order."""
    return f" {' '.join(text.split())} "


def expected_row(row: dict, *, whist: bool = False) -> str:
    """What one result's row says, cell by cell, left to right (as words)."""
    def score(shown: int | None, exact: str | None) -> list[str]:
        if shown is None:
            return []
        rounded = presenters.is_rounded(shown, exact)
        # A plus/minus's exact value keeps its sign: "+6 (+5⁷⁄₁₃)".
        return [signed(shown)] + ([f"({presenters.signed_exact(exact)})"] if rounded else [])

    cells: list[str] = [str(row["ns"]), str(row["ew"])]
    if row["ruling"]:  # and the score it gives ("; awarded N–S 4, E–W 9")
        cells.append(contract_words(row))
    elif whist:
        cells += [str(row["ns_trick"]), str(row["ew_trick"])]
    else:
        cells += [f"{row['level']}{SYMBOLS[row['denomination']]}{DOUBLINGS[row['doubled']]}",
                  row["declarer"], str(row["tricks"]), str(row["ns_trick"]),
                  str(row["ns_honour"]), str(row["ew_trick"]), str(row["ew_honour"])]
    if row["net_ns"] is not None and not whist:  # whist compares the tricks alone
        cells.append(signed(row["net_ns"]))
    cells += score(row["ns_shown"], row["ns_plus_minus"])
    cells += score(row["ew_shown"], row["ew_plus_minus"])
    return words(" ".join(cells))


def board_texts(text: str, numbers: list[int]) -> dict[int, str]:
    """Each board's stretch of the document, from its heading to the next board's."""
    starts = [text.index(f"Board {n} · dealer") for n in numbers] + [len(text)]
    return {n: text[starts[i]:starts[i + 1]] for i, n in enumerate(numbers)}


def test_a_mid_size_event_prints_every_result_on_its_board(director):
    # A 13-table Mitchell: 26 boards, 338 results, one of them a director's ruling.
    night = build_night(director, tables=13)
    data = report_data(night.event, "travellers")
    assert len(data["boards"]) == 26
    content, calls = render(data)
    pages = pdf_pages(content)
    text = "\n".join(pages)
    boards = board_texts(text, [b["board"] for b in data["boards"]])
    rulings = 0
    for board in data["boards"]:
        assert len(board["rows"]) == 13
        found = words(boards[board["board"]])
        for row in board["rows"]:
            assert expected_row(row) in found, (board["board"], expected_row(row))
            rulings += bool(row["ruling"])
        assert (f"N–S {presenters.exact(board['average']['ns'])}, "
                f"E–W {presenters.exact(board['average']['ew'])}") in found
    assert rulings == 1
    # Hand diagrams for the boards with a hand record, suit symbols in DejaVu.
    assert "♠ 10 8 2" in text and "♥ A Q J 8 4" in text
    # The footer counts the pages; progress goes board by board to the total.
    for number, page in enumerate(pages, start=1):
        assert f"page {number} of {len(pages)}" in page
    assert calls[0] == (0, 26) and calls[-1] == (26, 26)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


def test_duplicate_whist_travellers_print_each_sides_tricks(director):
    night = build_night(director, rules="duplicate-whist")
    data = report_data(night.event, "travellers")
    found = words(pdf_text(render(data)[0]))
    assert " N–S tricks scored E–W tricks scored N–S ± " in found  # no net at whist
    assert "Contract" not in found
    for board in data["boards"]:
        for row in board["rows"]:
            assert expected_row(row, whist=True) in found


def test_matchpoint_travellers_head_their_columns_mp(director):
    night = build_night(director, method="matchpoints")
    found = words(pdf_text(render(report_data(night.event, "travellers"))[0]))
    assert " N–S MP E–W MP " in found


def test_a_board_not_played_yet_says_so(director):
    night = build_night(director, play=False, published="none")
    text = pdf_text(render(report_data(night.event, "travellers"))[0])
    assert text.count("No results yet") == 6


def _long_board(tables: int) -> dict:
    """One board played at `tables` tables (plain data, as selectors.traveller gives it)."""
    rows = []
    for table in range(1, tables + 1):
        made = table % 3
        rows.append({
            "result_id": table, "ns": table, "ew": tables + table, "ns_names": [],
            "ew_names": [], "ruling": "", "offending": "", "level": 2,
            "denomination": "HDSC"[table % 4], "declarer": "NESW"[table % 4],
            "doubled": "X" if table % 7 == 0 else "", "tricks": 7 + made, "passed_out": False,
            "ns_trick": 6 * made, "ns_honour": 10 * (table % 5), "ew_trick": 0,
            "ew_honour": 0, "net_ns": 6 * made + 10 * (table % 5), "ns_score": 0,
            "ew_score": 0, "ns_plus_minus": f"{table}/7", "ew_plus_minus": f"-{table}/7",
            "ns_shown": round(table / 7), "ew_shown": -round(table / 7),
            "status": "confirmed", "round": 1, "table": table,
        })
    return {"board": 1, "dealer": "N", "deal": "", "hands": None, "method": "plus-minus",
            "average": {"ns": "0", "ew": "0"}, "rows": rows}


def test_a_long_traveller_runs_over_pages_with_its_header_on_each():
    board = _long_board(250)
    data = {"event": "Big night", "rules": "american-1913", "method": "plus-minus",
            "boards": [board]}
    content, calls = render(data)
    pages = pdf_pages(content)
    assert len(pages) > 5
    previous = 0
    for number, page in enumerate(pages, start=1):
        found = words(page)
        assert " N–S E–W Contract By Tricks " in found
        assert f"page {number} of {len(pages)}" in page
        tables = [row["table"] for row in board["rows"] if expected_row(row) in found]
        # Each page carries on where the last one stopped.
        assert tables == list(range(previous + 1, previous + 1 + len(tables))), number
        previous += len(tables)
    assert previous == 250
    assert calls == [(0, 1), (1, 1), (1, 1)]


def test_paragraphs_are_not_built_per_result(monkeypatch):
    """Laying out a Paragraph per cell is what made a 1,000-table event take minutes."""
    made: list[int] = []
    original = Paragraph.__init__

    def counting(self, *args, **kwargs):
        made.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(Paragraph, "__init__", counting)
    counts = []
    for tables in (5, 400):
        made.clear()
        render({"event": "E", "rules": "american-1913", "method": "plus-minus",
                "boards": [_long_board(tables)]})
        counts.append(len(made))
    assert counts[0] == counts[1]


def _drawn_text(content: bytes) -> list[tuple[str, float, float]]:
    """(text, x, font size) of each piece of text drawn on the first page."""
    drawn: list[tuple[str, float, float]] = []

    def visit(text, cm, tm, font_dict, font_size):
        if text.strip():
            drawn.append((text.strip(), cm[4] + tm[4] * cm[0], font_size * tm[0]))

    PdfReader(io.BytesIO(content)).pages[0].extract_text(visitor_text=visit)
    return drawn


def test_text_too_wide_for_its_column_is_set_smaller_to_fit():
    base.register_fonts()
    columns = [Column(40), Column(40, "right"), Column(80)]
    rows = [GridRow(["Cancelled (new deal), EW at fault", "−123456", "fits"])]
    grid = Grid(columns, ["A", "B", "C"], rows)
    grid.hAlign = "LEFT"
    buffer = io.BytesIO()
    SimpleDocTemplate(buffer, leftMargin=50).build([grid])
    drawn = {text: (x, size) for text, x, size in _drawn_text(buffer.getvalue())}
    left = 50 + 6  # the margin, then the frame's own padding
    for text, first, last in (("Cancelled (new deal), EW at fault", 0, 40),
                              ("−123456", 40, 80)):
        x, size = drawn[text]
        assert size < 9, text  # shrunk from the grid's 9 pt
        right = x + base.text_width(base.FONT, text) * size
        assert left + first <= x and right <= left + last + 0.01, (text, x, right)
    assert drawn["fits"][1] == pytest.approx(9)
    assert drawn["A B C"][1] == pytest.approx(8)  # the header: bold, 8 pt


def test_the_file_is_written_without_ascii85_and_the_setting_is_left_as_it_was():
    before = rl_config.useA85
    content = render({"event": "E", "rules": "american-1913", "method": "plus-minus",
                      "boards": [_long_board(30)]})[0]
    assert rl_config.useA85 == before
    assert b"/ASCII85Decode" not in content
    assert b"/FlateDecode" in content


def test_duplicate_whist_score_cards_print_the_tricks_won(director):
    """A whist card has no contract: its column is the tricks the pair's side won in play,
    as the web card's (the traveller's counts are after any revoke: "tricks scored"), and
    its score a count of tricks, unsigned."""
    from tournaments.reports.documents import ScorecardsRenderer

    from .test_renderers import render as render_with

    night = build_night(director, rules="duplicate-whist")
    data = report_data(night.event, "scorecards")
    found = words(pdf_text(render_with(ScorecardsRenderer, data)[1]))
    assert " Board Sat Against Tricks won in play Score " in found
    assert "Contract" not in found and " By " not in found
    firsts = {c["rows"][0]["direction"]: c["rows"][0] for c in data["cards"] if c["rows"]}
    assert set(firsts) == {"NS", "EW"}
    for first in firsts.values():  # an N–S pair's and an E–W pair's: their own tricks
        assert (f" {first['board']} {presenters.side(first['direction'])} "
                f"{first['opponents']} {presenters.tricks_won(first)} {first['score']} "
                ) in found


def test_every_page_says_while_the_scores_may_still_change(director):
    """A print made before the standings are final says so on every page's header."""
    night = build_night(director)  # published provisional
    data = report_data(night.event, "travellers")
    pages = pdf_pages(render(data)[0])
    assert len(pages) > 1
    for text in pages:
        assert "Tuesday duplicate · Travellers · provisional: scores may still change" in text
    night.publish("final")
    final = pdf_pages(render(report_data(night.event, "travellers"))[0])
    assert not any("may still change" in text for text in final)
