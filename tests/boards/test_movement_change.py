"""Changing the movement between rounds, without a database: ``check_from`` finds every
clash of the new rounds with the rounds played, and ``fit`` seats a generated movement
so that there is none."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boards.movements import (
    MovementError,
    Round,
    TableRound,
    check_from,
    fit,
    generate,
    later_rounds,
    repeat_meetings,
)


def played(movement, before):
    return [r for r in movement.rounds if r.number < before]


def with_rounds(movement, rounds):
    return dataclasses.replace(movement, rounds=tuple(rounds))


def test_the_movement_as_generated_is_sound_against_its_own_earlier_rounds():
    m = generate("mitchell", tables=7, boards_per_round=2)
    assert check_from(m, 4, played(m, 4)) == []


def test_a_board_played_already_is_named_with_its_round():
    history = [Round(1, (TableRound(1, 1, 2, (1, 2)),))]
    new = with_rounds(generate("howell", tables=2, boards_per_round=2),
                      [Round(2, (TableRound(1, 1, 3, (2, 3)),))])
    assert check_from(new, 2, history) == [
        "round 2 table 1: pair 1 played board 2 already, in round 1"]


def test_a_board_met_twice_in_the_new_rounds_is_a_problem():
    new = with_rounds(generate("howell", tables=4, boards_per_round=1), [
        Round(2, (TableRound(1, 1, 2, (5,)),)),
        Round(3, (TableRound(1, 3, 1, (5,)),)),
    ])
    assert check_from(new, 2, []) == [
        "round 3 table 1: pair 1 would play board 5 a second time (it has it in round 2)"]


def test_a_pair_in_two_places_a_table_used_twice_and_shared_boards_are_problems():
    new = with_rounds(generate("howell", tables=4, boards_per_round=1), [
        Round(4, (TableRound(1, 1, 2, (1,)), TableRound(1, 3, 1, (2,)),
                  TableRound(2, 5, 6, (2,)))),
    ])
    problems = check_from(new, 4, [])
    assert "round 4: table 1 is used twice" in problems
    assert "round 4: pair 1 is in two places" in problems
    assert "round 4: board 2 is at tables 1, 2 at once" in problems


def test_a_relay_may_share_boards_between_its_first_and_last_tables():
    m = generate("mitchell", tables=8, variant="relay", boards_per_round=2)
    assert check_from(m, 1, []) == []


def test_history_reaching_into_the_change_is_named():
    m = generate("mitchell", tables=3, boards_per_round=1)
    assert check_from(m, 2, list(m.rounds))[0] == (
        "round 2 is played already: the change starts at round 2")


def test_meeting_again_is_a_note_not_a_problem():
    history = [Round(1, (TableRound(1, 1, 2, (1,)),))]
    new = with_rounds(generate("howell", tables=4, boards_per_round=1),
                      [Round(2, (TableRound(1, 2, 1, (2,)),))])
    assert check_from(new, 2, history) == []
    assert repeat_meetings(new, 2, history) == [
        "pairs 1 and 2 meet again in round 2 (they met in round 1)"]


def test_no_round_to_change_to():
    with pytest.raises(MovementError, match="no round 9"):
        later_rounds(generate("mitchell", tables=3, boards_per_round=1), 9)


CHANGES = [
    # (old movement, new movement, pairs playing on)
    (("mitchell", 7, None), ("mitchell", 8, "skip"), 16),
    (("mitchell", 7, None), ("mitchell", 8, "relay"), 16),
    (("mitchell", 8, "relay"), ("mitchell", 8, "skip"), 16),
    (("mitchell", 8, "skip"), ("mitchell", 8, "relay"), 16),
    (("mitchell", 8, "relay"), ("mitchell", 7, None), 14),
    (("howell", 4, None), ("howell", 5, None), 10),
]


@pytest.mark.parametrize(("old", "new", "pairs"), CHANGES)
@pytest.mark.parametrize("from_round", [2, 3, 4])
def test_fit_seats_the_new_rounds_without_a_board_played_twice(old, new, pairs, from_round):
    before = generate(old[0], tables=old[1], variant=old[2], boards_per_round=2)
    after = generate(new[0], tables=new[1], variant=new[2], boards_per_round=2)
    history = played(before, from_round)
    staying = list(range(1, pairs + 1)) if pairs >= before.pairs else [
        p for p in range(1, before.pairs + 1) if p not in (8, 16)]
    fitted = fit(after, from_round, history, staying, boards_made=before.boards)
    assert check_from(fitted, from_round, history) == []
    assert [r.number for r in fitted.rounds] == [
        r.number for r in after.rounds if r.number >= from_round]
    seated = {p for r in fitted.rounds for t in r.tables for p in (t.ns, t.ew)}
    assert seated | {p for r in fitted.rounds for p in r.sit_out} == set(staying)
    if new[0] == "mitchell" and old[0] == "mitchell":
        sides = {}
        for r in [*history, *fitted.rounds]:
            for t in r.tables:
                sides.setdefault(t.ns, set()).add("NS")
                sides.setdefault(t.ew, set()).add("EW")
        assert all(len(s) == 1 for s in sides.values())  # each pair keeps its direction


def test_fit_wants_as_many_pairs_as_the_movement_seats():
    with pytest.raises(MovementError, match="seats 16 pairs, not 15"):
        fit(generate("mitchell", tables=8, variant="skip", boards_per_round=1), 2, [],
            list(range(1, 16)))


def test_fit_prefers_the_boards_there_are():
    """From round 1 with nothing played the movement is seated as it is."""
    m = generate("mitchell", tables=5, boards_per_round=3)
    fitted = fit(m, 1, [], list(range(1, 11)), boards_made=15)
    assert fitted.boards == 15
    assert check_from(fitted, 1, []) == []


@settings(max_examples=15, deadline=None)
@given(tables=st.integers(3, 7), extra=st.sampled_from([0, 1]), start=st.integers(2, 4),
       per_round=st.integers(1, 3))
def test_fit_never_leaves_a_clash_when_a_table_is_added(tables, extra, start, per_round):
    before = generate("mitchell", tables=tables, boards_per_round=per_round,
                      variant=None if tables % 2 else "skip")
    n = tables + extra
    # (A relay shares a set between two tables: it takes two boards a round or more.)
    after = generate("mitchell", tables=n, boards_per_round=max(per_round, 2) if n % 2 == 0
                     else per_round, variant=None if n % 2 else "relay")
    start = min(start, len(after.rounds))
    history = played(before, start)
    fitted = fit(after, start, history, list(range(1, 2 * n + 1)), boards_made=before.boards)
    assert check_from(fitted, start, history) == []


def _ns_tables(rnd) -> dict[int, int]:
    return {t.table: t.ns for t in rnd.tables}


@pytest.mark.parametrize(("tables", "old_per", "new_per", "start"),
                         [(7, 4, 3, 5), (7, 3, 4, 5), (7, 2, 3, 4), (5, 4, 3, 3), (7, 4, 4, 5)])
def test_fit_keeps_the_stationary_pairs_when_the_boards_per_round_change(
        tables, old_per, new_per, start):
    """A Mitchell's N–S pairs sit at their tables all night: a change of the boards per
    round leaves them there (it had moved 6 of the 7)."""
    before = generate("mitchell", tables=tables, boards_per_round=old_per)
    after = generate("mitchell", tables=tables, boards_per_round=new_per)
    history = played(before, start)
    fitted = fit(after, start, history, list(range(1, 2 * tables + 1)),
                 boards_made=before.boards)
    assert check_from(fitted, start, history) == []
    assert repeat_meetings(fitted, start, history) == []
    for rnd in fitted.rounds:
        assert _ns_tables(rnd) == _ns_tables(history[-1])


def test_fit_of_the_same_movement_goes_on_as_it_was():
    """The movement changed to itself (the same boards per round) is the movement: every
    pair goes on from where it is, and no board is new."""
    m = generate("mitchell", tables=7, boards_per_round=4)
    fitted = fit(m, 5, played(m, 5), list(range(1, 15)), boards_made=m.boards)
    assert fitted.rounds == later_rounds(m, 5) and fitted.boards == m.boards


def test_fit_keeps_the_stationary_pairs_when_a_table_is_added():
    before = generate("mitchell", tables=7, boards_per_round=2)
    after = generate("mitchell", tables=8, variant="relay", boards_per_round=2)
    history = played(before, 3)
    fitted = fit(after, 3, history, list(range(1, 17)), boards_made=before.boards)
    assert check_from(fitted, 3, history) == []
    for rnd in fitted.rounds:
        ns = _ns_tables(rnd)
        assert all(ns[table] == pair for table, pair in _ns_tables(history[-1]).items())
