"""The console's sessions page (the next session, the carry-over), the overall standings
page, and the pairs page's per-pair section picker."""

import re

import pytest
from django.test import Client

from tests.web.conftest import console_event, console_mitchell
from tournaments import presenters, services, standings
from tournaments.models import AuditEntry, Event, Pair
from tournaments.services import Actor
from tournaments.standings import clear_cache

pytestmark = pytest.mark.django_db

ONE_SPADE = {"contract": {"level": 1, "denomination": "S", "declarer": "S"}, "tricks": 7,
             "honours": {"N": 1, "E": 2, "S": 1, "W": 1}}
THREE_HEARTS = {"contract": {"level": 3, "denomination": "H", "declarer": "S"}, "tricks": 9,
                "honours": {"N": 2, "E": 1, "S": 1, "W": 1}}


def test_add_a_session_and_set_the_carry_over(director_client):
    event = console_mitchell(director_client, tables=3, boards_per_round=2)
    page = director_client.get(f"/director/events/{event.pk}/sessions/")
    assert page.status_code == 200 and b"Add session 2" in page.content
    # One session has no overall standings (that page is a 404): no button to them yet.
    assert b'data-testid="overall-link"' not in page.content
    assert b"The overall standings add the sessions up once there is a second one." \
        in page.content
    response = director_client.post(f"/director/events/{event.pk}/sessions/",
                                    {"action": "add", "date": "2026-11-24"})
    second = Event.objects.get(session_of=event)
    assert response.status_code == 302
    assert response["Location"] == f"/director/events/{second.pk}/movement/"
    assert second.pairs.count() == event.pairs.count() == 6
    overview = director_client.get(f"/director/events/{second.pk}/").content.decode()
    assert "Session 2 of an event of several sessions" in overview
    listed = director_client.get(f"/director/events/{second.pk}/sessions/").content.decode()
    assert "Tuesday duplicate, session 2" in listed and "Add session 3" in listed
    assert 'data-testid="overall-link"' in listed
    assert director_client.get(f"/events/{second.pk}/overall/").status_code == 200
    director_client.post(f"/director/events/{second.pk}/sessions/",
                         {"action": "carry", "carry_over": "50"})
    event.refresh_from_db()
    assert event.carry_over == 50
    assert AuditEntry.objects.filter(event=event, action="carry over").exists()


def test_bad_input_is_said_in_words(director_client):
    event = console_mitchell(director_client, tables=3, boards_per_round=2)
    url = f"/director/events/{event.pk}/sessions/"
    for wrong in ("150", "half", ""):
        page = director_client.post(url, {"action": "carry", "carry_over": wrong})
        assert page.status_code == 200
        assert "percentage from 0 to 100" in page.content.decode()
    page = director_client.post(url, {"action": "add", "date": "24/11"})
    assert "A date like 2026-11-24" in page.content.decode()
    early = director_client.post(url, {"action": "add", "date": "2026-01-01"}, follow=True)
    assert "cannot be before session 1" in early.content.decode()
    assert not Event.objects.filter(session_of=event).exists()
    teams = console_event(director_client, name="Teams", kind="teams", method="total-points")
    page = director_client.get(f"/director/events/{teams.pk}/sessions/").content.decode()
    assert "has no sessions" in page
    assert director_client.get(f"/events/{teams.pk}/overall/").status_code == 404


def test_the_overall_page_shows_each_session_and_the_total(director, director_client):
    actor = Actor.director(director)
    event = console_event(director_client)
    director_client.post(f"/director/events/{event.pk}/pairs/", {
        "pairs": "\n".join(f"N{n} & S{n}" for n in range(1, 5))})
    services.boards_set(event=event, count=1, actor=actor)
    for ns, ew, data in ((1, 3, THREE_HEARTS), (2, 4, ONE_SPADE)):
        services.result_record(event=event, board=1, ns=ns, ew=ew, data=data, actor=actor)
    second = services.session_add(event=event, actor=actor)
    services.boards_set(event=second, count=1, actor=actor)
    for ns, ew, data in ((1, 3, ONE_SPADE), (2, 4, THREE_HEARTS)):
        services.result_record(event=second, board=1, ns=ns, ew=ew, data=data, actor=actor)
    services.carry_over_set(event=event, percent=50, actor=actor)
    clear_cache()
    page = director_client.get(f"/events/{second.pk}/overall/").content.decode()
    assert "Session 1" in page and "Session 2" in page and "counts 50%" in page
    assert "Overall" in page and "½" in page  # half of an odd session score
    # Each score shows as the standings show it, the nearest whole, its exact value on a
    # tap: never "+2.50" nor a fraction in the cell itself.
    cells = re.findall(r'<td class="num exact(?: total)?" title="exactly ([^"]+)">([^<]+)</td>',
                       page)
    expected = [(presenters.signed_exact(c["exact"]), presenters.signed(c["score"]))
                for r in standings.overall_standings(event)["rankings"][0]["rows"]
                for c in (r, *r["sessions"]) if c is not None]
    assert sorted(cells) == sorted(expected)
    assert any("½" in exact and "½" not in shown for exact, shown in cells)
    public = Client()
    assert public.get(f"/events/{event.pk}/overall/").status_code == 404  # nothing published
    services.event_publish(event=event, level="provisional", actor=actor)
    assert public.get(f"/events/{event.pk}/overall/").status_code == 403  # session 2 not yet
    services.event_publish(event=second, level="provisional", actor=actor)
    shown = public.get(f"/events/{event.pk}/overall/")
    assert shown.status_code == 200 and "Provisional results" in shown.content.decode()
    for session in (event, second):  # each session's pages link to the overall
        assert "Overall standings" in public.get(
            f"/events/{session.pk}/standings/").content.decode()


def test_the_pairs_page_picks_each_pairs_section(director, director_client):
    event = console_event(director_client)
    director_client.post(f"/director/events/{event.pk}/pairs/", {
        "pairs": "\n".join(f"N{n} & S{n}" for n in range(1, 5))})
    page = director_client.get(f"/director/events/{event.pk}/pairs/").content.decode()
    assert "Each pair's section" not in page  # one section: no picker
    services.section_add(event=event, actor=Actor.director(director))
    page = director_client.get(f"/director/events/{event.pk}/pairs/").content.decode()
    assert 'name="section-4"' in page
    response = director_client.post(f"/director/events/{event.pk}/pairs/sections/", {
        "section-1": "A", "section-2": "A", "section-3": "B", "section-4": "B"}, follow=True)
    assert "Pairs 3, 4 now in section B." in response.content.decode()
    assert dict(Pair.objects.filter(event=event).values_list("number", "section__name")) == {
        1: "A", 2: "A", 3: "B", 4: "B"}
    response = director_client.post(f"/director/events/{event.pk}/pairs/sections/", {
        "section-1": "Z", "section-3": "A"}, follow=True)
    assert "There is no section Z" in response.content.decode()
    assert Pair.objects.get(event=event, number=3).section.name == "B"  # nothing moved
