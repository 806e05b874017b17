"""Landmarks on the public pages: each navigation named, so a screen reader tells them apart.

axe-core's landmark-unique: the header's links and the event's own links were two unnamed
<nav>s on the standings, a traveller, a score card and the print & export page.
"""

import pytest


@pytest.mark.parametrize("path", ["standings/", "boards/1/", "pairs/1/"])
def test_the_event_pages_name_both_navigations(client, night, path):
    page = client.get(f"/events/{night.event.pk}/{path}").content.decode()
    assert '<nav aria-label="Site">' in page
    assert '<nav class="subnav" aria-label="Event">' in page
    assert "<nav>" not in page and '<nav class="subnav">' not in page


def test_print_and_export_names_its_navigation(director_client, night):
    page = director_client.get(f"/events/{night.event.pk}/reports/").content.decode()
    assert '<nav class="subnav" aria-label="Event">' in page
    assert '<nav aria-label="Site">' in page
