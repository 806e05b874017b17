"""The one base for every printed report (reportlab).

A renderer gets plain data (the dicts of ``tournaments.standings``, or lists built
from them), never a request or a model, and returns ``(filename, mimetype, bytes)``.
It reports its progress through a ``progress(done, total)`` callback and knows
nothing of Celery (pretix's exporters work the same way).

Fonts: the suit symbols ♠ ♥ ♦ ♣ are not in reportlab's standard fonts, nor in the
Vera fonts it bundles, so reports use DejaVu Sans: Debian's ``fonts-dejavu-core``
when installed, else the copy vendored in ``tournaments/reports/fonts/`` (with its
licence).
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Table, TableStyle
from reportlab.platypus.doctemplate import LayoutError

Progress = Callable[[int, int], None]
PDF = "application/pdf"

PAGE_SIZES = {"letter": LETTER, "a4": A4}
SYSTEM_FONTS = Path("/usr/share/fonts/truetype/dejavu")
BUNDLED_FONTS = Path(__file__).resolve().parent / "fonts"
FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"

RED = colors.HexColor("#b00000")
LINE = colors.HexColor("#9a9488")
SHADE = colors.HexColor("#f1ece1")

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
DENOMINATION_TEXT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "RS": "R♠", "NT": "NT"}
DOUBLING_TEXT = {"": "", "X": " ×", "XX": " ××"}
RULING_TEXT = {
    "average": "Average (Law B)",
    "fouled": "Fouled (Law B)",
    "cancelled": "Cancelled (new deal)",
}


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


def register_fonts() -> None:
    """Register DejaVu Sans (regular and bold) once per process."""
    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    pdfmetrics.registerFont(TTFont(FONT, str(font_path(FONT))))
    pdfmetrics.registerFont(TTFont(FONT_BOLD, str(font_path(FONT_BOLD))))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT,
                                  boldItalic=FONT_BOLD)


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
    if suit in "HD":
        return f'<font color="#b00000">{symbol}</font>'
    return symbol


def denomination_markup(code: str) -> str:
    if code in ("H", "D"):
        return suit_markup(code)
    return esc(DENOMINATION_TEXT.get(code, code))


def contract_markup(row: dict) -> str:
    """3♥ × by S, "Passed out", or the ruling given in place of play."""
    if row.get("ruling"):
        text = RULING_TEXT.get(row["ruling"], row["ruling"])
        if row.get("offending"):
            text += f", {row['offending'].upper()} at fault"
        return esc(text)
    if row.get("passed_out"):
        return "Passed out"
    if not row.get("level"):
        return ""  # whist: no contract
    return (f"{row['level']}{denomination_markup(row['denomination'])}"
            f"{esc(DOUBLING_TEXT.get(row.get('doubled') or '', ''))}")


def cards_text(cards: str) -> str:
    """"AKT2" as players read it: "A K 10 2"; a void is a dash."""
    if not cards:
        return "—"
    return " ".join("10" if c == "T" else c for c in cards)


def signed(value: int | None) -> str:
    """+12 / −7 / 0, or blank when there is no score (a ruling without one)."""
    if value is None:
        return ""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


def blank(value: Any) -> str:
    return "" if value is None else str(value)


# --- the page template -----------------------------------------------------------------


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
        super().save()

    def _decorate(self, number: int, total: int) -> None:
        width, height = self._pagesize
        margin = 15 * mm
        self.saveState()
        self.setFont(FONT, 8)
        self.setFillColor(colors.HexColor("#555555"))
        self.drawString(margin, height - 10 * mm, self.header)
        self.drawString(margin, 8 * mm, self.footer_left)
        self.drawRightString(width - margin, 8 * mm, f"page {number} of {total}")
        self.restoreState()


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

        story: list[Flowable] = []
        for block in self.blocks(data):
            story.extend(block)
            story.append(Done(step))
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
        printed = f"Printed {self.now:%Y-%m-%d %H:%M}"
        canvas_class = type("PageCanvas", (_NumberedCanvas,),
                            {"header": header, "footer_left": printed})
        try:
            doc.build(story, canvasmaker=canvas_class)
        except LayoutError as exc:  # a block too big for a page: say which, plainly
            raise ValueError(f"the {self.document.lower()} could not be laid out: {exc}") from exc
        self.progress(total, total)
        return self.filename(data), self.mimetype, buffer.getvalue()

    @property
    def frame_width(self) -> float:
        return self.page_size[0] - 2 * self.margin

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
            "hand": ParagraphStyle("hand", parent=body, fontSize=10, leading=13),
        }

    def para(self, text: str, style: str = "cell") -> Paragraph:
        return Paragraph(text, self.styles[style])

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
