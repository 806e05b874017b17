"""A Howell with its last pair missing (7 pairs) plays at 3 tables, one pair sitting out
each round: the table the missing pair would have kept is never used. The guide cards
counted it ("Howell: 4 tables"), and their relay stand one set short; the tables page
handed out a code for it, whose phone page said the director was "still setting up the
movement" while the night was on."""

import pytest

from boards.movements import generate, movement_instructions, movement_title
from tests.web.conftest import PAIR_NAMES, console_event
from tournaments import selectors
from tournaments.models import Meeting, TableCode

pytestmark = pytest.mark.django_db


def _seven_pair_howell(client, *, tables: int):
    event = console_event(client)
    response = client.post(f"/director/events/{event.pk}/pairs/",
                           {"pairs": "\n".join(PAIR_NAMES[:7])})
    assert response.status_code == 302, response.content.decode()[:2000]
    response = client.post(f"/director/events/{event.pk}/movement/", {
        "kind": "howell", "tables": str(tables), "boards_per_round": "2", "variant": "",
        "pairs_per_team": "", "action": "save"})
    assert response.status_code == 302, response.content.decode()[:3000]
    return event


def test_the_cards_count_the_tables_that_play():
    howell = generate("howell", tables=4, boards_per_round=2, pairs=7)
    assert howell.tables == 4 and howell.in_play == 3  # pair 8's table is left out
    assert movement_title(howell) == ("Howell: 3 tables and one sit-out, 7 pairs, 14 boards "
                                      "(7 sets of 2), 7 rounds")
    lines = movement_instructions(howell)
    # 7 board sets, 3 in play each round: 4 wait on the stand (round 1 plays 3 of them).
    in_play = {t.boards for t in howell.rounds[0].tables}
    assert len(in_play) == 3
    assert "Board sets not in play wait on a relay stand (4 a round)." in lines
    assert "Pair 8 is missing: the pair due to meet it sits out that round." in lines
    full = generate("howell", tables=4, boards_per_round=2)
    assert movement_title(full).startswith("Howell: 4 tables, 8 pairs, 14 boards")


@pytest.mark.parametrize("tables", [3, 4])  # both are accepted for 7 pairs (decision 54)
def test_no_code_for_the_table_the_movement_leaves_out(director_client, tables):
    event = _seven_pair_howell(director_client, tables=tables)
    played = set(Meeting.objects.filter(section__event=event).values_list("table", flat=True))
    assert len(played) == 3
    assert set(TableCode.objects.filter(section__event=event)
               .values_list("table", flat=True)) == played
    page = director_client.get(f"/director/events/{event.pk}/tables/").content.decode()
    assert page.count("<svg") == 3
    guide = director_client.get(f"/director/events/{event.pk}/guide-cards/").content.decode()
    assert "Howell: 3 tables and one sit-out, 7 pairs" in guide
    assert "4 tables" not in guide


def test_a_code_kept_from_an_earlier_movement_is_not_handed_out(client, director_client):
    """A 5-table Mitchell saved first for 9 pairs (pair 9 N-S at table 5), then a Howell,
    which plays at 4 tables: table 5's code stays (a phone may hold it) but is not
    listed, and its page says there is no game at that table."""
    event = console_event(director_client)
    director_client.post(f"/director/events/{event.pk}/pairs/",
                         {"pairs": "\n".join(PAIR_NAMES[:9])})
    response = director_client.post(f"/director/events/{event.pk}/movement/", {
        "kind": "mitchell", "tables": "5", "boards_per_round": "2", "variant": "",
        "pairs_per_team": "", "action": "save"})
    assert response.status_code == 302, response.content.decode()[:3000]
    old = TableCode.objects.get(section__event=event, table=5)
    response = director_client.post(f"/director/events/{event.pk}/movement/", {
        "kind": "howell", "tables": "4", "boards_per_round": "2", "variant": "",
        "pairs_per_team": "", "action": "save"})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert not Meeting.objects.filter(section__event=event, table=5).exists()
    assert [c.table for c in selectors.table_links(event)] == [1, 2, 3, 4]
    page = director_client.get(f"/director/events/{event.pk}/tables/").content.decode()
    assert old.code not in page
    client.post("/t/", {"code": old.code})
    phone = client.get(f"/t/{old.code}/").content.decode()
    assert ("No game at table 5: tonight's movement does not use it. Ask the director which "
            "table to play at.") in phone
    assert "still setting up" not in phone


def test_before_any_movement_the_phone_is_told_to_wait(client, director_client):
    event = _seven_pair_howell(director_client, tables=3)
    code = TableCode.objects.filter(section__event=event).first()
    Meeting.objects.filter(section__event=event).delete()
    assert selectors.table_links(event)  # no movement: every code is still listed
    client.post("/t/", {"code": code.code})
    phone = client.get(f"/t/{code.code}/").content.decode()
    assert "The director is still setting up the movement." in phone
    assert "No game at table" not in phone
