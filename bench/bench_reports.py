"""How long the travellers PDF of a big event takes, and how many pages a second.

The renderer (tournaments.reports.documents.TravellersRenderer) is called directly
with the data it takes, gathered as the print job gathers it
(tournaments.reports.services.report_data), so neither Celery nor storage is timed.
Both halves are timed: gathering the travellers from the database, and laying out
the pages.
"""

from __future__ import annotations

import io
import re
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class PdfFigure:
    gather_seconds: float
    render_seconds: float
    pages: int
    size_bytes: int
    boards: int
    rows: int

    @property
    def total_seconds(self) -> float:
        return self.gather_seconds + self.render_seconds

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.render_seconds if self.render_seconds else 0.0


class NotAvailable(Exception):
    """The renderer is not in the tree (yet): the figure cannot be measured."""


def _renderer_and_data():
    try:
        from tournaments.reports.documents import TravellersRenderer
    except ImportError as exc:
        raise NotAvailable(f"tournaments.reports has no TravellersRenderer ({exc})") from None
    try:
        from tournaments.reports.services import report_data
    except ImportError:
        report_data = None
    return TravellersRenderer, report_data


def _gather(event, report_data) -> dict:
    if report_data is not None:
        return report_data(event, "travellers")
    from tournaments import selectors

    numbers = event.boards.order_by("number").values_list("number", flat=True)
    return {"event": event.name, "rules": event.rules, "method": event.method,
            "boards": [selectors.traveller(event, n) for n in numbers]}


def count_pages(pdf: bytes) -> int:
    """The number of pages in a PDF (pypdf when installed, else the page objects)."""
    try:
        from pypdf import PdfReader
    except ImportError:
        return len(re.findall(rb"/Type\s*/Page\b", pdf))
    return len(PdfReader(io.BytesIO(pdf)).pages)


def travellers_pdf(event) -> PdfFigure:
    """Gather every board's traveller and lay out the travellers PDF, once."""
    renderer_class, report_data = _renderer_and_data()
    start = time.perf_counter()
    data = _gather(event, report_data)
    gathered = time.perf_counter()
    _name, _mimetype, pdf = renderer_class().render(data)
    rendered = time.perf_counter()
    return PdfFigure(
        gather_seconds=gathered - start,
        render_seconds=rendered - gathered,
        pages=count_pages(pdf),
        size_bytes=len(pdf),
        boards=len(data["boards"]),
        rows=sum(len(b["rows"]) for b in data["boards"]),
    )
