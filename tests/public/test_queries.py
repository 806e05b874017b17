"""No page's query count grows with the size of the night (no N+1)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.reports.night import build_night
from tournaments import standings

PATHS = ["", "standings/", "boards/1/", "pairs/1/", "live/", "standings/?fragment=1"]
# Measured, not guessed: each page's queries are a fixed handful (the event, the results
# changed since the process last looked, the names, the meetings...); a board and a pair
# read the event's irregular boards (Duplicate Law B) once too; a pair's card, for the
# public, which of its boards are finished (two: access.finished_boards); the event's page
# its pairs' substitutes (one), to name them as the standings do.
LIMITS = {"": 7, "standings/": 4, "boards/1/": 11, "pairs/1/": 8, "live/": 1,
          "standings/?fragment=1": 4}


def counts(client, night) -> dict[str, int]:
    found = {}
    for path in PATHS:
        standings.clear_cache()  # the worst case: a process that has not seen the event
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/events/{night.event.pk}/{path}").status_code == 200
        found[path] = len(queries)
    return found


@pytest.mark.parametrize("path", PATHS)
def test_each_page_stays_under_its_query_budget(client, night, path,
                                                django_assert_max_num_queries):
    standings.clear_cache()
    with django_assert_max_num_queries(LIMITS[path]):
        client.get(f"/events/{night.event.pk}/{path}")


def test_a_bigger_night_costs_no_more_queries(client, director):
    small = build_night(director, name="Small night", tables=3)
    big = build_night(director, name="Big night", tables=7)
    assert counts(client, big) == counts(client, small)


def test_the_director_costs_only_the_session(director_client, night,
                                            django_assert_max_num_queries):
    standings.clear_cache()
    with django_assert_max_num_queries(LIMITS["standings/"] + 2):  # session and user
        director_client.get(f"/events/{night.event.pk}/standings/")


def test_an_unchanged_poll_costs_no_query(client, night, django_assert_num_queries):
    """live.js brings back the ETag of its last answer: nothing new is a 304 from the
    cache (tournaments/polls.py), with no query, not even the session's."""
    url = f"/events/{night.event.pk}/live/"
    tag = client.get(url)["ETag"]
    with django_assert_num_queries(0):
        assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
