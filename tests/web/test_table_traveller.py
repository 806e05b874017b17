"""A table sees a board's traveller only once the players sitting there have played it."""

from tests.web.conftest import code_of, contract_post
from tests.web.test_table_flow import board_url


def test_traveller_only_after_the_board_is_entered(client, event, table1):
    assert client.get(f"/t/{table1}/board/1/traveller/").status_code == 403
    client.post(board_url(table1, 1, 1), contract_post(token="a"))
    page = client.get(board_url(table1, 1, 1)).content.decode()
    assert 'id="see-traveller"' in page
    traveller = client.get(f"/t/{table1}/board/1/traveller/")
    assert traveller.status_code == 200
    text = traveller.content.decode()
    assert 'id="traveller"' in text and "Board 1: traveller" in text
    assert "4<span" in text  # the contract 4♥


def test_never_a_board_the_table_has_not_played(client, event, table1):
    # Table 2 plays board 3 in round 1 and enters it.
    table2 = code_of(event, 2)
    client.post(board_url(table2, 1, 3), contract_post(declarer="N", token="b"))
    assert client.get(f"/t/{table2}/board/3/traveller/").status_code == 200
    # Table 1 has not played board 3: refused, with a reason players understand.
    refused = client.get(f"/t/{table1}/board/3/traveller/")
    assert refused.status_code == 403
    assert "once you have played it" in refused.content.decode()
    assert "by N" not in refused.content.decode()
    # A board that does not exist at all is refused the same way.
    assert client.get(f"/t/{table1}/board/99/traveller/").status_code == 403


def test_not_for_a_pair_that_has_yet_to_play_it(client, event, table1):
    """After round 1 table 1 seats pair 4, who has not played board 1: no traveller."""
    for board in (1, 2):
        client.post(board_url(table1, 1, board), contract_post(token=f"t{board}"))
        client.post(board_url(table1, 1, board, "confirm/"))
    assert client.get(f"/t/{table1}/board/1/traveller/").status_code == 200
    client.post(f"/t/{table1}/round/1/agree/")
    assert client.get(f"/t/{table1}/board/1/traveller/").status_code == 403
    # Round 1's page no longer offers the traveller either.
    page = client.get(f"/t/{table1}/round/1/").content.decode()
    assert 'data-testid="traveller-1"' not in page
