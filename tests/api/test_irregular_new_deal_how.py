"""The API's new deal (Duplicate Law B(1), or B(3) at two tables) says how it is dealt, as
the director's page does (the same choice, default and refusals, irregular_forms.new_deal_how):
"hand" (re-dealt at the table by hand: the board keeps no deal, so no hands are published
that nobody played), "here" (dealt on the server: the director GETs the board to make it up)
or "pbn" (the deal given). Left out: PBN when a deal is given, else "here" for a board with
a hand record and "hand" for one without."""

import pytest
from rest_framework.test import APIClient

from scoring.engine import deal_from_north, parse_deal
from tests.irregular_nights import THREE_HEARTS, play, three_tables, two_tables
from tournaments.models import AuditEntry, Board, Irregularity, Result

PBN = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


def url(event, tail=""):
    return f"/api/events/{event.pk}/irregularities/{tail}"


def report_b1(client, event, board: int = 3) -> int:
    made = client.post(url(event), {"board": board, "stage": "original"}, format="json")
    assert made.status_code == 201, made.content
    return made.json()["id"]


def new_deal(client, event, irr: int, **data):
    return client.post(url(event, f"{irr}/new-deal/"), data, format="json")


def deal_of(event, number: int = 3) -> str:
    return Board.objects.get(event=event, number=number).deal


def decision(event) -> AuditEntry:
    return AuditEntry.objects.filter(
        event=event, action__in=("new deal", "irregular board")).latest("id")


@pytest.mark.parametrize("deals", [True, False])
def test_dealt_by_hand_keeps_no_deal_and_publishes_no_hands(director, director_client,
                                                            client, deals):
    event = three_tables(director, deals=deals)
    irr = report_b1(director_client, event)
    answer = new_deal(director_client, event, irr, dealt="hand", reason="East had 14")
    assert answer.status_code == 200, answer.content
    assert (answer.json()["status"], answer.json()["outcome"]) == ("resolved", "new-deal")
    assert deal_of(event) == ""
    entry = decision(event)
    assert entry.action == "irregular board" and entry.after["dealt"] == "by hand"
    # No hands anywhere: not to the director through the API, nor on the public traveller.
    board = director_client.get(f"/api/events/{event.pk}/boards/3/").json()
    assert not board["deal"]
    listed = director_client.get(f"/api/events/{event.pk}/boards/").json()
    assert not next(b for b in listed if b["number"] == 3)["deal"]
    traveller = director_client.get(f"/api/events/{event.pk}/boards/3/traveller/")
    assert traveller.status_code == 200 and traveller.json()["hands"] is None
    page = client.get(f"/events/{event.pk}/boards/3/").content.decode()
    assert 'data-testid="hand-record"' not in page and "hand-hidden" not in page


def test_dealt_here_deals_on_the_server_and_the_director_sees_the_hands(director,
                                                                        director_client):
    event = three_tables(director, deals=False)  # even where the default is by hand
    irr = report_b1(director_client, event)
    answer = new_deal(director_client, event, irr, dealt="here")
    assert answer.status_code == 200, answer.content
    new = deal_of(event)
    assert new and len(parse_deal(new)) == 4
    assert decision(event).after["dealt"] == "here"
    assert director_client.get(f"/api/events/{event.pk}/boards/3/").json()["deal"] == new


def test_dealt_as_pbn_keeps_the_deal_given(director, director_client):
    event = three_tables(director)
    irr = report_b1(director_client, event)
    answer = new_deal(director_client, event, irr, dealt="pbn", deal=PBN)
    assert answer.status_code == 200, answer.content
    assert deal_of(event) == deal_from_north(parse_deal(PBN))
    assert decision(event).after["dealt"] == "as given"


def test_left_out_a_board_with_a_hand_record_is_dealt_here(director, director_client):
    event = three_tables(director)
    old = deal_of(event)
    irr = report_b1(director_client, event)
    answer = new_deal(director_client, event, irr)
    assert answer.status_code == 200, answer.content
    assert deal_of(event) and deal_of(event) != old
    assert decision(event).after["dealt"] == "here"


def test_left_out_a_board_without_a_hand_record_is_re_dealt_by_hand(director,
                                                                    director_client):
    event = three_tables(director, deals=False)
    irr = report_b1(director_client, event)
    answer = new_deal(director_client, event, irr, dealt="")  # blank: left out
    assert answer.status_code == 200, answer.content
    assert deal_of(event) == ""
    assert decision(event).after["dealt"] == "by hand"


def test_left_out_with_a_deal_given_it_is_the_pbn(director, director_client):
    event = three_tables(director, deals=False)
    irr = report_b1(director_client, event)
    answer = new_deal(director_client, event, irr, deal=PBN)
    assert answer.status_code == 200, answer.content
    assert deal_of(event) == deal_from_north(parse_deal(PBN))


def test_an_unknown_way_of_dealing_is_a_400_naming_dealt(director, director_client):
    event = three_tables(director)
    old = deal_of(event)
    irr = report_b1(director_client, event)
    answer = new_deal(director_client, event, irr, dealt="shuffle")
    assert answer.status_code == 400
    body = answer.json()
    assert body["field"] == "dealt"
    assert body["error"].startswith('Say how the new deal is dealt: "hand"')
    assert '"shuffle"' in body["error"]
    assert Irregularity.objects.get(pk=irr).status == "reported"
    assert deal_of(event) == old


def test_pbn_with_no_deal_is_a_400_naming_deal(director, director_client):
    event = three_tables(director)
    old = deal_of(event)
    irr = report_b1(director_client, event)
    answer = new_deal(director_client, event, irr, dealt="pbn", deal="  ")
    assert answer.status_code == 400
    assert answer.json() == {"error": "Give the new deal as PBN, or choose how it is dealt",
                             "field": "deal"}
    assert Irregularity.objects.get(pk=irr).status == "reported"
    assert deal_of(event) == old


def test_b3_two_tables_by_hand_voids_both_results(director, director_client):
    event = two_tables(director, deals=False)
    play(event, 1, 1, 1, data=THREE_HEARTS)
    play(event, 2, 2, 1, data=THREE_HEARTS)
    made = director_client.post(url(event), {"board": 1, "stage": "overplay", "round": 2,
                                             "table": 2}, format="json")
    answer = new_deal(director_client, event, made.json()["id"], dealt="hand")
    assert answer.status_code == 200, answer.content
    assert deal_of(event, 1) == ""
    assert not Result.objects.filter(board__event=event, board__number=1,
                                     voided=False).exists()


def test_the_schema_documents_the_ways_of_dealing():
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    components = schema["components"]["schemas"]
    dealt = components["StepIn"]["properties"]["dealt"]
    assert "re-dealt at the table by hand" in dealt["description"]
    refs = [one["$ref"].rsplit("/", 1)[1] for one in dealt["oneOf"]]
    assert {value for name in refs for value in components[name]["enum"]} == {
        "", "hand", "here", "pbn"}


@pytest.mark.parametrize(("dealt", "way"), [("hand", "re-dealt at the table by hand"),
                                            ("here", "dealt here")])
def test_a_deal_given_with_another_choice_is_refused_not_dropped(director, director_client,
                                                                 dealt, way):
    event = three_tables(director)
    old = deal_of(event)
    irr = report_b1(director_client, event)
    answer = new_deal(director_client, event, irr, dealt=dealt, deal=PBN)
    assert answer.status_code == 400
    assert answer.json()["field"] == "deal"
    assert f"but the board is to be {way}" in answer.json()["error"]
    assert Irregularity.objects.get(pk=irr).status == "reported"
    assert deal_of(event) == old
