"""A document printed before the night changed says so in the print room: a director
printing the standings after a correction had been offered the old file as "Ready"."""

from tournaments import services
from tournaments.models import Event, ReportJob

STALE = ("Ready, but the night has changed since it was printed: print it again to have it "
         "as it stands now.")


def _print(director_client, night, held_jobs, capture, kind):
    with capture(execute=True):
        director_client.post(f"/events/{night.event.pk}/reports/{kind}/")
    assert held_jobs.run() == 1
    return director_client.get(f"/events/{night.event.pk}/reports/{kind}/status/").json()


def test_a_file_made_before_a_correction_says_so(director_client, night, held_jobs,
                                                 django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    status = _print(director_client, night, held_jobs, capture, "standings")
    assert (status["message"], status["stale"]) == ("Ready.", False)
    guide = _print(director_client, night, held_jobs, capture, "guidecards")
    assert not guide["stale"]
    # The director corrects a score: the standings printed are out of date.
    result = night.event.results.filter(voided=False, ruling="").order_by("pk").first()
    services.result_void(result=result, actor=night.actor, reason="entered at the wrong table")
    status = director_client.get(
        f"/events/{night.event.pk}/reports/standings/status/").json()
    assert (status["message"], status["stale"]) == (STALE, True)
    page = director_client.get(f"/events/{night.event.pk}/reports/").content.decode()
    assert STALE in page
    # The guide cards show the movement only: a score changes nothing on them.
    guide = director_client.get(f"/events/{night.event.pk}/reports/guidecards/status/").json()
    assert (guide["message"], guide["stale"]) == ("Ready.", False)
    # Printed again, it is the night as it stands.
    status = _print(director_client, night, held_jobs, capture, "standings")
    assert (status["message"], status["stale"]) == ("Ready.", False)
    assert ReportJob.objects.get(event=night.event, kind="standings").seq == \
        Event.objects.get(pk=night.event.pk).seq
