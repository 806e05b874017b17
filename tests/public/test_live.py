"""Live updating: the small JSON a page polls, and the fragment it reloads."""

from tests.reports.night import build_night
from tournaments.models import Event


def test_the_live_json_gives_the_change_number_and_what_is_published(client, night):
    response = client.get(f"/events/{night.event.pk}/live/")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    event = Event.objects.get(pk=night.event.pk)
    assert response.json() == {"event": event.pk, "seq": event.seq,
                               "published": "provisional", "status": "running"}


def test_the_change_number_moves_when_a_score_is_entered(client, director):
    night = build_night(director, play=False)
    before = client.get(f"/events/{night.event.pk}/live/").json()["seq"]
    night.play(rounds=1)
    after = client.get(f"/events/{night.event.pk}/live/").json()["seq"]
    assert after > before


def test_the_fragment_is_the_table_alone_and_shows_the_new_scores(client, director):
    night = build_night(director, play=False)
    url = f"/events/{night.event.pk}/standings/?fragment=1"
    empty = client.get(url).content.decode()
    assert "<html" not in empty and "No boards scored yet." in empty
    night.play(rounds=1)
    filled = client.get(url).content.decode()
    assert "Ann Lee & Bob Ray" in filled and "No boards scored yet." not in filled
    assert "no-store" in client.get(url)["Cache-Control"]


def test_each_live_page_names_its_json_and_fragment(client, night):
    pk = night.event.pk
    for path in ("standings/", "boards/2/", "pairs/3/"):
        html = client.get(f"/events/{pk}/{path}").content.decode()
        assert f'data-live-url="/events/{pk}/live/"' in html
        assert f'data-fragment-url="/events/{pk}/{path}?fragment=1"' in html
        assert 'src="/static/js/live.js"' in html
        fragment = client.get(f"/events/{pk}/{path}?fragment=1")
        assert fragment.status_code == 200 and b"<html" not in fragment.content
