"""The table page and the guide cards say the same about where pairs and boards go
(one set of words: boards.movements.cards), after a change of movement too."""

import pytest

from boards.movements import generate
from tests.reports.night import movement_event
from tests.tournaments.test_movement_change import night, play_rounds
from tournaments import selectors, services

pytestmark = pytest.mark.django_db


def test_after_a_change_the_phone_says_where_the_boards_come_from_as_the_card(as_director):
    """A skip Mitchell changed to a relay from round 4: the table page named a table in
    play ("from table 3 (not in play that round: they wait there)") for boards the card
    sends to the bye stand, and for the new boards the change made."""
    event = night(tables=8, variant="skip", per_round=2)
    play_rounds(event, 3)
    services.movement_change(section=event.sections.get(), from_round=4, kind="mitchell",
                             tables=8, variant="relay", boards_per_round=2, actor=as_director,
                             reason="relay: one more round")
    section = event.sections.get()
    movement = selectors.section_movement(section)
    cards = selectors.guide_cards(event)
    said = []
    for card in cards["tables"]:
        for row in card["rounds"]:
            if not row["in_play"] or row["round"] == 1:
                continue
            where = selectors.where_next(section, card["table"], row["round"] - 1,
                                         movement=movement)
            if where is None:
                continue
            assert "wait there" not in where.coming
            # The phone's "Next round at this table" ends with the card's words.
            assert where.coming.endswith(f"board{'s' if len(row['boards']) > 1 else ''} "
                                         f"{row['boards_text']} {row['boards_from']}".rstrip())
            said.append(row["boards_from"])
    assert "from the bye stand between tables 4 and 5" in said
    assert "from the director" in said  # new boards, made for the change
    # ...and the card of the round before sends them to the bye stand.
    going = {row["boards_next"] for card in cards["tables"] for row in card["rounds"]}
    assert "the bye stand between tables 4 and 5" in going
    assert not any("wait there" in text for text in going)


def test_the_phone_tells_a_stationary_pair_that_turns_to_stay(director):
    """A Howell's stationary pair keeps its table and changes direction: the table page
    said "Go to table 4, E–W" to a pair already there; it says what the card says."""
    event = movement_event(director, generate("howell", tables=4, boards_per_round=2))
    section = event.sections.get()
    movement = selectors.section_movement(section)
    cards = {c["pair"]: c for c in selectors.guide_cards(event)["pairs"]}
    turns = 0
    for row in cards[8]["rounds"][:-1]:
        where = selectors.where_next(section, row["table"], row["round"], movement=movement)
        line = dict(where.lines)[f"{row['direction']} pair 8"]
        assert line == f"{row['next'][0].upper()}{row['next'][1:]}."
        assert line.startswith(f"Stay at table {row['table']}, ")
        turns += "sit" in line
    assert turns  # it changes direction at least once
