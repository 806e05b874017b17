"""A season with no night counted yet says so in words ("No night counts yet"), not
"across 0 nights so far". The public is told the same whether the season has no night
or only nights it may not see (an unpublished night is not hinted at)."""

import pytest
from django.urls import reverse

from tournaments.services import season_save


def _rule_line(page: str) -> str:
    return page.split('data-testid="season-rule">', 1)[1].split("</p>", 1)[0]


def _page(client, season) -> str:
    return client.get(reverse("public-season", kwargs={"pk": season.pk})).content.decode()


@pytest.mark.parametrize("published", ["provisional", "none"])
def test_nights_none_of_them_final_yet(client, make_night, actor, published):
    night = make_night("Night 1", published=published)
    season = season_save(name="Autumn pairs", published=True, event_ids=[night.pk],
                         actor=actor)
    line = _rule_line(_page(client, season))
    assert "0 nights" not in line and "No night counts yet" in line


def test_a_season_without_nights(client, night_director, actor):
    season = season_save(name="Spring pairs", published=True, actor=actor)
    line = _rule_line(_page(client, season))
    assert "0 nights" not in line and "No night counts yet" in line
    client.force_login(night_director)  # the director is told what to do about it
    assert "No night is in this season yet" in _rule_line(_page(client, season))


def test_nights_counted_are_still_counted_in_the_line(client, make_night, actor):
    one, two = make_night("Night 1"), make_night("Night 2", published="provisional")
    season = season_save(name="Autumn pairs", published=True, event_ids=[one.pk, two.pk],
                         actor=actor)
    assert "across 1 night so far" in _rule_line(_page(client, season))
