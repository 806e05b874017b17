"""Each PDF, rendered without a worker, read back with pypdf: the scores and names are there."""

import datetime
import io
from fractions import Fraction

import pytest
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfbase.ttfonts import TTFont

from tournaments import selectors, standings
from tournaments.models import Meeting
from tournaments.presenters import exact, signed_exact
from tournaments.reports import base
from tournaments.reports.documents import (
    GuidecardsRenderer,
    ScorecardsRenderer,
    StandingsRenderer,
    TravellersRenderer,
    exact_cell,
)
from tournaments.reports.services import report_data

from .night import PLAYERS, movement_event
from .pdf import cells, cells_of, has_row, pdf_pages, pdf_text, score_cards, signed

NOW = datetime.datetime(2026, 11, 17, 23, 5)


def render(renderer_class, data, **kw):
    calls = []
    filename, mimetype, content = renderer_class(
        progress=lambda done, total: calls.append((done, total)), now=NOW, **kw).render(data)
    assert mimetype == "application/pdf"
    assert content.startswith(b"%PDF")
    return filename, content, calls


def test_standings_pdf_holds_each_pair_with_its_score(night):
    data = standings.standings(night.event)
    filename, content, _ = render(StandingsRenderer, data)
    text = cells(content)
    assert filename == "tuesday-duplicate-standings.pdf"
    assert "Provisional" in text
    assert "North–South" in text and "East–West" in text
    rows = [row for ranking in data["rankings"] for row in ranking["rows"]]
    assert len(rows) == 6
    for row in rows:
        assert has_row(text, row["place"], row["pair"], " & ".join(row["names"]),
                       signed(row["score"]), signed_exact(row["exact"]), row["boards"]), row
    assert "page 1 of 1" in text
    assert "Printed 17 Nov 2026 23:05" in text


def test_a_plus_minus_printed_exactly_keeps_its_plus(night):
    # Not "Score +4 | Exact 4⅓" nor "+4 (4⅓)": the exact value of a plus/minus is signed
    # as the score is (docs/decisions.md, 200).
    data = standings.standings(night.event)
    row = next(r for ranking in data["rankings"] for r in ranking["rows"]
               if "/" in r["exact"] and Fraction(r["exact"]) > 0)
    written = signed_exact(row["exact"])
    assert written == "+" + exact(row["exact"])
    text = cells(render(StandingsRenderer, data)[1])
    assert has_row(text, row["place"], row["pair"], " & ".join(row["names"]),
                   signed(row["score"]), written, row["boards"])
    cards = report_data(night.event, "scorecards")
    card = next(c for c in cards["cards"] if c["pair"] == row["pair"])
    text = " ".join(pdf_text(render(ScorecardsRenderer, {**cards, "cards": [card]})[1]).split())
    assert f"Total: {signed(card['shown'])} ({signed_exact(card['total'])})" in text
    for r in card["rows"]:
        if r["plus_minus"] and "/" in r["plus_minus"]:
            assert f"({signed_exact(r['plus_minus'])})" in text


def test_an_exact_cell_signs_a_plus_minus_not_matchpoints():
    assert exact_cell(4, "13/3").lines[1][0].text == "(+4⅓)"
    assert exact_cell(-4, "-13/3").lines[1][0].text == "(−4⅓)"
    assert exact_cell(0, "0") == "0"
    # Matchpoints are written exactly and unsigned, as the score card writes them.
    assert exact_cell(7, "13/2", False) == "6½"
    assert exact_cell(6, "6", False) == "6"


def test_matchpoint_standings_print_percentages(director):
    from .night import build_night

    night = build_night(director, method="matchpoints")
    data = standings.standings(night.event)
    text = pdf_text(render(StandingsRenderer, data)[1])
    for ranking in data["rankings"]:
        for row in ranking["rows"]:
            assert f"{row['score']:.2f}%" in text


def test_team_standings_say_who_won_and_by_the_fraction_of_a_point():
    data = {
        "event": "Club match", "kind": "teams", "method": "total-points",
        "published": "final",
        "matches": [{"teams": ["Knickerbocker", "Manhattan"], "scores": [1240, 1240],
                     "exact": ["3719/3", "3721/3"], "winner": "Manhattan",
                     "by_fraction": True}],
        "rankings": [{"direction": "ALL", "rows": [
            {"place": "1", "team": "Manhattan", "matches_won": "1", "points": 1240},
            {"place": "2", "team": "Knickerbocker", "matches_won": "0", "points": 1240}]}],
    }
    text = pdf_text(render(StandingsRenderer, data)[1])
    assert "Manhattan won by the fraction of a point." in text
    assert "1240⅓" in text and "1239⅔" in text  # the exact values, never "3721/3"
    assert "Final" in text
    # What Duplicate Law G adds up is printed, for a member to check: the points each
    # team's pairs won, and with an odd pair the average added (rules.md §5).
    assert has_row(text, "Knickerbocker", "1239⅔", "1239⅔", "1240")
    assert "Odd pair" not in text
    data["matches"][0]["added"] = ["400/3", "130"]
    text = pdf_text(render(StandingsRenderer, data)[1])
    assert has_row(text, "Knickerbocker", "1106⅓", "133⅓", "1239⅔", "1240")
    assert has_row(text, "Manhattan", "1110⅓", "130", "1240⅓", "1240")
    assert "the exact totals decide" in " ".join(text.split())


def test_travellers_pdf_has_every_result_and_the_hand_diagrams(night):
    data = report_data(night.event, "travellers")
    filename, content, calls = render(TravellersRenderer, data)
    assert filename == "tuesday-duplicate-travellers.pdf"
    text = pdf_text(content)
    for board in data["boards"]:
        assert f"Board {board['board']} · dealer" in text
        assert len(board["rows"]) == 3
        for row in board["rows"]:
            if row["ruling"]:
                assert "Average (Duplicate Law B)" in text
                continue
            assert row["net_ns"] is not None
            assert signed(row["ns_shown"]) in text
    # The hand diagram of board 1 (N holds T82 of spades, AQJ84 of hearts): suit symbols
    # and tens written as 10.
    assert "♠ 10 8 2" in text
    assert "♥ A Q J 8 4" in text
    assert "♦" in text and "♣" in text
    # Board 6 has no hand record: its block has results but no diagram.
    board6 = text[text.index("Board 6 · dealer"):]
    assert "North\n" not in board6 and "♠ " not in board6.split("Average of")[0]
    # Progress: one step a board, ending at the total.
    assert calls[0] == (0, 6) and calls[-1] == (6, 6)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


def test_travellers_show_the_contract_with_its_suit_symbol(night):
    data = report_data(night.event, "travellers")
    text = pdf_text(render(TravellersRenderer, data)[1])
    row = data["boards"][0]["rows"][0]  # board 1: hearts
    symbol = {"H": "♥", "S": "♠", "NT": "NT", "D": "♦", "C": "♣", "RS": "R♠"}[row["denomination"]]
    assert f"{row['level']}{symbol}" in text


def test_score_cards_one_card_per_pair_with_the_running_total(night):
    """A card a pair, several to a page (test_layout_pages.py: where the pages break)."""
    data = report_data(night.event, "scorecards")
    _, content, calls = render(ScorecardsRenderer, data)
    printed = score_cards(content)
    assert len(printed) == 6
    for number, text in enumerate(printed, start=1):
        card = selectors.scorecard(night.event, number)
        assert text.startswith(f"Pair {number}: {' & '.join(PLAYERS[number])}")
        assert f"Total: {signed(card['shown'])}" in text
        assert len(card["rows"]) == 6
    pages = pdf_pages(content)
    for number, page in enumerate(pages, start=1):
        assert f"page {number} of {len(pages)}" in page
    assert calls[-1] == (6, 6)


def test_guide_cards_follow_the_stored_meetings(night):
    data = report_data(night.event, "guidecards")
    _, content, calls = render(GuidecardsRenderer, data)
    pages = [cells_of(page) for page in pdf_pages(content)]
    # Several cards to a page: 3 table cards two to a page, then 6 pair cards four to a page.
    assert len(pages) == 4
    # One section: the cards name no section, as the web page's cards do.
    assert "Section" not in "".join(pages)
    assert [[t for t in (1, 2, 3) if f"Table {t}\n" in page] for page in pages] == [
        [1, 2], [3], [], []]
    assert [[p for p in range(1, 7) if f"Pair {p}\n" in page] for page in pages] == [
        [], [], [1, 2, 3, 4], [5, 6]]
    table_page = {1: pages[0], 2: pages[0], 3: pages[1]}
    for meeting in Meeting.objects.filter(section__event=night.event).select_related(
            "ns_pair", "ew_pair"):
        page = table_page[meeting.table]
        first, last = min(meeting.boards), max(meeting.boards)
        assert has_row(page, meeting.round, meeting.ns_pair.number, meeting.ew_pair.number,
                       f"{first}–{last}"), page
    # The pair cards: each pair's names, its rounds and where it goes next.
    assert has_row(pages[2], "Pair 1", "Ann Lee & Bob Ray")
    # Pair 1 stays at table 1 (a Mitchell's N–S pair): the card says so, as the phone does.
    assert "1 1 N–S 4 1–2 stay at table 1, N–S" in " ".join(pages[2].split())  # wrapped
    # After the last round everybody is done.
    assert "end of play" in pages[0] and "the director" in pages[0]
    assert calls[-1] == (9, 9)  # a unit of progress per card


def test_guide_cards_print_sit_outs_and_the_bye_stand(director):
    """A relay Mitchell of 4 tables with 7 pairs: a pair sits out each round, and a
    board set rests on the bye stand between tables 2 and 3."""
    from boards.movements import generate

    event = movement_event(director, generate("mitchell", tables=4, boards_per_round=2,
                                              variant="relay", pairs=7))
    data = report_data(event, "guidecards")
    _, content, _ = render(GuidecardsRenderer, data)
    pages = [cells_of(page) for page in pdf_pages(content)]
    assert len(pages) == 4  # 4 table cards two to a page, 7 pair cards four to a page
    text = "\n".join(pages)
    assert "the bye stand between tables 2 and 3" in " ".join(text.split())  # wrapped
    assert "Sit out this round" in text and "Not in play this round" in text
    assert sum(f"Pair {p}\n" in text for p in range(1, 8)) == 7


def test_guide_card_says_where_pairs_and_boards_go_next(night):
    tables = {card["table"]: card for card in report_data(night.event, "guidecards")["tables"]}
    first = tables[1]["rounds"][0]
    nxt = {(m.round, m.table): m for m in Meeting.objects.filter(section__event=night.event)
           .select_related("ns_pair", "ew_pair")}
    # Mitchell: N-S stay put, E-W move; say so from the meetings, not from a formula.
    ew_table = next(t for (r, t), m in nxt.items() if r == 2 and m.ew_pair.number == first["ew"])
    assert first["ns_next"] == "stay at table 1, N–S"  # the phone's words for staying
    assert first["ew_next"] == f"table {ew_table} E–W"
    board_table = next(t for (r, t), m in nxt.items() if r == 2 and first["boards"][0] in m.boards)
    assert first["boards_next"] == f"table {board_table}"


@pytest.mark.parametrize(("setting", "size"), [("letter", LETTER), ("a4", A4), ("A4", A4)])
def test_page_size_follows_the_setting(settings, setting, size):
    settings.REPORTS_PAGE_SIZE = setting
    data = {"event": "E", "kind": "pairs", "method": "plus-minus", "published": "none",
            "rankings": [{"direction": "ALL", "rows": []}]}
    content = render(StandingsRenderer, data)[1]
    box = PdfReader(io.BytesIO(content)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (round(size[0]),
                                                                   round(size[1]))
    assert "No results yet" in pdf_text(content)


def test_a_bad_page_size_names_the_setting(settings):
    from django.core.exceptions import ImproperlyConfigured

    settings.REPORTS_PAGE_SIZE = "legal"
    with pytest.raises(ImproperlyConfigured, match="REPORTS_PAGE_SIZE"):
        StandingsRenderer()


def test_reportlabs_own_fonts_lack_the_suits_so_dejavu_is_vendored():
    import reportlab

    vera = TTFont("VeraCheck", f"{reportlab.__path__[0]}/fonts/Vera.ttf")
    assert not any(ord(s) in vera.face.charToGlyph for s in "♠♥♦♣")
    for name in (base.FONT, base.FONT_BOLD):
        vendored = base.BUNDLED_FONTS / f"{name}.ttf"
        font = TTFont(name + "Check", str(vendored))
        assert all(ord(s) in font.face.charToGlyph for s in "♠♥♦♣")
    assert "Bitstream" in (base.BUNDLED_FONTS / "LICENSE").read_text()


# Run in a fresh process (reportlab keeps its fonts for the process): registering the
# family is slowed, so a thread that did not wait for it would fail on bold.
FONT_RACE = """
import os, threading, time
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()
from reportlab.lib.fonts import ps2tt
from reportlab.pdfbase import pdfmetrics
from tournaments.reports import base
real = pdfmetrics.registerFontFamily
def slow(*args, **kwargs):
    time.sleep(0.3)
    real(*args, **kwargs)
pdfmetrics.registerFontFamily = slow
errors = []
def prints():
    try:
        base.register_fonts()
        ps2tt(base.FONT_BOLD)
    except Exception as exc:
        errors.append(repr(exc))
threads = [threading.Thread(target=prints) for _ in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(len(errors), errors[:1])
"""


def test_threads_printing_at_once_each_find_the_bold_face():
    """make run prints and mails from threads of one process: the first to print had
    registered the regular face, the next went on, and failed on bold ("Can't map
    determine family/bold/italic for dejavusans-bold"), a score card lost."""
    import subprocess
    import sys

    from django.conf import settings

    done = subprocess.run([sys.executable, "-c", FONT_RACE], capture_output=True, text=True,
                          timeout=120, cwd=settings.BASE_DIR)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "0 []", done.stdout


def test_the_vendored_font_is_used_when_the_system_has_none(monkeypatch, tmp_path):
    monkeypatch.setattr(base, "SYSTEM_FONTS", tmp_path / "no-fonts-here")
    assert base.font_path("DejaVuSans") == base.BUNDLED_FONTS / "DejaVuSans.ttf"


def test_a_heading_is_never_the_last_line_of_a_page(night):
    """However long the first ranking, the second's heading goes over with the start of
    its table: a page ending in "East–West", its table on the next, read as a missing
    table. Nor does a heading take a whole table over and leave a page blank."""
    data = standings.standings(night.event)
    north, east = data["rankings"][:2]
    furniture = ("Tuesday duplicate · Standings", "Printed ", "page ")
    moved = 0
    for count in range(30, 70):  # some of these put the heading at the foot of page 1
        rows = [{**north["rows"][0], "place": str(n + 1), "pair": n + 1} for n in range(count)]
        pages = pdf_pages(render(StandingsRenderer, {
            **data, "rankings": [{**north, "rows": rows}, east]})[1])
        content = [[line.strip() for line in page.splitlines()
                    if line.strip() and not line.startswith(furniture)] for page in pages]
        assert "North–South" in content[0], count  # the first table starts on page 1
        for page in content:
            assert page[-1] not in ("North–South", "East–West"), count
        moved += any(page[0] == "East–West" for page in content[1:])
    assert moved  # the heading did go over, with its table


def test_travellers_keep_back_the_hands_of_a_board_still_in_play(director):
    """A traveller printed mid-night may be pinned up: a board's hands are printed only
    once every table has played it, as the public traveller shows only finished boards."""
    from .night import build_night

    night = build_night(director, play=False, published="none")
    data = report_data(night.event, "travellers")
    kept = [b["board"] for b in data["boards"] if b.get("hands_kept")]
    assert kept and all(b["hands"] is None for b in data["boards"])
    text = pdf_text(render(TravellersRenderer, data)[1])
    assert "♠ 10 8 2" not in text and "♥ A Q J 8 4" not in text
    assert text.count("Still in play: the hands are printed once every table") == len(kept)

    night.play()
    data = report_data(night.event, "travellers")
    assert not any(b.get("hands_kept") for b in data["boards"])
    text = pdf_text(render(TravellersRenderer, data)[1])
    assert "♠ 10 8 2" in text and "Still in play" not in text


def test_a_ruling_on_a_score_card_spans_the_play_columns(night):
    """"Fouled board (Duplicate Law B), N–S at fault" had the contract's column alone, and
    was shrunk to some 4 points to fit; it spans the contract, declarer and tricks, as on
    the traveller."""
    data = report_data(night.event, "scorecards")
    played = data["cards"][0]["rows"][0]
    renderer = ScorecardsRenderer(progress=lambda done, total: None, now=NOW)
    assert renderer._card_row(played, True).span is None
    ruled = {**played, "ruling": "fouled", "offending": "ns", "level": None, "tricks": None,
             "declarer": ""}
    row = renderer._card_row(ruled, True)
    assert row.span == (3, 5)
    assert row.cells[3] == "Fouled board (Duplicate Law B), N–S at fault"


def test_a_team_matchs_score_cards_print_what_each_pair_won_for_its_team(db):
    """Duplicate Law G: a team scores the totals its pairs won, so a pair's printed card
    adds those (exactly), not the pair contest's net score."""
    import json
    from pathlib import Path

    from tournaments.nightfile import night_import
    from tournaments.services import Actor

    data = json.loads((Path(__file__).resolve().parents[1] / "nights" / "data"
                       / "night-teams.json").read_text())
    event = night_import(data=data, actor=Actor.system("import"))
    _, content, _ = render(ScorecardsRenderer, report_data(event, "scorecards"))
    printed = score_cards(content)
    cards = selectors.scorecards(event)
    assert len(printed) == len(cards)
    for page, card in zip(printed, cards, strict=True):
        assert "Points won" in page and "±" not in page
        assert f"Total won for the team: {exact(card['total'])}" in page
        first = card["rows"][0]
        assert first["score"] is None and first["plus_minus"] is not None


def test_a_whist_traveller_compares_the_tricks_alone(director, client):
    """Duplicate whist compares the tricks each side scores (rules.md §8): its travellers,
    printed and on the web, have no net column, which would read as a second score."""
    from .night import build_night

    night = build_night(director, name="Whist night", rules="duplicate-whist")
    data = report_data(night.event, "travellers")
    text = pdf_text(render(TravellersRenderer, data)[1])
    assert "tricks\nscored" in text or "tricks scored" in " ".join(text.split())
    assert "Net" not in text
    page = client.get(f"/events/{night.event.pk}/boards/1/").content.decode()
    assert "N–S tricks<br>scored" in page and "Net N–S" not in page
