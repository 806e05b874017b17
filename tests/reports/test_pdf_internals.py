"""reportlab's private parts that the printed reports use, checked by name.

``tournaments.reports.pdfinternals.ReportlabInternals`` is the only code that touches
them. If a reportlab upgrade renames or stops honouring either, these tests fail here,
saying which, rather than a print job failing or silently slowing down.
"""

from __future__ import annotations

import io

from pypdf import PdfReader
from reportlab import rl_config
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfgen import canvas

from tournaments.reports import base
from tournaments.reports.base import Column, Grid, GridRow
from tournaments.reports.pdfinternals import ReportlabInternals


def _canvas() -> tuple[io.BytesIO, canvas.Canvas]:
    buffer = io.BytesIO()
    return buffer, canvas.Canvas(buffer)


def test_a_canvas_still_has_its_document_where_the_grid_looks_for_it():
    _buffer, canv = _canvas()
    assert hasattr(canv, "_doc"), "reportlab's Canvas no longer has _doc"
    doc = ReportlabInternals.document(canv)
    assert isinstance(doc, pdfdoc.PDFDocument)


def test_truetype_text_is_still_encoded_per_document_as_the_grid_writes_it():
    base.register_fonts()
    buffer, canv = _canvas()
    doc = ReportlabInternals.document(canv)
    face = pdfmetrics.getFont(base.FONT)
    assert getattr(face, "_dynamicFont", False), "DejaVu Sans is no longer a subset font"
    pieces = [(face.getSubsetInternalName(subset, doc), chunk)
              for subset, chunk in face.splitString("4♥ × −7", doc)]
    assert pieces and all(name.startswith("/F") for name, _chunk in pieces)
    # Written by hand as a Grid writes it, the text reads back whole.
    ops = ["BT", "1 0 0 1 72 700 Tm"]
    for name, chunk in pieces:
        ops += [f"{name} 12 Tf", f"({base.escapePDF(chunk)}) Tj"]
    canv.addLiteral("\n".join([*ops, "ET"]))
    canv.showPage()
    canv.save()
    text = PdfReader(io.BytesIO(buffer.getvalue())).pages[0].extract_text()
    assert "4♥ × −7" in text


def _saved() -> bytes:
    buffer, canv = _canvas()
    canv.drawString(72, 700, "Board 1")
    canv.showPage()
    canv.save()
    return buffer.getvalue()


def test_reportlab_still_reads_the_ascii85_switch_when_it_saves():
    before = rl_config.useA85
    assert before, "reportlab no longer ASCII85-encodes by default: the switch may be moot"
    assert b"/ASCII85Decode" in _saved()
    with ReportlabInternals.binary_page_streams():
        assert rl_config.useA85 == 0
        content = _saved()
    assert rl_config.useA85 == before
    assert b"/ASCII85Decode" not in content and b"/FlateDecode" in content
    assert "Board 1" in PdfReader(io.BytesIO(content)).pages[0].extract_text()


def test_the_switch_is_put_back_when_a_save_fails():
    before = rl_config.useA85
    try:
        with ReportlabInternals.binary_page_streams():
            raise RuntimeError("the disk is full")
    except RuntimeError:
        pass
    assert rl_config.useA85 == before


def test_a_grid_over_pages_reads_back_with_pypdf():
    base.register_fonts()
    rows = [GridRow([str(n), f"{n}♠ ×", "−420"]) for n in range(1, 121)]
    grid = Grid([Column(40), Column(60), Column(60, "right")], ["Table", "Contract", "N–S"],
                rows)
    buffer = io.BytesIO()
    canvas_class = type("PageCanvas", (base._NumberedCanvas,), {"header": "H",
                                                                "footer_left": "F"})
    base.SimpleDocTemplate(buffer).build([grid], canvasmaker=canvas_class)
    content = buffer.getvalue()
    assert b"/ASCII85Decode" not in content
    pages = PdfReader(io.BytesIO(content)).pages
    assert len(pages) >= 2
    text = " ".join(page.extract_text() for page in pages)
    assert text.count("Table Contract N–S") == len(pages)  # the header on every page
    for n in (1, 60, 120):
        assert f"{n}♠ ×" in text
    assert f"page {len(pages)} of {len(pages)}" in text


def test_a_cell_too_wide_is_set_smaller_all_alike():
    """A ruling's two lines ("Fouled board (Duplicate Law B), N–S at fault" / "awarded
    N–S −265, E–W +265"), the first too wide for its column: both lines are set smaller by
    as much, where only the first had been, so that the card read two sizes in one cell."""
    base.register_fonts()
    _buffer, canv = _canvas()
    cell = base.Rich((base.Run("Fouled board (Duplicate Law B), N–S at fault"),),
                     (base.Run("awarded N–S −265"),))
    grid = Grid([Column(120)], ["Contract"], [GridRow([cell])])
    placed = grid._place(base._encoded(canv), cell, [0.0, 120.0], 0, 0)
    sizes = {float(font.split()[-2]) for _x, _offset, runs in placed for _c, font, _t in runs}
    assert len(sizes) == 1 and sizes.pop() < 9
    # A cell that fits keeps its size.
    fits = base.Rich((base.Run("4♥"),), (base.Run("a revoke", size=7),))
    placed = grid._place(base._encoded(canv), fits, [0.0, 120.0], 0, 0)
    assert [float(font.split()[-2]) for _x, _o, runs in placed for _c, font, _t in runs] \
        == [9.0, 7.0]
