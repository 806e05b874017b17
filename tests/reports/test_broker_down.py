"""Redis down during the night: scores go in, standings show, printing waits and then runs."""

import datetime

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from tournaments.models import ReportJob, Result
from tournaments.reports import services

from .night import build_night
from .pdf import pdf_text

JSON = {"HTTP_ACCEPT": "application/json"}


def age(seconds: int = 60) -> None:
    """Let time pass for the waiting jobs (as if the director waited a minute)."""
    ReportJob.objects.update(updated_at=timezone.now() - datetime.timedelta(seconds=seconds))


@pytest.fixture
def quiet_night(director):
    return build_night(director, play=False)


def test_printing_waits_while_the_broker_is_down_and_runs_when_it_is_back(
        director_client, client, quiet_night, dead_broker, django_capture_on_commit_callbacks,
        capsys):
    night = quiet_night
    with django_capture_on_commit_callbacks(execute=True):
        response = director_client.post(f"/events/{night.event.pk}/reports/standings/", **JSON)
    assert response.status_code == 202  # asking never fails because Redis is down
    job = ReportJob.objects.get()
    assert (job.status, job.task_id) == ("queued", "")

    # The night goes on: scores are entered and the standings shown.
    night.play(rounds=1)
    assert Result.objects.filter(event=night.event).count() == 6
    standings = client.get(f"/events/{night.event.pk}/standings/")
    assert standings.status_code == 200
    assert "Ann Lee & Bob Ray" in standings.content.decode()

    # The print room says so, in words.
    index = director_client.get(f"/events/{night.event.pk}/reports/").content.decode()
    assert "Printing is waiting for the print worker." in index
    age()
    status = director_client.get(f"/events/{night.event.pk}/reports/standings/status/").json()
    assert status["status"] == "queued" and status["waiting_for_worker"] is True
    assert status["message"].startswith("Printing is waiting for the print worker.")
    assert ReportJob.objects.get().task_id == ""  # the re-send failed: still unsent

    age()
    with pytest.raises(CommandError, match="cannot be reached"):
        call_command("requeue_reports")

    # The broker is back: the command sends the job, and it runs.
    dead_broker()
    age()
    call_command("requeue_reports")
    assert "sent 1 job(s) to the print worker" in capsys.readouterr().out
    job = ReportJob.objects.get()
    assert job.status == "done", job.error
    with job.file.open("rb") as handle:
        text = pdf_text(handle.read())
    assert "Ann Lee & Bob Ray" in text


def test_the_status_page_sends_a_waiting_job_once_the_broker_is_back(
        director_client, quiet_night, dead_broker, django_capture_on_commit_callbacks):
    night = quiet_night
    with django_capture_on_commit_callbacks(execute=True):
        director_client.post(f"/events/{night.event.pk}/reports/guidecards/", **JSON)
    assert ReportJob.objects.get().status == "queued"
    dead_broker()
    status_url = f"/events/{night.event.pk}/reports/guidecards/status/"
    # Too soon after the last try: the page does not hammer the broker.
    assert director_client.get(status_url).json()["status"] == "queued"
    age()
    status = director_client.get(status_url).json()
    assert status["status"] == "done"
    assert status["file_url"].startswith(
        f"http://testserver/events/{night.event.pk}/reports/guidecards/file/?v=")


def test_requeue_with_nothing_waiting_says_so(db, capsys):
    call_command("requeue_reports")
    assert capsys.readouterr().out.strip() == "no job is waiting"
    with pytest.raises(CommandError, match="there is no event 424242"):
        call_command("requeue_reports", "--event", "424242")


def test_a_running_job_whose_worker_went_quiet_is_sent_again(director, night):
    from tournaments.services import Actor

    job = services.report_request(event=night.event, kind="standings",
                                  actor=Actor.director(director))
    ReportJob.objects.filter(pk=job.pk).update(status="running", task_id="lost-worker-task")
    # A live worker beats every heartbeat (5 s); four beats of silence mean it is gone.
    assert services.stale_after() == datetime.timedelta(seconds=20)
    age(15)
    assert services.report_requeue() == []  # three beats missed: maybe a slow moment
    age(21)
    assert services.report_requeue() == [job.pk]
    job.refresh_from_db()
    assert job.status == "done" and job.task_id != "lost-worker-task"
