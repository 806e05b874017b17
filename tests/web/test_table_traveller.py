"""A table sees a board's traveller only once the players sitting there have played it."""

from tests.api.helpers import build_night
from tests.web.conftest import code_of, contract_post
from tests.web.test_table_flow import board_url
from tournaments import services
from tournaments.models import Meeting
from tournaments.services import Actor


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
    assert "once a pair at this table has played it" in refused.content.decode()
    assert "by N" not in refused.content.decode()
    # A board that does not exist at all is refused the same way.
    assert client.get(f"/t/{table1}/board/99/traveller/").status_code == 403


def test_a_pair_that_played_a_board_sees_it_after_the_move(client, event, table1):
    """After round 1 table 1 seats pairs 1 and 4. Pair 1 played board 1; pair 4 never
    plays it (boards 1-2 are played at table 1 in round 1 only): the screen may show it.
    (It used to answer "once you have played it" to the pair that had.)"""
    for board in (1, 2):
        client.post(board_url(table1, 1, board), contract_post(token=f"t{board}"))
        client.post(board_url(table1, 1, board, "confirm/"))
    assert client.get(f"/t/{table1}/board/1/traveller/").status_code == 200
    client.post(f"/t/{table1}/round/1/agree/")
    assert client.get(f"/t/{table1}/board/1/traveller/").status_code == 200
    page = client.get(f"/t/{table1}/round/1/").content.decode()
    assert 'data-testid="traveller-1"' in page


def test_not_while_a_pair_at_the_table_still_has_it_to_play(client, director):
    """A three-table Mitchell: after round 1 the E-W pair arriving at table 1 still has
    board 1 to play (in round 3, at table 2), so the screen they share shows nothing."""
    night = build_night(director)
    code = night.codes[1]
    night.play_round(1, 1)
    board = night.meeting(1, 1).boards[0]
    assert client.get(f"/t/{code}/board/{board}/traveller/").status_code == 200
    meeting = night.meeting(1, 1)
    services.round_agree(section=meeting.section, round_number=1,
                         actor=Actor.at_table(meeting.section, 1))
    arriving = night.meeting(1, 2).ew_pair
    theirs = list(Meeting.objects.filter(ew_pair=arriving))
    assert any(board in m.boards for m in theirs)
    refused = client.get(f"/t/{code}/board/{board}/traveller/")
    assert refused.status_code == 403
    assert "neither pair here still has it to play" in refused.content.decode()
    page = client.get(f"/t/{code}/round/1/").content.decode()
    assert f'data-testid="traveller-{board}"' not in page
    # Once the arriving pair has played the board too, both may see it.
    later = next(m for m in theirs if board in m.boards)
    for earlier in range(1, later.round):  # that table reaches the round (decisions.md, item 75)
        services.round_agree(section=meeting.section, round_number=earlier,
                             actor=night.actor, tables=[later.table])
    night.enter(later.table, later.round, board)
    assert client.get(f"/t/{code}/board/{board}/traveller/").status_code == 200


def test_a_whist_traveller_shows_each_sides_tricks_not_a_contract(client, director):
    # Duplicate Whist has no contract and no honour score: the table's traveller gives
    # each side's tricks, as the public one does, and the ± in view on a phone.
    from tests.reports.night import build_night as whist_night
    from tournaments.models import TableCode

    event = whist_night(director, rules="duplicate-whist").event
    code = TableCode.objects.filter(section__event=event).order_by("table").first().code
    meeting = Meeting.objects.filter(section__event=event, table=1).order_by("round").first()
    board = meeting.boards[0]
    page = client.get(f"/t/{code}/board/{board}/traveller/", follow=True)
    assert page.status_code == 200
    head = page.content.decode().split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert "N–S tricks<br>scored" in head and "E–W tricks<br>scored" in head
    assert "Contract" not in head and "honour" not in head
    # Under it, what "tricks scored" means, as on the public page.
    assert 'data-testid="tricks-scored-note"' in page.content.decode()


def test_the_columns_follow_how_the_event_is_scored(client, event, table1):
    """± against the average (Duplicate Law H), matchpoints, or neither in a team match,
    which compares the totals won (Law G): no empty "N–S ±" columns, no average."""
    from tournaments.models import Event

    client.post(board_url(table1, 1, 1), contract_post(token="a"))
    url = f"/t/{table1}/board/1/traveller/"
    text = client.get(url).content.decode()
    assert "N–S ±" in text and "Average of the tables: N–S" in text
    Event.objects.filter(pk=event.pk).update(method="matchpoints")
    text = client.get(url).content.decode()
    assert "N–S MP" in text and "N–S ±" not in text and "Average" not in text
    Event.objects.filter(pk=event.pk).update(kind="teams", method="total-points")
    text = client.get(url).content.decode()
    assert "N–S ±" not in text and "N–S MP" not in text and "Average" not in text
    assert "4<span" in text  # the result itself is there
