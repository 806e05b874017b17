"""The printed documents: travellers, standings, personal score cards, guide cards, hand
records, and the overall standings of an event of several sessions.

Each renderer takes plain data (see each class) and returns (filename, mimetype,
bytes). Terms: a *traveller* is the slip that travels with a board and collects
every table's result on it; a *guide card* tells one table who sits there and
which boards it plays each round, and where everyone goes next; a *hand record* gives
each board's four hands, to deal the cards into the board before play.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from reportlab.lib import colors
from reportlab.lib.pagesizes import landscape, portrait
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, HRFlowable, PageBreak, Spacer, Table, TableStyle

from scoring.engine import SUITS

from .. import presenters
from .base import (
    FONT,
    FONT_BOLD,
    GREY,
    LINE,
    BaseRenderer,
    Cell,
    Column,
    Grid,
    GridRow,
    KeptBlock,
    Line,
    Rich,
    Run,
    blank,
    cards_text,
    contract_cell,
    esc,
    signed,
    slug,
    suit_markup,
)

PUBLISHED = {"none": "Not published: for the director only", "provisional": "Provisional",
             "final": "Final"}
SEAT_NAMES = presenters.SEATS


def _exact_runs(label: str, shown: int, exact: str | None) -> list[Run]:
    """A plus/minus's shown whole number after `label`, in bold runs for a ``Line``, with
    its exact value beside it, signed, small and grey, when they differ ("Total: +4 (+4⅓)",
    "Total: −40 (−40⅓)")."""
    runs = [Run(f"{label}{signed(shown)}", FONT_BOLD, 9.5)]
    written = presenters.rounded_exact(shown, exact)
    if written is not None:
        runs.append(Run(f" ({written})", FONT_BOLD, 7, GREY))
    return runs


def _exact_beneath(shown: int | None, exact: str | None) -> str:
    """A plus/minus's shown whole number for a narrow column, with the exact value on a
    line of its own beneath it ("+574" over "(+574⅞)") when they differ, as the travellers'
    ``exact_cell`` sets it, so every rounded cell of the column takes two lines (beside
    it, a short one had fitted on one line and a longer one wrapped)."""
    if shown is None:
        return ""
    text = signed(shown)
    written = presenters.rounded_exact(shown, exact)
    if written is None:
        return text
    return f'{text}<br/><font size="7" color="#555555">({esc(written)})</font>'


def _beside(text: str, exact_text: str) -> str:
    """A shown number with its exact value beside it in small type: "+395 (+394⁶⁄₇)"."""
    return f'{text} <font size="7" color="#555555">({esc(exact_text)})</font>'


@lru_cache(maxsize=4096)
def exact_cell(shown: int | None, exact: str | None, plus_minus: bool = True) -> Cell:
    """A Grid cell: a plus/minus's shown whole number, signed, with its exact value beneath
    it when they differ ("+4" over "(+4⅓)"); matchpoints (`plus_minus` false) exactly and
    unsigned, as the score card writes them ("6½").

    Cached: on a board many tables share a score, so they share its cell.
    """
    if shown is None:
        return ""
    if not plus_minus:  # matchpoints are written exactly, as a player counts them
        return presenters.exact(exact) if exact is not None else str(shown)
    written = presenters.rounded_exact(shown, exact)
    if written is None:
        return signed(shown)
    return Rich((Run(signed(shown)),), (Run(f"({written})", size=7, color=GREY),))


LATE_PLAY = "played late"  # the mark of a board played late, out of order


def _late_cell(cell: Cell) -> Cell:
    """A traveller's contract cell with "played late" beneath it."""
    first = cell.lines[0] if isinstance(cell, Rich) else (Run(cell),)
    return Rich(first, (Run(LATE_PLAY, size=7, color="#6b4a00"),))


def _marked_cell(cell: Cell, row: dict) -> Cell:
    """A traveller's contract (or whist's tricks) cell with, beneath it, "played late" and
    what the line does not say but the score counts ("a revoke by E–W")."""
    return _with_marks(_late_cell(cell) if row.get("late_play") else cell, row)


def _with_marks(cell: Cell, row: dict) -> Cell:
    """`cell` with, beneath it, what the line does not say but the score counts ("a
    revoke by E–W"), on a traveller and a score card alike."""
    if not row.get("marks"):
        return cell
    lines = cell.lines if isinstance(cell, Rich) else ((Run(cell),),)
    return Rich(*lines, *((Run(mark, size=7, color=GREY),) for mark in row["marks"]))


def _ruling_cell(words: str) -> Cell:
    """A score card's ruling in words, each part on a line of its own ("Average (Duplicate
    Law B)" / "awarded N–S −16⅔, E–W +16⅔"): on one line the card's narrower span set
    them at some 5 points."""
    parts = words.split("; ")
    return words if len(parts) == 1 else Rich(*((Run(part),) for part in parts))


def _card_late_cell(cell: Cell) -> Cell:
    """A score card's contract cell with "(played late)" after it, on the same line."""
    first = cell.lines[0] if isinstance(cell, Rich) else (Run(cell),)
    return Rich((*first, Run(f" ({LATE_PLAY})", size=7, color="#6b4a00")))


class HandDiagramRenderer(BaseRenderer):
    """A renderer that prints deals: the travellers (a diagram over each board's results)
    and the hand records (the diagrams alone, two to a row) share the one diagram."""

    def hand_diagram(self, board: dict, *, hand_width: float = 52 * mm,
                     centre_width: float | None = None, padding: float = 6,
                     corner: Any = "") -> Flowable:
        """The four hands around a compass, hearts and diamonds in red: each hand its four
        suits, the compass between them naming the seats (N at the top, as a hand record
        has it), the board and its dealer. A seat's name over each hand made the diagram a
        third taller, and a board with five results just over half a page.

        Each hand's column is `hand_width` wide, padded `padding` points a side. A
        `centre_width` narrower than the hands' (the hand records, two diagrams across a
        page) is filled by the compass, and North's and South's lines run on over the
        empty column to their right. `corner` fills the empty cell at the top left (the
        hand records name the board there). A suit too wide for its column is set smaller
        until it fits, rather than broken over two lines."""
        hands = board["hands"]
        centre = hand_width if centre_width is None else centre_width
        narrow = centre < hand_width
        size = self.styles["hand"].fontSize

        def hand(seat: str, room: float) -> Any:
            cards = hands.get(seat)
            if not cards:
                return ""
            lines = []
            for suit in SUITS:
                held = cards_text(cards.get(suit, ""))
                line = f"{suit_markup(suit)} {held}"
                wide = stringWidth(f"{presenters.SUITS[suit]} {held}", FONT, size)
                if wide > room:  # rounded down: it surely fits
                    line = f'<font size="{math.floor(size * room / wide * 10) / 10}">{line}</font>'
                lines.append(line)
            return self.para("<br/>".join(lines), "hand")

        # The compass's own cell: in a narrow centre a point a side, no more, so that the
        # table's white rules (which hide its grid) do not cover the compass's box.
        inside = 1 if narrow else padding
        compass = Table(
            [["", "N", ""], ["W", f"Board {board['board']}", "E"],
             ["", f"Dealer {board['dealer']}", ""], ["", "S", ""]],
            colWidths=[5 * mm, centre - 10 * mm - 2 * inside, 5 * mm], rowHeights=12,
            style=TableStyle([
                ("FONT", (0, 0), (-1, -1), FONT, 9),
                ("FONT", (1, 0), (1, 0), FONT_BOLD, 9), ("FONT", (0, 1), (0, 1), FONT_BOLD, 9),
                ("FONT", (2, 1), (2, 1), FONT_BOLD, 9), ("FONT", (1, 3), (1, 3), FONT_BOLD, 9),
                ("ALIGN", (0, 0), (-1, -1), "CENTER"), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("BOX", (0, 0), (-1, -1), 0.5, "#9a9488"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ]))
        extra: list[tuple] = [("GRID", (0, 0), (-1, -1), 0, "white"),
                              ("ALIGN", (1, 1), (1, 1), "CENTER"),
                              ("VALIGN", (0, 0), (-1, -1), "TOP")]
        if padding != 6:  # a table pads its cells 6 points a side
            extra += [("LEFTPADDING", (0, 0), (-1, -1), padding),
                      ("RIGHTPADDING", (0, 0), (-1, -1), padding)]
        if narrow:
            extra += [("LEFTPADDING", (1, 1), (1, 1), inside),
                      ("RIGHTPADDING", (1, 1), (1, 1), inside),
                      ("SPAN", (1, 0), (2, 0)), ("SPAN", (1, 2), (2, 2))]
        side = hand_width - 2 * padding  # room for a line of West's or East's
        top = (centre + hand_width if narrow else centre) - 2 * padding  # North's, South's
        table = self.table(
            [[corner, hand("N", top), ""], [hand("W", side), compass, hand("E", side)],
             ["", hand("S", top), ""]],
            widths=[hand_width, centre, hand_width], header_rows=0, extra=extra,
        )
        table.hAlign = "LEFT"
        return table


class TravellersRenderer(HandDiagramRenderer):
    """One block per board: the hand diagram when the deal is known, then every result.

    Data: {"event": name, "rules": rules name, "method": method,
           "boards": [tournaments.selectors.traveller(...) dicts]}; a board's
    ``hands_kept``: its hands are known but kept back, the board still in play.
    """

    document = "Travellers"
    kind = "travellers"

    def count(self, data: dict) -> int:
        return len(data["boards"])

    def blocks(self, data: dict) -> Iterable[list[Flowable]]:
        whist = data.get("rules") == "duplicate-whist"
        for board in data["boards"]:
            block: list[Flowable] = [self.para(
                f"Board {board['board']} · dealer {SEAT_NAMES.get(board['dealer'], '')}", "h2")]
            if board.get("hands"):
                block.append(self.hand_diagram(board))
                block.append(Spacer(0, 3 * mm))
            elif board.get("hands_kept"):
                block.append(self.para(
                    "Still in play: the hands are printed once every table has played "
                    "this board.", "small"))
            for note in board.get("notes", ()):  # Duplicate Law B: a marked note
                block.append(self.para(f"<b>Note:</b> {esc(note)}", "small"))
            block.append(self.results_table(board, data["method"], whist))
            average = presenters.traveller_average(board)
            if average and not whist:
                block.append(Spacer(0, 1 * mm))
                block.append(self.para(esc(average), "small"))
            for line in presenters.neuberg_notes(board):  # a matchpoint board factored up
                block.append(Spacer(0, 1 * mm))
                block.append(self.para(esc(line) + ".", "small"))
            for line in presenters.board_team_words(board):  # a team match's board
                block.append(Spacer(0, 1 * mm))
                block.append(self.para(esc(line), "small"))
            # A board on one page, whole, when it fits on one: a board split over two pages
            # left its last results and its average under a header with no board number.
            yield [KeptBlock(block, room=self.frame_height, continued=[
                Line(f"Board {board['board']} (continued)", self.styles["h2"])])]

    def results_table(self, board: dict, method: str, whist: bool) -> Flowable:
        """Every table's result on the board, a row each (a ``Grid``: see base.py)."""
        compared = method != "total-points"
        if whist:  # the tricks alone are compared (rules.md §8): no net
            head = ["N–S", "E–W", "N–S tricks\nscored", "E–W tricks\nscored"]
            widths = [0.12, 0.12, 0.18, 0.18]
        else:
            head = ["N–S", "E–W", "Contract", "By", "Tricks", "N–S\ntrick", "N–S\nhonour",
                    "E–W\ntrick", "E–W\nhonour", "Net\nN–S"]
            widths = [0.06, 0.06, 0.11, 0.035, 0.065, 0.07, 0.08, 0.07, 0.08, 0.08]
        if compared:
            head += ["N–S MP", "E–W MP"] if method == "matchpoints" else ["N–S ±", "E–W ±"]
            widths += [0.125, 0.125]
        numeric_from = 2 if whist else 4
        by_section = board.get("by_section", False)
        if by_section:  # compared within each section: each row's section first
            head, widths, numeric_from = ["Section", *head], [0.07, *widths], numeric_from + 1
        scale = self.frame_width / sum(widths)
        columns = [Column(w * scale, "right" if i >= numeric_from else "left")
                   for i, w in enumerate(widths)]
        mp = method == "matchpoints"
        rows = [self._result_row(r, whist, compared, mp) for r in board["rows"]]
        if by_section:
            rows = [GridRow([r["section"], *row.cells],
                            None if row.span is None else (row.span[0] + 1, row.span[1] + 1))
                    for r, row in zip(board["rows"], rows, strict=True)]
        if not rows:
            rows = [GridRow(["No results yet"] + [""] * (len(head) - 1), (0, len(head) - 1))]
        return Grid(columns, head, rows)

    def _result_row(self, r: dict, whist: bool, compared: bool,
                    mp: bool = False) -> GridRow:
        """One table's result: plain strings for numbers, shared cells for the rest (a
        plus/minus's exact value signed, "+4⅓"; matchpoints unsigned, "6½")."""
        span = None
        if r.get("ruling"):
            # A ruling replaces the play: its words span the contract and score columns.
            last = 3 if whist else 8
            cells = [str(r["ns"]), str(r["ew"]), contract_cell(r)]
            cells += [""] * (last - 2) + ([] if whist else [signed(r["net_ns"])])
            span = (2, last)
        elif whist:
            cells = [str(r["ns"]), str(r["ew"]), _marked_cell(blank(r["ns_trick"]), r),
                     blank(r["ew_trick"])]
        else:
            cells = [str(r["ns"]), str(r["ew"]), _marked_cell(contract_cell(r), r),
                     r["declarer"] or "", blank(r["tricks"]), blank(r["ns_trick"]),
                     blank(r["ns_honour"]), blank(r["ew_trick"]), blank(r["ew_honour"]),
                     signed(r["net_ns"])]
        if compared:
            cells += [exact_cell(r["ns_shown"], r["ns_plus_minus"], not mp),
                      exact_cell(r["ew_shown"], r["ew_plus_minus"], not mp)]
        return GridRow(cells, span)


class HandRecordsRenderer(HandDiagramRenderer):
    """Each board's four hands, to make up the boards before play and to hand out after
    it: two diagrams across the page and four rows of them on a page (letter or A4), each
    board whole on its page, its number and dealer large in the diagram's empty top-left
    corner, to be found at arm's length while dealing. The boards without hands are named
    in one line at the start, never drawn empty.

    The hands are in 10 points, as on the travellers: the narrower columns still hold a
    suit of seven cards with the ten; a longer one is set smaller to fit its line.

    Data: {"event": name, "rules": rules name, "in_play": the night not over yet,
           "boards": [{"board": number, "dealer": "N", "hands": seat -> suit -> cards}],
           "missing": [the numbers of the boards without hands]}.
    """

    document = "Hand records"
    kind = "handrecords"
    ACROSS = 2  # diagrams to a row
    GUTTER = 4 * mm  # between the two diagrams of a row
    CENTRE = 26 * mm  # the compass's column: "Board 12" in 9 points, the seats each side
    PADDING = 3  # points each side of a hand (the travellers' 6 would cost a card a line)

    def count(self, data: dict) -> int:
        return max(1, len(data["boards"]))

    def _styles(self) -> dict[str, ParagraphStyle]:
        styles = super()._styles()
        styles["board_number"] = ParagraphStyle("board_number", parent=styles["body"],
                                                fontName=FONT_BOLD, fontSize=14, leading=17)
        return styles

    def blocks(self, data: dict) -> Iterable[list[Flowable]]:
        intro: list[Flowable] = []
        if data["missing"]:
            intro.append(self.para(esc(_no_hands_line(data["missing"])), "body"))
        if data.get("in_play"):
            intro.append(self.para(
                "Printed before the end of play, to make up the boards: show it to no player "
                "until every table has played.", "small"))
        if intro:
            intro.append(Spacer(0, 2 * mm))
        boards = data["boards"]
        if not boards:
            yield intro
            return
        for start in range(0, len(boards), self.ACROSS):
            row = boards[start:start + self.ACROSS]
            kept = KeptBlock([self.diagram_row(row)], room=self.frame_height, continued=[],
                             rule=self.row_rule() if start else None)
            # One block per board (the progress unit); the row rides on its last board.
            yield from ([] for _ in row[1:])
            yield [*intro, kept] if start == 0 else [kept]

    def diagram_row(self, boards: list[dict]) -> Flowable:
        """Up to two boards side by side, each diagram as wide as half the page allows."""
        width = (self.frame_width - self.GUTTER * (self.ACROSS - 1)) / self.ACROSS
        hand_width = (width - self.CENTRE) / 2
        cells: list[Any] = []
        for board in boards:
            if cells:
                cells.append("")
            cells.append(self.hand_diagram(board, hand_width=hand_width,
                                           centre_width=self.CENTRE, padding=self.PADDING,
                                           corner=self.corner(board)))
        widths = [width, self.GUTTER] * (self.ACROSS - 1) + [width]
        cells += [""] * (len(widths) - len(cells))
        row = Table([cells], colWidths=widths, style=TableStyle([
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0)]))
        row.hAlign = "LEFT"
        return row

    def corner(self, board: dict) -> list[Flowable]:
        """The board's number, large, and its dealer: what a director looks for first."""
        return [self.para(f"Board {board['board']}", "board_number"),
                self.para(f"Dealer {SEAT_NAMES.get(board['dealer'], board['dealer'])}",
                          "body")]

    @staticmethod
    def row_rule() -> Flowable:
        """A light line between two rows of boards (left out at the top of a page)."""
        return HRFlowable(width="100%", thickness=0.4, color=LINE, spaceBefore=2 * mm,
                          spaceAfter=2 * mm)


def _no_hands_line(numbers: list[int]) -> str:
    """"Board 6 has no hands recorded", "Boards 3, 4, 7 and 11 to 20 have no hands
    recorded": three boards or more in a row as a range."""
    runs: list[list[int]] = []
    for number in sorted(numbers):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    words = [f"{run[0]} to {run[-1]}" if len(run) > 2 else str(number)
             for run in runs for number in (run[:1] if len(run) > 2 else run)]
    if len(numbers) == 1:
        return f"Board {presenters.listed(words)} has no hands recorded."
    return f"Boards {presenters.listed(words)} have no hands recorded."


class StandingsRenderer(BaseRenderer):
    """The standings: each ranking (N–S and E–W for a Mitchell), or a team match.

    Data: tournaments.standings.standings(event) (interfaces.md §3 plus "published").
    """

    document = "Standings"
    kind = "standings"

    def count(self, data: dict) -> int:
        return (len(data.get("matches", [])) + len(data["rankings"])
                + len(data.get("section_rankings", [])))

    def blocks(self, data: dict) -> Iterable[list[Flowable]]:
        status = PUBLISHED.get(data.get("published", "none"), "")
        intro = [
            self.para(f"{esc(data['event'])} · standings", "title"),
            self.para(f"<b>{esc(status)}</b> · scored by {presenters.method(data['method'])}",
                      "body"),
            Spacer(0, 3 * mm),
        ]
        # The title goes with the first block: a block sent over to the next page whole
        # would otherwise leave it alone on the first.
        first = True
        for match in data.get("matches", []):
            a, b = match["teams"]
            yield [self.kept(f"{a} v {b}", [*(intro if first else []),
                                             *self.match_block(match)])]
            first = False
        # What "22 of 24" under Boards means; a late pair's "10 of 14" (its boards of the
        # rounds before it joined: ``late_pairs``, selectors.late_pairs, where given).
        late = data.get("late_pairs")
        notes = [note for note in [presenters.not_played_note(data),
                                   *presenters.late_pairs_notes(data, late)] if note]
        for index, ranking in enumerate(data["rankings"]):
            if data["kind"] == "teams":
                heading, block = "Teams", self.team_ranking(ranking)
            else:
                heading = self.ranking_heading(ranking)
                block = self.pair_ranking(ranking, data["method"], late)
            if notes and index == len(data["rankings"]) - 1:
                for note in notes:
                    block += [Spacer(0, 2 * mm), self.para(esc(note), "body")]
            yield [self.kept(heading, [*(intro if first else []), *block])]
            first = False
        for index, ranking in enumerate(data.get("section_rankings", [])):
            # Compared across the field: each section's pairs placed among themselves too.
            block = self.pair_ranking(ranking, data["method"], late)
            if index == 0:  # with the first section's ranking: never the last line of a page
                block = [self.para("Each section's places", "h2"), *block]
            yield [self.kept(self.ranking_heading(ranking), block)]

    def kept(self, heading: str, block: list[Flowable]) -> KeptBlock:
        """A ranking (`block`, its heading first), whole on one page when it fits on one: a
        section's table split over two pages had left its last row alone on the next. A
        ranking longer than a page runs on under "`heading` (continued)", its header row
        repeated."""
        return KeptBlock(block, room=self.frame_height, continued=[
            Line(f"{heading} (continued)", self.styles["h2"])])

    def match_block(self, match: dict) -> list[Flowable]:
        """The match as Duplicate Law G counts it: each team's points won by its pairs, the
        odd-pair average added (when there is one), the exact total and the total shown."""
        a, b = match["teams"]
        verdict = esc(presenters.match_verdict(match))
        totals = presenters.match_totals(match)
        odd = totals["odd"]
        head = ["Team", "Won by its pairs", *(["Odd pair: average added"] if odd else []),
                "Exact total", "Points"]
        rows: list[list[Any]] = [[self.para(f"<b>{h}</b>", "small") for h in head]]
        rows += [[esc(line["team"]), line["won"], *([line["added"] or "—"] if odd else []),
                  line["total"], line["score"]] for line in totals["lines"]]
        widths = ([60 * mm, 28 * mm, 32 * mm, 28 * mm, 22 * mm] if odd
                  else [80 * mm, 32 * mm, 32 * mm, 26 * mm])
        return [self.para(f"{esc(a)} v {esc(b)}", "h2"),
                self.table(rows, widths=widths, numeric_from=1),
                Spacer(0, 1.5 * mm), self.para(f"<b>{verdict}.</b>", "body"),
                self.para(esc(totals["rule"]), "small")]

    def team_ranking(self, ranking: dict) -> list[Flowable]:
        rows: list[list[Any]] = [["Place", "Team", "Matches won", "Points"]]
        rows += [[r["place"], self.para(esc(r["team"])), presenters.number(r["matches_won"]),
                  presenters.number(r["points"])]
                 for r in ranking["rows"]]
        return [self.para("Teams", "h2"),
                self.table(rows, widths=[20 * mm, 90 * mm, 30 * mm, 30 * mm], numeric_from=2)]

    @staticmethod
    def ranking_heading(ranking: dict) -> str:
        """"North–South", "Section A, East–West": a pairs ranking's heading, as text."""
        heading = presenters.side_name(ranking["direction"])
        return f"Section {ranking['section']}, {heading}" if ranking.get("section") else heading

    def pair_ranking(self, ranking: dict, method: str,
                     late_pairs: list[dict] | None = None) -> list[Flowable]:
        """A pairs ranking: its heading, then its table (a late pair's Boards "10 of 14")."""
        mp = method == "matchpoints"
        # The field's ranking of several sections: each pair's section beside its number.
        sectioned = bool(ranking["rows"]) and "section" in ranking["rows"][0]
        head = ["Place", "Pair", *(["Section"] if sectioned else []), "Players",
                "Score" if not mp else "Percent", "Exact" if not mp else "Matchpoints",
                "Boards"]
        rows: list[list[Any]] = [head]
        for r in ranking["rows"]:
            if mp:
                score = presenters.percent(r["score"])
                exact = presenters.exact(r.get("matchpoints", r["exact"]))
                if r.get("top"):
                    exact = f"{exact} of {presenters.number(r['top'])}"
            else:
                score, exact = signed(r["score"]), presenters.signed_exact(r["exact"])
            rows.append([r["place"], r["pair"], *([r["section"]] if sectioned else []),
                         self.para(esc(presenters.pair_names(r["names"],
                                                             r.get("substitutes")))),
                         score, exact, presenters.row_boards_played(r, late_pairs)])
        if len(rows) == 1:
            rows.append(["", "", "No results yet", "", "", ""])
        widths = [16 * mm, 14 * mm, *([16 * mm] if sectioned else []),
                  (62 if sectioned else 78) * mm, 24 * mm, 30 * mm, 16 * mm]
        return [self.para(esc(self.ranking_heading(ranking)), "h2"),
                self.table(rows, widths=widths, numeric_from=4 if sectioned else 3,
                           extra=[("ALIGN", (0, 0), (1, -1), "RIGHT")])]


class OverallRenderer(BaseRenderer):
    """The overall standings of an event of several sessions: each pair's score in each
    session ("—" where it did not play) and overall, every pair ranked together.

    Data: tournaments.standings.overall_standings(event).
    """

    document = "Overall standings"
    kind = "overall"

    def count(self, data: dict) -> int:
        return 1

    def blocks(self, data: dict) -> Iterable[list[Flowable]]:
        mp = data["method"] == "matchpoints"
        sessions = data["sessions"]
        status = PUBLISHED.get(data.get("published", "none"), "")
        carried = (f" · each earlier session counted at {data['carry_over']}%"
                   if data["carry_over"] != 100 and len(sessions) > 1 else "")
        head: list[Any] = ["Place", "Pair", "Players"]
        # "counts 50%", as the web page says it: the column gives the session's full score,
        # the overall counts that share of it ("at 50%" read as a score already halved).
        head += [self.para(f"<b>Session {s['session']}</b>"
                           + ('<br/><font size="7.5">counts&nbsp;'
                              f"{presenters.number(s['counted'])}%</font>"
                              if s["counted"] != "100" else ""), "num") for s in sessions]
        head.append("Overall")
        rows: list[list[Any]] = [head]
        for r in data["rankings"][0]["rows"]:
            cells = [self._cell(c, mp) for c in r["sessions"]]
            total = (presenters.percent(r["score"]) if mp
                     else self.para(_exact_beneath(r["score"], r["exact"]), "num"))
            rows.append([r["place"], r["pair"], self.para(esc(presenters.pair_names(r["names"]))),
                         *cells, total])
        if len(rows) == 1:
            rows.append(["", "", "No results yet", *([""] * len(sessions)), ""])
        # A4 or Letter less the margins: the players' column gives way to the sessions'.
        each = min(22 * mm, (self.frame_width - 90 * mm) / max(len(sessions), 1))
        players = self.frame_width - 16 * mm - 12 * mm - 24 * mm - each * len(sessions)
        widths = [16 * mm, 12 * mm, players, *([each] * len(sessions)), 24 * mm]
        yield [
            self.para(f"{esc(data['event'])} · overall standings", "title"),
            self.para(f"<b>{esc(status)}</b> · scored by {presenters.method(data['method'])}"
                      f"{carried}", "body"),
            Spacer(0, 3 * mm),
            self.table(rows, widths=widths, numeric_from=3,
                       extra=[("ALIGN", (0, 0), (1, -1), "RIGHT")]),
            Spacer(0, 2 * mm),
            self.para("A pair that did not play a session adds nothing from it (—)."
                      + ("" if mp else " A score shows the nearest whole number, its exact"
                         " value beneath it where they differ."), "small"),
        ]

    def _cell(self, cell: dict | None, mp: bool) -> Any:
        if cell is None:
            return "—"
        if mp:
            return presenters.percent(cell["score"])
        return self.para(_exact_beneath(cell["score"], cell["exact"]), "num")


class ScorecardsRenderer(BaseRenderer):
    """One personal score card per pair: board by board with the running total.

    Data: {"event": name, "rules": rules name, "method": method,
           "cards": [tournaments.selectors.scorecard(...) dicts]}.
    """

    document = "Personal score cards"
    kind = "scorecards"

    def count(self, data: dict) -> int:
        return len(data["cards"])

    def blocks(self, data: dict) -> Iterable[list[Flowable]]:
        team = data["method"] == "total-points"
        compared = not team
        mp = data["method"] == "matchpoints"
        whist = data.get("rules") == "duplicate-whist"
        for index, card in enumerate(data["cards"]):
            title = (f"Pair {card['pair']}: "
                     f"{presenters.pair_names(card['names'], card.get('substitutes'))}")
            block: list[Flowable] = [self.line(title, "title")]
            late = presenters.joined_late_words(card.get("pair"), card.get("joined_round"))
            if late:  # the rounds its rows leave out, as the web card says
                block.append(self.para(esc(late), "small"))
            if whist:  # no contract: the tricks the pair's side won, as the web card has it
                head = ["Board", "Sat", "Against", "Tricks won in play"]
                widths = [14, 12, 18, 30]
            else:
                head = ["Board", "Sat", "Against", "Contract", "By", "Tricks"]
                widths = [14, 12, 18, 32, 10, 14]
            if team:  # what the pair won for its team (Duplicate Law G), not a net score
                head += ["Points won", "Running"]
                widths += [24, 24]
            else:
                head.append("Score")
                widths.append(18)
            if compared:
                head += ["MP" if mp else "±", "Running"]
                widths += [30, 30]
            # A Grid, as the travellers: 2,000 cards of 52 boards lay out in seconds.
            right_from = 3 if whist else 5
            columns = [Column(w * mm, "right" if i >= right_from else "left")
                       for i, w in enumerate(widths)]
            rows = [self._card_row(r, compared, whist, mp, team) for r in card["rows"]]
            if not rows:
                rows = [GridRow(["No boards played"] + [""] * (len(head) - 1),
                                (0, len(head) - 1))]
            grid = Grid(columns, head, rows)
            grid.hAlign = "LEFT"
            block.append(grid)
            for r in card["rows"]:  # Duplicate Law B: the ruling's note under the card
                if r.get("note"):
                    block.append(self.para(f"<b>Note:</b> {esc(r['note'])}", "small"))
            if compared:
                # Matchpoints as the standings give them ("12½ of 24 (52.08%)"), unsigned.
                block.append(Spacer(0, 2 * mm))
                block.append(self.line(
                    [Run(f"Total: {card['total_text']}", FONT_BOLD, 9.5)] if mp
                    else _exact_runs("Total: ", card["shown"], card["total"]), "body"))
                if mp and card.get("total_note"):
                    block.append(self.para(esc(card["total_note"]), "small"))
            elif card["rows"]:
                block.append(Spacer(0, 2 * mm))
                block.append(self.line([Run("Total won for the team: "
                                            f"{presenters.exact(card['total'])}", FONT_BOLD,
                                            9.5)], "body"))
            # As many whole cards to a page as fit, a cut line between them (a card a page,
            # a six-board card used some 15% of it); one longer than a page runs on, its
            # pair named at the top of each page.
            yield [KeptBlock(block, room=self.frame_height,
                             continued=[Line(f"{title} (continued)",
                                                    self.styles["title"])],
                             rule=self.cut_line() if index else None)]

    @staticmethod
    def cut_line() -> Flowable:
        """The dashed line to cut along between two cards on a page (as the guide cards')."""
        return HRFlowable(width="100%", thickness=0.6, color=LINE, dash=(4, 3),
                          spaceBefore=5 * mm, spaceAfter=5 * mm)

    def _card_row(self, r: dict, compared: bool, whist: bool = False,
                  mp: bool = False, team: bool = False) -> GridRow:
        """One board of a card: plain strings for numbers, shared cells for the rest
        (matchpoints exactly and unsigned, "6½"; plus/minus signed, rounded, exact beneath;
        in a team match the points won and their running total, exactly, "—" for a deal
        left out of the match). A ruling is written as the traveller and the web card write
        it: why a board was not played, or the award the traveller gives (contract_cell),
        its parts a line each, the pair's own award in the Score column."""
        played = contract_cell(r)
        if r.get("ruling"):
            played = _ruling_cell(played)
        if whist:  # the ruling's words, else the tricks the pair's side won in play
            played = played or blank(presenters.tricks_won(r))
        cells = [str(r["board"]), presenters.side(r["direction"]), str(r["opponents"]),
                 _with_marks(_card_late_cell(played) if r.get("late_play") else played, r)]
        span = None
        if not whist:
            cells += [r["declarer"] or "", blank(r["tricks"])]
            if r.get("ruling"):
                # A ruling replaces the play: its words span the contract, declarer and
                # tricks columns, as on the traveller (in the contract's alone they were
                # shrunk to some 4 points).
                span = (3, 5)
        if team:
            cells += ["—", "—"] if r["plus_minus"] is None else [
                presenters.exact(r["plus_minus"]), presenters.exact(r["running"])]
            return GridRow(cells, span)
        if r["score"] is None and r.get("ruling") and r.get("award"):
            cells.append(presenters.side_award(r, is_whist=whist))  # "+16⅔"; whist: "7"
        else:
            cells.append(blank(r["score"]) if whist else signed(r["score"]))  # whist: a count
        if mp:
            cells += [presenters.exact(r["plus_minus"]), presenters.exact(r["running"])]
        elif compared:
            # A running total is seen once, mostly: made afresh, not looked for in the cache.
            cells += [exact_cell(r["shown"], r["plus_minus"]),
                      exact_cell.__wrapped__(r["running_shown"], r["running"])]
        return GridRow(cells, span)


class GuidecardsRenderer(BaseRenderer):
    """Guide cards to cut out: the table cards two to a page, the pair cards four to a
    page, with dashed cut lines between them (one and two to a page when a movement
    has so many rounds that the cards need the room).

    A table card gives each round's pairs and boards and where all go next; a pair
    card each round's table, seat, opponents, boards and next seat.

    Data: tournaments.selectors.guide_cards(event) (its docstring gives the shape).
    """

    document = "Guide cards"
    kind = "guidecards"
    TIGHT = [("LEFTPADDING", (0, 0), (-1, -1), 2.5), ("RIGHTPADDING", (0, 0), (-1, -1), 2.5)]

    def count(self, data: dict) -> int:
        return len(data["tables"]) + len(data["pairs"])

    def blocks(self, data: dict) -> Iterable[list[Flowable]]:
        sections = data.get("sections", 1)
        first = True
        for cards, draw, columns in ((data["tables"], self.table_card, 1),
                                     (data["pairs"], self.pair_card, 2)):
            drawn = [draw(card, data["event"], sections, columns) for card in cards]
            # Two rows of cards a page when the tallest card fits in half a page.
            tallest = max((self._height(card, columns) for card in drawn), default=0)
            rows = 2 if tallest <= self.usable_height / 2 else 1
            per_page = columns * rows
            for start in range(0, len(drawn), per_page):
                chunk = drawn[start:start + per_page]
                block: list[Flowable] = [] if first else [PageBreak()]
                first = False
                block.append(self.sheet(chunk, columns, rows))
                # One block per card (the progress unit); the sheet rides on the last.
                yield from ([] for _ in chunk[1:])
                yield block

    @property
    def usable_height(self) -> float:
        """The frame's height: the page less the margins and the frame's 6 pt padding a
        side (less a point for rounding)."""
        return self.page_size[1] - 2 * self.margin - 3 * mm - 12 - 1

    def _height(self, card: list[Flowable], columns: int) -> float:
        """A card's height in its cell, with the cell's padding."""
        width = self.frame_width / columns - 8 * mm
        return sum(f.wrap(width, self.usable_height)[1] for f in card) + 6 * mm

    def sheet(self, cards: list[list[Flowable]], columns: int, rows: int) -> Flowable:
        """One page of cards in a grid, dashed cut lines between them."""
        usable = self.usable_height
        cells = [cards[i:i + columns] for i in range(0, len(cards), columns)]
        for row in cells:
            row += [[]] * (columns - len(row))
        cells += [[[] for _ in range(columns)] for _ in range(rows - len(cells))]
        cut = ("LINEBELOW", (0, 0), (-1, rows - 2), 0.6, LINE, 1, (4, 3))
        style = [("VALIGN", (0, 0), (-1, -1), "TOP"),
                 ("LEFTPADDING", (0, 0), (-1, -1), 4 * mm),
                 ("RIGHTPADDING", (0, 0), (-1, -1), 4 * mm),
                 ("TOPPADDING", (0, 0), (-1, -1), 4 * mm),
                 ("BOTTOMPADDING", (0, 0), (-1, -1), 2 * mm)]
        if rows > 1:
            style.append(cut)
        if columns > 1:
            style.append(("LINEAFTER", (0, 0), (columns - 2, -1), 0.6, LINE, 1, (4, 3)))
        table = Table(cells, colWidths=[self.frame_width / columns] * columns,
                      rowHeights=[usable / rows] * rows)
        table.setStyle(TableStyle(style))
        return table

    def _styles(self) -> dict[str, ParagraphStyle]:
        styles = super()._styles()
        body = styles["body"]
        styles["card_title"] = ParagraphStyle("card_title", parent=body, fontName=FONT_BOLD,
                                              fontSize=13, leading=16)
        styles["card"] = ParagraphStyle("card", parent=body, fontSize=8.5, leading=10)
        styles["card_small"] = ParagraphStyle("card_small", parent=body, fontSize=7.5,
                                              leading=9)
        return styles

    def table_card(self, card: dict, event: str, sections: int, columns: int
                   ) -> list[Flowable]:
        head = ["Round", "N–S", "E–W", "Boards", "Then N–S go to", "Then E–W go to",
                "Then the boards go to"]
        rows: list[list[Any]] = [[self.para(f"<b>{h}</b>", "card_small") for h in head]]
        spans = []
        for r in card["rounds"]:
            if not r["in_play"]:
                spans.append(("SPAN", (1, len(rows)), (-1, len(rows))))
                rows.append([r["round"], self.para("Not in play this round", "card"),
                             "", "", "", "", ""])
                continue
            # Where the boards come from, as the table page says it (cards.boards_origin).
            boards = f"<b>{esc(r['boards_text'])}</b>"
            if r.get("boards_from"):
                boards += f"<br/>{esc(r['boards_from'])}"
            rows.append([r["round"], r["ns"], r["ew"], self.para(boards, "card"),
                         self.para(esc(r["ns_next"]), "card"),
                         self.para(esc(r["ew_next"]), "card"),
                         self.para(esc(r["boards_next"]), "card")])
        width = self.frame_width / columns - 8 * mm
        parts = [0.07, 0.06, 0.06, 0.22, 0.17, 0.17, 0.25]
        table = self.table(rows, widths=[p * width for p in parts],
                           extra=[("FONT", (0, 1), (2, -1), FONT_BOLD, 10),
                                  ("ALIGN", (0, 1), (2, -1), "CENTER"), *self.TIGHT, *spans])
        # One section: "Table 1", as the web page's card says (and the pair card's line).
        where = f"Section {esc(card['section'])} · " if sections > 1 else ""
        title = f"{where}Table {card['table']}"
        return [self.para(f"<b>{title}</b>", "card_title"), self.para(esc(event), "small"),
                Spacer(0, 2 * mm), table]

    def pair_card(self, card: dict, event: str, sections: int, columns: int
                  ) -> list[Flowable]:
        head = ["Round", "Table", "Sit", "Against", "Boards", "Then go to"]
        rows: list[list[Any]] = [[self.para(f"<b>{h}</b>", "card_small") for h in head]]
        spans = []
        if card.get("joined_from") is not None:  # decision 102: a late pair's card starts there
            spans.append(("SPAN", (0, len(rows)), (-1, len(rows))))
            rows.append([self.para(f"Joined late, from round {card['joined_from']}", "card"),
                         "", "", "", "", ""])
        for r in card["rounds"]:
            if r["table"] is None:
                spans.append(("SPAN", (1, len(rows)), (4, len(rows))))
                rows.append([r["round"], self.para("Sit out this round", "card"), "", "", "",
                             self.para(esc(r["next"]), "card")])
                continue
            rows.append([r["round"], r["table"], r["direction"], r["opponents"],
                         self.para(esc(r["boards_text"]), "card"),
                         self.para(esc(r["next"]), "card")])
        if card.get("left_after") is not None:  # decision 103: its night ends, no sit-outs
            spans.append(("SPAN", (0, len(rows)), (-1, len(rows))))
            rows.append([self.para(f"Left after round {card['left_after']}: no further rounds",
                                   "card"), "", "", "", "", ""])
        width = self.frame_width / columns - 8 * mm
        parts = [0.15, 0.12, 0.10, 0.16, 0.16, 0.31]
        table = self.table(rows, widths=[p * width for p in parts],
                           extra=[("ALIGN", (0, 1), (3, -1), "CENTER"), *self.TIGHT, *spans])
        team = f" (team {esc(card['team'])})" if card.get("team") else ""
        where = f"Section {esc(card['section'])} · " if sections > 1 else ""
        return [self.para(f"<b>Pair {card['pair']}</b>{team}", "card_title"),
                self.para(esc(card["names"]) or "&nbsp;", "card"),
                self.para(f"{where}{esc(event)}", "small"), Spacer(0, 2 * mm), table]


class RubberSheetRenderer(BaseRenderer):
    """A score pad's rubber as a period score sheet (rules.md §10) kept as a score pad is
    (decision 174): auction's honour column and bonuses above the line, then its trick
    column below it, game by game, each game ruled off (whist: the points game by game,
    then the game values); the totals, the result and the settlement (a rubber stopped
    unfinished: what it settles as it stands).

    Names break between words only, never inside one: the columns of the sides (a pair's
    names, or a Three-Hand player's; alike where they can be) and of the dealers are as
    wide as their longest word needs; when that leaves the deals' lines too little room,
    those names take a smaller type, and the page is turned landscape only when even that
    is not enough (a pad's names may have 40 letters without a space).

    Data: tournaments.services.rubber_sheet(rubber=...).
    """

    document = "Rubber score sheet"
    kind = "rubber"
    NAME_SIZE = 9  # a side's heading (bold) and a dealer's name, in points, at most
    SMALLEST = 5.5  # and at least
    PADDING = 6  # points each side of a cell (the table's default)
    UPRIGHT_SMALLEST = 7  # below this the page is turned first
    ROOMY_SIDE = 24 * mm  # a side's column when the page has room: its name on a line
    ROOMY_NAME = 45 * mm  # ... up to this long
    DEAL_WIDTH = 12 * mm
    LINE_WIDTH = 62 * mm  # the deal's line (contract, tricks, revokes...) at its narrowest

    def count(self, data: dict) -> int:
        return 1

    def event_name(self, data: Any) -> str:
        return f"{data['game_name']} rubber"

    def filename(self, data: Any) -> str:
        return f"{slug(data['game_name'])}-rubber.pdf"

    def render(self, data: dict) -> tuple[str, str, bytes]:
        self.layout = self.layout_for(data)
        self.page_size = self.layout["page"]
        return super().render(data)

    # How wide the names' columns are ---------------------------------------------------

    @staticmethod
    def _widest_word(texts: Iterable[str], font: str, size: float) -> float:
        return max((stringWidth(w, font, size) for t in texts for w in str(t).split()),
                   default=0)

    def _widths(self, data: dict, size: float, roomy: bool,
                alike: bool = True) -> tuple[float, list[float], float]:
        """With names at ``size`` points: the dealer's column, each side's column and the
        narrowest the deals' lines may be. ``roomy``: a name on one line where it is
        short enough ("Ann & Cy"); else each column as wide as its longest word, whole
        (or the widest number under a side). ``alike``: the sides' columns all as wide as
        the widest."""
        pad = 2 * self.PADDING + 1
        numbers = [self._widest_word([str(v) for v in (
            *[d["above"][c["key"]] for d in data["deals"]],
            *[r["points"][c["key"]] for r in data["below"]], data["totals"][c["key"]])],
            FONT, 9) for c in data["columns"]]

        def one_line(texts: list[str], font: str) -> float:
            if not roomy:
                return 0
            return min(max((stringWidth(t, font, size) for t in texts), default=0),
                       self.ROOMY_NAME)

        least = (self.ROOMY_SIDE if roomy else 14 * mm) - pad
        sides = [max(self._widest_word([c["label"]], FONT_BOLD, size),
                     one_line([c["label"]], FONT_BOLD), n, least) + pad
                 for c, n in zip(data["columns"], numbers, strict=True)]
        if alike:  # as a pad's columns are: each as wide as the one that needs most
            sides = [max(sides)] * len(sides)
        dealers = [d["dealer_name"] for d in data["deals"]]
        dealer = max(self._widest_word(dealers, FONT, size), one_line(dealers, FONT),
                     stringWidth("Dealer", FONT_BOLD, 8.5)) + pad
        # A deal's line names its declarer, a ruled-off game its winners (in bold).
        line = max(self._widest_word([d["what"] for d in data["deals"]], FONT, size),
                   self._widest_word([p["winner_label"] for p in data["periods"]],
                                     FONT_BOLD, size)) + pad
        return dealer, sides, max(line, self.LINE_WIDTH)

    def layout_for(self, data: dict) -> dict[str, Any]:
        """The page and the names' type size: the first at which every column keeps its
        longest word whole, upright from 9 points down to 7, then landscape from 9 down
        (a page turned reads better than a name in 6 points), each size with short names
        on one line first; and the columns' widths."""
        upright = portrait(self.page_size)
        steps = int((self.NAME_SIZE - self.SMALLEST) / 0.5) + 1
        sizes = [self.NAME_SIZE - 0.5 * i for i in range(steps)]
        # At each size the sides' columns alike first, as a pad's are (the names on a line,
        # else wrapped); a long name on one side makes its column wider than the other's
        # rather than the type smaller or the page turned.
        ways = [(True, True), (False, True), (True, False), (False, False)]  # roomy, alike
        tries = [(upright, s, roomy, alike) for s in sizes if s >= self.UPRIGHT_SMALLEST
                 for roomy, alike in ways]
        tries += [(landscape(upright), s, roomy, alike) for s in sizes
                  for roomy, alike in ways]
        for page, size, roomy, alike in tries:
            frame = page[0] - 2 * self.margin
            dealer, sides, least = self._widths(data, size, roomy, alike)
            line = frame - self.DEAL_WIDTH - dealer - sum(sides)
            if line >= least:
                break
        # Past any real name the last try stands (landscape, the smallest type): a word
        # wider still runs over its cell's edge rather than being cut.
        return {"page": page, "size": size, "dealer": dealer, "sides": sides,
                "line": max(line, least), "frame": frame}

    def _styles(self) -> dict[str, ParagraphStyle]:
        styles = super()._styles()
        # Names wrap at their spaces only: a word too long for its column is never split
        # (the widths above make room for the longest).
        styles["name"] = ParagraphStyle("name", parent=styles["cell"], splitLongWords=0)
        styles["name_head"] = ParagraphStyle("name_head", parent=styles["num"],
                                             splitLongWords=0)
        return styles

    def _name(self, text: str, *, head: bool = False, markup: bool = False) -> Any:
        """A name, or a line that names players (``markup``: already escaped, maybe in
        bold), in the layout's type size; a side's heading in bold, to the right."""
        size = self.layout["size"]
        base = "name_head" if head else "name"
        key = f"{base}-{size}"
        if key not in self.styles:
            self.styles[key] = ParagraphStyle(key, parent=self.styles[base], fontSize=size,
                                              leading=size + 2)
        text = text if markup else esc(text)
        return self.para(f"<b>{text}</b>" if head else text, key)

    # The document -----------------------------------------------------------------------

    def blocks(self, data: dict) -> Iterable[list[Flowable]]:
        layout = getattr(self, "layout", None) or self.layout_for(data)
        self.layout = layout
        keys = [c["key"] for c in data["columns"]]
        heads = [self._name(c["label"], head=True) for c in data["columns"]]
        players = " · ".join(
            f"{esc(p['seat_name'])}: {esc(p['name'])}{' (dummy)' if p['dummy'] else ''}"
            for p in data["players"])
        rules = data["rules_name"] or data["form_name"]
        out: list[Flowable] = [
            self.para(f"{esc(data['game_name'])} rubber", "title"),
            self.para(f"{esc(rules)} · {players}", "body"),
            Spacer(0, 3 * mm),
        ]
        nums = len(keys)
        sides = layout["sides"]
        whist = data["game"] == "whist"
        widths = [self.DEAL_WIDTH, layout["dealer"], layout["line"], *sides]
        title = "Points" if whist else "Trick score, below the line (toward game)"
        rows: list[list[Any]] = [["Deal", "Dealer", self.para(f"<b>{title}</b>"), *heads]]
        extra: list[tuple] = []
        for period in data["periods"]:
            for d in period["deals"]:
                rows.append([d["number"], self._name(d["dealer_name"]),
                             self._name(d["what"]),
                             *[d["above"][k] or "" for k in keys]])
            if not period["ruled_off"] and data.get("so_far"):
                rows.append(["", "", self.para(f"<i>Game {period['number']} so far</i>"),
                             *[data["so_far"][k] for k in keys]])
            if period["ruled_off"]:
                value = f", worth {period['value']}" if period["value"] else ""
                rows.append(["", "", self._name(
                    f"<b>Game {period['number']} to {esc(period['winner_label'])}{value}</b>",
                    markup=True), *[""] * nums])
                extra.append(("LINEBELOW", (0, len(rows) - 1), (-1, len(rows) - 1), 1.6,
                              colors.black))
        tricks = self.table(rows, widths=widths, numeric_from=3, extra=extra)
        title = "Game values and rubber" if whist else \
            "Honour score, above the line: honours, penalties and bonuses"
        rest = layout["frame"] - sum(sides)
        rows = [[self.para(f"<b>{title}</b>"), *heads]]
        for r in data["below"]:
            rows.append([self.para(esc(presenters.sentence(r["what"]))),
                         *[r["points"][k] or "" for k in keys]])
        honours = self.table(rows, widths=[rest, *sides], numeric_from=1)
        totals = self.table([[self.para("<b>Total</b>"),
                              *[str(data["totals"][k]) for k in keys]]],
                            widths=[rest, *sides], numeric_from=1, header_rows=0)
        # As the sheet is kept: whist's points game by game, then the game values; auction's
        # honour score above the line, its trick score below it (decision 174).
        for part in ((tricks, honours) if whist else (honours, tricks)):
            out += [part, Spacer(0, 3 * mm)]
        out.append(totals)
        out.append(Spacer(0, 3 * mm))
        # The result, or where an unfinished rubber stands and what stopping here settles
        # (the page says the same: services.rubbers._result_words).
        out.append(self.para(f"<b>{esc(data['result'])}</b>", "body"))
        if data["game"] == "three-hand":
            nets = ", ".join(f"{esc(c['label'])} {signed(data['net'][c['key']])}"
                             for c in data["columns"])
            stop = "" if data["complete"] else " if the rubber stops here"
            out.append(self.para(f"Each player's net{stop}: {nets}.", "body"))
        yield out


class PartyStandingsRenderer(BaseRenderer):
    """A party night's standings: the ranking of individuals, each player's tally round
    by round and in all (ties share a place, "2=").

    Data: tournaments.services.party_standings(party=...).
    """

    document = "Party night standings"
    kind = "party"

    def count(self, data: dict) -> int:
        return 1

    def event_name(self, data: Any) -> str:
        return str(data["name"])

    def blocks(self, data: dict) -> Iterable[list[Flowable]]:
        rounds = data["round_numbers"]
        state = (f"after round {data['round']} of {data['rounds']}"
                 if data["status"] == "finished" or not data["in_play"]
                 else f"round {data['round']} of {data['rounds']} in play")
        if data["status"] == "finished":
            state = f"final, {data['rounds']} rounds"
        rule = f" · {esc(data['rules_name'])}" if data["rules_name"] else ""
        out: list[Flowable] = [
            self.para(f"{esc(data['name'])} · standings", "title"),
            self.para(f"{esc(data['game_name'])}{rule} · {presenters.day(data['date'])} · "
                      f"<b>{esc(state)}</b>", "body"),
            self.para("Each player's tally: his settlement with the other two players in "
                      "the round (Three-Hand Auction, rule 15)." if data["game"] == "three-hand"
                      else "Each player's tally: the points his side won in the round less "
                      "the opponents'.", "small"),
            Spacer(0, 3 * mm),
        ]
        width = self.frame_width
        per = min(16 * mm, (width - 90 * mm) / max(len(rounds), 1))
        widths = [14 * mm, width - 14 * mm - 22 * mm - per * len(rounds)] + \
            [per] * len(rounds) + [22 * mm]
        rows: list[list[Any]] = [["Place", "Player", *[f"R{r}" for r in rounds], "Total"]]
        for row in data["rows"]:
            rows.append([row["place"], self.para(esc(row["name"])),
                         *[signed(v) if v is not None else "—" for v in row["rounds"]],
                         self.para(f"<b>{esc(row['total_text'])}</b>", "num")])
        out.append(self.table(rows, widths=widths, numeric_from=2,
                              extra=[("ALIGN", (0, 1), (0, -1), "CENTER")]))
        yield out


class SeasonTableRenderer(BaseRenderer):
    """A season's table: each member (or partnership) with their place, their nights
    (a night not counted in brackets), the nights played and the season's score.

    Every night is printed: the table shows which nights count (decision 149), and a club
    season has 10 to 40 of them. The nights' columns are as narrow as their widest cell;
    they go across the club's paper while they fit beside the names and the totals, else
    the page is turned landscape, and the nights that still do not fit follow in further
    tables of nights (the places and names again, in the same order), each headed with
    the nights it holds.

    Data: tournaments.reports.services.season_report_data(season): "season", "rule",
    "note", "footnote", "counts", "entrants", and presenters.season_rows' "columns" and
    "rows".
    """

    document = "Season table"
    kind = "season"
    PLACE_WIDTH = 14 * mm
    NAME_WIDTH = 42 * mm  # the names' column at its narrowest: a pair's names wrap
    NIGHTS_WIDTH = 15 * mm
    ROOMY_NIGHT_WIDTH = 14 * mm  # a night's column when the page has room for it
    NIGHT_SIZE = 8  # a night's cell, in points: the nights are many, the totals few
    MARK_SIZE = 7  # "not final" under a night's date
    NIGHT_PADDING = 3  # points each side of a night's cell (the table's default is 6)

    def count(self, data: dict) -> int:
        return 1

    def event_name(self, data: Any) -> str:
        return str(data["season"])

    def render(self, data: dict) -> tuple[str, str, bytes]:
        self.page_size = self.page_for(data)
        return super().render(data)

    def _styles(self) -> dict[str, ParagraphStyle]:
        styles = super()._styles()
        styles["night_head"] = ParagraphStyle("night_head", parent=styles["num"],
                                              fontSize=self.NIGHT_SIZE, leading=9.5)
        return styles

    # How the nights are laid out ------------------------------------------------------------

    def page_for(self, data: dict) -> tuple[float, float]:
        """The club's paper upright when every night fits across it beside the totals;
        else landscape (the nights that still do not fit go on in further tables)."""
        upright = portrait(self.page_size)
        if len(data["columns"]) <= self.portrait_nights(data):
            return upright
        return landscape(upright)

    def portrait_nights(self, data: dict) -> int:
        """How many nights fit across an upright page beside the names and the totals."""
        frame = portrait(self.page_size)[0] - 2 * self.margin
        return self._across(frame - self._totals_width(data), data)

    def _across(self, room: float, data: dict) -> int:
        """How many nights' columns fit in `room` beside the places and the names."""
        return max(0, math.floor(
            (room - self.PLACE_WIDTH - self.NAME_WIDTH) / self._night_width(data)))

    def _night_width(self, data: dict) -> float:
        """One width for every night's column: its widest value, or the widest word of a
        heading (the date wraps, "3 / Nov", rather than widen every column), padded."""
        words = [(w, FONT_BOLD, self.NIGHT_SIZE) for e in data["columns"]
                 for w in e["day"].split()]
        if any(not e["final"] for e in data["columns"]):
            words += [(w, FONT, self.MARK_SIZE) for w in ("not", "final")]
        values = {(_night_text(c), FONT, self.NIGHT_SIZE)
                  for r in data["rows"] for c in r["night_cells"]}
        widest = max((stringWidth(*w) for w in [*words, *values]), default=0)
        return widest + 2 * self.NIGHT_PADDING + 1

    def _totals_width(self, data: dict) -> float:
        """The nights played and the season's score (its exact value beside it in small
        type where they differ), as wide as the widest score, from 20 to 40 mm."""
        widest = stringWidth(_season_total_head(data), FONT_BOLD, 8.5)
        for r in data["rows"]:
            width = stringWidth(r["shown"], FONT, 9)
            if r["exact"] not in r["shown"]:
                width += stringWidth(f" ({r['exact']})", FONT, 7)
            widest = max(widest, width)
        return self.NIGHTS_WIDTH + min(max(widest + 13, 20 * mm), 40 * mm)

    def night_blocks(self, data: dict) -> list[range]:
        """The nights (indexes of "columns") of each table: as many as fit beside the
        totals in the first; the rest shared evenly among as few further tables as hold
        them. No night is left out."""
        total = len(data["columns"])
        first = min(total, self._across(self.frame_width - self._totals_width(data), data))
        blocks = [range(0, first)]
        rest = total - first
        if rest:
            tables = math.ceil(rest / max(1, self._across(self.frame_width, data)))
            size = math.ceil(rest / tables)
            blocks += [range(start, min(start + size, total))
                       for start in range(first, total, size)]
        return blocks

    # The document ---------------------------------------------------------------------------

    def blocks(self, data: dict) -> Iterable[list[Flowable]]:
        columns = data["columns"]
        night_blocks = self.night_blocks(data)
        out: list[Flowable] = [
            self.para(f"{esc(data['season'])}", "title"),
            self.para(esc(data["rule"]) + ".", "body"),
            *([self.para(esc(data["note"]), "small")] if data["note"] else []),
        ]
        if len(night_blocks) > 1:
            first = night_blocks[0]
            out.append(self.para(
                f"All {len(columns)} nights are printed: "
                + (f"nights 1–{len(first)} beside the totals, the rest " if first else "")
                + "in the tables of nights that follow, each with the places and names "
                "again.", "small"))
        out.append(Spacer(0, 3 * mm))
        for index, nights in enumerate(night_blocks):
            if index:
                out += [Spacer(0, 2 * mm), *self.heading(_nights_heading(columns, nights))]
            out.append(self.season_table(data, nights, totals=not index))
        out += [Spacer(0, 2 * mm), self.para(esc(data["footnote"]), "small")]
        yield out

    def season_table(self, data: dict, nights: range, *, totals: bool) -> Table:
        """Places and names, the nights in `nights`, and (`totals`) the nights played and
        the season's score."""
        who = "Pair" if data["entrants"] == "pairs" else "Member"
        columns = [data["columns"][i] for i in nights]
        head: list[Any] = ["Place", who, *[self.para(
            f"<b>{esc(e['day'])}</b>" + ("" if e["final"] else
                                         f'<br/><font size="{self.MARK_SIZE}">not final</font>'),
            "night_head") for e in columns]]
        if totals:
            head += ["Nights", _season_total_head(data)]
        rows: list[list[Any]] = [head]
        for r in data["rows"]:
            people = " & ".join(f"{esc(p['name'])}" + (f" ({esc(p['number'])})"
                                                       if p["number"] else "")
                                for p in r["players"])
            row: list[Any] = [r["place"], self.para(people),
                              *[_night_text(r["night_cells"][i]) for i in nights]]
            if totals:
                row += [r["events"], r["shown"] if r["exact"] in r["shown"] else self.para(
                    _beside(esc(r["shown"]), r["exact"]), "num")]
            rows.append(row)
        if len(rows) == 1:
            rows.append(["", "No member has played a counted night yet",
                         *[""] * (len(head) - 2)])
        fixed = self.PLACE_WIDTH + (self._totals_width(data) if totals else 0)
        # As narrow as the nights need; wider (a date on one line) where the page has room.
        room = (self.frame_width - fixed - self.NAME_WIDTH) / max(1, len(columns))
        night_width = max(self._night_width(data), min(self.ROOMY_NIGHT_WIDTH, room))
        fixed += len(columns) * night_width
        widths = [self.PLACE_WIDTH, self.frame_width - fixed, *[night_width] * len(columns)]
        if totals:
            widths += [self.NIGHTS_WIDTH, self._totals_width(data) - self.NIGHTS_WIDTH]
        extra = [("ALIGN", (0, 0), (0, -1), "RIGHT")]
        if columns:
            first, last = 2, 1 + len(columns)
            extra += [("FONT", (first, 1), (last, -1), FONT, self.NIGHT_SIZE),
                      ("LEFTPADDING", (first, 0), (last, -1), self.NIGHT_PADDING),
                      ("RIGHTPADDING", (first, 0), (last, -1), self.NIGHT_PADDING)]
        return self.table(rows, widths=widths, numeric_from=2, extra=extra)


def _night_text(cell: dict | None) -> str:
    """A member's night as the season's PDF prints it: "8", "(6)" when it does not count,
    "·" for a night not played."""
    if cell is None:
        return "·"
    return cell["value"] if cell["counted"] else f"({cell['value']})"


def _season_total_head(data: dict) -> str:
    return "Points" if data["counts"] == "points" else "Score"


def _nights_heading(columns: list[dict], nights: range) -> str:
    """"Nights 13–24 (5 Jan – 23 Mar 2027)": a further table of a season's nights."""
    first, last = columns[nights[0]], columns[nights[-1]]
    if len(nights) == 1:
        return f"Night {nights[0] + 1} ({presenters.day(first['date'])})"
    return (f"Nights {nights[0] + 1}–{nights[-1] + 1} ({presenters.day(first['date'])} – "
            f"{presenters.day(last['date'])})")
