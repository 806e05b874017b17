"""A table whose boards the director ruled not played (a late pair) has every board in but
stays in its round until it agrees it on its phone: the director's page for that table
says so, and the grid counts the boards once ("2 not played", never also "2 agreed")."""

import re

import pytest

from tournaments import services
from tournaments.models import Meeting, Section
from tournaments.services import Actor

pytestmark = pytest.mark.django_db


def counts(page: str, meeting: Meeting) -> str:
    cell = page.split(f'id="cell-{meeting.pk}"')[1].split("</td>")[0]
    return re.search(r"data-counts>(.*?)</span>", cell, re.S).group(1).strip()


def cell_json(client, event, meeting: Meeting) -> dict:
    grid = client.get(f"/director/events/{event.pk}/grid.json").json()
    return next(c for c in grid["cells"] if c["id"] == meeting.pk)


def test_both_boards_not_played_the_table_must_still_agree(director_client, event, director):
    m = Meeting.objects.get(section__event=event, round=1, table=1)
    services.boards_not_played(meeting=m, boards=[1, 2], actor=Actor.director(director),
                               reason="pair 3 came late")
    page = director_client.get(f"/director/events/{event.pk}/meetings/{m.pk}/").content.decode()
    assert 'data-testid="must-agree"' in page
    assert "Table 1 must still agree round 1 on its phone." in page
    grid = director_client.get(f"/director/events/{event.pk}/").content.decode()
    assert counts(grid, m) == "2 not played"  # not "2 confirmed · 2 not played"
    assert "the table must still agree round 1 on its phone" in grid
    cell = cell_json(director_client, event, m)
    assert (cell["status"], cell["confirmed"], cell["not_played"]) == ("confirmed", 0, 2)

    # The table agrees it: two boards, both not played, agreed; nothing counted twice.
    section = Section.objects.get(event=event)
    services.round_agree(section=section, round_number=1, actor=Actor.at_table(section, 1),
                         tables=[1])
    m.refresh_from_db()
    page = director_client.get(f"/director/events/{event.pk}/meetings/{m.pk}/").content.decode()
    assert 'data-testid="must-agree"' not in page
    grid = director_client.get(f"/director/events/{event.pk}/").content.decode()
    assert counts(grid, m) == "0 agreed · 2 not played"  # as the live grid's script writes it
    cell = cell_json(director_client, event, m)
    assert (cell["status"], cell["agreed"], cell["not_played"]) == ("agreed", 0, 2)


def test_a_round_still_open_says_nothing_of_agreeing(director_client, event):
    m = Meeting.objects.get(section__event=event, round=1, table=1)
    page = director_client.get(f"/director/events/{event.pk}/meetings/{m.pk}/").content.decode()
    assert 'data-testid="must-agree"' not in page
    grid = director_client.get(f"/director/events/{event.pk}/").content.decode()
    assert "must still agree" not in grid
