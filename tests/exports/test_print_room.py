"""The print room's results files: a refusal is read on the print room, never saved.

The links carry no ``download`` attribute: told to download, a browser saves whatever
comes back as a file, and a refusal comes back as the print room with its message (the
reviewer's ``download.html``, the message used up unread). The file is an attachment by
its own Content-Disposition.
"""

import html
import re

import pytest
from django.utils.html import strip_tags

from tests.tournaments.test_sections import _play, two_section_night
from tournaments import exports, standings
from tournaments.services import Actor

pytestmark = pytest.mark.django_db


def print_room(client, event) -> str:
    return client.get(f"/events/{event.pk}/reports/").content.decode()


def text_of(page: str) -> str:
    """The page as read: "N–S" is wrapped to stay on one line (the sides filter)."""
    return html.unescape(strip_tags(page))


def export_links(page: str) -> list[str]:
    return re.findall(r'<a [^>]*href="/director/events/\d+/exports/\w+/"[^>]*>', page)


def refusal_of(event, fmt: str) -> str:
    with pytest.raises(exports.ExportError) as caught:
        exports.export_results(event, fmt)
    return f"{caught.value}."


def test_the_links_download_by_the_files_own_header(night, director_client):
    page = print_room(director_client, night.event)
    links = export_links(page)
    assert len(links) == 2 and not any(" download" in link for link in links)
    for fmt in ("usebio", "pbn"):
        response = director_client.get(f"/director/events/{night.event.pk}/exports/{fmt}/")
        assert response.status_code == 200
        assert re.fullmatch(r'attachment; filename="event-\d+-results\.(xml|pbn)"',
                            response["Content-Disposition"])


def test_a_refused_file_is_said_on_the_print_room(director, director_client):
    """Said before the click, in place of its link; a link followed all the same (a page
    open from before) is refused in the same words, as a message on the print room."""
    actor = Actor.director(director)
    event = two_section_night(actor, by_section=True)
    _play(event, actor)
    standings.clear_cache()
    words = refusal_of(event, "usebio")
    assert "cannot show sections ranked apart" in words
    capital = words[:1].upper() + words[1:]  # the exporter's own words
    page = print_room(director_client, event)
    assert [link for link in export_links(page) if "/usebio/" in link] == []
    assert len(export_links(page)) == 1  # PBN can say sections ranked apart
    assert 'data-testid="export-refused-usebio"' in page and capital in text_of(page)
    response = director_client.get(f"/director/events/{event.pk}/exports/usebio/",
                                   follow=True)
    assert response.redirect_chain[-1][0] == f"/events/{event.pk}/reports/"
    page = response.content.decode()
    assert 'class="messages"' in page
    assert text_of(page).count(capital) == 2  # the message, and beside the links


def test_a_night_without_a_result_offers_no_file_and_says_why(night, director_client):
    """No result yet: neither file would hold anything, and each says so, in the words a
    download asked for all the same is refused in."""
    from tournaments.models import Result

    Result.objects.filter(event=night.event).update(voided=True)
    page = print_room(director_client, night.event)
    assert export_links(page) == []
    for fmt in ("usebio", "pbn"):
        assert f'data-testid="export-refused-{fmt}"' in page
        words = refusal_of(night.event, fmt)
        assert "no board of this event has a result yet" in words
        assert words[:1].upper() + words[1:] in text_of(page)


def test_the_print_room_asks_the_exporter_without_gathering_the_results(
        night, director_client, monkeypatch, django_assert_max_num_queries):
    """Asking each writer whether it would refuse meant gathering every result (76 ms on
    the demo's night, some 16 s on a big event): the print room asks the event's own
    fields instead, and a file is still made from the results when it is asked for."""
    def gathered(event):
        raise AssertionError("the print room gathered the results")

    monkeypatch.setattr(exports, "gather", gathered)
    with django_assert_max_num_queries(30):
        page = print_room(director_client, night.event)
    assert len(export_links(page)) == 2 and "export-refused" not in page
    monkeypatch.undo()
    response = director_client.get(f"/director/events/{night.event.pk}/exports/pbn/")
    assert response.status_code == 200 and b"[Contract " in response.content

