"""The season's PDF prints every night's column, however many nights (decision 149: the
table shows which nights count; a club season has 10 to 40 of them, up to
Season.MAX_EVENTS): across the page while they fit, on a landscape page when they do not
fit a portrait one, and in further blocks of nights (the places and names again) beyond
that. Every table fits its page, the names' column stays wide enough to read, and every
cell's text fits its column."""

import datetime
import io

import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph, Table

from tests.reports.pdf import cells
from tests.reports.test_renderers import render
from tournaments import presenters
from tournaments.models import Season
from tournaments.reports import services
from tournaments.reports.base import FONT
from tournaments.reports.documents import SeasonTableRenderer
from tournaments.services import season_save

START = datetime.date(2026, 9, 1)
VALUES = {  # what one night gives, by what the season counts (exact fraction strings)
    "points": lambda i, r: str(10 - (i + r) % 9),
    "plus-minus": lambda i, r: f"{(-1) ** (i + r) * (1234 * 7 + i + r)}/7",
    "matchpoints": lambda i, r: f"{5000 + 37 * ((i * r) % 113)}/{97 + (i + r) % 3}",
}


def _data(nights: int, kind: str = "points", *, members: int = 14) -> dict:
    """The PDF's data for a season of `nights` weekly nights, every member at every
    night, the last night not final; the best half of the nights count."""
    events = [{"id": i, "name": f"Night {i}", "counts": True, "final": i < nights,
               "published": "final" if i < nights else "provisional",
               "date": (START + datetime.timedelta(weeks=i - 1)).isoformat()}
              for i in range(1, nights + 1)]
    rows = []
    for r in range(members):
        value = VALUES[kind]
        rows.append({
            "place": str(r + 1), "events": nights, "score": value(0, r),
            "players": [{"name": f"Wilhelmina Featherstonehaugh {r}", "number": str(100 + r)},
                        {"name": f"Bartholomew Ashby-Cholmondeley {r}",
                         "number": str(200 + r)}],
            "nights": [{"event": i, "place": f"{(i + r) % 12 + 1}=", "counted": i % 2 == 0,
                        "score": value(i, r), "points": value(i, r)}
                       for i in range(1, nights + 1)]})
    counts = "points" if kind == "points" else "score"
    table = {"counts": counts, "method": None if kind == "points" else kind,
             "events": events, "rows": rows}
    columns, shown = presenters.season_rows(table)
    return {"season": "Winter ladder", "rule": "Best of the nights", "note": "",
            "footnote": "A score in brackets is not counted.", "counts": counts,
            "entrants": "pairs", "columns": columns, "rows": shown}


def _tables(renderer: SeasonTableRenderer, data: dict) -> list[Table]:
    return [f for block in renderer.blocks(data) for f in block if isinstance(f, Table)]


def _text(cell) -> str:
    return cell.text if isinstance(cell, Paragraph) else str(cell)


@pytest.mark.parametrize("size", ["letter", "a4"])
@pytest.mark.parametrize("kind", ["points", "plus-minus", "matchpoints"])
@pytest.mark.parametrize("nights", [1, 8, 9, 12, 24, 40, Season.MAX_EVENTS])
def test_every_night_is_printed_and_every_table_fits_its_page(settings, size, kind, nights):
    settings.REPORTS_PAGE_SIZE = size
    data = _data(nights, kind)
    _name, content, _calls = render(SeasonTableRenderer, data)
    text = cells(content)
    for column in data["columns"]:  # each night's date, whole or wrapped ("3\nNov")
        assert column["day"] in text or column["day"].replace(" ", "\n") in text, column
    page = PdfReader(io.BytesIO(content)).pages[0].mediabox
    renderer = SeasonTableRenderer()
    renderer.page_size = (float(page.width), float(page.height))  # as it was laid out
    heads = []
    for table in _tables(renderer, data):
        widths = table._colWidths
        assert sum(widths) <= renderer.frame_width + 0.01
        assert widths[1] >= 40 * mm  # the names (a pair's wrap onto two lines)
        heads += [_text(c) for c in table._cellvalues[0][2:]
                  if _text(c) not in ("Nights", "Points", "Score")]
        for row in table._cellvalues[1:]:
            for cell, width in zip(row[2:], widths[2:], strict=True):
                if isinstance(cell, str):  # a night's value: it fits, padding and all
                    assert stringWidth(cell, FONT, 8) + 6 <= width, (cell, width)
    assert len(heads) == nights  # each night once: none dropped, none twice
    # Landscape only when the nights do not fit across the club's paper upright.
    assert (page.width > page.height) == (nights > renderer.portrait_nights(data))


def test_a_few_nights_stay_on_a_portrait_page_in_one_table():
    data = _data(6)
    renderer = SeasonTableRenderer()
    assert renderer.page_for(data) == renderer.page_size  # the club's paper, portrait
    assert len(_tables(renderer, data)) == 1


def test_nights_in_further_blocks_are_named_and_keep_the_rows_order():
    data = _data(40)
    renderer = SeasonTableRenderer()
    renderer.page_size = renderer.page_for(data)
    tables = _tables(renderer, data)
    assert len(tables) > 1
    names = [[_text(r[1]) for r in t._cellvalues[1:]] for t in tables]
    assert all(n == names[0] for n in names)  # the same members, in the same order
    _name, content, _calls = render(SeasonTableRenderer, data)
    text = " ".join(cells(content).split())
    assert "All 40 nights are printed: nights 1–" in text
    assert "Nights " in text and "–40 (" in text  # the last table's heading


@pytest.mark.django_db
def test_a_season_of_ten_nights_prints_each_night_and_the_brackets_it_explains(
        make_night, actor):
    events = [make_night(f"Night {n}", published="final" if n < 10 else "provisional")
              for n in range(1, 11)]
    season = season_save(name="Autumn ladder", entrants="individuals", counts="points",
                         rule="best", best_of=3, points_scale=[10, 8, 6, 5, 4, 3],
                         event_ids=[e.pk for e in events], actor=actor)
    data = services.season_report_data(season)
    _name, content, _calls = render(SeasonTableRenderer, data)
    text = " ".join(cells(content).split())
    for event in events:
        assert f"{event.date.day} {event.date:%b}" in text
    assert "a score in brackets is not counted" in text
    assert "(10)" in text or "(8)" in text or "(6)" in text  # a night not counted, shown
    assert "Not final yet: Night 10" in text
