"""What the season's page and PDF say under the table about how its numbers are written:
an average of points to two decimals where there is no simple fraction ("5.43", exactly
5³⁄₇ on a tap), a matchpoint percentage to two decimals (not "the nearest whole number",
which is the plus/minus season's), and the minimum in the season's own entrants."""

import pytest
from django.urls import reverse

from tournaments.reports import services
from tournaments.services import season_save


def _help(client, season) -> str:
    page = client.get(reverse("public-season", kwargs={"pk": season.pk})).content.decode()
    return page.split('class="muted helptext">', 1)[1].split("</p>", 1)[0]


@pytest.fixture
def two_nights(make_night):
    return [make_night("Night 1"), make_night("Night 2", lineup={1: (101, 102)})]


def test_an_average_of_points_says_it_shows_two_decimals(client, two_nights, actor):
    season = season_save(name="Ladder", entrants="individuals", counts="points",
                         rule="average", points_scale=[10, 8, 6, 5, 4, 3], published=True,
                         event_ids=[e.pk for e in two_nights], actor=actor)
    said = _help(client, season)
    assert "shows two decimals" in said and "places go by the exact average" in said
    assert "nearest whole number" not in said
    total = season_save(season=season, name="Ladder", entrants="individuals",
                        counts="points", rule="total", points_scale=[10, 8, 6],
                        published=True, event_ids=[e.pk for e in two_nights], actor=actor)
    assert "two decimals" not in _help(client, total)  # a total of points is exact


def test_a_matchpoint_season_says_its_percentages_show_two_decimals(client, make_night,
                                                                    actor):
    night = make_night("Night 1", method="matchpoints")
    season = season_save(name="MP", entrants="pairs", published=True, min_events=2,
                         event_ids=[night.pk], actor=actor)
    said = _help(client, season)
    assert "Each percentage shows two decimals" in said
    assert "nearest whole number" not in said
    footnote = services.season_report_data(season)["footnote"]
    assert "percentage is printed to two decimals" in footnote
    assert "nearest whole number" not in footnote
    assert "A partnership with fewer than 2 nights" in footnote


def test_a_plus_minus_season_still_says_the_nearest_whole(client, two_nights, actor):
    season = season_save(name="PM", entrants="individuals", published=True,
                         event_ids=[e.pk for e in two_nights], actor=actor)
    assert "Each score shows the nearest whole number" in _help(client, season)


def test_the_pdf_marks_a_night_not_published(make_night, actor):
    one = make_night("Night 1")
    two = make_night("Secret night", published="none")
    season = season_save(name="Ladder", event_ids=[one.pk, two.pk], actor=actor)
    note = services.season_report_data(season)["note"]
    assert note == (f"Not final yet: Secret night ({two.date.day} {two.date:%b %Y}, "
                    "not published).")
