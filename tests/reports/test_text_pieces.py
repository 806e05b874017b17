"""The printed reports' own text writing: widths and encodings put together character by
character must be what reportlab gives for the whole string, and a line too wide for the
page wraps rather than shrinking away."""

from __future__ import annotations

import io

from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas
from reportlab.platypus import Paragraph

from tournaments.reports import base
from tournaments.reports.base import FONT, FONT_BOLD, Line, Run
from tournaments.reports.documents import ScorecardsRenderer
from tournaments.reports.pdfinternals import ReportlabInternals

from .pdf import pdf_text

SAMPLES = ["", "4♥ × −7", "(−258⁴¹⁄₄₂)", "Total: +481 (+480¹⁸¹⁄₅₀₀)", "Cécile Ægir-Østby",
           "NT ♠♥♦♣ ½⅓⅔¼¾", "a\u00a0b"]


def test_a_width_summed_by_character_is_reportlabs_for_the_whole_string():
    base.register_fonts()
    for font in (FONT, FONT_BOLD):
        for text in SAMPLES:
            assert base.text_width(font, text) == pdfmetrics.stringWidth(text, font, 1.0), text


def test_text_encoded_by_character_is_reportlabs_encoding_of_the_whole_string():
    """Past 255 characters a TrueType font opens a second subset: a string with characters
    of both is written in two pieces, each in its subset's font."""
    base.register_fonts()
    buffer = io.BytesIO()
    canv = canvas.Canvas(buffer)
    doc = ReportlabInternals.document(canv)
    face = pdfmetrics.getFont(FONT)
    encoded = base._encoded(canv)
    many = "".join(chr(c) for c in range(0x100, 0x100 + 300) if c in face.face.charToGlyph)
    assert len(many) > 256
    texts = [*SAMPLES, many, many[250:270] + "(\\)"]
    got = {text: encoded.pieces(FONT, text) for text in texts}
    for text in texts:  # every character now has its code: reportlab's split is settled
        whole = tuple((face.getSubsetInternalName(subset, doc), base.escapePDF(chunk))
                      for subset, chunk in face.splitString(text, doc))
        assert got[text] == whole, text
    assert len({name for name, _chunk in got[many[250:270] + "(\\)"]}) == 2
    # And written out, they read back whole.
    mixed = many[250:270] + "(\\)"
    canv.addLiteral("q " + base.text_ops(canv, 72, 700, [Run(mixed)]) + " Q")
    canv.showPage()
    canv.save()
    assert mixed in PdfReader(io.BytesIO(buffer.getvalue())).pages[0].extract_text()


def test_a_line_that_fits_is_drawn_straight_and_a_longer_one_wraps():
    renderer = ScorecardsRenderer()
    short = renderer.line("Pair 1: Ann Lee & Bob Hay", "title")
    assert isinstance(short, Line)
    names = "Pair 12: Alexandra Featherstonehaugh-Wilkinson & Bartholomew Montgomery-Smythe"
    long = renderer.line([Run(names, FONT_BOLD, 16, "#555555")], "title")
    assert isinstance(long, Paragraph)
    assert long.wrap(renderer.frame_width, 1000)[1] > 30  # two lines of 16 pt, not one shrunk


def test_score_cards_print_long_names_whole_at_their_size():
    names = ["Alexandra Featherstonehaugh-Wilkinson", "Bartholomew Montgomery-Smythe"]
    card = {"pair": 12, "names": names, "substitutes": [], "rows": [], "total": "0",
            "shown": 0, "rounded": False, "method": "plus-minus"}
    _name, _mime, content = ScorecardsRenderer().render(
        {"event": "Club night", "rules": "auction-1913", "method": "plus-minus",
         "cards": [card]})
    text = " ".join(pdf_text(content).split())
    assert "Pair 12: Alexandra Featherstonehaugh-Wilkinson & Bartholomew Montgomery-Smythe" in text
    assert "Total: 0" in text


def test_a_printed_document_lets_go_of_its_encoded_text_once_saved():
    """Kept to the end of the layout, a big report's encoded strings were all gone over by
    the cycle collector's first run after it."""
    before = len(base._ENCODED)
    card = {"pair": 1, "names": ["Ann Lee", "Bob Hay"], "substitutes": [], "rows": [],
            "total": "0", "shown": 0, "rounded": False, "method": "plus-minus"}
    ScorecardsRenderer().render({"event": "Club night", "rules": "auction-1913",
                                 "method": "plus-minus", "cards": [card]})
    assert len(base._ENCODED) == before
