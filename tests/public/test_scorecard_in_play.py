"""A pair's score card is that pair's line of each board's traveller, so it follows the
traveller's rule (access.shown_scorecard): while a board is still being played, anyone but
the director sees only who played it, not its contract, tricks or score, nor the running
total from it on (it would give the score away)."""

from tests.reports.night import build_night
from tournaments import presenters, selectors, services
from tournaments.access import finished_boards
from tournaments.models import Pair, Result

IN_PLAY = ">still in play<"
NOTE = "A board still in play shows here once every table has played it"


def _in_play(director):
    """A night whose last round is in but for one table's board: that board is still being
    played (the other tables' results of it stand), every other board finished."""
    night = build_night(director)
    last = (Result.objects.filter(event=night.event)
            .order_by("-meeting__round", "board__number").first())
    services.result_void(result=last, actor=night.actor, reason="to be played again")
    return night


def _first_pair(night) -> tuple[int, dict]:
    """A pair whose card has a board finished and a board still being played."""
    finished = finished_boards(night.event)
    for number in Pair.objects.filter(event=night.event).values_list("number", flat=True):
        card = selectors.scorecard(night.event, number)
        boards = {row["board"] for row in card["rows"]}
        if boards - finished and boards & finished:
            return number, card
    raise AssertionError("no pair with both")


def test_the_public_card_hides_a_board_still_being_played(client, director):
    night = _in_play(director)
    number, card = _first_pair(night)
    finished = finished_boards(night.event)
    hidden = [row for row in card["rows"] if row["board"] not in finished]
    shown = [row for row in card["rows"] if row["board"] in finished]
    html = client.get(f"/events/{night.event.pk}/pairs/{number}/").content.decode()
    assert html.count(IN_PLAY) == len(hidden)
    assert html.count('data-testid="board-in-play"') == len(hidden)
    assert NOTE in html
    assert f'data-testid="total">{presenters.signed(card["shown"])}</th>' in html  # kept

    api = client.get(f"/api/events/{night.event.pk}/pairs/{number}/scorecard/").json()
    rows = {row["board"]: row for row in api["rows"]}
    for row in hidden:
        out = rows[row["board"]]
        assert out["hidden"] is True
        assert (out["level"], out["tricks"], out["score"], out["running"]) == (
            None, None, None, None)
        assert out["opponents"] == row["opponents"]  # who played it is no secret
    first_hidden = min(card["rows"].index(row) for row in hidden)
    assert any(card["rows"].index(row) > first_hidden for row in shown)  # both cases met
    for row in shown:
        out = rows[row["board"]]
        assert out["hidden"] is False and out["score"] == row["score"]
        assert out["tricks"] == row["tricks"]
        if card["rows"].index(row) < first_hidden:
            assert out["running"] == row["running"]
        else:  # after a hidden board the running total would tell its score
            assert out["running"] is None
    assert api["total"] == card["total"]


def test_the_director_sees_every_board(director_client, director):
    night = _in_play(director)
    number, card = _first_pair(night)
    html = director_client.get(f"/events/{night.event.pk}/pairs/{number}/").content.decode()
    assert IN_PLAY not in html and NOTE not in html
    api = director_client.get(f"/api/events/{night.event.pk}/pairs/{number}/scorecard/").json()
    assert not any(row["hidden"] for row in api["rows"])
    assert [row["score"] for row in api["rows"]] == [row["score"] for row in card["rows"]]


def test_a_finished_night_hides_nothing(client, night):
    number = Pair.objects.filter(event=night.event).values_list("number", flat=True)[0]
    html = client.get(f"/events/{night.event.pk}/pairs/{number}/").content.decode()
    assert IN_PLAY not in html
