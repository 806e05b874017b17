"""The console's movement page says what is wrong with a request, every time, and names
a team match's teams as the director entered them."""

import html

import pytest

from tests.web.conftest import PAIR_NAMES, console_event
from tournaments.models import Meeting

TEAM_PAIRS = ["Gramercy: Ann Lee & Bob Ray", "Gramercy: Cy Dow & Di Eck",
              "Murray Hill: Ed Fox & Flo Gay", "Murray Hill: Gus Hay & Hal Ing"]
TEAM_MATCH_REFUSED = ("A team match is for a teams event: this event is a pairs event "
                      "(choose Mitchell or Howell, or start a teams event).")


def _pairs_event(client):
    event = console_event(client)
    client.post(f"/director/events/{event.pk}/pairs/", {"pairs": "\n".join(PAIR_NAMES[:4])})
    return event


def _teams_event(client, lines=TEAM_PAIRS):
    event = console_event(client, name="Challenge match", kind="teams", method="total-points")
    response = client.post(f"/director/events/{event.pk}/pairs/", {"pairs": "\n".join(lines)})
    assert response.status_code == 302, response.content.decode()[:2000]
    return event


def _post(client, event, **fields):
    data = {"kind": "mitchell", "tables": "", "boards_per_round": "3", "variant": "",
            "pairs_per_team": "", "action": "show", **fields}
    return client.post(f"/director/events/{event.pk}/movement/", data)


@pytest.mark.parametrize("action", ["show", "save"])
def test_a_team_match_on_a_pairs_event_is_refused_in_plain_words(director_client, action):
    event = _pairs_event(director_client)
    page = director_client.get(f"/director/events/{event.pk}/movement/").content.decode()
    assert 'value="team-match"' not in page  # not offered for a pairs event
    # A page left open from before, or a hand-made request, is told why.
    response = _post(director_client, event, kind="team-match", pairs_per_team="2",
                     action=action)
    text = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert 'data-testid="form-errors"' in text
    assert TEAM_MATCH_REFUSED in text
    assert 'id="movement-preview"' not in text
    assert not Meeting.objects.filter(section__event=event).exists()


@pytest.mark.parametrize(("teams", "fields", "errors"), [
    (False, {"kind": "team-match", "pairs_per_team": ""}, [TEAM_MATCH_REFUSED]),
    (False, {"kind": "mitchell", "tables": ""}, ["How many tables?"]),
    (False, {"kind": "howell", "tables": "0", "boards_per_round": ""},
     ["At least 1 table (and at most 30).", "How many boards a round?"]),
    (False, {"kind": "mitchell", "tables": "2", "variant": "zig"},
     ["Select a valid choice. zig is not one of the available choices."]),
    (False, {"kind": "no-such-movement", "tables": "2"},
     ["Select a valid choice. no-such-movement is not one of the available choices."]),
    (True, {"kind": "team-match", "pairs_per_team": ""}, ["How many pairs in each team?"]),
    (True, {"kind": "team-match", "pairs_per_team": "13"},
     ["At most 12 pairs in each team (and at least 2)."]),
    (True, {"kind": "mitchell", "tables": ""}, ["How many tables?"]),
], ids=["pairs-team-match", "pairs-no-tables", "pairs-bad-numbers", "pairs-bad-variant",
        "pairs-bad-kind", "teams-no-pairs-per-team", "teams-too-many-pairs-per-team",
        "teams-no-tables"])
def test_every_error_of_the_form_is_on_the_page(director_client, teams, fields, errors):
    """Whatever MovementForm refuses, the director reads why: no error may sit on a field
    the page does not show (a pairs event's "pairs per team" once did)."""
    event = _teams_event(director_client) if teams else _pairs_event(director_client)
    response = _post(director_client, event, **fields)
    text = html.unescape(response.content.decode())
    assert response.status_code == 200
    for error in errors:
        assert error in text, error
    assert 'id="movement-preview"' not in text
    assert not Meeting.objects.filter(section__event=event).exists()


def test_the_team_match_preview_names_the_teams_entered(director_client):
    event = _teams_event(director_client)
    response = _post(director_client, event, kind="team-match", pairs_per_team="2")
    text = html.unescape(response.content.decode())
    assert 'id="movement-preview"' in text
    assert "Gramercy: pairs 1, 2 · Murray Hill: pairs 3, 4" in text
    assert "Team A" not in text and "Team B" not in text


def test_a_side_without_one_team_name_falls_back_to_its_letter(director_client):
    """Four pairs a team with four pairs entered: side A mixes both teams (the page says
    so) and side B has no pairs entered yet, so no name."""
    event = _teams_event(director_client)
    response = _post(director_client, event, kind="team-match", pairs_per_team="4")
    text = html.unescape(response.content.decode())
    assert "Team A (Gramercy, Murray Hill): pairs 1, 2, 3, 4 · Team B: pairs 5, 6, 7, 8" in text


@pytest.mark.parametrize(("fields", "error"), [
    ({"kind": "mitchell", "tables": "4", "variant": "relay", "boards_per_round": "1"},
     "A relay Mitchell needs at least 2 boards a round: tables 1 and 4 share a set every "
     "round"),
    ({"kind": "howell", "tables": "3", "boards_per_round": "2"},
     "A Howell of 3 tables needs at least 3 boards a round: in one round all three tables "
     "share one set"),
], ids=["relay-one-board", "three-table-howell-two-boards"])
@pytest.mark.parametrize("action", ["show", "save"])
def test_a_shared_set_with_a_table_waiting_is_refused(director_client, fields, error, action):
    """Tables sharing a set pass its boards between them: with fewer boards than tables
    sharing, one waits for a board, so neither the preview nor the save takes it."""
    event = console_event(director_client)
    pairs = 2 * int(fields["tables"])
    director_client.post(f"/director/events/{event.pk}/pairs/",
                         {"pairs": "\n".join(PAIR_NAMES[:pairs])})
    response = _post(director_client, event, **fields, action=action)
    text = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert error in text
    assert 'id="movement-preview"' not in text
    assert not Meeting.objects.filter(section__event=event).exists()
