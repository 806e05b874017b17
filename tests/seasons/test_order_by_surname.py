"""A season lists members as a club's member list does: equal places, and those below the
minimum attendance, by surname, then first name (they had been by first name: "Ann Young"
before "Zoe Alder"). The same on the page, in the API's JSON and in the PDF."""

from django.urls import reverse

from tests.reports.pdf import pdf_text
from tests.reports.test_renderers import render
from tournaments.models import Player
from tournaments.reports import services
from tournaments.reports.documents import SeasonTableRenderer
from tournaments.selectors import season_table
from tournaments.services import season_save

# First-name order and surname order disagree, pair by pair (pair 1: 101 and 102, …).
NAMES = {101: ("Zoe", "Alder"), 102: ("Ann", "Young"), 103: ("Bea", "Moss"),
         104: ("Cy", "Brown"), 105: ("Dan", "Kerr"), 106: ("Eve", "Cole"),
         107: ("Fay", "Dunn"), 108: ("Gus", "Abel"), 109: ("Hal", "Frye"),
         110: ("Ida", "Price"), 111: ("Jo", "Nash"), 112: ("Kit", "Hale")}


def _rename_members() -> None:
    for number, (first, last) in NAMES.items():
        Player.objects.filter(number=str(number)).update(
            name=f"{first} {last}", first_name=first, last_name=last)


def _by_surname(numbers) -> list[str]:
    return [f"{NAMES[n][0]} {NAMES[n][1]}"
            for n in sorted(numbers, key=lambda n: (NAMES[n][1], NAMES[n][0]))]


def test_ties_and_the_unplaced_are_listed_by_surname(make_night, actor, client,
                                                     night_director):
    night = make_night("Night 1")
    _rename_members()
    # One night: partners tie (each pair's two members share its score and place).
    season = season_save(name="Autumn", entrants="individuals", event_ids=[night.pk],
                         actor=actor)
    rows = season_table(season, director=True)["rows"]
    for place in {r["place"] for r in rows}:
        tied = [r for r in rows if r["place"] == place]
        assert len(tied) == 2
        assert [r["name"] for r in tied] == _by_surname(int(r["member"]) for r in tied)
    # A minimum of two nights: nobody is placed, and everyone is listed by surname.
    season = season_save(season=season, name="Autumn", entrants="individuals",
                         event_ids=[night.pk], min_events=2, actor=actor)
    rows = season_table(season, director=True)["rows"]
    assert all(r["place"] is None for r in rows)
    listed = _by_surname(NAMES)
    assert [r["name"] for r in rows] == listed
    assert listed[:3] == ["Gus Abel", "Zoe Alder", "Cy Brown"]
    # The page and the PDF list them so.
    client.force_login(night_director)
    page = client.get(reverse("public-season", kwargs={"pk": season.pk})).content.decode()
    found = sorted(listed, key=page.index)
    assert found == listed
    text = pdf_text(render(SeasonTableRenderer, services.season_report_data(season))[1])
    assert sorted(listed, key=text.index) == listed


def test_a_member_without_separate_names_is_filed_by_the_last_word(make_night, actor):
    night = make_night("Night 1")
    _rename_members()
    Player.objects.filter(number="101").update(name="Zoe van Alder", first_name="",
                                               last_name="")
    season = season_save(name="Autumn", entrants="individuals", event_ids=[night.pk],
                         min_events=2, actor=actor)
    names = [r["name"] for r in season_table(season, director=True)["rows"]]
    assert names.index("Gus Abel") < names.index("Zoe van Alder") < names.index("Cy Brown")
