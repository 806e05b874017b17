"""What the guide cards say about where pairs and boards go: the words the table card,
the pair card and the table page share (boards.movements.cards)."""

from dataclasses import replace

import pytest

from boards.movements import (
    Movement,
    Round,
    TableRound,
    fit,
    generate,
    guide_cards_text,
    pair_cards,
    table_cards,
)
from boards.movements.cards import _pair_card_lines, boards_origin


def changed(old: Movement, new: Movement, from_round: int) -> Movement:
    """`old` played up to `from_round`, then `new` fitted to it, as a night's stored
    meetings rebuild it (selectors.section_movement: the new movement's kind and variant,
    every round)."""
    history = tuple(r for r in old.rounds if r.number < from_round)
    fitted = fit(new, from_round, history, list(range(1, new.pairs + 1)),
                 boards_made=old.boards)
    return replace(fitted, rounds=history + fitted.rounds, tables=max(old.tables, fitted.tables),
                   boards=max(old.boards, fitted.boards))


def resting_words(movement: Movement) -> tuple[dict, dict]:
    """Per (round, board) resting that round: the card's words for where the boards go
    (the round before) and the table page's for where they come from (the round after)."""
    going, coming = {}, {}
    for card in table_cards(movement):
        for row in card.rows:
            for move in row.boards_next:
                if move.waiting or not move.tables:
                    going.update({(row.round + 1, b): str(move) for b in move.boards})
            for move in row.boards_from:
                if move.waiting or not move.tables:
                    coming.update({(row.round - 1, b): str(move) for b in move.boards})
    return going, coming


@pytest.mark.parametrize(("old", "new"), [("skip", "relay"), ("relay", "skip")])
def test_after_a_change_card_and_phone_name_one_resting_place(old, new):
    """A board nobody plays in a round waits in one place: the card of the round before
    and the phone of the round after said different ones after a change (the phone "from
    table 3 (not in play that round: they wait there)" where the card said the bye
    stand), and named tables in play as where boards wait."""
    movement = changed(generate("mitchell", tables=8, variant=old, boards_per_round=2),
                       generate("mitchell", tables=8, variant=new, boards_per_round=2), 4)
    going, coming = resting_words(movement)
    both = going.keys() & coming.keys()
    assert both  # some boards rest (on the bye stand) in the relay rounds
    assert {k: going[k] for k in both} == {k: coming[k] for k in both}
    playing = {r.number: {t.table for t in r.tables} for r in movement.rounds}
    for card in table_cards(movement):
        for row in card.rows:
            for move, rnd in [*((m, row.round + 1) for m in row.boards_next),
                              *((m, row.round - 1) for m in row.boards_from)]:
                assert not (move.waiting and set(move.tables) & playing[rnd]), (card.table, row)
    assert set(going.values()) | set(coming.values()) <= {
        "the bye stand between tables 4 and 5", "the director"}


def test_boards_from_the_bye_stand_after_a_change_to_a_relay():
    """Skip Mitchell changed to a relay from round 4: the boards that waited on the bye
    stand in round 4 come to their table "from the bye stand" in round 5; the new boards
    the change made come from the director (they had "wait at table 3", in play)."""
    movement = changed(generate("mitchell", tables=8, variant="skip", boards_per_round=2),
                       generate("mitchell", tables=8, variant="relay", boards_per_round=2), 4)
    rows = {(c.table, r.round): r for c in table_cards(movement) for r in c.rows}
    assert boards_origin(rows[(4, 5)]) == "from the bye stand between tables 4 and 5"
    assert rows[(5, 4)].boards_next[0].stand == "bye stand between tables 4 and 5"
    new_boards = [r for r in rows.values()
                  if r.round == 4 and min(r.boards) > 16]  # the skip had 16 boards
    assert new_boards and all(boards_origin(r) in ("from the director",
                                                   "from the director, shared with table 8",
                                                   "from the director, shared with table 1")
                              for r in new_boards)


def test_the_table_card_says_where_each_rounds_boards_come_from():
    movement = generate("mitchell", tables=8, variant="relay", boards_per_round=3)
    rows = {(c.table, r.round): r for c in table_cards(movement) for r in c.rows}
    assert boards_origin(rows[(1, 1)]) == "shared with table 8"
    assert boards_origin(rows[(1, 2)]) == "from table 2, shared with table 8"
    assert boards_origin(rows[(2, 2)]) == "from table 3"
    assert boards_origin(rows[(4, 2)]) == "from the bye stand between tables 4 and 5"
    assert boards_origin(rows[(2, 1)]) == ""  # round 1: the director set them out
    text = guide_cards_text(movement)
    assert "      2    2    9  7–9  from table 3\n" in text
    assert "      2    4   11  13–15  from the bye stand between tables 4 and 5\n" in text
    assert "      1    1    9  1–3  shared with table 8\n" in text


def test_a_pair_that_stays_is_told_to_stay():
    """A Mitchell's N–S pair and a Howell's stationary pair stay at their table; a pair
    staying at its table but turning sits the other way: the card said "table 3 N–S"."""
    mitchell = generate("mitchell", tables=5, boards_per_round=2)
    ns = next(c for c in table_cards(mitchell) if c.table == 3).rows[0]
    assert str(ns.ns_next) == "stay at table 3, N–S"
    assert str(ns.ew_next) == "table 4 E–W"
    pair = next(c for c in pair_cards(mitchell) if c.pair == 3)
    assert {str(r.next) for r in pair.rows[:-1]} == {"stay at table 3, N–S"}
    howell = generate("howell", tables=4, boards_per_round=2)
    stationary = next(c for c in pair_cards(howell) if c.pair == 8)
    assert all(str(r.next).startswith(f"stay at table {r.table}, ")
               for r in stationary.rows[:-1])
    turning = Movement("howell", None, 1, 2, 2, 1, None, (
        Round(1, (TableRound(1, 1, 2, (1,)),)), Round(2, (TableRound(1, 2, 1, (2,)),))))
    first = table_cards(turning)[0].rows[0]
    assert (str(first.ns_next), str(first.ew_next)) == (
        "stay at table 1, sit E–W", "stay at table 1, sit N–S")


def test_a_pair_that_left_has_no_rounds_after_it():
    """Decision 103: a pair that left after round 1 ends its night there; its card and its
    table's card said "sit out" for the rounds after it."""
    movement = generate("mitchell", tables=3, boards_per_round=2)
    card = next(c for c in pair_cards(movement, left={4: 1}) if c.pair == 4)
    assert [r.round for r in card.rows] == [1] and card.rows[0].next is None
    assert card.left_after == 1
    table = next(c for c in table_cards(movement, left={4: 1}) if c.table == 1)
    assert table.rows[0].ew == 4 and table.rows[0].ew_next is None  # "end of play"
    others = {c.pair: c for c in pair_cards(movement, left={4: 1})}
    assert others[5].left_after is None and len(others[5].rows) == 3


def test_a_late_pair_has_no_rounds_before_it_joined():
    """Decision 102: a pair that joined from round 2 was not there in round 1 (its
    opponents sat out); its card said "sit out" for it."""
    full = generate("mitchell", tables=3, boards_per_round=2)
    first = full.rounds[0]
    seat = next(t for t in first.tables if 6 in (t.ns, t.ew))
    alone = seat.ns if seat.ew == 6 else seat.ew
    movement = replace(full, rounds=(replace(first, tables=tuple(
        t for t in first.tables if t is not seat), sit_out=(alone,)), *full.rounds[1:]))
    before = next(c for c in pair_cards(movement) if c.pair == 6)
    assert before.rows[0].table is None  # without `joined`: "sit out" in round 1
    card = next(c for c in pair_cards(movement, joined={6: 2}) if c.pair == 6)
    assert [r.round for r in card.rows] == [2, 3] and card.joined_from == 2
    assert all(r.table is not None for r in card.rows)
    lines = _pair_card_lines(card)
    assert lines[1] == "  joined late, from round 2" and "sits out" not in "\n".join(lines)
