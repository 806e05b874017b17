"""Print jobs in-process (no worker): asking, progress, the file, re-runs, retries, failures."""

import os
from pathlib import Path

import pytest
from django.db import OperationalError

from tournaments import services as game
from tournaments.models import ReportJob
from tournaments.reports import services
from tournaments.reports.tasks import render_report
from tournaments.services import Actor, Forbidden, ServiceError

from .night import build_night
from .pdf import pdf_text

JSON = {"HTTP_ACCEPT": "application/json"}


def url(night, kind, what=""):
    return f"/events/{night.event.pk}/reports/{kind}/{what}"


def start(client, night, kind, capture, **headers):
    with capture(execute=True):
        return client.post(url(night, kind), **headers)


def test_post_answers_202_with_a_status_url_then_serves_the_pdf(
        director_client, night, django_capture_on_commit_callbacks):
    response = start(director_client, night, "standings", django_capture_on_commit_callbacks,
                     **JSON)
    assert response.status_code == 202
    body = response.json()
    assert response["Location"] == body["status_url"]
    assert body["status_url"].endswith(f"/events/{night.event.pk}/reports/standings/status/")
    # In-process (no REDIS_URL) the job runs as the request's transaction commits.
    status = director_client.get(body["status_url"]).json()
    assert status["status"] == "done" and status["percent"] == 100
    pdf = director_client.get(status["file_url"])
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert 'filename="tuesday-duplicate-standings.pdf"' in pdf["Content-Disposition"]
    text = pdf_text(b"".join(pdf.streaming_content))
    assert "Ann Lee & Bob Ray" in text and "Provisional" in text


def test_the_html_page_shows_a_progress_bar_and_the_file_link(
        director_client, night, django_capture_on_commit_callbacks):
    response = start(director_client, night, "travellers", django_capture_on_commit_callbacks)
    assert response.status_code == 303  # on to the job's page: a reload prints nothing again
    assert response["Location"] == url(night, "travellers")
    html = director_client.get(response["Location"]).content.decode()
    assert 'class="progress"' in html
    assert f'data-report-status-url="http://testserver/events/{night.event.pk}' in html
    assert "Open the travellers (PDF)" in html
    index = director_client.get(f"/events/{night.event.pk}/reports/").content.decode()
    for title in ("Travellers", "Standings", "Personal score cards", "Guide cards"):
        assert title in index


def test_every_kind_prints(director_client, night, django_capture_on_commit_callbacks):
    expected = {"travellers": "Board 6 · dealer", "standings": "North–South",
                "scorecards": "Pair 6: Kit Lamb & Lou Moss", "guidecards": "Table 3"}
    for kind, words in expected.items():
        start(director_client, night, kind, django_capture_on_commit_callbacks, **JSON)
        job = ReportJob.objects.get(event=night.event, kind=kind)
        assert job.status == "done", job.error
        assert job.done == job.total > 0
        with job.file.open("rb") as handle:
            assert words in pdf_text(handle.read())


def test_only_the_director_prints(client, night, django_user_model):
    target = url(night, "standings")
    assert client.post(target).status_code == 302  # a browser is asked to log in
    assert client.post(target, **JSON).status_code == 403
    assert client.get(url(night, "standings", "status/")).status_code == 403
    player = django_user_model.objects.create_user("player", password="pass-word-123")
    client.force_login(player)
    assert client.post(target).status_code == 403
    assert client.get(url(night, "standings", "file/")).status_code == 403
    assert not ReportJob.objects.exists()
    with pytest.raises(Forbidden):
        services.report_request(event=night.event, kind="standings",
                                actor=Actor.at_table(night.event.sections.get(), 1))


def test_a_report_that_cannot_be_made_says_why_and_stores_nothing(director, director_client):
    bare = game.event_create(name="Empty night", date="2026-11-18",
                             actor=Actor.director(director))
    response = director_client.post(f"/events/{bare.pk}/reports/guidecards/", **JSON)
    assert response.status_code == 400
    assert response.json() == {"error": "Guide cards come from the movement: set the "
                                        "section's movement first", "field": "kind"}
    page = director_client.post(f"/events/{bare.pk}/reports/travellers/")
    assert page.status_code == 400
    assert "The event has no boards yet" in page.content.decode()
    assert director_client.post(f"/events/{bare.pk}/reports/menus/").status_code == 404
    assert not ReportJob.objects.exists()
    with pytest.raises(ServiceError):
        services.report_request(event=bare, kind="menus", actor=Actor.director(director))


def test_status_before_the_first_print_is_404(director_client, night):
    response = director_client.get(url(night, "scorecards", "status/"))
    assert response.status_code == 404
    assert response.json()["error"] == "This report has not been printed yet"


def test_printing_again_replaces_the_file_on_the_same_row(
        director, director_client, night, django_capture_on_commit_callbacks):
    start(director_client, night, "standings", django_capture_on_commit_callbacks)
    first = ReportJob.objects.get()
    path = Path(first.file.path)
    assert "Ann Lee" in pdf_text(path.read_bytes())
    game.pair_set(event=night.event, number=1, players=["Ann Lee-Ross", "Bob Ray"],
                  actor=Actor.director(director))
    start(director_client, night, "standings", django_capture_on_commit_callbacks)
    second = ReportJob.objects.get()
    assert second.pk == first.pk and second.file.name == first.file.name
    assert "Ann Lee-Ross & Bob Ray" in pdf_text(path.read_bytes())
    # Written to a temporary name and renamed: nothing else is left in the folder.
    assert os.listdir(path.parent) == [path.name]


def test_asking_twice_while_queued_sends_one_job(director, night, monkeypatch,
                                                 django_capture_on_commit_callbacks):
    sent = []
    monkeypatch.setattr(render_report, "apply_async", lambda **kw: sent.append(kw["task_id"]))
    with django_capture_on_commit_callbacks(execute=True):
        one = services.report_request(event=night.event, kind="standings",
                                      actor=Actor.director(director))
        two = services.report_request(event=night.event, kind="standings",
                                      actor=Actor.director(director))
    assert one.pk == two.pk
    job = ReportJob.objects.get()
    assert sent == [job.task_id]
    assert job.status == "queued"
    # Asked again once it has been sent: still the one job, not sent again.
    with django_capture_on_commit_callbacks(execute=True):
        services.report_request(event=night.event, kind="standings",
                                actor=Actor.director(director))
    assert len(sent) == 1


def test_a_run_is_idempotent_and_a_superseded_message_does_nothing(director, night,
                                                                   monkeypatch):
    job = services.report_request(event=night.event, kind="standings",
                                  actor=Actor.director(director))
    ReportJob.objects.filter(pk=job.pk).update(task_id="task-2")
    # A message sent before a re-send carries an old task id: it must not run.
    assert services.report_run(job_id=job.pk, task_id="task-1") == {
        "job": job.pk, "status": "skipped"}
    assert ReportJob.objects.get().status == "queued"
    done = services.report_run(job_id=job.pk, task_id="task-2")
    assert done["status"] == "done"
    # The same message delivered again after it finished (acks_late) does nothing.
    assert services.report_run(job_id=job.pk, task_id="task-2")["status"] == "skipped"
    job.refresh_from_db()
    assert (job.status, job.attempts) == ("done", 1)
    # A job deleted with its event is simply gone.
    assert services.report_run(job_id=999999, task_id="x")["status"] == "skipped"


def test_progress_is_reported_to_celery_and_to_the_row(director, night, monkeypatch):
    states = []
    monkeypatch.setattr(render_report, "update_state",
                        lambda **kw: states.append((kw["state"], kw["meta"])))
    rows = []
    real = services.report_progress

    def spy(**kw):
        rows.append((kw["done"], kw["total"]))
        real(**kw)

    monkeypatch.setattr(services, "report_progress", spy)
    monkeypatch.setattr(services, "PROGRESS_EVERY", 0)
    services.report_request(event=night.event, kind="travellers",
                            actor=Actor.director(director))
    services.report_send(job_id=ReportJob.objects.get().pk)
    assert states[-1] == ("PROGRESS", {"done": 12, "total": 12})  # 6 boards read, 6 laid out
    assert all(state == "PROGRESS" for state, _ in states)
    dones = [done for done, _ in rows]
    assert dones == sorted(dones) and dones[-1] == 12 and len(rows) >= 12


def test_a_transient_error_is_retried(director, night, monkeypatch):
    real = os.replace
    calls = {"n": 0}

    def flaky(src, dst):
        calls["n"] += 1
        if calls["n"] == 1:
            raise OSError(28, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(services.os, "replace", flaky)
    services.report_request(event=night.event, kind="standings", actor=Actor.director(director))
    services.report_send(job_id=ReportJob.objects.get().pk)
    job = ReportJob.objects.get()
    assert (job.status, job.attempts, job.error) == ("done", 2, "")
    assert calls["n"] == 2


def test_a_database_error_is_retried_then_the_job_fails_with_a_reason(director, night,
                                                                      monkeypatch):
    calls = {"n": 0}

    def down(*args, **kwargs):
        calls["n"] += 1
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(services, "report_data", down)
    services.report_request(event=night.event, kind="standings", actor=Actor.director(director))
    services.report_send(job_id=ReportJob.objects.get().pk)  # never raises to the page
    job = ReportJob.objects.get()
    assert calls["n"] == 4  # the first try and three retries
    assert job.status == "failed"
    assert job.error == "the database could not be reached; try again in a moment"
    assert services.report_status(job)["message"].startswith("Printing failed: the database")


def test_a_failed_job_can_be_printed_again(director_client, night, monkeypatch,
                                           django_capture_on_commit_callbacks):
    monkeypatch.setattr(services, "report_data",
                        lambda *a, **k: (_ for _ in ()).throw(ValueError("bad data")))
    start(director_client, night, "standings", django_capture_on_commit_callbacks)
    job = ReportJob.objects.get()
    assert (job.status, job.error) == ("failed", "bad data")
    monkeypatch.undo()
    response = start(director_client, night, "standings", django_capture_on_commit_callbacks,
                     **JSON)
    assert response.status_code == 202
    job.refresh_from_db()
    assert (job.status, job.error, job.attempts) == ("done", "", 1)


def test_whist_travellers_print_tricks(director, django_capture_on_commit_callbacks):
    night = build_night(director, name="Whist night", rules="duplicate-whist")
    with django_capture_on_commit_callbacks(execute=True):
        services.report_request(event=night.event, kind="travellers",
                                actor=Actor.director(director))
    job = ReportJob.objects.get()
    assert job.status == "done", job.error
    with job.file.open("rb") as handle:
        text = pdf_text(handle.read())
    assert "N–S tricks" in text and "scored" in text and "Contract" not in text
