"""A pair named on both sides of a director's score is a 400, never the database's 500.

A schemathesis run sent an adjusted score for pair 1 against pair 1 (with a reason, so
it got past the first checks): the row reached the database, whose check
result_two_different_pairs refused it, and the API answered an IntegrityError's 500.
Results refused it already; rulings, adjusted and assigned scores did not
(services/base.py, ``_pairs``, now refuses it for all of them).
"""

import pytest

from tournaments import services
from tournaments.models import Result

from .helpers import TWO_HEARTS, post, url

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("tail", "body"), [
    ("adjusted-scores/", {"ns_grade": "plus", "ew_grade": "minus", "reason": "slow play"}),
    ("assigned-scores/", {"ns_result": TWO_HEARTS, "reason": "fouled board"}),
    ("rulings/", {"ruling": "average", "reason": "a late start"}),
    ("results/", {"result": TWO_HEARTS}),
])
def test_the_same_pair_on_both_sides_is_refused(night, director_client, tail, body):
    services.club_adjustments_set(event=night.event, on=True, actor=night.actor)
    board = night.meeting(1, 1).boards[0]
    response = post(director_client, url(night.event, tail),
                    {"board": board, "ns": 1, "ew": 1, **body})
    assert response.status_code == 400, response.content[:500]
    assert response.json() == {"error": "A pair cannot play against itself", "field": "ew"}
    assert not Result.objects.filter(event=night.event).exists()
