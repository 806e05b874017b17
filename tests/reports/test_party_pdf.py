"""A party night's standings as a PDF, made by a job like the other reports."""

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from tournaments.models import ReportJob
from tournaments.reports import services
from tournaments.reports.documents import PartyStandingsRenderer
from tournaments.services import (
    Actor,
    party_create,
    party_deal_add,
    party_standings,
    party_start,
    table_actor,
)

from .night import make_director
from .pdf import cells, has_row

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return make_director()


@pytest.fixture
def party(director):
    actor = Actor.director(director)
    party = party_create(name="Harvest party", date=datetime.date(2026, 10, 2),
                         game="auction", rounds=3, deals_per_round=1, actor=actor,
                         players=["Ann", "Bob", "Cy", "Di"])
    party = party_start(party=party, actor=actor)
    table = party.tables.get()
    party_deal_add(table=table, actor=table_actor(table), deal={
        "contract": {"level": 1, "denomination": "NT", "declarer": "N"}, "tricks": 8})
    return party


def test_the_renderer_prints_the_ranking_of_individuals(party):
    name, mimetype, content = PartyStandingsRenderer().render(party_standings(party=party))
    assert name == "harvest-party-party.pdf" and mimetype == "application/pdf"
    text = cells(content)
    assert "Harvest party · standings" in text and "round 1 of 3 in play" in text
    assert has_row(text, "1=", "Ann", "+20", "+20")
    assert has_row(text, "3=", "Cy", "−20", "−20")


def test_the_director_prints_through_a_job(director, party,
                                           django_capture_on_commit_callbacks):
    client = Client()
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("director-party-print", args=[party.pk]))
    assert response.status_code == 302
    job = ReportJob.objects.get()
    assert (job.party_id, job.event_id, job.rubber_id, job.kind, job.status) == (
        party.pk, None, None, "party", "done")
    page = client.get(reverse("director-party-print", args=[party.pk])).content.decode()
    assert 'data-status="done"' in page
    status = client.get(reverse("director-party-print-status", args=[party.pk])).json()
    assert status["title"] == "Party night standings" and status["file_url"]
    pdf = client.get(reverse("director-party-print-file", args=[party.pk]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert "Harvest party · standings" in cells(b"".join(pdf.streaming_content))


def test_one_job_per_party_and_it_prints_only_the_party(party,
                                                        django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        first = services.party_report_request(party=party)
    with django_capture_on_commit_callbacks(execute=True):
        again = services.party_report_request(party=party)
    assert first.pk == again.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        ReportJob.objects.create(party=party, kind="standings")
    assert "party" not in services.KINDS
