"""Who sees what: the director everything, a table its own table, the public what is published.

Each test names the caller and the thing it must not reach; an event a caller may
not see is a 404 (its existence is not revealed), acting outside one's own table a 403.
"""

import pytest

from tournaments import services
from tournaments.models import Event, Result

from .helpers import TWO_HEARTS, TWO_HEARTS_BOARD_1, post, url

pytestmark = pytest.mark.django_db


def publish(night, level="provisional"):
    services.event_publish(event=night.event, level=level, actor=night.actor)


# --- events -----------------------------------------------------------------------------


def test_event_list_per_caller(night, other_night, public, table_client, director_client):
    publish(other_night)
    assert [e["name"] for e in public.get("/api/events/").json()] == ["Thursday duplicate"]
    assert {e["name"] for e in table_client(1).get("/api/events/").json()} == {
        "Tuesday duplicate", "Thursday duplicate"}
    assert len(director_client.get("/api/events/").json()) == 2


def test_the_public_cannot_see_an_unpublished_event(night, public):
    for tail in ("", "pairs/", "boards/", "boards/1/", "movement/", "teams/", "standings/",
                 "boards/1/traveller/", "pairs/1/scorecard/"):
        response = public.get(url(night.event, tail))
        assert response.status_code == 404, tail
        assert response.json()["error"] == "There is no such event."  # as for no id


def test_a_table_cannot_see_another_event(night, other_night, table_client):
    client = table_client(1)
    for tail in ("", "pairs/", "results/", "standings/", "sections/A/tables/1/"):
        assert client.get(url(other_night.event, tail)).status_code == 404, tail
    response = post(client, url(other_night.event, "results/"),
                    {"board": 1, "round": 1, "result": TWO_HEARTS})
    assert response.status_code == 404


def test_a_table_acts_only_in_its_own_event_even_when_another_is_published(
        night, other_night, table_client):
    publish(other_night)
    client = table_client(1)
    assert client.get(url(other_night.event, "standings/")).status_code == 200  # public data
    response = post(client, url(other_night.event, "results/"),
                    {"board": 1, "round": 1, "result": TWO_HEARTS})
    assert response.status_code == 403
    assert response.json()["error"] == "This table code belongs to another event"
    assert client.get(url(other_night.event, "sections/A/tables/1/")).status_code == 403


def test_director_actions_are_refused_to_the_public_and_the_tables(night, public,
                                                                   table_client):
    result = night.enter(1, 1)
    entry = result.audit.get()
    meeting = night.meeting(1, 1)
    writes = [
        ("/api/events/", {"name": "x", "date": "2026-11-18"}),
        (url(night.event, "status/"), {"status": "agreed"}),
        (url(night.event, "publish/"), {"published": "final"}),
        (url(night.event, "teams/"), {"names": ["A"]}),
        (url(night.event, "movement/"), {"movement": "mitchell", "tables": 3,
                                         "boards_per_round": 2}),
        (url(night.event, "rulings/"), {"board": meeting.boards[0], "ns": 1, "ew": 4,
                                        "ruling": "average", "reason": "x"}),
        (url(night.event, f"results/{result.pk}/void/"), {"reason": "x"}),
        (url(night.event, f"audit/{entry.pk}/undo/"), {}),
        (url(night.event, "sections/A/rounds/1/agree/"), {}),
    ]
    for address, body in writes:
        response = post(public, address, body)
        assert response.status_code == 401, address
        assert "director" in response.json()["error"]
        response = post(table_client(1), address, body)
        assert response.status_code == 403, address
        assert "director" in response.json()["error"]
    for method, tail, body in (("put", "pairs/1/", {"players": ["A", "B"]}),
                               ("put", "boards/", {"count": 3})):
        response = getattr(table_client(1), method)(url(night.event, tail), body, format="json")
        assert response.status_code == 403, tail
    assert table_client(1).get(url(night.event, "audit/")).status_code == 403
    assert public.get(url(night.event, "audit/")).status_code in (401, 404)
    night.event.refresh_from_db()
    assert night.event.status == Event.Status.RUNNING
    assert night.event.published == Event.Published.NONE


def test_the_public_cannot_enter_or_read_results(night, public):
    publish(night)
    response = post(public, url(night.event, "results/"),
                    {"board": 1, "ns": 1, "ew": 4, "result": TWO_HEARTS})
    assert response.status_code == 401
    assert public.get(url(night.event, "results/")).status_code == 401
    assert post(public, url(night.event, "score-preview/"),
                {"board": 1, "result": TWO_HEARTS}).status_code == 401


# --- a table's own rounds -------------------------------------------------------------


def test_table_code_opens_its_table(night, table_client):
    body = table_client(2).get("/api/table/").json()
    assert (body["event"]["id"], body["section"], body["table"]) == (night.event.pk, "A", 2)
    assert body["current_round"] == 1 and body["rounds"] == [1, 2, 3]


def test_a_table_sees_its_current_round(night, table_client):
    night.play_round(1, 1, agree=True)
    night.enter(1, 2)
    body = table_client(1).get(url(night.event, "sections/A/tables/1/")).json()
    meeting = night.meeting(1, 2)
    assert body["round"] == 2 and body["current"] is True
    assert body["ns"] == {"number": meeting.ns_pair.number, "names": meeting.ns_pair.names}
    assert [b["number"] for b in body["boards"]] == meeting.boards
    assert body["boards"][0]["result"]["result"] == TWO_HEARTS
    assert body["boards"][1]["result"] is None
    assert (body["entered"], body["confirmed"], body["agreed"]) == (1, 0, False)
    past = table_client(1).get(url(night.event, "sections/A/tables/1/rounds/1/")).json()
    assert past["agreed"] is True and past["current"] is False and past["confirmed"] == 2


def test_a_table_cannot_read_another_tables_round(night, table_client):
    client = table_client(1)
    for tail in ("sections/A/tables/2/", "sections/A/tables/2/rounds/1/",
                 "sections/B/tables/1/"):
        response = client.get(url(night.event, tail))
        assert response.status_code == 403, tail
        assert response.json()["error"].startswith("This is table 1 of section A")


def test_the_director_reads_any_tables_round(night, director_client):
    assert director_client.get(url(night.event, "sections/A/tables/3/rounds/2/")).json()[
        "table"] == 3
    assert director_client.get(url(night.event, "sections/A/tables/9/")).status_code == 404


def test_a_table_sees_only_its_own_meetings_in_the_movement(night, table_client,
                                                             director_client):
    mine = table_client(2).get(url(night.event, "movement/")).json()
    assert [r["round"] for r in mine[0]["rounds"]] == [1, 2, 3]
    assert {m["table"] for r in mine[0]["rounds"] for m in r["meetings"]} == {2}
    everything = director_client.get(url(night.event, "movement/")).json()
    assert [len(r["meetings"]) for r in everything[0]["rounds"]] == [3, 3, 3]
    assert everything[0]["movement"] == "mitchell"
    first = everything[0]["rounds"][0]["meetings"][0]
    meeting = night.meeting(1, 1)
    assert first == {"section": "A", "round": 1, "table": 1, "ns": meeting.ns_pair.number,
                     "ew": meeting.ew_pair.number, "boards": meeting.boards, "agreed": False,
                     "agreed_at": None, "late_boards": []}


# --- standings, travellers, score cards ------------------------------------------------


def test_standings_are_published_or_private(night, public, table_client, director_client):
    night.enter(1, 1)
    assert director_client.get(url(night.event, "standings/")).status_code == 200
    response = table_client(1).get(url(night.event, "standings/"))
    assert response.status_code == 403
    assert response.json()["error"] == "The standings of this event are not published yet."
    assert public.get(url(night.event, "standings/")).status_code == 404
    publish(night)
    body = public.get(url(night.event, "standings/")).json()
    assert body["published"] == "provisional" and body["kind"] == "pairs"
    assert table_client(1).get(url(night.event, "standings/")).status_code == 200


def test_scorecards_are_published_or_private(night, public, table_client, director_client):
    night.enter(1, 1)
    assert director_client.get(url(night.event, "pairs/1/scorecard/")).json()["pair"] == 1
    assert table_client(1).get(url(night.event, "pairs/1/scorecard/")).status_code == 403
    publish(night, "final")
    body = public.get(url(night.event, "pairs/1/scorecard/")).json()
    assert body["names"] == ["North 1", "South 1"] and len(body["rows"]) == 1
    assert public.get(url(night.event, "pairs/99/scorecard/")).status_code == 404


def test_a_table_reads_a_traveller_only_after_its_own_result(night, table_client):
    client = table_client(1)
    board = night.meeting(1, 1).boards[0]
    response = client.get(url(night.event, f"boards/{board}/traveller/"))
    assert response.status_code == 403
    assert "once a pair at this table has played it" in response.json()["error"]
    night.enter(1, 1, board)
    body = client.get(url(night.event, f"boards/{board}/traveller/")).json()
    assert [row["table"] for row in body["rows"]] == [1]
    assert body["deal"] is None and body["hands"] is None  # not finished, not published


def test_the_traveller_closes_when_new_pairs_arrive_who_have_not_played_it(night,
                                                                           table_client):
    """Mitchell: the E-W pair arriving for round 2 may still have to play round 1's boards."""
    board = night.meeting(1, 1).boards[0]
    night.play_round(1, 1, agree=True)
    arriving = night.meeting(1, 2).ew_pair
    assert not arriving.ew_results.filter(board__number=board).exists()
    response = table_client(1).get(url(night.event, f"boards/{board}/traveller/"))
    assert response.status_code == 403


def test_a_table_never_reads_a_traveller_of_a_board_it_has_not_played(night, table_client):
    board = night.meeting(2, 1).boards[0]
    night.enter(2, 1, board)  # played at table 2, not yet at table 1
    response = table_client(1).get(url(night.event, f"boards/{board}/traveller/"))
    assert response.status_code == 403


def test_the_public_reads_travellers_of_finished_boards_once_published(night, public,
                                                                        director_client):
    board = night.meeting(1, 1).boards[0]
    night.enter(1, 1, board)
    publish(night)
    response = public.get(url(night.event, f"boards/{board}/traveller/"))
    assert response.status_code == 403
    assert response.json()["error"].startswith(f"Board {board} is still being played")
    night.play_all()
    body = public.get(url(night.event, "boards/1/traveller/")).json()
    assert len(body["rows"]) == 3 and body["deal"].startswith("N:AKQJ")
    assert body["hands"]["N"]["S"] == "AKQJ"
    assert director_client.get(url(night.event, "boards/9/traveller/")).status_code == 404
    assert public.get(url(night.event, "boards/9/traveller/")).status_code == 404


def test_deals_are_hidden_until_the_board_is_finished_and_published(night, public,
                                                                    table_client,
                                                                    director_client):
    assert director_client.get(url(night.event, "boards/1/")).json()["deal"].startswith("N:")
    assert table_client(1).get(url(night.event, "boards/1/")).json()["deal"] is None
    publish(night)
    assert public.get(url(night.event, "boards/1/")).json()["deal"] is None
    night.play_all()
    boards = public.get(url(night.event, "boards/")).json()
    assert boards[0]["deal"].startswith("N:") and boards[0]["dealer"] == "N"
    assert all(b["deal"] is None for b in boards[1:])  # no hand record for these


# --- the live score ------------------------------------------------------------------


def test_score_preview_for_a_board_at_the_table(night, table_client):
    assert 1 in night.meeting(1, 1).boards  # board 1, with its hand record, starts at table 1
    response = post(table_client(1), url(night.event, "score-preview/"),
                    {"board": 1, "result": TWO_HEARTS_BOARD_1}, idem=None)
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["honours_from_deal"] is True
    assert body["honours"] == {"N": 3, "E": 0, "S": 2, "W": 0}
    assert sum(i["points"] for i in body["items"] if i["side"] == "ns") == body["ns"]["total"]
    assert Result.objects.count() == 0  # nothing stored


def test_score_preview_only_for_the_boards_being_played_at_the_table(night, table_client):
    """Honours come from the hand record: previewing a board the table has still to play
    would tell it how the honours lie."""
    later = night.meeting(1, 2).boards[0]
    response = post(table_client(1), url(night.event, "score-preview/"),
                    {"board": later, "result": TWO_HEARTS}, idem=None)
    assert response.status_code == 403
    assert response.json()["error"] == f"Board {later} is not played at your table this round"


def test_score_preview_explains_bad_input(night, director_client):
    response = post(director_client, url(night.event, "score-preview/"),
                    {"board": 2, "result": {"contract": {"level": 8, "denomination": "H",
                                                         "declarer": "S"}, "tricks": 8}})
    assert response.status_code == 400
    assert response.json()["field"] == "result.contract.level"
