"""A season's table as a PDF: a job like the other reports (one row per season), the
director's only, printing every night with the one not yet final marked."""

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from tests.seasons.conftest import LINEUP, seat_members
from tournaments import presenters
from tournaments.models import ReportJob
from tournaments.reports import services
from tournaments.reports.documents import SeasonTableRenderer
from tournaments.services import Actor, Forbidden, season_save

from .night import build_night, make_director
from .pdf import cells
from .test_renderers import render


@pytest.fixture
def director(db):
    return make_director()


@pytest.fixture
def season(director):
    events = []
    for name, level in (("Night 1", "final"), ("Night 2", "provisional")):
        night = build_night(director, name=name, published=level)
        seat_members(night.event, LINEUP)
        events.append(night.event)
    return season_save(name="Autumn ladder", entrants="individuals", counts="points",
                       rule="best", best_of=1, points_scale=[10, 8, 6, 5, 4, 3],
                       event_ids=[e.pk for e in events], actor=Actor.director(director))


def test_the_director_prints_the_season_table(client, director, season,
                                              django_capture_on_commit_callbacks):
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("season-report", kwargs={"pk": season.pk}))
    assert response.status_code == 303  # on to the print page: a reload prints nothing again
    assert response["Location"] == reverse("season-report", kwargs={"pk": season.pk})
    job = ReportJob.objects.get()
    assert (job.season_id, job.event_id, job.rubber_id, job.kind, job.status) == (
        season.pk, None, None, "season", "done")
    status = client.get(reverse("season-report-status", kwargs={"pk": season.pk})).json()
    assert status["status"] == "done" and status["season"] == season.pk
    assert status["file_url"].split("?")[0].endswith(
        reverse("season-report-file", kwargs={"pk": season.pk}))
    pdf = client.get(reverse("season-report-file", kwargs={"pk": season.pk}))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = cells(b"".join(pdf.streaming_content))
    assert "Autumn ladder" in text and "Member 101 (101)" in text
    assert "Best 1 night" in text
    assert "Not final yet: Night 2" in text


def test_printing_again_reuses_the_one_job_of_the_season(director, season,
                                                         django_capture_on_commit_callbacks):
    actor = Actor.director(director)
    with django_capture_on_commit_callbacks(execute=True):
        first = services.season_report_request(season=season, actor=actor)
    with django_capture_on_commit_callbacks(execute=True):
        again = services.season_report_request(season=season, actor=actor)
    assert first.pk == again.pk and ReportJob.objects.count() == 1
    with pytest.raises(IntegrityError), transaction.atomic():
        ReportJob.objects.create(season=season, kind="standings")  # a season prints its table
    with pytest.raises(Forbidden):
        services.season_report_request(season=season, actor=Actor.system("x"))
    assert "season" not in services.KINDS


def test_only_the_director_prints_it(season):
    anonymous = Client()
    url = reverse("season-report", kwargs={"pk": season.pk})
    assert anonymous.post(url).status_code == 302  # to the log-in
    assert anonymous.get(reverse("season-report-status", kwargs={"pk": season.pk})
                         ).status_code == 403
    assert not ReportJob.objects.exists()


def test_a_plus_minus_season_prints_the_nearest_whole_its_exact_value_beside_it():
    # Not "+394.86": the standings' "+395", with +394⁶⁄₇ beside it on paper.
    table = {"counts": "score", "method": "plus-minus",
             "events": [{"id": 1, "name": "Night 1", "date": "2026-11-03", "counts": True,
                         "final": True}],
             "rows": [{"score": "2764/7", "place": 1, "events": 1,
                       "players": [{"name": "Ann Lee", "number": "101"}],
                       "nights": [{"event": 1, "place": "1", "counted": True,
                                   "score": "2764/7", "points": "0"}]}]}
    columns, rows = presenters.season_rows(table)
    _name, content, _calls = render(SeasonTableRenderer, {
        "season": "Autumn ladder", "rule": "Total of each night's score", "note": "",
        "footnote": "", "counts": "score", "entrants": "individuals", "columns": columns,
        "rows": rows})
    text = " ".join(cells(content).split())
    assert "+395 (+394⁶⁄₇)" in text and "394.86" not in text


def test_a_season_of_scores_says_how_its_totals_add_up(director, season):
    # "+248" and "+35" counted, "+283 (282⅗)" the total: the page says why.
    season.counts = "score"
    season.save(update_fields=["counts"])
    assert "the season adds the nights' exact scores" in services.season_report_data(
        season)["footnote"]
    season.counts = "points"
    season.save(update_fields=["counts"])
    assert "exact scores" not in services.season_report_data(season)["footnote"]
