"""The score pad's finished sheet as a PDF, made by a job like the other reports."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from tournaments.models import ReportJob
from tournaments.reports import services
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
    assert "rubber" not in services.KINDS and len(services.KINDS) == 5  # "overall" too


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
