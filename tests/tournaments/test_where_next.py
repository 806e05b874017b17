"""Where the pairs and the boards go after each round, from the stored meetings.

One builder (boards.movements' table and pair cards, on the movement rebuilt from the
section's meetings) answers the table page's "where next", the guide cards' web page
and the printed guide cards.
"""

import pytest

from boards.movements import generate, pair_cards, table_cards
from tests.reports.night import movement_event
from tournaments import selectors
from tournaments.models import Meeting


def _section(director, **kwargs):
    event = movement_event(director, generate(**kwargs))
    return event, event.sections.get()


def test_the_stored_meetings_rebuild_the_generated_movement(director):
    movement = generate("mitchell", tables=6, boards_per_round=2, variant="relay", pairs=11)
    event = movement_event(director, movement)
    rebuilt = selectors.section_movement(event.sections.get())
    assert rebuilt.rounds == movement.rounds  # the same seats, boards and sit-outs
    assert (rebuilt.kind, rebuilt.variant, rebuilt.tables) == ("mitchell", "relay", 6)
    assert table_cards(rebuilt) == table_cards(movement)
    assert pair_cards(rebuilt) == pair_cards(movement)


def test_a_mitchell_pair_is_told_where_to_go(director):
    event, section = _section(director, kind="mitchell", tables=7, boards_per_round=3)
    where = selectors.where_next(section, 1, 1)
    assert where.lines == [
        ("N–S pair 1", "Stay at table 1, N–S."),
        ("E–W pair 8", "Go to table 2, E–W."),
        ("Boards 1–3", "Go to table 7."),
    ]
    assert where.coming == "N–S pair 1 against E–W pair 14, boards 4–6 from table 2"
    assert not where.last


def test_the_answer_follows_the_meetings_not_a_formula(director):
    """The director's stored meetings are the truth, whatever made them."""
    event, section = _section(director, kind="mitchell", tables=3, boards_per_round=2)
    # Swap the E-W pairs of tables 2 and 3 in round 2.
    at2 = Meeting.objects.get(section=section, round=2, table=2)
    at3 = Meeting.objects.get(section=section, round=2, table=3)
    at2.ew_pair, at3.ew_pair = at3.ew_pair, at2.ew_pair
    Meeting.objects.bulk_update([at2, at3], ["ew_pair"])
    first = Meeting.objects.get(section=section, round=1, table=1)
    where = selectors.where_next(section, 1, 1)
    assert (f"E–W pair {first.ew_pair.number}", "Go to table 3, E–W.") in where.lines


def test_the_pair_due_to_sit_out_is_told_so(director):
    # 7 pairs on 4 tables: pair 8 is missing, and the N-S pair due to meet it sits out.
    event, section = _section(director, kind="mitchell", tables=4, boards_per_round=2,
                              variant="relay", pairs=7)
    movement = selectors.section_movement(section)
    sitting = {rnd.number: rnd.sit_out for rnd in movement.rounds}
    assert all(len(pairs) == 1 for pairs in sitting.values())
    # Find a table whose N-S pair sits out next round.
    for rnd in movement.rounds[:-1]:
        for t in rnd.tables:
            if t.ns in sitting[rnd.number + 1]:
                where = selectors.where_next(section, t.table, rnd.number)
                assert (f"N–S pair {t.ns}", f"Sit out round {rnd.number + 1}.") in where.lines
                break
        else:
            continue
        break
    else:
        pytest.fail("no N-S pair sits out after a round")
    # A table not in play that round has nothing to say.
    idle = next((r.number, t) for r in movement.rounds for t in range(1, 5)
                if t not in {x.table for x in r.tables})
    assert selectors.where_next(section, idle[1], idle[0]) is None


def test_a_relay_mitchell_names_the_bye_stand(director):
    # 6 tables: the bye stand stands between tables 3 and 4; boards go from table 4 to
    # the bye stand and from the bye stand to table 3.
    event, section = _section(director, kind="mitchell", tables=6, boards_per_round=2,
                              variant="relay")
    to_stand = selectors.where_next(section, 4, 1)
    assert to_stand.lines[-1] == ("Boards 9–10",
                                  "Go to the bye stand between tables 3 and 4.")
    from_stand = selectors.where_next(section, 3, 1)
    assert from_stand.coming.endswith("from the bye stand between tables 3 and 4")
    # Tables 1 and 6 share their boards; both send them on to table 5.
    assert selectors.where_next(section, 1, 1).lines[-1] == ("Boards 1–2", "Go to table 5.")
    assert selectors.where_next(section, 6, 1).lines[-1] == ("Boards 1–2", "Go to table 5.")


def test_a_howell_sends_idle_boards_to_the_relay_stand(director):
    # The 3-table Howell shares boards: some set rests on the relay stand in some round.
    event, section = _section(director, kind="howell", tables=3, boards_per_round=3)
    texts = [what for t in range(1, 4) for r in range(1, 5)
             for where in [selectors.where_next(section, t, r)] if where
             for _, what in where.lines]
    assert "Go to the relay stand." in texts


def test_after_the_last_round_the_boards_go_back_to_the_director(director):
    event, section = _section(director, kind="mitchell", tables=3, boards_per_round=2)
    where = selectors.where_next(section, 2, 3)
    assert where.last and where.coming == ""
    assert where.lines == [("Boards 1–2", "Go back to the director.")]


def test_web_and_printed_cards_are_one_set_of_data(director):
    from tournaments.reports.services import report_data

    event, section = _section(director, kind="howell", tables=4, boards_per_round=2, pairs=7)
    cards = selectors.guide_cards(event)
    printed = report_data(event, "guidecards")
    assert printed["tables"] == cards["tables"] and printed["pairs"] == cards["pairs"]
    assert len(cards["pairs"]) == 7
    assert sum(r["table"] is None for c in cards["pairs"] for r in c["rounds"]) == 7
    # Each pair's "next" is its seat on the following round of its own card.
    for card in cards["pairs"]:
        rounds = card["rounds"]
        for now, then in zip(rounds, rounds[1:], strict=False):
            expected = "sit out" if then["table"] is None else \
                f"table {then['table']} {then['direction']}"
            if then["table"] is not None and then["table"] == now["table"]:  # it stays
                turn = "" if then["direction"] == now["direction"] else "sit "
                expected = f"stay at table {then['table']}, {turn}{then['direction']}"
            assert now["next"] == expected
        assert rounds[-1]["next"] == "end of play"
