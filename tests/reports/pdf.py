"""Reading a PDF back as text, to check what was printed."""

import io
import re

from pypdf import PdfReader


def pdf_pages(content: bytes) -> list[str]:
    reader = PdfReader(io.BytesIO(content))
    return [page.extract_text() or "" for page in reader.pages]


def pdf_text(content: bytes) -> str:
    return "\n".join(pdf_pages(content))


def signed(value: int) -> str:
    """As the reports print a plus/minus score: +12, −7 (a true minus sign), 0."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


def cells_of(text: str) -> str:
    """Extracted text with one table cell (or line) a line, stripped."""
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


def cells(content: bytes) -> str:
    return cells_of(pdf_text(content))


def has_row(text: str, *values: object) -> bool:
    """Do these cells appear one after another (a row of a table, read left to right)?"""
    return "\n".join(str(v) for v in values) in text


def score_cards(content: bytes) -> list[str]:
    """Each printed score card's text, in order, from its "Pair N: ..." title to the next
    card's (cards share pages; a card run on to another page keeps its "(continued)" title
    and its page's header and footer lines within it)."""
    text = pdf_text(content)
    starts = [m.start() for m in re.finditer(r"^Pair \d+: (?!.*\(continued\)$)", text, re.M)]
    return [text[start:end] for start, end in zip(starts, [*starts[1:], len(text)], strict=True)]
