"""The console's setting for a board not played under matchpoints (Neuberg or the pair's
own average): shown on the event page, saved through the service, audited."""

import datetime

import pytest

from tests.web.conftest import make_event
from tournaments import services
from tournaments.models import AuditEntry, Event
from tournaments.services import Actor, Forbidden, ServiceError


@pytest.fixture
def matchpoints(director):
    event = make_event(director)
    Event.objects.filter(pk=event.pk).update(method="matchpoints")
    return Event.objects.get(pk=event.pk)


def test_the_event_page_offers_the_setting_for_matchpoints(director_client, matchpoints):
    html = director_client.get(f"/director/events/{matchpoints.pk}/").content.decode()
    assert 'data-testid="not-played-form"' in html
    assert "A board not played at a table" in html
    assert '<option value="neuberg" selected>' in html


def test_plus_minus_has_no_such_setting(director_client, director):
    event = make_event(director)  # plus/minus: a board not played is simply not compared
    html = director_client.get(f"/director/events/{event.pk}/").content.decode()
    assert 'data-testid="not-played-form"' not in html


def test_the_director_saves_it_and_it_is_audited(director_client, matchpoints):
    response = director_client.post(
        f"/director/events/{matchpoints.pk}/not-played-scoring/",
        {"not_played_scoring": "own-average"}, follow=True)
    assert "now gives the pair its own average" in response.content.decode()
    assert Event.objects.get(pk=matchpoints.pk).not_played_scoring == "own-average"
    entry = AuditEntry.objects.get(event=matchpoints, action="not played scoring")
    assert (entry.before, entry.after) == ({"not_played_scoring": "neuberg"},
                                           {"not_played_scoring": "own-average"})
    html = director_client.get(f"/director/events/{matchpoints.pk}/").content.decode()
    assert '<option value="own-average" selected>' in html


def test_an_unknown_choice_says_what_to_do(director_client, matchpoints):
    response = director_client.post(
        f"/director/events/{matchpoints.pk}/not-played-scoring/",
        {"not_played_scoring": "half"}, follow=True)
    assert "Choose Neuberg or the pair&#x27;s own average" in response.content.decode()
    assert Event.objects.get(pk=matchpoints.pk).not_played_scoring == "neuberg"


def test_only_the_director_and_not_once_closed(matchpoints, director):
    with pytest.raises(Forbidden):
        services.not_played_scoring_set(event=matchpoints, scoring="own-average",
                                        actor=Actor.at_table(matchpoints.sections.get(), 1))
    with pytest.raises(ServiceError):
        services.not_played_scoring_set(event=matchpoints, scoring="mean",
                                        actor=Actor.director(director))
    Event.objects.filter(pk=matchpoints.pk).update(
        status=Event.Status.CLOSED, final_after=None)
    with pytest.raises(Forbidden, match="closed"):
        services.not_played_scoring_set(event=matchpoints, scoring="own-average",
                                        actor=Actor.director(director))


def test_an_event_created_with_own_average(director):
    event = services.event_create(name="Mp", date=datetime.date(2026, 11, 17),
                                  method="matchpoints", not_played_scoring="own-average",
                                  actor=Actor.director(director))
    assert event.not_played_scoring == "own-average"
