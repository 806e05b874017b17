"""A season's table from real nights: who is ranked (members; a visitor is not), what
counts (the public: final nights only), scores and points, and what the director may
not mix."""

from fractions import Fraction as F

import pytest

from tests.factories import EventFactory
from tournaments import standings
from tournaments.models import Season
from tournaments.selectors import place_points, season_table
from tournaments.services import Actor, Forbidden, ServiceError, season_save

from .conftest import LINEUP


def _rows(event) -> dict[int, dict]:
    """Each pair's standings row (pair number → row) and its ranking's size per place."""
    out = {}
    for ranking in standings.standings(event)["rankings"]:
        for row in ranking["rows"]:
            tied = sum(1 for r in ranking["rows"] if r["place"] == row["place"])
            out[row["pair"]] = {**row, "tied": tied}
    return out


def _by_member(table) -> dict:
    return {str(r["member"]): r for r in table["rows"]}


def test_individuals_total_adds_each_members_nights(make_night, actor):
    one, two = make_night("Night 1"), make_night("Night 2")
    season = season_save(name="Autumn", entrants="individuals", event_ids=[one.pk, two.pk],
                         actor=actor)
    table = season_table(season, director=False)
    rows = _by_member(table)
    assert len(rows) == 12  # six pairs of two members
    for pair, (a, b) in LINEUP.items():
        expected = sum(F(_rows(e)[pair]["exact"]) for e in (one, two))
        assert F(rows[str(a)]["score"]) == expected
        assert rows[str(a)]["events"] == 2
        assert rows[str(a)]["score"] == rows[str(b)]["score"]
        assert rows[str(a)]["place"] == rows[str(b)]["place"]  # partners share a place
    assert all(r["place"].endswith("=") for r in table["rows"])
    assert set(table["rows"][0]) >= {"place", "member", "name", "events", "score"}


def test_pairs_rank_partnerships_and_a_visitor_is_not_ranked(make_night, actor):
    lineup = {**LINEUP, 1: (101, None)}  # pair 1: member 101 and a visitor
    one = make_night("Night 1", lineup=lineup)
    pairs = season_save(name="Pairs", entrants="pairs", event_ids=[one.pk], actor=actor)
    table = season_table(pairs, director=True)
    assert len(table["rows"]) == 5
    assert ["103", "104"] in [r["member"] for r in table["rows"]]
    assert all("101" not in r["member"] for r in table["rows"])
    row = next(r for r in table["rows"] if r["member"] == ["103", "104"])
    assert row["name"] == "Member 103 & Member 104"
    individuals = season_save(name="Each", entrants="individuals", event_ids=[one.pk],
                              actor=actor)
    members = _by_member(season_table(individuals, director=True))
    assert "101" in members and len(members) == 11  # the visitor is left out
    assert F(members["101"]["score"]) == F(_rows(one)[1]["exact"])


def test_partnerships_that_change_are_different_entrants(make_night, actor):
    one = make_night("Night 1")
    two = make_night("Night 2", lineup={**LINEUP, 1: (101, 104), 2: (103, 102)})
    season = season_save(name="Pairs", entrants="pairs", event_ids=[one.pk, two.pk],
                         actor=actor)
    rows = {tuple(r["member"]): r for r in season_table(season, director=True)["rows"]}
    assert rows[("101", "102")]["events"] == 1 and rows[("101", "104")]["events"] == 1
    assert rows[("105", "106")]["events"] == 2


def test_the_public_counts_only_final_nights_the_director_every_night(make_night, actor):
    one = make_night("Night 1")
    two = make_night("Night 2", published="provisional")
    three = make_night("Night 3", published="none")
    season = season_save(name="Autumn", entrants="individuals",
                         event_ids=[one.pk, two.pk, three.pk], actor=actor)
    public = season_table(season, director=False)
    # Night 3, not published, is not the public's to see at all (decision 123).
    assert [(e["name"], e["counts"]) for e in public["events"]] == [
        ("Night 1", True), ("Night 2", False)]
    assert {r["events"] for r in public["rows"]} == {1}
    director = season_table(season, director=True)
    assert [e["final"] for e in director["events"]] == [True, False, False]
    assert {r["events"] for r in director["rows"]} == {3}


def test_points_for_places_with_best_n_and_minimum_attendance(make_night, actor):
    scale = [10, 7, 5]
    one, two = make_night("Night 1"), make_night("Night 2")
    three = make_night("Night 3", lineup={1: (101, 102)})  # pairs 2-6 visitors tonight
    season = season_save(name="Ladder", entrants="individuals", counts="points",
                         rule="best", best_of=2, points_scale=scale, min_events=3,
                         event_ids=[one.pk, two.pk, three.pk], actor=actor)
    rows = _by_member(season_table(season, director=True))
    nights = [_rows(e)[1] for e in (one, two, three)]
    points = [place_points(n["place"], n["tied"], scale) for n in nights]
    assert F(rows["101"]["score"]) == sum(sorted(points, reverse=True)[:2])
    assert rows["101"]["events"] == 3 and rows["101"]["place"] == "1="
    assert sum(n["counted"] for n in rows["101"]["nights"]) == 2
    # Everyone else played two nights of three: listed, without a place.
    others = [r for m, r in rows.items() if m not in ("101", "102")]
    assert others and all(r["place"] is None and r["events"] == 2 for r in others)
    assert [r["member"] for r in season_table(season, director=True)["rows"][:2]] == [
        "101", "102"]


def test_average_divides_by_the_nights_played(make_night, actor):
    one = make_night("Night 1")
    two = make_night("Night 2", lineup={1: (101, 102)})
    season = season_save(name="Average", entrants="individuals", rule="average",
                         event_ids=[one.pk, two.pk], actor=actor)
    rows = _by_member(season_table(season, director=True))
    assert F(rows["101"]["score"]) == (F(_rows(one)[1]["exact"]) + F(_rows(two)[1]["exact"])) / 2
    assert F(rows["103"]["score"]) == F(_rows(one)[2]["exact"])


def test_scores_of_nights_scored_two_ways_are_refused(make_night, actor):
    pm = make_night("Plus/minus night")
    mp = make_night("Matchpoint night", method="matchpoints")
    with pytest.raises(ServiceError, match="cannot be added") as refused:
        season_save(name="Mixed", event_ids=[pm.pk, mp.pk], actor=actor)
    assert refused.value.field == "events"
    assert not Season.objects.exists()
    # Points for places are the same whatever scored the night.
    season = season_save(name="Mixed", counts="points", points_scale=[3, 2, 1],
                         event_ids=[pm.pk, mp.pk], actor=actor)
    assert season.events.count() == 2


def test_a_matchpoint_season_adds_percentages(make_night, actor):
    one = make_night("Night 1", method="matchpoints")
    season = season_save(name="MP", entrants="individuals", event_ids=[one.pk], actor=actor)
    table = season_table(season, director=True)
    assert table["method"] == "matchpoints"
    row = _by_member(table)["101"]
    assert F(row["score"]) == F(_rows(one)[1]["exact"])


def test_what_a_season_refuses(make_night, actor, db):
    one = make_night("Night 1")
    match = EventFactory(kind="teams", method="total-points", name="Challenge match")
    cases = [
        ({"name": " "}, "name"),
        ({"rule": "best"}, "best_of"),
        ({"counts": "points"}, "points_scale"),
        ({"counts": "points", "points_scale": [5, 8]}, "points_scale"),
        ({"points_scale": [-1]}, "points_scale"),
        ({"min_events": 0}, "min_events"),
        ({"event_ids": [match.pk]}, "events"),
        ({"event_ids": [999999]}, "events"),
    ]
    for change, field in cases:
        fields = {"name": "Autumn", "event_ids": [one.pk], **change}
        with pytest.raises(ServiceError) as refused:
            season_save(actor=actor, **fields)
        assert refused.value.field == field, change
    with pytest.raises(Forbidden):
        season_save(name="Mine", actor=Actor(label="table 1", table=1))
    assert not Season.objects.exists()


def test_editing_replaces_the_events(make_night, actor):
    one, two = make_night("Night 1"), make_night("Night 2")
    season = season_save(name="Autumn", event_ids=[one.pk], actor=actor)
    season = season_save(season=season, name="Autumn", rule="best", best_of=1,
                         event_ids=[two.pk], actor=actor)
    assert list(season.events.all()) == [two]
    assert season.best_of == 1
    season = season_save(season=season, name="Autumn", rule="total", best_of=3,
                         event_ids=[one.pk, two.pk], actor=actor)
    assert season.best_of is None  # N belongs to "best" only


def test_a_night_rescored_the_other_way_since_is_named_not_added_silently(make_night, actor):
    pm, other = make_night("Night 1"), make_night("Night 2")
    season = season_save(name="Autumn", event_ids=[pm.pk, other.pk], actor=actor)
    type(other).objects.filter(pk=other.pk).update(method="matchpoints")
    standings.clear_cache()
    table = season_table(season, director=True)
    assert "cannot be added" in table["warning"] and table["method"] is None


def test_the_database_holds_n_to_the_best_n_rule(db):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.create(name="No N", rule="best", best_of=None)
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.create(name="N for a total", rule="total", best_of=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.create(name="Nobody", min_events=0)


def test_a_night_whose_correction_period_is_over_counts_at_once(make_night, actor, client):
    import datetime

    from django.urls import reverse
    from django.utils import timezone

    from tournaments.models import Event

    night = make_night("Night 1", published="provisional")
    Event.objects.filter(pk=night.pk).update(
        status=Event.Status.CLOSED, final_after=timezone.now() - datetime.timedelta(minutes=1))
    season = season_save(name="Autumn", entrants="individuals", published=True,
                         event_ids=[night.pk], actor=actor)
    page = client.get(reverse("public-season", kwargs={"pk": season.pk})).content.decode()
    assert 'href="/members/101/"' in page
    night.refresh_from_db()
    assert night.published == Event.Published.FINAL
