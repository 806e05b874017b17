"""The score pad's finished sheet as a PDF, made by a job like the other reports."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from reportlab.pdfbase.pdfmetrics import stringWidth

from tournaments.models import ReportJob
from tournaments.reports import services
from tournaments.reports.base import FONT, FONT_BOLD
from tournaments.reports.documents import RubberSheetRenderer
from tournaments.services import rubber_create, rubber_deal_add, rubber_sheet

from .pdf import cells, has_row

pytestmark = pytest.mark.django_db

AUCTION = [
    {"contract": {"level": 1, "denomination": "H", "declarer": "S"}, "tricks": 9,
     "honours": {"N": 2, "S": 1}},
    {"contract": {"level": 2, "denomination": "NT", "declarer": "W"}, "tricks": 9},
    {"contract": {"level": 3, "denomination": "D", "declarer": "N", "doubled": "X"},
     "tricks": 7},
    {"contract": {"level": 1, "denomination": "NT", "declarer": "N"}, "tricks": 8},
    {"contract": {"level": 1, "denomination": "C", "declarer": "S"}, "tricks": 8},
    {"contract": {"level": 2, "denomination": "NT", "declarer": "N"}, "tricks": 9,
     "honours": {"N": 4}},
]


@pytest.fixture
def pad():
    rubber = rubber_create(game="auction", players=["Ann", "Bob", "Cy", "Di"])
    for d in AUCTION:
        rubber_deal_add(rubber=rubber, deal=d)
    return rubber


def test_the_renderer_prints_the_period_sheet(pad):
    name, mimetype, content = RubberSheetRenderer().render(rubber_sheet(rubber=pad))
    assert name == "auction-bridge-rubber.pdf" and mimetype == "application/pdf"
    text = cells(content)
    assert "Game 1 to Bob & Di" in text and "Game 3 to Ann & Cy" in text
    assert has_row(text, "Total", 452, 230)
    assert "Rubber to Ann & Cy" in text and "win 222 from Bob & Di" in text
    # As a pad is kept: the honour score above the line, the trick score below it.
    above = text.index("Honour score, above the line")
    below = text.index("Trick score, below the line")
    assert above < below < text.index("Game 1 to Bob & Di")


def test_the_pad_prints_its_sheet_through_a_job(client, pad, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("pad-print", args=[pad.code]))
    assert response.status_code == 302
    job = ReportJob.objects.get()
    assert (job.rubber_id, job.event_id, job.kind, job.status) == (pad.pk, None, "rubber",
                                                                    "done")
    page = client.get(reverse("pad-print", args=[pad.code])).content.decode()
    assert 'data-testid="print-file"' in page and 'data-status="done"' in page
    pdf = client.get(reverse("pad-print-file", args=[pad.code]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert "Rubber to Ann & Cy" in cells(b"".join(pdf.streaming_content))
    assert services.report_status(job)["title"] == "Rubber score sheet"


def test_printing_again_reuses_the_one_job_of_the_rubber(pad, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        first = services.rubber_report_request(rubber=pad)
    with django_capture_on_commit_callbacks(execute=True):
        again = services.rubber_report_request(rubber=pad)
    assert first.pk == again.pk and ReportJob.objects.count() == 1
    with pytest.raises(IntegrityError), transaction.atomic():
        ReportJob.objects.create(rubber=pad, kind="standings")  # a rubber prints its sheet


def test_the_print_room_still_lists_only_the_event_documents():
    assert "rubber" not in services.KINDS and len(services.KINDS) == 6  # "overall" too


def test_the_print_page_follows_the_job_by_polling_not_by_refreshing(client, pad):
    """As in the print room: a progress bar that live.js moves from the status URL."""
    client.post(reverse("pad-print", args=[pad.code]))  # no on-commit run: still queued
    job = ReportJob.objects.get()
    assert job.status == "queued"
    page = client.get(reverse("pad-print", args=[pad.code])).content.decode()
    assert 'http-equiv="refresh"' not in page
    status_url = reverse("pad-print-status", args=[pad.code])
    assert f'data-report-status-url="{status_url}"' in page and 'data-status="queued"' in page
    assert 'role="progressbar"' in page and "js/live.js" in page
    assert 'data-report-file' in page and "hidden" in page  # the link waits for the PDF
    status = client.get(status_url)
    assert status.status_code == 200 and status["Cache-Control"].startswith("max-age=0")
    body = status.json()
    assert (body["status"], body["rubber"], body["file_url"]) == ("queued", pad.pk, None)
    assert body["status_url"] == status_url and body["message"]


def test_the_print_status_gives_the_file_once_done(client, pad,
                                                   django_capture_on_commit_callbacks):
    status_url = reverse("pad-print-status", args=[pad.code])
    nothing = client.get(status_url)
    assert nothing.status_code == 404 and "Print the sheet" in nothing.json()["error"]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("pad-print", args=[pad.code]))
    body = client.get(status_url).json()
    assert body["status"] == "done" and body["percent"] == 100
    assert body["file_url"].startswith(reverse("pad-print-file", args=[pad.code]))
    assert client.get(body["file_url"]).status_code == 200
    assert client.get(reverse("pad-print-status", args=["no-such-pad"])).status_code == 404


# --- names whole, what a stop settles, a printed sheet gone out of date ---------------------


LONG = [
    "Bartholomew Fotheringay-Cholmondeley",  # the longest names of a real club list
    "Cornelia Vanderbilt-Whitney",
    "Wolfeschlegelsteinhausenbergerdorffvoral",  # 40 letters, the pad's most, no space
    "Maximiliana Featherstonehaugh-Beauchamp",
]


def broken_words(text: str, names: list[str]) -> list[str]:
    """The pieces of a name's word printed at a line's end, the rest on the next line
    ("Bartholom" of "Bartholomew", "Fotheringay-" of "Fotheringay-Cholmondeley"): every
    printed word that is the start of a name's word, not the word itself."""
    words = {w for name in names for w in name.split()}
    return sorted({t for line in text.splitlines() for t in line.split()
                   if t not in words and any(w.startswith(t) for w in words)})


@pytest.mark.parametrize(("game", "players"), [
    ("auction", LONG),
    ("auction", ["Bartholomew Fotheringay", "Ann", "Cy", "Cornelia Vanderbilt-Whitney"]),
    ("three-hand", LONG[1:]),
    ("three-hand", ["Wolfeschlegelsteinhausenbergerdorffvoral",
                    "Xochiquetzalcoatlicuemictlantecuhtlixyz",
                    "Bartholomew Fotheringay-Cholmondeley"]),
    ("whist", LONG),
])
def test_names_break_between_words_only(game, players):
    """The names' columns had been 24 mm wide and the dealer's 28 mm: "Bartholom / ew
    Fotheri / ngay", "Cornelia Vand / erbilt-Whitney". Every word of every name is
    printed whole, in the sides' headings and the dealers' column."""
    rubber = rubber_create(game=game, players=players)
    deals = {"auction": AUCTION[:4],
             "three-hand": [{"declarer": "B", "contract": {"level": 2, "denomination": "H"},
                             "tricks": 9}, {"declarer": "C", "contract": {
                                 "level": 1, "denomination": "NT"}, "tricks": 7}],
             "whist": [{"tricks_ns": 8}, {"tricks_ns": 4}, {"tricks_ns": 7},
                       {"tricks_ns": 6}]}[game]
    for d in deals:
        rubber_deal_add(rubber=rubber, deal=d)
    renderer = RubberSheetRenderer()
    _, _, content = renderer.render(rubber_sheet(rubber=rubber))
    assert broken_words(cells(content), players) == []
    # The layout gives each name's longest word its room: a side's heading (bold) in its
    # column, a dealer's name in the dealer's.
    layout, pad = renderer.layout, 2 * renderer.PADDING
    for column, width in zip(rubber_sheet(rubber=rubber)["columns"], layout["sides"],
                             strict=True):
        for word in column["label"].split():
            assert stringWidth(word, FONT_BOLD, layout["size"]) + pad <= width
    for deal in rubber_sheet(rubber=rubber)["deals"]:
        for word in deal["dealer_name"].split():
            assert stringWidth(word, FONT, layout["size"]) + pad <= layout["dealer"]
    assert layout["size"] >= 7 or layout["page"][0] > layout["page"][1]  # turned first


def test_an_unfinished_rubber_prints_what_it_settles_if_it_stops_here():
    rubber = rubber_create(game="auction", players=["Ann", "Bob", "Cy", "Di"])
    rubber_deal_add(rubber=rubber, deal=AUCTION[0])
    text = cells(RubberSheetRenderer().render(rubber_sheet(rubber=rubber))[2])
    assert "If the rubber stops here: Ann & Cy win 40 from Bob & Di." in text.replace("\n", " ")
    three = rubber_create(game="three-hand", players=["Ann", "Bob", "Cy"])
    rubber_deal_add(rubber=three, deal={
        "declarer": "B", "contract": {"level": 2, "denomination": "H", "doubled": ""},
        "tricks": 9, "honours": {"A": 1, "B": 2, "C": 0, "dummy": 2},
        "penalties": [{"rule": "5", "by": "C"}]})
    text = cells(RubberSheetRenderer().render(rubber_sheet(rubber=three))[2]).replace("\n", " ")
    assert "If the rubber stops here: Bob wins 48 from Ann" in text
    assert "Each player's net if the rubber stops here: Ann +10, Bob +154, Cy −164." in text


def test_a_deals_printed_line_says_its_revoke():
    rubber = rubber_create(game="auction", players=["Ann", "Bob", "Cy", "Di"])
    rubber_deal_add(rubber=rubber, deal={
        "contract": {"level": 2, "denomination": "RS", "declarer": "S"}, "tricks": 8,
        "revokes": {"defending": 1, "first_penalty": "tricks"}})
    text = cells(RubberSheetRenderer().render(rubber_sheet(rubber=rubber))[2]).replace("\n", " ")
    assert "2R♠ by Cy (S), 8 tricks; revoke by the adversaries: 3 tricks taken" in text


def test_a_printed_sheet_is_out_of_date_once_the_rubber_changes(
        client, pad, django_capture_on_commit_callbacks):
    """The print page had offered the PDF made before two more deals as "Ready. Open the
    PDF": report_stale looked at an event's change number only."""
    rubber = rubber_create(game="auction", players=["Ann", "Bob", "Cy", "Di"])
    rubber_deal_add(rubber=rubber, deal=AUCTION[0])
    with django_capture_on_commit_callbacks(execute=True):
        services.rubber_report_request(rubber=rubber)
    job = ReportJob.objects.get(rubber=rubber)
    rubber.refresh_from_db()
    assert job.status == "done" and job.seq == rubber.seq == 1
    assert not services.report_stale(job)
    assert services.report_status(job)["message"] == "Ready."
    rubber_deal_add(rubber=rubber, deal=AUCTION[1])
    job.refresh_from_db()
    status = services.report_status(job)
    assert status["stale"] and status["message"].startswith(
        "Out of date: deals were entered, corrected or removed since this sheet was printed.")
    page = client.get(reverse("pad-print", args=[rubber.code])).content.decode()
    assert "Out of date" in page and "Print the sheet as it stands now" in page
    assert "Open the old PDF" in page
    assert client.get(reverse("pad-print-status", args=[rubber.code])).json()["stale"]
    with django_capture_on_commit_callbacks(execute=True):
        services.rubber_report_request(rubber=rubber)  # printed again: up to date
    job.refresh_from_db()
    assert not services.report_stale(job) and job.seq == 2
    # A correction and a removal count as changes too.
    from tournaments.services import rubber_deal_remove
    rubber_deal_remove(rubber=rubber, number=2)
    assert services.report_stale(job)
    # A sheet printed before the rubbers kept change numbers (no seq) stays "Ready" until
    # the rubber changes.
    ReportJob.objects.filter(pk=job.pk).update(seq=None)
    job.refresh_from_db()
    assert services.report_stale(job)
    fresh = rubber_create(game="auction", players=["Ann", "Bob", "Cy", "Di"])
    old = ReportJob.objects.create(rubber=fresh, kind="rubber", status="done", seq=None)
    assert not services.report_stale(old)


def test_the_sides_columns_are_alike_unless_a_long_name_would_turn_the_page():
    """A long name on one side had made its column wider than the other's even where both
    could be as wide; where alike they would not fit upright, the sheet stays upright."""
    short = rubber_create(game="auction", players=["Cornelia Vanderbilt", "Ann", "Cy", "Di"])
    long = rubber_create(game="auction", players=[
        "Bartholomew Fotheringay-Cholmondeley", "Ann", "Cy", "Di"])
    for rubber in (short, long):
        for d in AUCTION[:4]:
            rubber_deal_add(rubber=rubber, deal=d)
    renderer = RubberSheetRenderer()
    renderer.render(rubber_sheet(rubber=short))
    assert len(set(renderer.layout["sides"])) == 1
    renderer = RubberSheetRenderer()
    renderer.render(rubber_sheet(rubber=long))
    page = renderer.layout["page"]
    assert page[0] < page[1]  # upright
    assert len(set(renderer.layout["sides"])) == 2
