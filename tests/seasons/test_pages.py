"""The season pages: the public table (published seasons; final nights only; names link
to members' pages), the director's set-up pages, and the standings' links to members."""

import pytest
from django.urls import reverse

from tournaments.models import Season
from tournaments.services import season_save

from .conftest import LINEUP, member


@pytest.fixture
def director_client(client, night_director):
    client.force_login(night_director)
    return client


@pytest.fixture
def nights(make_night):
    return make_night("Night 1"), make_night("Night 2", published="provisional")


def _season(nights, actor, **fields):
    return season_save(**{"name": "Autumn pairs", "entrants": "individuals",
                          "event_ids": [e.pk for e in nights], "actor": actor, **fields})


def test_an_unpublished_season_is_the_sites_404_to_the_public(client, nights, actor):
    season = _season(nights, actor)
    url = reverse("public-season", kwargs={"pk": season.pk})
    assert client.get(url).status_code == 404
    assert client.get(reverse("public-season", kwargs={"pk": 999999})).status_code == 404
    assert "Autumn pairs" not in client.get(reverse("public-seasons")).content.decode()


def test_the_public_table_counts_final_nights_and_links_members(client, nights, actor):
    season = _season(nights, actor, published=True)
    page = client.get(reverse("public-season", kwargs={"pk": season.pk}))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'href="/members/101/"' in text
    assert "Counted once its standings are final" in text and "Night 2" in text
    assert text.count('data-testid="season-row"') == 12
    assert f'href="/events/{nights[1].pk}/standings/"' not in text  # not a column yet
    # What decides the place (the nights played, the score) comes before the nights'
    # columns: on a phone it shows without scrolling.
    head = text.split('data-testid="season-table"', 1)[1].split("</thead>", 1)[0]
    assert head.index(">Nights</th>") < head.index(f'/events/{nights[0].pk}/standings/')
    listed = client.get(reverse("public-seasons")).content.decode()
    # The list counts as the page does: night 2 is not final yet.
    assert "Autumn pairs" in listed and "(2 nights, 1 final so far)" in listed
    # The night not final yet, with its date as every page writes one.
    assert f"Night 2 ({nights[1].date.day} {nights[1].date:%b %Y})" in text


def test_the_director_sees_every_night_and_an_unpublished_season(director_client, nights,
                                                                 actor):
    season = _season(nights, actor)
    text = director_client.get(reverse("public-season", kwargs={"pk": season.pk})
                               ).content.decode()
    assert "Not published" in text and "not final" in text
    assert f'href="/events/{nights[1].pk}/standings/"' in text


def test_the_director_sets_a_season_up_and_changes_it(director_client, nights):
    one, two = nights
    new = director_client.get(reverse("director-season-new"))
    assert new.status_code == 200 and "Night 1" in new.content.decode()
    assert f"Night 1 ({one.date.day} {one.date:%b %Y})" in new.content.decode()  # not ISO
    answer = director_client.post(reverse("director-season-new"), {
        "name": "Winter ladder", "entrants": "pairs", "counts": "points", "rule": "best",
        "best_of": "1", "points_scale": "10, 8, 6", "min_events": "1",
        "events": [str(one.pk), str(two.pk)], "published": "on"})
    season = Season.objects.get()
    assert answer.status_code == 302
    assert answer["Location"] == reverse("director-season", kwargs={"season_id": season.pk})
    assert (season.entrants, season.counts, season.rule, season.best_of,
            season.points_scale, season.published) == (
        "pairs", "points", "best", 1, [10, 8, 6], True)
    assert set(season.events.all()) == {one, two}
    listed = director_client.get(reverse("director-seasons")).content.decode()
    assert "Winter ladder" in listed and "Best 1 night: points for places" in listed


def test_bad_input_is_refused_in_words_and_nothing_is_stored(director_client, nights):
    one, _ = nights
    post = {"name": "Ladder", "entrants": "individuals", "counts": "points", "rule": "total",
            "points_scale": "10, eight, 6", "min_events": "1", "events": [str(one.pk)]}
    page = director_client.post(reverse("director-season-new"), post)
    assert page.status_code == 200
    assert "“eight” is not a whole number" in page.content.decode()
    page = director_client.post(reverse("director-season-new"),
                                {**post, "points_scale": "6, 8"})
    assert "Place 2 would score more than place 1" in page.content.decode()
    page = director_client.post(reverse("director-season-new"),
                                {**post, "points_scale": "", "rule": "best"})
    assert "Say how many nights count" in page.content.decode()
    assert not Season.objects.exists()


def test_removing_a_season_keeps_its_nights(director_client, nights, actor):
    season = _season(nights, actor)
    url = reverse("director-season-delete", kwargs={"season_id": season.pk})
    asked = director_client.post(url)  # asked first: nothing removed yet
    assert asked.status_code == 200 and "Remove Autumn pairs?" in asked.content.decode()
    assert 'data-testid="confirm-season-delete"' in asked.content.decode()
    assert Season.objects.filter(pk=season.pk).exists()
    answer = director_client.post(url, {"confirmed": "1"})
    assert answer.status_code == 302
    assert not Season.objects.exists()
    assert nights[0].__class__.objects.filter(pk__in=[e.pk for e in nights]).count() == 2


def test_standings_link_each_members_name_to_their_page(client, make_night):
    night = make_night("Night 1", lineup={**LINEUP, 1: (101, None)})
    text = client.get(reverse("public-standings", kwargs={"pk": night.pk})).content.decode()
    assert '<a href="/members/101/">Member 101</a> & Bob Ray' in text
    assert 'href="/members/102/"' not in text  # pair 1's visitor has no page
    assert '<a href="/members/103/">Member 103</a>' in text


def test_the_season_page_reads_a_few_queries_a_night(client, make_night, actor,
                                                      django_assert_max_num_queries):
    """The season, its events, their pairs, and each night's standings (three queries
    read cold, as inside a test's transaction; two once the standings are cached)."""
    nights = [make_night(f"Night {n}") for n in range(1, 4)]
    season = _season(nights, actor, published=True)
    url = reverse("public-season", kwargs={"pk": season.pk})
    with django_assert_max_num_queries(4 + 3 * len(nights)):
        assert client.get(url).status_code == 200


def test_a_members_page_lists_their_published_seasons(client, nights, actor):
    shown = _season(nights, actor, published=True)
    _season(nights, actor, name="Secret ladder")
    text = client.get(reverse("public-member", kwargs={"number": "101"})).content.decode()
    assert f'href="/seasons/{shown.pk}/"' in text and "Secret ladder" not in text
    assert 'data-testid="member-seasons"' in text
    member(999)  # on the list, but at no night of a season
    assert "member-seasons" not in client.get(
        reverse("public-member", kwargs={"number": "999"})).content.decode()


@pytest.mark.parametrize(("entrants", "said"), [
    ("pairs", "A partnership with fewer than 2 nights is listed without a place."),
    ("individuals", "A member with fewer than 2 nights is listed without a place."),
])
def test_the_minimum_is_said_of_the_seasons_own_entrants(client, nights, actor, entrants,
                                                         said):
    season = _season(nights, actor, published=True, entrants=entrants, min_events=2)
    assert said in client.get(reverse("public-season", kwargs={"pk": season.pk})
                              ).content.decode()
