"""Printing without Redis (`make run`): the print page answers at once, shows the job's
progress while it runs in the background, then the file's link."""

import re
import threading

import pytest
from playwright.sync_api import expect

from config.celery import app
from tests.browser.conftest import log_in
from tournaments.models import ReportJob
from tournaments.reports import services

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def no_broker(monkeypatch):
    """As `make run`: no REDIS_URL, so jobs run in threads of the server's process."""
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    jobs = services.InProcessJobs()
    monkeypatch.setattr(services, "in_process", jobs)
    yield jobs
    jobs.wait(60)
    app.conf.task_always_eager = before


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_print_shows_progress_then_the_file(browser, night, no_broker, monkeypatch, phone):
    night.play()
    gate = threading.Event()
    real = services.report_data

    def held(*args, **kwargs):  # the job waits here until the test has looked at the page
        assert gate.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "report_data", held)
    event = night.event
    page = browser.page(phone=phone)
    log_in(page, night.director, next_url=f"/events/{event.pk}/reports/")
    page.locator("[data-testid=report-standings] button").click()

    # The page came back at once (the print's redirect to the job's page), with the job
    # under way and its progress bar: queued still, or already started and held.
    box = page.locator("[data-testid=report-standings]")
    expect(page.locator("h1")).to_contain_text("Standings")
    expect(box.locator("[data-report-message]")).to_have_text(
        re.compile(r"Printing starts in a moment\.|Printing: 0% done\."))
    expect(box.locator(".progress")).to_be_visible()
    expect(box.locator("[data-report-file]")).to_be_hidden()
    job = ReportJob.objects.get(event=event, kind="standings")
    assert job.status in {"queued", "running"}
    # The page polls: once the job is running it says so.
    expect(box.locator("[data-report-message]")).to_have_text("Printing: 0% done.",
                                                              timeout=10_000)
    browser.shot(page, "printing under way")

    gate.set()
    link = box.locator("[data-report-file]")
    expect(link).to_be_visible(timeout=20_000)
    expect(box.locator("[data-report-message]")).to_have_text("Ready.")
    expect(box.locator(".progress")).to_have_attribute("aria-valuenow", "100")
    expect(box.locator(".progress rect")).to_have_attribute("width", "100%")  # the bar is full
    expect(box.locator("form button")).to_have_text("Print again")
    browser.shot(page, "printed")
    response = page.request.get(link.get_attribute("href"))
    assert response.status == 200
    assert response.headers["content-type"] == "application/pdf"
