"""Printing without a broker (`make run`): the request answers at once with the progress
page, the job runs beside it, and the page shows its progress and then the file."""

import io
import threading

from tournaments.models import ReportJob
from tournaments.reports import services

from .pdf import pdf_text

JSON = {"HTTP_ACCEPT": "application/json"}


def url(night, kind, what=""):
    return f"/events/{night.event.pk}/reports/{kind}/{what}"


def test_print_answers_at_once_then_the_page_shows_progress_then_the_file(
        director_client, night, held_jobs, monkeypatch, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = director_client.post(url(night, "travellers"))
    # The answer does not wait for the PDF: the job has not run yet. The browser is sent
    # on to the job's page (303), so that reloading it does not print again.
    assert response.status_code == 303 and response["Location"] == url(night, "travellers")
    assert ReportJob.objects.get().status == "queued"
    html = director_client.get(response["Location"]).content.decode()
    assert 'class="progress"' in html and 'data-status="queued"' in html
    # (The test's transaction sends the job only once the view has answered; the page
    # the director sees next, or the status it polls, says the job is under way.)
    html = director_client.get(url(night, "travellers")).content.decode()
    assert "Printing starts in a moment." in html
    assert "waiting for the print worker" not in html
    status = director_client.get(url(night, "travellers", "status/")).json()
    assert (status["status"], status["percent"], status["waiting_for_worker"]) == (
        "queued", 0, False)

    # While the job runs, the status URL the page polls shows it moving.
    seen = []
    real = services.report_progress

    def look(**kw):
        real(**kw)
        seen.append(director_client.get(url(night, "travellers", "status/")).json())

    monkeypatch.setattr(services, "report_progress", look)
    monkeypatch.setattr(services, "PROGRESS_EVERY", 0)
    assert held_jobs.run() == 1
    assert {s["status"] for s in seen[:-1]} == {"running"}
    percents = [s["percent"] for s in seen]
    assert percents == sorted(percents) and 0 < percents[0] < 100
    assert any(s["message"].startswith("Printing: ") and s["message"].endswith("% done.")
               for s in seen)

    # Then the page offers the file.
    status = director_client.get(url(night, "travellers", "status/")).json()
    assert (status["status"], status["percent"], status["message"]) == ("done", 100, "Ready.")
    page = director_client.get(url(night, "travellers")).content.decode()
    assert "Open the travellers (PDF)" in page and 'data-status="done"' in page
    pdf = director_client.get(status["file_url"])
    assert pdf.status_code == 200
    assert "Board 6" in pdf_text(b"".join(pdf.streaming_content))


def test_the_job_runs_in_a_thread_while_the_request_has_answered(
        director_client, night, threaded_jobs, monkeypatch):
    gate = threading.Event()
    real = services.report_data

    def slow(*args, **kwargs):
        assert gate.wait(30), "the test never let the job go on"
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "report_data", slow)
    response = director_client.post(url(night, "standings"), **JSON)
    # Answered while the job is held inside its thread: queued or already running.
    assert response.status_code == 202
    assert response.json()["status"] in {"queued", "running"}
    assert response.json()["message"] in {"Printing starts in a moment.", "Printing: 0% done."}
    status_url = url(night, "standings", "status/")
    assert director_client.get(status_url).json()["status"] in {"queued", "running"}
    gate.set()
    assert threaded_jobs.wait(60)
    status = director_client.get(status_url).json()
    assert status["status"] == "done", status
    job = ReportJob.objects.get()
    assert (job.attempts, job.error) == (1, "")
    with job.file.open("rb") as handle:
        assert "Ann Lee & Bob Ray" in pdf_text(handle.read())


def test_a_job_failing_in_its_thread_says_why_on_the_page(
        director_client, night, threaded_jobs, monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("board 6 has no hand record to print")

    monkeypatch.setattr(services, "report_data", broken)
    assert director_client.post(url(night, "travellers"), **JSON).status_code == 202
    assert threaded_jobs.wait(60)
    status = director_client.get(url(night, "travellers", "status/")).json()
    assert status["status"] == "failed"
    assert status["message"] == "Printing failed: board 6 has no hand record to print"
    page = director_client.get(url(night, "travellers")).content.decode()
    assert "Printing failed: board 6 has no hand record to print" in page
    assert "Print again" in page


def test_a_thread_that_cannot_even_start_the_task_marks_the_job_failed(
        director_client, night, threaded_jobs, monkeypatch):
    from tournaments.reports.tasks import render_report

    def no_task(**kwargs):
        raise RuntimeError("the task could not start")

    monkeypatch.setattr(render_report, "apply_async", no_task)
    director_client.post(url(night, "standings"), **JSON)
    assert threaded_jobs.wait(60)
    job = ReportJob.objects.get()
    assert (job.status, job.error) == ("failed", "the task could not start")


def test_requeue_reports_finishes_its_in_process_jobs_before_it_exits(
        director, night, threaded_jobs):
    from django.core.management import call_command

    from tournaments.services import Actor

    job = services.report_request(event=night.event, kind="standings",
                                  actor=Actor.director(director))
    threaded_jobs.wait(60)
    # A server stopped mid-job left the job running; nobody is working on it.
    ReportJob.objects.filter(pk=job.pk).update(status="running", task_id="lost-thread")
    out = io.StringIO()
    call_command("requeue_reports", "--stale-after", "0", stdout=out)
    assert out.getvalue().startswith("sent 1 job(s)")
    job.refresh_from_db()
    assert job.status == "done", job.error  # finished before the command returned
