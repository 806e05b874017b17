"""The live grid: rounds x tables, each cell counting missing, entered, confirmed, agreed."""

import pytest

from tests.web.test_director_results import meeting_at, table_result
from tournaments import selectors, services
from tournaments.services import Actor


@pytest.fixture
def night(mitchell, director):
    """Round 1 of a 7-table Mitchell under way: every state of a cell somewhere."""
    actor = Actor.director(director)
    services.event_set_status(event=mitchell, status="running", actor=actor)
    # table 1: all three boards, one confirmed
    m1 = meeting_at(mitchell, 1, 1)
    results = [table_result(mitchell, m1, b) for b in m1.boards]
    table = Actor.at_table(m1.section, 1)
    services.result_confirm(result=results[0], actor=table)
    # table 2: everything confirmed
    m2 = meeting_at(mitchell, 1, 2)
    for b in m2.boards:
        services.result_confirm(result=table_result(mitchell, m2, b),
                                actor=Actor.at_table(m2.section, 2))
    # table 3: all confirmed and agreed
    m3 = meeting_at(mitchell, 1, 3)
    for b in m3.boards:
        services.result_confirm(result=table_result(mitchell, m3, b),
                                actor=Actor.at_table(m3.section, 3))
    services.round_agree(section=m3.section, round_number=1, actor=Actor.at_table(m3.section, 3))
    # table 4: one board ruled by the director (counts as confirmed), two missing
    m4 = meeting_at(mitchell, 1, 4)
    services.ruling_award(event=mitchell, board=m4.boards[0], ns=m4.ns_pair.number,
                          ew=m4.ew_pair.number, kind="average", reason="short hand",
                          actor=actor, meeting=m4)
    # a voided result does not count
    m5 = meeting_at(mitchell, 1, 5)
    services.result_void(result=table_result(mitchell, m5, m5.boards[0]), actor=actor,
                         reason="wrong table")
    mitchell.refresh_from_db()
    return mitchell


def cells_by_table(data, rnd=1):
    return {c["table"]: c for c in data["cells"] if c["round"] == rnd}


def test_grid_counts_and_colours(night):
    cells = cells_by_table(selectors.grid_json(night))
    pick = ("missing", "entered", "confirmed", "agreed", "status")
    assert {k: cells[1][k] for k in pick} == {"missing": 0, "entered": 2, "confirmed": 1,
                                               "agreed": 0, "status": "entered"}
    assert {k: cells[2][k] for k in pick} == {"missing": 0, "entered": 0, "confirmed": 3,
                                               "agreed": 0, "status": "confirmed"}
    assert {k: cells[3][k] for k in pick} == {"missing": 0, "entered": 0, "confirmed": 0,
                                               "agreed": 3, "status": "agreed"}
    assert {k: cells[4][k] for k in pick} == {"missing": 2, "entered": 0, "confirmed": 1,
                                               "agreed": 0, "status": "entered"}
    assert cells[5]["status"] == "missing" and cells[5]["missing"] == 3
    assert len(selectors.grid_json(night)["cells"]) == 49


def test_grid_json_view(director_client, night):
    body = director_client.get(f"/director/events/{night.pk}/grid.json").json()
    assert body["irregular"] == []  # no report open: nothing for the console to announce
    assert body["seq"] == night.seq and len(body["cells"]) == 49
    assert cells_by_table(body)[3]["status"] == "agreed"


def test_grid_json_says_which_tables_must_still_agree(director_client, night):
    """Each cell carries its hover text and the must-agree flag, so the live grid repaints
    them too; the keys the console read before stay as they were."""
    cells = cells_by_table(director_client.get(f"/director/events/{night.pk}/grid.json").json())
    assert {"id", "section", "round", "table", "boards", "missing", "entered", "confirmed",
            "agreed", "status", "not_played", "late", "late_leave"} < set(cells[1])
    # Table 2: every board confirmed, the round not agreed: its phone waits for it.
    assert cells[2]["must_agree"] is True
    assert cells[2]["title"] == ("Round 1, table 2: every board is in; the table must still "
                                 "agree round 1 on its phone")
    # In progress (1, 4), agreed (3), nothing in (5 and on): just where the cell is.
    for table in (1, 3, 4, 5, 6, 7):
        assert cells[table]["must_agree"] is False
        assert cells[table]["title"] == f"Round 1, table {table}"
    # The page draws the same hover text as the script repaints.
    page = director_client.get(f"/director/events/{night.pk}/").content.decode()
    for table in (1, 2, 3):
        assert f'title="{cells[table]["title"]}" data-cell-link' in page


def test_event_page_paints_the_grid(director_client, night):
    page = director_client.get(f"/director/events/{night.pk}/").content.decode()
    m3 = meeting_at(night, 1, 3)
    assert f'id="cell-{m3.pk}" data-meeting="{m3.pk}" data-status="agreed"' in page
    assert 'class="cell status-agreed"' in page and 'class="cell status-entered"' in page
    assert "2 entered · 1 confirmed" in page and "3 agreed" in page
    assert f'href="/director/events/{night.pk}/meetings/{m3.pk}/"' in page
    assert 'data-grid-url="/director/events/' in page and "js/director.js" in page
    assert '<meta http-equiv="refresh"' in page  # the no-script fallback


def test_the_legend_says_what_the_colours_mean(director_client, night):
    """A cell with boards still to enter and none merely entered ("2 missing · 1 confirmed")
    is yellow, so the legend's yellow says "in progress", not "entered"."""
    page = director_client.get(f"/director/events/{night.pk}/").content.decode()
    m4 = meeting_at(night, 1, 4)
    assert f'id="cell-{m4.pk}" data-meeting="{m4.pk}" data-status="entered"' in page
    assert "2 missing · 1 confirmed" in page
    legend = page.split('<p class="legend note">', 1)[1].split("</p>", 1)[0]
    assert '<span class="status-missing">nothing in yet</span>' in legend
    assert ('<span class="status-entered">in progress: boards still to enter or confirm'
            '</span>') in legend
    assert '<span class="status-confirmed">every board confirmed</span>' in legend
    assert '<span class="status-agreed">agreed</span>' in legend


def test_grid_is_two_queries_for_seven_tables(night, django_assert_max_num_queries):
    with django_assert_max_num_queries(2):
        grids = selectors.round_grid(night)
        cells = [c for g in grids for _, row in g.rounds for c in row if c]
        assert len(cells) == 49
        assert sum(c.confirmed for c in cells) == 8  # table 3's three count until agreed
        # the cells' pairs and sections are already loaded
        assert {c.meeting.ns_pair.number for c in cells} == set(range(1, 8))
        assert {c.meeting.section.name for c in cells} == {"A"}


def test_grid_view_queries_do_not_grow_with_tables(director_client, night,
                                                   django_assert_max_num_queries):
    director_client.get(f"/director/events/{night.pk}/grid.json")  # warm the session
    # session, user, event, meetings, counts, and the open irregular boards (announced)
    with django_assert_max_num_queries(6):
        director_client.get(f"/director/events/{night.pk}/grid.json")
    # and the open irregular boards, and the pairs that have left (beside the movement)
    with django_assert_max_num_queries(14):
        director_client.get(f"/director/events/{night.pk}/")


def test_table_round_page_queries_are_bounded(client, night, django_assert_max_num_queries):
    from tournaments.models import TableCode

    code = TableCode.objects.get(section__event=night, table=1).code
    client.get(f"/t/{code}/")
    with django_assert_max_num_queries(14):
        assert client.get(f"/t/{code}/").status_code == 200
