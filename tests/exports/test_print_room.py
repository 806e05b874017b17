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
    actor = Actor.director(director)
    event = two_section_night(actor, by_section=True)
    _play(event, actor)
    standings.clear_cache()
    words = refusal_of(event, "usebio")
    assert "cannot show sections ranked apart" in words
    response = director_client.get(f"/director/events/{event.pk}/exports/usebio/",
                                   follow=True)
    assert response.redirect_chain[-1][0] == f"/events/{event.pk}/reports/"
    page = response.content.decode()
    assert 'class="messages"' in page
    assert words[:1].upper() + words[1:] in text_of(page)  # the exporter's own words
    assert len(export_links(page)) == 2
