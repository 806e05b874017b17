"""How long the printed reports of a big event take, and how much memory they need.

Each report is measured in a fresh process (``python -m bench.bench_reports KIND
EVENT_ID [--no-accel]``), as a print worker meets it: a cold standings cache, nothing
else the bench did in its memory. The renderer (tournaments.reports.documents) is called
directly with the data it takes, gathered as the print job gathers it
(tournaments.reports.services.report_data), so neither Celery nor storage is timed.

Both halves are timed, each against a floor measured in the same process:

- *gathering*: report_data against one raw SQL query fetching the same results (the
  SQL the travellers and score cards read, run on a bare cursor);
- *laying out*: the renderer against reportlab's canvas alone writing the same cells,
  each as one string at its place on A4 pages (no layout, no markup, no styles: what
  reportlab itself costs for so much text).

``--no-accel`` hides reportlab's C speed-ups (rl-accel, the ``_rl_accel`` module) from
the process, so the bench can say what they are worth.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KINDS = {"travellers": "boards", "scorecards": "cards"}


@dataclass(frozen=True)
class PdfFigure:
    kind: str
    gather_seconds: float
    render_seconds: float
    gather_floor_seconds: float
    render_floor_seconds: float
    pages: int
    size_bytes: int
    blocks: int  # boards or cards
    rows: int
    accel: bool  # reportlab's C speed-ups (rl-accel) were used
    draw_seconds: float  # of the laying out: writing the grids' cells onto the pages
    save_seconds: float  # of the laying out: writing the file (page numbers, compression)
    standings_seconds: float  # of the gathering: the standings recompute (cold cache)
    peak_rss_delta_bytes: int  # growth of the process's peak resident set
    peak_rss_bytes: int

    @property
    def total_seconds(self) -> float:
        return self.gather_seconds + self.render_seconds

    @property
    def floor_seconds(self) -> float:
        return self.gather_floor_seconds + self.render_floor_seconds

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.render_seconds if self.render_seconds else 0.0


class NotAvailable(Exception):
    """The renderer is not in the tree (yet): the figure cannot be measured."""


def accel_installed() -> bool:
    """Whether reportlab's C speed-ups (rl-accel) can be imported here."""
    return importlib.util.find_spec("_rl_accel") is not None


def count_pages(pdf: bytes) -> int:
    """The number of pages in a PDF (pypdf when installed, else the page objects)."""
    try:
        from pypdf import PdfReader
    except ImportError:
        return len(re.findall(rb"/Type\s*/Page\b", pdf))
    return len(PdfReader(io.BytesIO(pdf)).pages)


def in_child(kind: str, event_id: int, *, accel: bool = True) -> PdfFigure:
    """One report of the event, gathered and laid out in a fresh process."""
    command = [sys.executable, "-m", "bench.bench_reports", kind, str(event_id)]
    if not accel:
        command.append("--no-accel")
    proc = subprocess.run(command, capture_output=True, text=True, cwd=ROOT,
                          env=os.environ.copy(), check=False, timeout=900)
    if proc.returncode == 3:
        raise NotAvailable(proc.stderr.strip().splitlines()[-1])
    if proc.returncode != 0:
        raise RuntimeError(f"the {kind} probe failed: {proc.stderr[-2000:]}")
    return PdfFigure(**json.loads(proc.stdout.strip().splitlines()[-1]))


# --- in the child ------------------------------------------------------------------------


def _floor_query(event, kind: str) -> int:
    """The rows the report reads, fetched by one raw SQL query (the selectors' own SQL)."""
    from django.db import connection

    from tournaments.models import Result
    from tournaments.selectors import RESULT_FIELDS

    sql, params = (Result.objects.filter(event_id=event.pk, voided=False)
                   .values_list(*RESULT_FIELDS).query.sql_with_params())
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return len(cursor.fetchall())


def _cells(data: dict, kind: str) -> list[list[list[str]]]:
    """The report's cells as plain text: one table per board (or card), a row per result."""
    if kind == "travellers":
        keys = ("ns", "ew", "level", "denomination", "declarer", "tricks", "ns_score",
                "ew_score", "ns_plus_minus", "ew_plus_minus")
        return [[[str(r[k]) for k in keys] for r in board["rows"]] for board in data["boards"]]
    keys = ("board", "direction", "opponents", "level", "denomination", "declarer", "tricks",
            "score", "plus_minus", "running")
    return [[[str(r[k]) for k in keys] for r in card["rows"]] for card in data["cards"]]


def _floor_layout(tables: list[list[list[str]]]) -> float:
    """Seconds reportlab's canvas alone takes to write these cells on A4 pages: each cell
    one string at its place, fifty rows a page, a new page for each table."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    start = time.perf_counter()
    canvas = Canvas(io.BytesIO(), pagesize=A4)
    for rows in tables:
        for index, row in enumerate(rows):
            if index and index % 50 == 0:
                canvas.showPage()
            y = 800 - 15 * (index % 50)
            for column, text in enumerate(row):
                canvas.drawString(30 + 55 * column, y, text)
        canvas.showPage()
    canvas.save()
    return time.perf_counter() - start


def _accel_used() -> bool:
    """Whether reportlab, as imported here, runs its C speed-ups."""
    from reportlab.lib import rl_accel

    return bool(rl_accel._c_funcs)


def _timed(owner: type, name: str, timers: dict[str, float], key: str) -> None:
    """Add up the seconds spent in owner.name (a method) under timers[key]."""
    method = getattr(owner, name)

    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            timers[key] += time.perf_counter() - start

    setattr(owner, name, timed)


def _probe(kind: str, event_id: int) -> dict:
    import django

    django.setup()
    from django.db import connection

    from tournaments.models import Event

    try:
        from tournaments.reports.services import RENDERERS, report_data
    except ImportError as exc:
        print(f"tournaments.reports cannot print {kind} ({exc})", file=sys.stderr)
        sys.exit(3)
    from tournaments import selectors
    from tournaments.reports import base

    from .bench_standings import peak_rss_kib

    timers = {"draw": 0.0, "save": 0.0, "standings": 0.0}
    _timed(base.Grid, "draw", timers, "draw")
    _timed(base._NumberedCanvas, "save", timers, "save")
    _timed(selectors, "pair_state", timers, "standings")
    event = Event.objects.get(pk=event_id)
    connection.ensure_connection()
    before = peak_rss_kib()
    floor_start = time.perf_counter()
    _floor_query(event, kind)
    gather_floor = time.perf_counter() - floor_start
    start = time.perf_counter()
    data = report_data(event, kind)
    gathered = time.perf_counter()
    _name, _mimetype, pdf = RENDERERS[kind]().render(data)
    rendered = time.perf_counter()
    peak = peak_rss_kib()
    blocks = data[KINDS[kind]]
    render_floor = _floor_layout(_cells(data, kind))
    return asdict(PdfFigure(
        kind=kind, gather_seconds=gathered - start, render_seconds=rendered - gathered,
        gather_floor_seconds=gather_floor, render_floor_seconds=render_floor,
        pages=count_pages(pdf), size_bytes=len(pdf), blocks=len(blocks),
        rows=sum(len(b["rows"]) for b in blocks), accel=_accel_used(),
        draw_seconds=timers["draw"], save_seconds=timers["save"],
        standings_seconds=timers["standings"],
        peak_rss_delta_bytes=(peak - before) * 1024, peak_rss_bytes=peak * 1024,
    ))


if __name__ == "__main__":
    args = sys.argv[1:]
    if "--no-accel" in args:
        args.remove("--no-accel")
        sys.modules["_rl_accel"] = None  # reportlab then uses its Python functions
    if len(args) != 2 or args[0] not in KINDS:
        sys.exit("usage: python -m bench.bench_reports travellers|scorecards EVENT_ID "
                 "[--no-accel]")
    print(json.dumps(_probe(args[0], int(args[1]))))
