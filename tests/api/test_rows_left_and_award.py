"""The API's traveller and score card rows say what the pages say of a ruled board: the
pair that left, when a board was not played for it (decision 103), and what each side
scores for a ruled board (Duplicate Law B), exactly. They had left both out."""

from fractions import Fraction

import pytest

from tests.reports.changes_night import LEFT, LEFT_AFTER, build_changes_night
from tournaments import selectors
from tournaments.models import Result

from .helpers import url

pytestmark = pytest.mark.django_db


@pytest.fixture
def changes(director):
    return build_changes_night(director)


def test_a_travellers_rows_carry_the_pair_that_left_and_the_award(changes, director_client):
    gone = Result.objects.filter(event=changes.event, ruling="not-played", meeting=None,
                                 voided=False).select_related("board").first()
    body = director_client.get(url(changes.event, f"boards/{gone.board.number}/traveller/"))
    assert body.status_code == 200
    rows = {r["result_id"]: r for r in body.json()["rows"]}
    assert rows[gone.pk]["left"] == {"pair": LEFT, "after_round": LEFT_AFTER}
    assert all(r["left"] is None for pk, r in rows.items() if pk != gone.pk)

    fouled = changes.fouled
    body = director_client.get(url(changes.event, f"boards/{fouled.board.number}/traveller/"))
    row = next(r for r in body.json()["rows"] if r["result_id"] == fouled.pk)
    shown = next(r for r in selectors.traveller(changes.event, fouled.board.number)["rows"]
                 if r["result_id"] == fouled.pk)
    assert row["award"] == {"ns": str(shown["award"][0]), "ew": str(shown["award"][1])}
    assert Fraction(row["award"]["ns"]) == -Fraction(row["award"]["ew"])


def test_a_score_cards_rows_carry_the_pair_that_left(changes, director_client):
    body = director_client.get(url(changes.event, f"pairs/{LEFT}/scorecard/"))
    assert body.status_code == 200
    lefts = [r["left"] for r in body.json()["rows"] if r["left"]]
    assert lefts and all(left == {"pair": LEFT, "after_round": LEFT_AFTER} for left in lefts)
