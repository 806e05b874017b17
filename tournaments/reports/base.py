"""The one base for every printed report (reportlab).

A renderer gets plain data (the dicts of ``tournaments.standings``, or lists built
from them), never a request or a model, and returns ``(filename, mimetype, bytes)``.
It reports its progress through a ``progress(done, total)`` callback and knows
nothing of Celery (pretix's exporters work the same way).

Fonts: the suit symbols ♠ ♥ ♦ ♣ are not in reportlab's standard fonts, nor in the
Vera fonts it bundles, so reports use DejaVu Sans: Debian's ``fonts-dejavu-core``
when installed, else the copy vendored in ``tournaments/reports/fonts/`` (with its
licence).

Long tables (a traveller of a big event has a row per table, 52,000 rows in all)
are drawn by ``Grid``, not by reportlab's ``Table`` of ``Paragraph`` cells: a grid
of fixed columns whose rows' heights are known without measuring any text, drawn
straight onto the canvas, each distinct string encoded once per document. See
``Grid`` for what it can and cannot do.
"""

from __future__ import annotations

import gc
import io
import re
import threading
import unicodedata
import weakref
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import lru_cache
from itertools import accumulate, groupby
from operator import itemgetter
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.rl_accel import escapePDF
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Table,
    TableStyle,
)
from reportlab.platypus.doctemplate import LayoutError

from .. import presenters
from .pdfinternals import ReportlabInternals

Progress = Callable[[int, int], None]
PDF = "application/pdf"

PAGE_SIZES = {"letter": LETTER, "a4": A4}
SYSTEM_FONTS = Path("/usr/share/fonts/truetype/dejavu")
BUNDLED_FONTS = Path(__file__).resolve().parent / "fonts"
FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"

RED_HEX = "#b00000"
RED = colors.HexColor(RED_HEX)
LINE = colors.HexColor("#9a9488")
SHADE = colors.HexColor("#f1ece1")
GREY = "#555555"  # text said beside: an exact value under its rounded score, the page's header

# How each is written is the presenters' (one place for the web, the PDFs and the text).
SUITS = presenters.SUITS
DENOMINATION_TEXT = presenters.DENOMINATIONS
DOUBLING_TEXT = presenters.DOUBLING


def font_path(name: str) -> Path:
    """The TTF for `name` ("DejaVuSans"): the system's copy first, else the vendored one."""
    for folder in (SYSTEM_FONTS, BUNDLED_FONTS):
        path = folder / f"{name}.ttf"
        if path.is_file():
            return path
    raise ImproperlyConfigured(
        f"{name}.ttf is missing: install Debian's fonts-dejavu-core, or restore "
        f"{BUNDLED_FONTS / (name + '.ttf')}"
    )


_fonts_lock = threading.Lock()
_fonts_ready = threading.Event()


def register_fonts() -> None:
    """Register DejaVu Sans (regular and bold, and their family) once per process.

    Threads print at once (the in-process jobs and score cards of ``make run``): one
    that found the regular face registered would go on before the family was, and fail
    on bold ("Can't map determine family/bold/italic"). So all three are registered
    under a lock, and the process counts them ready only once the family is in."""
    if _fonts_ready.is_set():
        return
    with _fonts_lock:
        if _fonts_ready.is_set():
            return
        registered = pdfmetrics.getRegisteredFontNames()
        for name in (FONT, FONT_BOLD):
            if name not in registered:
                pdfmetrics.registerFont(TTFont(name, str(font_path(name))))
        pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT,
                                      boldItalic=FONT_BOLD)
        _fonts_ready.set()


def page_size() -> tuple[float, float]:
    """Letter (the default: an American club) or A4, from settings.REPORTS_PAGE_SIZE."""
    name = str(getattr(settings, "REPORTS_PAGE_SIZE", "letter")).strip().lower()
    try:
        return PAGE_SIZES[name]
    except KeyError:
        raise ImproperlyConfigured(
            f"REPORTS_PAGE_SIZE={name!r}: use letter or a4") from None


def slug(text: str) -> str:
    """A file-name-safe form of an event's name."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-") or "event"


# --- text helpers shared by the documents ----------------------------------------------


def esc(value: Any) -> str:
    """Text made safe for reportlab's paragraph markup."""
    return str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def suit_markup(suit: str) -> str:
    """♥ and ♦ in red, ♠ and ♣ in black (paragraph markup)."""
    symbol = SUITS[suit]
    if presenters.is_red(suit):
        return f'<font color="{RED_HEX}">{symbol}</font>'
    return symbol


def denomination_markup(code: str) -> str:
    if presenters.is_red(code):
        return suit_markup(code)
    return esc(DENOMINATION_TEXT.get(code, code))


def contract_words(row: dict) -> str | None:
    """A traveller's or a score card's contract in words where it is not a contract: the
    ruling given in place of play, as presenters.ruling_words writes it for both ("Adjusted:
    N–S average-plus, E–W average-minus", "Not played: pair 5 left after round 3", "Average
    (Duplicate Law B); awarded N–S −35, E–W +35"), "Passed out", "" (whist), or None: a
    contract."""
    if row.get("adjustment") or row.get("ruling"):
        return presenters.ruling_words(row)
    if row.get("passed_out"):
        return presenters.contract(None, None)
    if not row.get("level"):
        return ""  # whist: no contract
    return None


def contract_markup(row: dict) -> str:
    """3♥ × by S, "Passed out", or the ruling given in place of play."""
    words = contract_words(row)
    if words is not None:
        return esc(words)
    return (f"{row['level']}{denomination_markup(row['denomination'])}"
            f"{esc(DOUBLING_TEXT.get(row.get('doubled') or '', ''))}")


def contract_cell(row: dict) -> Cell:
    """contract_markup as a Grid cell: the same words, the red suits in red."""
    words = contract_words(row)
    if words is not None:
        return words
    return _contract_cell(row["level"], row["denomination"], row.get("doubled") or "")


@lru_cache(maxsize=1024)
def _contract_cell(level: int, denomination: str, doubled: str) -> Cell:
    """Built once per distinct contract (7 levels × 6 denominations × 3 doublings)."""
    symbol = DENOMINATION_TEXT.get(denomination, denomination)
    doubling = DOUBLING_TEXT.get(doubled, "")
    if denomination in ("H", "D"):
        runs = [Run(str(level)), Run(symbol, color=RED_HEX)] + ([Run(doubling)] if doubling else [])
        return Rich(runs)
    return f"{level}{symbol}{doubling}"


def cards_text(cards: str) -> str:
    """"AKT2" as players read it: "A K 10 2"; a void is a dash."""
    if not cards:
        return "—"
    return " ".join("10" if c == "T" else c for c in cards)


def signed(value: int | None) -> str:
    """+12 / −7 / 0, or blank when there is no score (a ruling without one)."""
    return presenters.signed(value)


def blank(value: Any) -> str:
    return "" if value is None else str(value)


# --- a fast ruled grid ------------------------------------------------------------------

LEADING = 1.2  # a line's height, as a multiple of its font size
CAP_MIDDLE = 0.36  # DejaVu's capitals and digits stand 0.73 em: the baseline that centres them
CELL_PAD_X = 3.0
CELL_PAD_Y = 2.0


class Run(NamedTuple):
    """A stretch of one line of a cell in one font, size and colour ("" is black)."""

    text: str
    font: str = FONT
    size: float = 9
    color: str = ""  # "#rrggbb"


class Rich:
    """Cell text that one plain string cannot say: several lines, each of one or more runs.

    Rows share them (a contract, a score with its exact fraction), so a document builds
    each distinct one once and reuses it.
    """

    __slots__ = ("height", "leadings", "lines", "widths")

    def __init__(self, *lines: Sequence[Run]):
        self.lines = tuple(tuple(line) for line in lines if line)
        leadings, widths = [], []
        for line in self.lines:  # loops, not generators: a big report makes 100,000 of these
            size, width = 0.0, 0.0
            for run in line:
                if run.size > size:
                    size = run.size
                width += text_width(run.font, run.text) * run.size
            leadings.append(LEADING * size)
            widths.append(width)
        self.leadings = tuple(leadings)
        self.widths = tuple(widths)
        self.height = sum(leadings)

    def __repr__(self) -> str:
        return f"Rich({' / '.join(''.join(run.text for run in line) for line in self.lines)})"


Cell = str | Rich  # a str is one line in the grid's own font and size, in black


class Column(NamedTuple):
    width: float
    align: str = "left"  # "left", "right" or "center"


class GridRow(NamedTuple):
    """A row's cells, left to right. With `span` = (first, last), the cell in column
    `first` covers the columns up to `last` (the cells it covers are not drawn)."""

    cells: Sequence[Cell]
    span: tuple[int, int] | None = None


def bold_head(text: str, size: float = 8) -> Rich:
    """A header cell in bold; "\\n" breaks it into lines."""
    return Rich(*[(Run(part, FONT_BOLD, size),) for part in text.split("\n")])


class _CharWidths(dict):
    """One font's character widths at 1,000 pt, each asked of reportlab once."""

    def __init__(self, font: str):
        super().__init__()
        self.font = font

    def __missing__(self, char: str) -> float:
        width = self[char] = pdfmetrics.stringWidth(char, self.font, 1000)
        return width


_WIDTHS: dict[str, _CharWidths] = {}


def text_width(font: str, text: str) -> float:
    """The width of `text` set in `font` at 1 pt (times the size for any other size).

    The sum of its characters' widths, as reportlab sums them (it kerns no pair): a big
    event's score cards set some 150,000 strings seen once (a running total with its
    exact fraction), and reportlab's own measure took a tenth of their laying out.
    """
    widths = _WIDTHS.get(font)
    if widths is None:
        widths = _WIDTHS[font] = _CharWidths(font)
    return 0.001 * sum(map(widths.__getitem__, text))


@lru_cache(maxsize=64)
def _color_op(color: str) -> str:
    """The PDF operator that sets the fill colour ("" is black)."""
    return _rgb_op(colors.HexColor(color), "rg") if color else "0 g"


def _rgb_op(color: colors.Color, operator: str) -> str:
    """A colour operator: "rg" (fill) or "RG" (stroke)."""
    return f"{color.red:.3f} {color.green:.3f} {color.blue:.3f} {operator}"


class _Encoded:
    """Per PDF document: each distinct string's PDF text, worked out once.

    A TrueType font is embedded as subsets made as characters are first used, so a
    string's encoding holds only within one document. This is reportlab's documented
    way to write text in such a font (pdfbase/ttfonts.py): ``font.splitString`` and
    ``font.getSubsetInternalName``.
    """

    def __init__(self, doc: Any):
        self.doc = doc
        self._known: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}
        self._codes: dict[str, _CharCodes] = {}
        self._placed: dict[tuple[Any, ...], _Placed] = {}

    def placed(self, columns: tuple[Column, ...], font: str, size: float) -> _Placed:
        """The cells placed so far in grids of these columns, font and size."""
        key = (columns, font, size)
        found = self._placed.get(key)
        if found is None:
            found = self._placed[key] = _Placed()
        return found

    def pieces(self, font: str, text: str) -> tuple[tuple[str, str], ...]:
        """((subset font name, escaped bytes), ...): `text` in `font`, a piece for each run
        of characters in one subset. Put together from its characters' codes, each encoded
        once (escaping is byte by byte, so the pieces are what encoding the whole string
        gives): strings seen once, a score card's running totals, are most of a big
        event's."""
        key = (font, text)
        known = self._known.get(key)
        if known is None:
            codes = self._codes.get(font)
            if codes is None:
                codes = self._codes[font] = _CharCodes(font, self.doc)
            coded = list(map(codes.__getitem__, text))
            known = self._known[key] = tuple(
                (name, "".join(chunk for _name, chunk in run))
                for name, run in groupby(coded, key=itemgetter(0)))
        return known


class _CharCodes(dict):
    """One font's characters in one document: (subset font name, escaped byte), each
    asked of reportlab once (its subsets grow as characters are first used)."""

    def __init__(self, font: str, doc: Any):
        super().__init__()
        self.face = pdfmetrics.getFont(font)
        if not getattr(self.face, "_dynamicFont", False):
            raise ValueError(f"a Grid draws TrueType fonts only, not {font}")
        self.doc = doc

    def __missing__(self, char: str) -> tuple[str, str]:
        ((subset, chunk),) = self.face.splitString(char, self.doc)
        coded = self[char] = (self.face.getSubsetInternalName(subset, self.doc),
                              escapePDF(chunk))
        return coded


_ENCODED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _encoded(canv: canvas.Canvas) -> _Encoded:
    doc = ReportlabInternals.document(canv)  # the document the font subsets belong to
    found = _ENCODED.get(doc)
    if found is None:
        found = _ENCODED[doc] = _Encoded(doc)
    return found


class _Placed(dict):
    """Per document and grid shape: each distinct cell's lines as PDF text (Grid._place).

    A long report repeats its cells (a board number, a contract, a score), so each is
    worked out once. Some are seen once only (a running total): the store is emptied
    when it grows past LIMIT, so that a long report's memory stays bounded.
    """

    LIMIT = 10_000

    def put(self, key: Any, value: Any) -> Any:
        if len(self) >= self.LIMIT:
            self.clear()
        self[key] = value
        return value


class Grid(Flowable):
    """A ruled table of short cells, with a shaded header that repeats on every page.

    Made for long tables (a traveller with a row per table): a row is as tall as its
    tallest cell's lines, so laying out measures no text; no text wraps (a line too wide
    for its column is set smaller until it fits); and the rows are drawn straight onto
    the canvas as PDF text, each distinct string encoded once per document. It splits
    between rows across pages. Cells are plain strings (one line, in the grid's font and
    size) or ``Rich`` (lines of runs: bold, red suits, a small grey fraction); a plain
    string in the header is set in bold, "\\n" breaking it into lines.
    """

    def __init__(self, columns: Sequence[Column], head: Sequence[Cell],
                 rows: Sequence[GridRow], *, font: str = FONT, size: float = 9,
                 _heights: list[float] | None = None):
        super().__init__()
        self.columns = tuple(columns)
        self.head = GridRow([bold_head(c) if c.__class__ is str else c for c in head])
        self.rows = rows
        self.font = font
        self.size = size
        self.width = sum(c.width for c in self.columns)
        self.head_height = self._row_height(self.head)
        self.heights = _heights if _heights is not None else [self._row_height(r)
                                                              for r in rows]
        self.height = self.head_height + sum(self.heights)

    def _row_height(self, row: GridRow) -> float:
        tallest = LEADING * self.size
        for cell in row.cells:
            if cell.__class__ is Rich and cell.height > tallest:
                tallest = cell.height
        return tallest + 2 * CELL_PAD_Y

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        """As many rows as fit under the header here, and the rest (header again) after."""
        fits = bisect_right(list(accumulate(self.heights)), avail_height - self.head_height)
        if fits == 0 or fits >= len(self.rows):
            return []
        return [self._part(0, fits), self._part(fits, len(self.rows))]

    def _part(self, start: int, stop: int) -> Grid:
        return Grid(self.columns, self.head.cells, self.rows[start:stop], font=self.font,
                    size=self.size, _heights=self.heights[start:stop])

    def draw(self) -> None:
        edges = [0.0, *accumulate(c.width for c in self.columns)]
        encoded = _encoded(self.canv)
        placed = encoded.placed(self.columns, self.font, self.size)
        ops: list[str] = ["BT", "0 g"]
        append = ops.append
        font_op, color = "", ""  # what the text block has set, so that it is set once
        plain_offset = CAP_MIDDLE * self.size
        top = self.height
        spanned: list[tuple[float, float, int, int]] = []
        rules = [self._hline(top)]
        for row, height in zip((self.head, *self.rows), (self.head_height, *self.heights),
                               strict=True):
            bottom = top - height
            middle = top - height / 2
            plain = f"{middle - plain_offset:.2f} Tm"
            span = row.span
            for index, cell in enumerate(row.cells):
                if not cell:
                    continue
                last = index
                if span:
                    if span[0] < index <= span[1]:
                        continue
                    if index == span[0]:
                        last = span[1]
                key = (cell, index, last)
                lines = placed.get(key)
                if lines is None:
                    lines = placed.put(key, self._place(encoded, cell, edges, index, last))
                for x, offset, runs in lines:
                    append(x + plain if offset is None else f"{x}{middle + offset:.2f} Tm")
                    for run_color, run_font, text in runs:
                        if run_color != color:
                            append(_color_op(run_color))
                            color = run_color
                        if run_font != font_op:
                            append(run_font)
                            font_op = run_font
                        append(text)
            if span:
                spanned.append((top, bottom, *span))
            rules.append(self._hline(bottom))
            top = bottom
        for k, x in enumerate(edges):
            rules.extend(self._vlines(x, k, spanned))
        append("ET")
        canv = self.canv
        head = self.head_height
        canv.addLiteral(f"q {_rgb_op(SHADE, 'rg')} "
                        f"0 {self.height - head:.2f} {self.width:.2f} {head:.2f} re f Q")
        canv.addLiteral(f"q 0.5 w {_rgb_op(LINE, 'RG')}\n" + "\n".join(rules) + "\nS Q")
        canv.addLiteral("q\n" + "\n".join(ops) + "\nQ")

    def _hline(self, y: float) -> str:
        return f"0 {y:.2f} m {self.width:.2f} {y:.2f} l"

    def _vlines(self, x: float, k: int, spanned: list[tuple[float, float, int, int]]
                ) -> list[str]:
        """The rule at column edge `k`, broken where a spanning cell covers it."""
        lines, start = [], self.height
        for top, bottom, first, last in spanned:
            if first < k <= last:
                if start > top:
                    lines.append(f"{x:.2f} {start:.2f} m {x:.2f} {top:.2f} l")
                start = bottom
        if start > 0:
            lines.append(f"{x:.2f} {start:.2f} m {x:.2f} 0 l")
        return lines

    def _place(self, encoded: _Encoded, cell: Cell, edges: list[float], index: int,
               last: int) -> tuple[tuple[str, float | None, tuple[tuple[str, str, str], ...]],
                                   ...]:
        """A cell's lines as PDF text, worked out once per document for each distinct cell in
        each column: ((the x of the line's text matrix, its baseline from the row's middle
        or None for a plain string's, ((colour, font operator, text operator), ...)), ...).

        Each line lies between the column's padded edges; where one would not fit, the
        cell's lines are all set smaller by as much.
        """
        left, right = edges[index] + CELL_PAD_X, edges[last + 1] - CELL_PAD_X
        align = self.columns[index].align
        if cell.__class__ is str:
            font, size = self.font, self.size
            lines: list[tuple[Sequence[tuple[str, str, float, str]], float, float | None]] = [
                (((cell, font, size, ""),), text_width(font, cell) * size, None)]
        else:
            lines, line_top = [], cell.height / 2
            for line, leading, width in zip(cell.lines, cell.leadings, cell.widths,
                                            strict=True):
                lines.append((line, width,
                              line_top - leading / 2 - CAP_MIDDLE * leading / LEADING))
                line_top -= leading
        placed = []
        room = right - left
        # A line too wide sets the whole cell smaller, each of its lines alike: a ruling's
        # two lines in two sizes read as two things.
        widest = max((width for _runs, width, _offset in lines), default=0.0)
        scale = int(room / widest * 100) / 100 if widest > room > 0 else 1.0  # rounded down
        for runs, width, offset in lines:
            if scale != 1.0:
                runs = [(text, font, size * scale, color) for text, font, size, color in runs]
                width *= scale
            if align == "right":
                x = right - width
            elif align == "center":
                x = left + (room - width) / 2
            else:
                x = left
            placed.append((f"1 0 0 1 {x:.2f} ", offset, tuple(
                (color, f"{name} {size:.2f} Tf", f"({chunk}) Tj")
                for text, font, size, color in runs
                for name, chunk in encoded.pieces(font, text))))
        return tuple(placed)


# --- the page template -----------------------------------------------------------------


# Room a heading asks for under it (its own line and the first rows of its table).
HEADING_ROOM = 30 * mm

# What a page's header adds for the standings' publication (report_data's "published").
HEADER_STATUS = {"none": " · not published: scores may still change",
                 "provisional": " · provisional: scores may still change"}


class _NumberedCanvas(canvas.Canvas):
    """Defers each page until the end, so the footer can say "page N of M"."""

    footer_left = ""
    header = ""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._pages: list[dict] = []

    def showPage(self) -> None:  # noqa: N802 - reportlab's name
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._pages)
        for number, state in enumerate(self._pages, start=1):
            self.__dict__.update(state)
            self._decorate(number, total)
            super().showPage()
        with ReportlabInternals.binary_page_streams():
            super().save()
        # Written: the pages and the document's encoded text are let go now. Left for the
        # renderer's end, the first run of the cycle collector after the layout went over
        # them all (a fifth of a million objects for 500 score cards).
        self._pages = []
        _ENCODED.pop(ReportlabInternals.document(self), None)

    def _decorate(self, number: int, total: int) -> None:
        """The page's header and footer, written as a Grid writes its cells: 4,000 pages'
        through the canvas's own text calls took a twentieth of the score cards' time."""
        width, height = self._pagesize
        margin = 15 * mm
        page = f"page {number} of {total}"
        self.addLiteral("q\n" + "\n".join((
            text_ops(self, margin, height - 10 * mm, (Run(self.header, FONT, 8, GREY),)),
            text_ops(self, margin, 8 * mm, (Run(self.footer_left, FONT, 8, GREY),)),
            text_ops(self, width - margin - text_width(FONT, page) * 8, 8 * mm,
                     (Run(page, FONT, 8, GREY),)),
        )) + "\nQ")


def text_ops(canv: canvas.Canvas, x: float, y: float, runs: Sequence[Run],
             scale: float = 1.0) -> str:
    """PDF text operators writing `runs` one after another on one line from (x, y), its
    baseline, each run set at its size times `scale`: as a Grid writes a cell's line."""
    encoded = _encoded(canv)
    ops = ["BT", f"1 0 0 1 {x:.2f} {y:.2f} Tm"]
    for run in runs:
        ops.append(_color_op(run.color))
        size = f" {run.size * scale:.2f} Tf"
        for name, chunk in encoded.pieces(run.font, run.text):
            ops.append(f"{name}{size} ({chunk}) Tj")
    ops.append("ET")
    return " ".join(ops)


class Line(Flowable):
    """One line of text where a paragraph in `style` would be (its leading, its space
    before and after), in runs (a bold "Total: +481" with its exact value small and grey
    beside it), drawn straight onto the page: "Board 3 (continued)" at the top of each
    page a long block runs on to, a score card's title and total. Paragraphs there,
    parsed, wrapped and drawn for each of a big event's 2,000 score cards, took about a
    tenth of their laying out. Set smaller when it is too wide for the page (a renderer's
    ``line`` sets a Paragraph instead where a line would not fit at its size)."""

    def __init__(self, text: str | Sequence[Run], style: ParagraphStyle):
        super().__init__()
        self.runs = (Run(text, style.fontName, style.fontSize),) if isinstance(
            text, str) else tuple(text)
        self.size = style.fontSize
        self.leading = style.leading
        self.spaceBefore = style.spaceBefore
        self.spaceAfter = style.spaceAfter

    @property
    def natural_width(self) -> float:
        """The line's width at its own size."""
        return sum(text_width(run.font, run.text) * run.size for run in self.runs)

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width, self.height = avail_width, self.leading
        return self.width, self.height

    def draw(self) -> None:
        scale = min(1.0, self.width / (self.natural_width or 1))
        # A paragraph's first baseline: its font size under its top.
        self.canv.addLiteral("q " + text_ops(self.canv, 0, self.height - self.size,
                                             self.runs, scale) + " Q")


class KeptBlock(Flowable):
    """A block printed whole on one page (a board's traveller, a pair's score card): where
    it does not fit under what the page already holds, it goes over to the next page
    whole; it is never split between two pages that could have held it on one.

    A block longer than a page (a big event's board, with hundreds of results) begins
    where it is if half a page or more is left there, or else at the top of the next page,
    and runs on from there, over as few pages as it can, and every page it runs on to
    opens with ``continued`` (a ``Line``, "Board 3 (continued)"), under which a
    ``Grid`` repeats its header row. The same flowables open each such page.

    ``rule`` (a cut line between score cards) is drawn above the block when it follows
    another on its page, and left out when the block opens a page. ``room``: what an empty
    page holds (``BaseRenderer.frame_height``). The parts are stacked as a frame stacks
    them: between two, the larger of the first's space after and the second's space before.
    """

    def __init__(self, parts: Sequence[Flowable], *, room: float,
                 continued: Sequence[Flowable], rule: Flowable | None = None,
                 _moved: bool = False, _known: weakref.WeakKeyDictionary | None = None):
        super().__init__()
        self.parts = list(parts)
        self.room = room
        self.continued = list(continued)
        self.rule = rule
        self.flowables = [rule, *self.parts] if rule is not None else self.parts
        # Already sent over to a new page: it is not sent on again, whatever happens, so
        # that a page a little shorter than `room` says cannot turn out blank page after
        # blank page.
        self._moved = _moved
        # The sizes of the parts measured so far, shared by the pieces a block is cut into:
        # the heading that opens each page and the average under the results are measured
        # once, not again on each of a long traveller's pages (part: (width, w, h)). Weak:
        # a Grid's pieces, drawn, are let go.
        self._known: weakref.WeakKeyDictionary[Flowable, tuple[float, float, float]] = (
            weakref.WeakKeyDictionary() if _known is None else _known)
        self._sizes: tuple[float, list[tuple[float, float]]] | None = None
        self._drawn: tuple[list[Flowable], list[tuple[float, float]]] = ([], [])

    def getSpaceBefore(self) -> float:  # noqa: N802 - reportlab's name
        return self.flowables[0].getSpaceBefore() if self.flowables else 0

    def getSpaceAfter(self) -> float:  # noqa: N802 - reportlab's name
        return self.flowables[-1].getSpaceAfter() if self.flowables else 0

    def _measure(self, avail_width: float) -> list[tuple[float, float]]:
        """Each part's width and height at this width, measured once (a part's height does
        not depend on the height left: a paragraph wraps to the width alone)."""
        if self._sizes is None or self._sizes[0] != avail_width:
            self._sizes = (avail_width, [self._size(f, avail_width) for f in self.flowables])
        return self._sizes[1]

    def _size(self, f: Flowable, avail_width: float) -> tuple[float, float]:
        known = self._known.get(f)
        if known is not None and known[0] == avail_width:
            return known[1], known[2]
        width, height = f.wrapOn(self.canv, avail_width, _TALL)
        self._known[f] = (avail_width, width, height)
        return width, height

    @staticmethod
    def _stacked(flowables: Sequence[Flowable], heights: Iterable[float]) -> float:
        total, previous = 0.0, None
        for f, height in zip(flowables, heights, strict=True):
            if previous is not None:
                total += max(previous.getSpaceAfter(), f.getSpaceBefore())
            total += height
            previous = f
        return total

    def _shown(self, avail_width: float, avail_height: float
               ) -> tuple[list[Flowable], list[tuple[float, float]]]:
        """The flowables drawn here, and their sizes: without the cut line at the top of a
        page."""
        sizes = self._measure(avail_width)
        if self.rule is not None and avail_height >= self.room - 1:  # a point for rounding
            return self.parts, sizes[1:]
        return self.flowables, sizes

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self._drawn = self._shown(avail_width, avail_height)
        self.width = avail_width
        self.height = self._stacked(self._drawn[0], (h for _, h in self._drawn[1]))
        return self.width, self.height

    def draw(self) -> None:
        y, previous = self.height, None
        for f, (width, height) in zip(*self._drawn, strict=True):
            if previous is not None:
                y -= max(previous.getSpaceAfter(), f.getSpaceBefore())
            y -= height
            f.drawOn(self.canv, 0, y, _sW=self.width - width)
            previous = f

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        if not self._moved and avail_height < self.room - 1 and (
                avail_height < self.room / 2 or self._alone(avail_width) <= self.room):
            # Over to a new page, to fit there whole; or, longer than a page, to run on from
            # its top when less than half a page is left here. A longer block begun under
            # half a page or more runs on from here: a big event's boards, each a page and
            # a bit, each begun on a page of its own, had left every other page three
            # quarters empty. A PageBreak: a frame asks that the first flowable split
            # returns fit here.
            return [PageBreak(), self._moved_on(self.parts)]
        flowables, sizes = self._shown(avail_width, avail_height)
        if self._stacked(flowables, (h for _, h in sizes)) <= avail_height:
            return [self._moved_on(flowables)]
        return self._run_on(flowables, sizes, avail_width, avail_height)

    def _alone(self, avail_width: float) -> float:
        """The block's height on a page of its own (no cut line above it)."""
        sizes = self._measure(avail_width)
        return self._stacked(self.parts, (h for _, h in sizes[len(sizes) - len(self.parts):]))

    def _run_on(self, flowables: list[Flowable], sizes: list[tuple[float, float]],
                avail_width: float, avail_height: float) -> list[Flowable]:
        """What fits here, then a new page that opens with `continued` and goes on."""
        here: list[Flowable] = []
        used, previous, rest = 0.0, None, list(flowables)
        for f, (_, height) in zip(flowables, sizes, strict=True):
            gap = 0.0 if previous is None else max(previous.getSpaceAfter(), f.getSpaceBefore())
            if used + gap + height <= avail_height:
                here.append(rest.pop(0))
                used += gap + height
                previous = f
                continue
            left = avail_height - used - gap
            pieces = f.splitOn(self.canv, avail_width, left) if left > 0 else []
            if pieces:  # as much of it as fits here (a Grid: rows, under its header)
                here.append(pieces[0])
                rest[:1] = pieces[1:]
            else:
                # Goes over whole, measured again there: a paragraph that could not split
                # (a card's total line under its last row) dropped its lines in trying, and
                # drawn from the size measured before, it had no lines to draw.
                self._known.pop(f, None)
            break
        if not here:
            return []  # not even its first part fits an empty page: reportlab says so
        if not rest:
            return [self._moved_on(here)]
        return [self._moved_on(here), PageBreak(), self._moved_on([*self.continued, *rest])]

    def _moved_on(self, parts: list[Flowable]) -> KeptBlock:
        return KeptBlock(parts, room=self.room, continued=self.continued, _moved=True,
                         _known=self._known)


_TALL = 1e9  # the height a block's part is measured in: as much as it wants


class Done(Flowable):
    """An invisible marker after each block: drawing it reports progress.

    Layout is where the time goes on a long report, so progress is counted as the
    blocks are laid out, not as the story is built.
    """

    width = height = 0

    def __init__(self, callback: Callable[[], None]):
        super().__init__()
        self._callback = callback

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return 0, 0

    def draw(self) -> None:
        self._callback()


class _Story(list):
    """The story, filled from the renderer's blocks as reportlab reaches them.

    reportlab takes flowables from the front of the list (``len``, ``[0]``, ``del``),
    so the list is topped up whenever it asks how long it is: a long report never holds
    every row's flowables at once (the score cards of 2,000 pairs were half the memory a
    print worker needed). A ``Done`` marker follows each block.
    """

    AHEAD = 16  # flowables kept ahead: enough for reportlab to look past a heading

    def __init__(self, blocks: Iterable[list[Flowable]], step: Callable[[], None]):
        super().__init__()
        self._blocks: Iterator[list[Flowable]] | None = iter(blocks)
        self._step = step
        self._fill()

    def _fill(self) -> None:
        while self._blocks is not None and list.__len__(self) < self.AHEAD:
            block = next(self._blocks, None)
            if block is None:
                self._blocks = None
                return
            self.extend(block)
            self.append(Done(self._step))

    def __len__(self) -> int:
        self._fill()
        return list.__len__(self)

    def __bool__(self) -> bool:
        return len(self) > 0


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Within: Python's cycle collector paused (it is put back as it was).

    Laying out a long report makes millions of small objects, few of them in cycles;
    the collector, run again and again over them and the report's data, took a fifth
    of the score cards' time. What cycles there are wait for its next run after.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class BaseRenderer:
    """Page size, margins, fonts with suit symbols, a header and "page N of M".

    A subclass sets ``document`` (its title) and implements ``blocks(data)``: one
    list of flowables per unit of progress (a board, a pair, a table).
    """

    document: ClassVar[str] = "Report"
    kind: ClassVar[str] = "report"
    mimetype: ClassVar[str] = PDF

    def __init__(self, *, progress: Progress | None = None, now: datetime | None = None):
        register_fonts()
        self.progress = progress or (lambda done, total: None)
        self.now = now or timezone.localtime()
        self.page_size = page_size()
        self.margin = 15 * mm
        self.styles = self._styles()

    # The parts a document fills in ------------------------------------------------------

    def blocks(self, data: Any) -> Iterable[list[Flowable]]:
        raise NotImplementedError

    def count(self, data: Any) -> int:
        """How many blocks `blocks(data)` yields: the progress total."""
        raise NotImplementedError

    def event_name(self, data: Any) -> str:
        return str(data.get("event", "")) if isinstance(data, dict) else ""

    def filename(self, data: Any) -> str:
        return f"{slug(self.event_name(data))}-{self.kind}.pdf"

    # The machinery ------------------------------------------------------------------------

    def render(self, data: Any) -> tuple[str, str, bytes]:
        """Lay out the document; returns (filename, mimetype, PDF bytes)."""
        total = self.count(data)
        done = 0
        self.progress(0, total)

        def step() -> None:
            nonlocal done
            done += 1
            self.progress(done, total)

        story = _Story(self.blocks(data), step)
        if not story:
            story.append(Paragraph("Nothing to print yet.", self.styles["body"]))
        buffer = io.BytesIO()
        doc = SimpleDocTemplate(
            buffer,
            pagesize=self.page_size,
            leftMargin=self.margin,
            rightMargin=self.margin,
            topMargin=self.margin + 3 * mm,
            bottomMargin=self.margin,
            title=f"{self.document}: {self.event_name(data)}",
            author="Duplicate Auction & Whist",
        )
        header = f"{self.event_name(data)} · {self.document}"
        # Every page of a print made before the standings are final says so (a traveller
        # pinned up mid-session is read as the last word otherwise).
        header += HEADER_STATUS.get(data.get("published", ""), "")
        printed = f"Printed {presenters.day(self.now.date())} {self.now:%H:%M}"
        canvas_class = type("PageCanvas", (_NumberedCanvas,),
                            {"header": header, "footer_left": printed})
        try:
            with _no_cycle_collection():
                doc.build(story, canvasmaker=canvas_class)
        except LayoutError as exc:  # a block too big for a page: say which, plainly
            raise ValueError(f"the {self.document.lower()} could not be laid out: {exc}") from exc
        self.progress(total, total)
        return self.filename(data), self.mimetype, buffer.getvalue()

    @property
    def frame_width(self) -> float:
        return self.page_size[0] - 2 * self.margin

    @property
    def frame_height(self) -> float:
        """What an empty page holds: the page less the margins of ``render`` (the top one
        3 mm deeper, for the header) and the frame's 6 pt padding above and below."""
        return self.page_size[1] - 2 * self.margin - 3 * mm - 12

    def _styles(self) -> dict[str, ParagraphStyle]:
        body = ParagraphStyle("body", fontName=FONT, fontSize=9.5, leading=12)
        return {
            "body": body,
            "small": ParagraphStyle("small", parent=body, fontSize=8, leading=10),
            "cell": ParagraphStyle("cell", parent=body, fontSize=9, leading=11),
            "num": ParagraphStyle("num", parent=body, fontSize=9, leading=11, alignment=2),
            "title": ParagraphStyle("title", parent=body, fontName=FONT_BOLD, fontSize=16,
                                    leading=20, spaceAfter=4),
            "h2": ParagraphStyle("h2", parent=body, fontName=FONT_BOLD, fontSize=12.5,
                                 leading=16, spaceBefore=8, spaceAfter=4),
            "hand": ParagraphStyle("hand", parent=body, fontSize=10, leading=12),
        }

    def para(self, text: str, style: str = "cell") -> Paragraph:
        return Paragraph(text, self.styles[style])

    def line(self, text: str | Sequence[Run], style: str = "body") -> Flowable:
        """Plain text (or runs) on one line in `style`: a ``Line``, or a Paragraph that
        wraps it where it is wider than the page at its size (a long pair's names)."""
        line = Line(text, self.styles[style])
        if line.natural_width <= self.frame_width:
            return line
        return self.para("".join(
            f'<font name="{run.font}" size="{run.size}" color="{run.color or "#000000"}">'
            f"{esc(run.text)}</font>" for run in line.runs), style)

    def heading(self, text: str) -> list[Flowable]:
        """A heading over a table, on a new page when too little of the table would fit
        under it: never the last line of a page. (Kept with the whole table instead, a
        table that fills a page took the heading over with it, leaving a page blank.)"""
        return [CondPageBreak(HEADING_ROOM), self.para(text, "h2")]

    def table(self, rows: Sequence[Sequence[Any]], *, widths: Sequence[float] | None = None,
              numeric_from: int | None = None, header_rows: int = 1,
              extra: Sequence[tuple] = ()) -> Table:
        """A ruled table with a shaded header row that repeats across pages."""
        table = Table([list(r) for r in rows], colWidths=widths, repeatRows=header_rows)
        style = [
            ("FONT", (0, 0), (-1, -1), FONT, 9),
            ("GRID", (0, 0), (-1, -1), 0.5, LINE),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 2),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ]
        if header_rows:
            style += [("FONT", (0, 0), (-1, header_rows - 1), FONT_BOLD, 8.5),
                      ("BACKGROUND", (0, 0), (-1, header_rows - 1), SHADE)]
        if numeric_from is not None:
            style.append(("ALIGN", (numeric_from, 0), (-1, -1), "RIGHT"))
        style.extend(extra)
        table.setStyle(TableStyle(style))
        return table
