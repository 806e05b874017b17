"""The console's club adjustments: the event's setting, the adjusted and assigned score
pages (a split in two steps), shown only when the event turns them on; the public
traveller and score card mark them."""

import pytest
from django.test import Client
from django.utils.html import strip_tags

from tests.web.conftest import contract_post
from tournaments import services
from tournaments.models import AuditEntry, Event, Meeting, Result
from tournaments.services import Actor


def meeting_at(event, rnd=1, table=1) -> Meeting:
    return Meeting.objects.select_related("section", "ns_pair", "ew_pair").get(
        section__event=event, round=rnd, table=table)


def base(event, m, board, page):
    return f"/director/events/{event.pk}/meetings/{m.pk}/boards/{board}/{page}/"


@pytest.fixture
def club(event, director):
    services.club_adjustments_set(event=event, on=True, actor=Actor.director(director))
    event.refresh_from_db()
    return event


def test_the_setting_on_the_event_page(director_client, event):
    page = director_client.get(f"/director/events/{event.pk}/").content.decode()
    assert 'data-testid="club-adjustments"' in page and "Club adjustments" in page
    assert "which the 1913 laws do not have" in page
    response = director_client.post(f"/director/events/{event.pk}/club-adjustments/",
                                    {"club_adjustments": "on"}, follow=True)
    assert "Club adjustments are on" in response.content.decode()
    assert Event.objects.get(pk=event.pk).club_adjustments
    director_client.post(f"/director/events/{event.pk}/club-adjustments/", {})
    assert not Event.objects.get(pk=event.pk).club_adjustments
    assert AuditEntry.objects.filter(event=event, action="club adjustments").count() == 2


def test_the_links_show_only_when_on(director_client, event, director):
    m = meeting_at(event)
    url = f"/director/events/{event.pk}/meetings/{m.pk}/"
    assert "Adjusted score" not in director_client.get(url).content.decode()
    refused = director_client.get(base(event, m, 1, "adjusted"), follow=True).content.decode()
    assert "Club adjustments are off for this event" in refused
    services.club_adjustments_set(event=event, on=True, actor=Actor.director(director))
    page = director_client.get(url).content.decode()
    assert 'data-testid="adjusted-1"' in page and 'data-testid="assigned-1"' in page


def test_an_adjusted_score(director_client, club):
    m = meeting_at(club)
    url = base(club, m, 1, "adjusted")
    page = director_client.get(url).content.decode()
    assert "60 %, 50 % or 40 %" in page
    missing = director_client.post(url, {"ns_grade": "plus", "ew_grade": "minus"})
    assert "Say why" in missing.content.decode()
    response = director_client.post(url, {"ns_grade": "plus", "ew_grade": "minus",
                                          "reason": "slow play"}, follow=True)
    assert "Adjusted: N–S average-plus, E–W average-minus" in response.content.decode()
    result = Result.objects.get(board__number=1, ns_pair=m.ns_pair)
    assert (result.ruling, result.ns_adjust, result.ew_adjust) == ("adjusted", "plus", "minus")
    audit = director_client.get(f"/director/events/{club.pk}/audit/").content.decode()
    assert "Club adjustments" in audit and "slow play" in audit


def test_an_assigned_score(director_client, club):
    m = meeting_at(club)
    url = base(club, m, 1, "assigned")
    page = director_client.get(url).content.decode()
    assert 'data-testid="split"' in page and "scored as if it had been played" in page
    response = director_client.post(url, {**contract_post(level=3, tricks=9),
                                          "reason": "revoke ruled late"}, follow=True)
    assert "Assigned: 3♥ by S, made" in strip_tags(response.content.decode())
    result = Result.objects.get(board__number=1, ns_pair=m.ns_pair)
    assert result.ruling == "assigned" and result.ns_score == 24 + 16


def test_a_split_score_in_two_steps(director_client, club):
    m = meeting_at(club)
    url = base(club, m, 2, "assigned")
    first = director_client.post(url, {**contract_post(level=3, tricks=9), "split": "on",
                                       "reason": "misinformation to E-W"})
    assert first.status_code == 302 and first["Location"].endswith("?side=ew")
    assert not Result.objects.filter(board__number=2, ns_pair=m.ns_pair).exists()
    second = director_client.get(first["Location"]).content.decode()
    assert "N–S's assigned result" in second and "3♥ by S, made" in strip_tags(second)
    done = director_client.post(first["Location"], contract_post(level=4, tricks=9),
                                follow=True)
    assert "Assigned: N–S 3♥ by S, made; E–W 4♥ by S, down 1" in strip_tags(
        done.content.decode())
    result = Result.objects.get(board__number=2, ns_pair=m.ns_pair)
    assert result.details["ew_result"]["contract"]["level"] == 4
    # N-S 3♥ made with simple honours 24 + 16; E-W from 4♥ down 1: 50 - 16.
    assert (result.ns_score, result.ew_score) == (40, 34)
    # The public traveller and score card mark it.
    Event.objects.filter(pk=club.pk).update(published="provisional")
    public = Client()
    board_page = strip_tags(public.get(f"/events/{club.pk}/boards/2/").content.decode())
    assert "Assigned: N–S 3♥ by S, made; E–W 4♥ by S, down 1" in board_page
    card = strip_tags(public.get(f"/events/{club.pk}/pairs/{m.ns_pair.number}/")
                      .content.decode())
    assert "Assigned: N–S 3♥ by S, made" in card


def test_a_bad_assigned_result_stays_on_the_form(director_client, club):
    m = meeting_at(club)
    response = director_client.post(base(club, m, 1, "assigned"),
                                    contract_post(level=3, tricks=9))
    assert response.status_code == 200
    assert "Say why" in response.content.decode()
