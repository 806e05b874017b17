"""A member's own results page: published events only (access.member_events)."""

import pytest
from django.urls import reverse

from tests.reports.night import build_night, make_director
from tournaments import presenters, selectors, standings
from tournaments.models import Event, Pair, Player


@pytest.fixture(autouse=True)
def _fresh_standings():
    standings.clear_cache()
    yield
    standings.clear_cache()


@pytest.fixture
def night_director(db):
    return make_director()


def _member_in(event, number="1001"):
    member, _ = Player.objects.get_or_create(number=number, defaults={
        "name": "Ann Lee", "first_name": "Ann", "last_name": "Lee"})
    pair = Pair.objects.get(event=event, number=1)
    pair.player_1 = member
    pair.save(update_fields=["player_1"])
    standings.clear_cache()
    return member, pair


def test_the_page_lists_published_nights_with_partner_score_and_place(client, night_director):
    shown = build_night(night_director, name="Tuesday duplicate").event
    hidden = build_night(night_director, name="Secret Friday", published="none").event
    member, pair = _member_in(shown)
    _member_in(hidden)
    page = client.get(reverse("public-member", kwargs={"number": "1001"}))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Tuesday duplicate" in text and "Secret Friday" not in text
    assert pair.player_2.name in text
    row = next(r for ranking in standings.standings(shown)["rankings"]
               for r in ranking["rows"] if r["pair"] == 1)
    assert f'<td class="num">{row["place"]}' in text
    assert f'>{presenters.signed(row["score"])}</td>' in text  # as the standings show it
    # The director sees the unpublished night too.
    client.force_login(night_director)
    assert "Secret Friday" in client.get(
        reverse("public-member", kwargs={"number": "1001"})).content.decode()


def test_a_score_shows_as_the_standings_show_it_exact_on_a_tap(db):
    # Not "+394.86": the night's standings say "+395", the exact value on a tap.
    plus_minus = Event(method="plus-minus")
    assert selectors._member_score(plus_minus, {"score": 395, "exact": "2764/7"}) == (
        "+395", "exactly +394⁶⁄₇")
    assert selectors._member_score(plus_minus, {"score": -7, "exact": "-7"}) == ("−7", "")
    assert selectors._member_score(Event(method="matchpoints"), {
        "score": 54.17, "exact": "325/6", "matchpoints": "13/2", "top": "12"}) == (
        "54.17%", "6½ matchpoints of 12")
    assert selectors._member_score(plus_minus, None) == ("–", "")


def test_an_unknown_member_is_the_sites_404(client, db):
    assert client.get(reverse("public-member", kwargs={"number": "999"})).status_code == 404


def test_no_published_night_says_when_results_come(client, night_director):
    hidden = build_night(night_director, name="Secret Friday", published="none").event
    _member_in(hidden)
    text = client.get(reverse("public-member", kwargs={"number": "1001"})).content.decode()
    assert "No published results yet" in text and "Secret Friday" not in text


def test_a_night_not_final_is_marked_so(client, night_director):
    """A provisional night's place may still change: the page says so on its row, as the
    night's own standings do; a final night's row says nothing more."""
    provisional = build_night(night_director, name="Tuesday duplicate").event
    final = build_night(night_director, name="Last Tuesday", published="final").event
    hidden = build_night(night_director, name="Secret Friday", published="none").event
    for event in (provisional, final, hidden):
        _member_in(event)
    url = reverse("public-member", kwargs={"number": "1001"})
    rows = client.get(url).content.decode().split("<tr>")
    row_of = {name: next(r for r in rows if name in r)
              for name in ("Tuesday duplicate", "Last Tuesday")}
    assert 'data-testid="not-final">provisional</small>' in row_of["Tuesday duplicate"]
    assert "not-final" not in row_of["Last Tuesday"]
    client.force_login(night_director)
    rows = client.get(url).content.decode().split("<tr>")
    assert 'data-testid="not-final">not published</small>' in next(
        r for r in rows if "Secret Friday" in r)


def test_a_night_played_as_a_substitute_is_listed_with_whom_they_sat_for(client,
                                                                          night_director):
    """The member page's "every published night they played" left out a night played as
    a substitute, though the score card had been mailed to them."""
    from tournaments import services

    night = build_night(night_director, name="Tuesday duplicate")
    member, _ = Player.objects.get_or_create(number="1002", defaults={
        "name": "Max Nye", "first_name": "Max", "last_name": "Nye"})
    services.substitute_set(event=night.event, number=2, seat=2, player="1002",
                            from_round=3, actor=night.actor, reason="Di Eck left early")
    standings.clear_cache()
    text = client.get(reverse("public-member", kwargs={"number": "1002"})).content.decode()
    assert "Tuesday duplicate" in text
    assert "Cy Dow (substitute for Di Eck from round 3)" in text
    assert reverse("public-pair", kwargs={"pk": night.event.pk, "number": 2}) in text
