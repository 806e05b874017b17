"""The director's session writes need the CSRF token; a table's code header does not."""

import pytest
from rest_framework.test import APIClient

from .helpers import TWO_HEARTS, key, url

pytestmark = pytest.mark.django_db

TOKEN = "a" * 32  # a CSRF secret as Django stores it in the cookie


@pytest.fixture
def strict_director(director) -> APIClient:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(director)
    return client


def test_a_session_write_without_the_token_is_refused(night, strict_director):
    response = strict_director.post(url(night.event, "publish/"), {"published": "final"},
                                    format="json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["error"]
    night.event.refresh_from_db()
    assert night.event.published == "none"


def test_a_session_write_with_the_token_goes_through(night, strict_director):
    strict_director.cookies["csrftoken"] = TOKEN
    response = strict_director.post(url(night.event, "publish/"), {"published": "final"},
                                    format="json", HTTP_X_CSRFTOKEN=TOKEN)
    assert response.status_code == 200
    assert response.json()["published"] == "final"


def test_session_reads_need_no_token(night, strict_director):
    assert strict_director.get(url(night.event, "audit/")).status_code == 200


def test_a_table_needs_no_token(night):
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Table {night.codes[1]}")
    meeting = night.meeting(1, 1)
    response = client.post(url(night.event, "results/"),
                           {"board": meeting.boards[0], "round": 1, "result": TWO_HEARTS},
                           format="json", HTTP_IDEMPOTENCY_KEY=key())
    assert response.status_code == 201
