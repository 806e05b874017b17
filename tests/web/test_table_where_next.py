"""After a round the table page tells each pair and the boards where to go next."""

from boards.movements import generate
from tests.reports.night import movement_event
from tests.web.conftest import code_of, console_mitchell
from tournaments import services
from tournaments.models import Meeting
from tournaments.services import Actor


def play_round(event, round_number: int, table: int) -> None:
    """The table enters and confirms every board of its round, then agrees it."""
    meeting = Meeting.objects.select_related("section", "ns_pair", "ew_pair").get(
        section__event=event, round=round_number, table=table)
    actor = Actor.at_table(meeting.section, table)
    for board in meeting.boards:
        result, _ = services.result_record(
            event=event, board=board, ns=meeting.ns_pair.number, ew=meeting.ew_pair.number,
            data={"contract": {"level": 1, "denomination": "NT", "declarer": "N"},
                  "tricks": 7, "honours": {"N": 1, "E": 1, "S": 1, "W": 1}},
            actor=actor, meeting=meeting)
        services.result_confirm(result=result, actor=actor, by="E-W")
    services.round_agree(section=meeting.section, round_number=round_number, actor=actor)


def moves(page: str, testid: str) -> str:
    """The where-next box's HTML, with "N–S" and "E–W" read through their no-wrap spans."""
    box = page.split(f'data-testid="{testid}"')[1].split("</section>")[0]
    for side in ("N–S", "E–W"):
        assert f"{side}</span>" in box or side not in box  # never split after the dash
        box = box.replace(f'<span class="nowrap">{side}</span>', side)
    return box


def test_the_round_page_says_where_everyone_goes_next(director_client, client):
    event = console_mitchell(director_client, tables=7, boards_per_round=3)
    page = client.get(f"/t/{code_of(event, 1)}/").content.decode()
    box = moves(page, "where-next")
    assert "After round 1: where to go" in box
    assert "<strong>N–S pair 1:</strong> Stay at table 1, N–S." in box
    assert "<strong>E–W pair 8:</strong> Go to table 2, E–W." in box
    assert "<strong>Boards 1–3:</strong> Go to table 7." in box
    assert "Next round at this table: N–S pair 1 against E–W pair 14, boards 4–6 from " \
           "table 2." in box
    assert 'data-testid="round-over"' not in page


def test_after_agreeing_the_new_round_starts_with_where_to_go(director_client, client):
    event = console_mitchell(director_client, tables=7, boards_per_round=3)
    code = code_of(event, 2)
    play_round(event, 1, 2)
    page = client.get(f"/t/{code}/").content.decode()
    assert "Table 2 · round 2" in page
    box = moves(page, "round-over")
    assert "Round 1 is over: where to go" in box
    assert "<strong>E–W pair 9:</strong> Go to table 3, E–W." in box
    assert "<strong>Boards 4–6:</strong> Go to table 1." in box
    # One box, not two: the round's own "where next" waits until the round begins.
    assert 'data-testid="where-next"' not in page
    meeting = Meeting.objects.select_related("section", "ns_pair", "ew_pair").get(
        section__event=event, round=2, table=2)
    services.result_record(
        event=event, board=meeting.boards[0], ns=meeting.ns_pair.number,
        ew=meeting.ew_pair.number, actor=Actor.at_table(meeting.section, 2), meeting=meeting,
        data={"contract": {"level": 1, "denomination": "NT", "declarer": "N"}, "tricks": 7,
              "honours": {"N": 1, "E": 1, "S": 1, "W": 1}})
    page = client.get(f"/t/{code}/").content.decode()
    assert 'data-testid="round-over"' not in page
    assert "After round 2: where to go" in moves(page, "where-next")


def test_the_sit_out_pair_and_the_bye_stand_are_named(director, client):
    # A relay Mitchell of 4 tables with 7 pairs: one pair sits out each round.
    event = movement_event(director, generate("mitchell", tables=4, boards_per_round=2,
                                              variant="relay", pairs=7))
    # Table 3 sends its boards to the bye stand between tables 2 and 3.
    page = client.get(f"/t/{code_of(event, 3)}/").content.decode()
    assert "Go to the bye stand between tables 2 and 3." in moves(page, "where-next")
    texts = []
    for table in range(1, 5):
        for rnd in range(1, 5):
            response = client.get(f"/t/{code_of(event, table)}/round/{rnd}/")
            if response.status_code == 200:
                texts.append(response.content.decode())
    assert any("Sit out round" in text for text in texts)
    assert any("from the bye stand between tables 2 and 3" in text for text in texts)


def test_the_last_round_sends_the_boards_to_the_director(director_client, client):
    event = console_mitchell(director_client, tables=3, boards_per_round=2)
    page = client.get(f"/t/{code_of(event, 1)}/round/3/").content.decode()
    box = moves(page, "where-next")
    assert "Round 3 is the last round" in box
    assert "Go back to the director." in box and "Stay at" not in box
