"""A pair contest's average or fouled board (Duplicate Law B(3)) says on the traveller the
score it gives, so a director can check it by hand: a fouled board gives the offending
pair the lowest score made on the deal and its opponents the highest ("awarded N–S 4,
E–W 9" in Duplicate Whist, in tricks); an average gives each pair the average score."""

from fractions import Fraction

import pytest

from tests.factories import make_pairs_event
from tournaments import presenters, selectors, services, standings
from tournaments.reports.base import contract_words
from tournaments.services import Actor

from .helpers import sides_plain

pytestmark = pytest.mark.django_db


def ruled_row(event, board: int = 1) -> dict:
    standings.clear_cache()
    return next(r for r in selectors.traveller(event, board)["rows"] if r["ruling"])


def whist_night(director):
    event = make_pairs_event(pairs=8, boards=2, rules="duplicate-whist")
    actor = Actor.director(director)
    for ns, ew, tricks in ((1, 5, 4), (2, 6, 7), (3, 7, 6)):
        services.result_record(event=event, board=1, ns=ns, ew=ew, actor=actor,
                               data={"tricks_ns": tricks})
    return event, actor


def test_a_whist_fouled_board_says_the_tricks_it_gives(director_client, director):
    event, actor = whist_night(director)
    services.ruling_award(event=event, board=1, ns=4, ew=8, kind="fouled", offending="ns",
                          actor=actor, reason="Duplicate Law B(3): fouled")
    row = ruled_row(event)
    # N–S at fault: the lowest N–S score made (4 tricks); E–W the highest E–W one (13 − 4).
    assert row["award"] == ["4", "9"]
    words = presenters.award_words(row)
    assert words == "awarded N–S 4, E–W 9"
    page = sides_plain(director_client.get(f"/events/{event.pk}/boards/1/").content.decode())
    assert f'<span data-testid="ruling">{presenters.ruling_words(row)}</span>' in page
    assert contract_words(row).endswith(f"; {words}")  # the printed traveller's words


def test_an_auction_average_and_fouled_board_give_scores(director, director_client):
    event = make_pairs_event(pairs=8, boards=2)
    actor = Actor.director(director)
    honours = {"N": 1, "E": 1, "S": 1, "W": 2}
    for ns, ew, tricks in ((1, 5, 9), (2, 6, 10), (3, 7, 7)):
        services.result_record(
            event=event, board=1, ns=ns, ew=ew, actor=actor,
            data={"contract": {"level": 3, "denomination": "H", "declarer": "S"},
                  "tricks": tricks, "honours": honours})
    real = selectors.traveller(event, 1)["rows"]
    ns_scores = [r["ns_score"] for r in real]
    ew_scores = [r["ew_score"] for r in real]
    services.ruling_award(event=event, board=1, ns=4, ew=8, kind="average", actor=actor,
                          reason="Duplicate Law B(3): average")
    row = ruled_row(event)
    assert [Fraction(v) for v in row["award"]] == [Fraction(sum(ns_scores), 3),
                                                    Fraction(sum(ew_scores), 3)]
    result = event.results.get(board__number=1, ns_pair__number=4)
    services.result_correct(result=result, actor=actor, ruling="fouled", offending="ew",
                            reason="Duplicate Law B(3): fouled")
    row = ruled_row(event)
    # E–W at fault: N–S the highest N–S score made, E–W the lowest E–W one.
    assert row["award"] == [str(max(ns_scores)), str(min(ew_scores))]
    raw = director_client.get(f"/events/{event.pk}/boards/1/").content.decode()
    # "awarded N–" / "S +141" at the end of a line, read at 1280 px: each side is kept whole.
    assert 'awarded <span class="nowrap">N–S</span> +' in raw
    page = sides_plain(raw)
    # A score lost is one side's: both signed, as the traveller's net (a review read
    # "N–S −35, E–W 35").
    assert min(ew_scores) < 0 < max(ns_scores)
    assert (f"awarded N–S +{presenters.exact(max(ns_scores))}, "
            f"E–W {presenters.exact(min(ew_scores))}") in page
    assert presenters.exact(min(ew_scores)).startswith("−")


def test_at_matchpoints_an_average_gives_no_score_and_a_lone_ruling_none(director):
    event, actor = whist_night(director)
    event.method = "matchpoints"
    event.save(update_fields=["method"])
    services.ruling_award(event=event, board=1, ns=4, ew=8, kind="average", actor=actor,
                          reason="Duplicate Law B(3): average")
    assert ruled_row(event)["award"] is None  # half the top: no score to give
    # Board 2 has no real result: a fouled board there is scored an average (pinned).
    services.ruling_award(event=event, board=2, ns=1, ew=5, kind="fouled", offending="ew",
                          actor=actor, reason="Duplicate Law B(3): fouled")
    assert ruled_row(event, 2)["award"] is None
