"""The public sees only what the director has published; the director sees everything."""

import pytest
from django.test import Client

from tests.reports.night import build_night

PAGES = ["", "standings/", "boards/1/", "pairs/1/", "live/", "standings/?fragment=1"]


@pytest.fixture
def hidden(director):
    return build_night(director, name="Unpublished night", published="none")


@pytest.mark.parametrize("page", PAGES)
def test_unpublished_is_404_for_the_public(client, hidden, page):
    response = client.get(f"/events/{hidden.event.pk}/{page}")
    assert response.status_code == 404


def test_the_public_404_names_nothing_but_says_why_it_may_be(client, hidden):
    response = client.get(f"/events/{hidden.event.pk}/standings/")
    assert response.status_code == 404
    text = response.content.decode()
    assert "the director may not have published them yet" in text
    assert "Unpublished night" not in text  # the same page as for an id no event has


def test_a_player_logged_in_is_still_the_public(client, hidden, django_user_model):
    client.force_login(django_user_model.objects.create_user("bob", password="pass-word-123"))
    assert client.get(f"/events/{hidden.event.pk}/standings/").status_code == 404


@pytest.mark.parametrize("page", PAGES)
def test_the_director_sees_everything(director_client, hidden, page):
    response = director_client.get(f"/events/{hidden.event.pk}/{page}")
    assert response.status_code == 200


def test_the_director_is_told_the_page_is_not_public(director_client, hidden):
    html = director_client.get(f"/events/{hidden.event.pk}/standings/").content.decode()
    assert "Not published: only you, the director, can see this page" in html


@pytest.mark.parametrize(("level", "words"), [
    ("provisional", "Provisional results: scores may still change"),
    ("final", "Final results"),
])
def test_published_pages_say_provisional_or_final(client, night, level, words):
    night.publish(level)
    for page in PAGES[:4]:
        response = client.get(f"/events/{night.event.pk}/{page}")
        assert response.status_code == 200
        assert words in response.content.decode(), page


def test_taking_results_down_hides_them_again(client, night):
    assert client.get(f"/events/{night.event.pk}/standings/").status_code == 200
    night.publish("none")
    assert client.get(f"/events/{night.event.pk}/standings/").status_code == 404


def test_missing_things_are_404(client, night):
    pk = night.event.pk
    assert client.get(f"/events/{pk}/boards/99/").status_code == 404
    assert client.get(f"/events/{pk}/pairs/99/").status_code == 404
    assert client.get("/events/999999/").status_code == 404


def test_only_the_director_sees_the_print_link(director_client, night):
    link = f'href="/events/{night.event.pk}/reports/"'
    assert link not in Client().get(f"/events/{night.event.pk}/").content.decode()
    assert link in director_client.get(f"/events/{night.event.pk}/").content.decode()


def test_a_table_is_told_what_it_sees_not_that_it_is_the_director(client, hidden):
    """A table may see its own event and the boards it has played before the director
    publishes: the page says so, and does not call the reader the director."""
    from tournaments.models import Meeting, TableCode

    event = hidden.event
    code = TableCode.objects.get(section__event=event, table=1).code
    board = Meeting.objects.filter(section__event=event, table=1).order_by("round")[0].boards[0]
    assert client.get(f"/t/{code}/", follow=True).status_code == 200
    for page in ("", f"boards/{board}/"):
        html = client.get(f"/events/{event.pk}/{page}").content.decode()
        assert "Not published yet: your table sees only the boards it has played" in html
        assert "only you, the director" not in html
