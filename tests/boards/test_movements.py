"""Movements: the properties a director relies on, checked independently of ``check``.

No database, no Django.
"""

import dataclasses
import itertools
import json
import math
from collections import Counter, defaultdict

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from boards.movements import (
    Movement,
    MovementError,
    Round,
    TableRound,
    board_range,
    check,
    check_from,
    fit,
    generate,
    guide_cards_text,
    movement_from_dict,
    pair_cards,
    table_cards,
    three_quarter_rounds,
)

# --------------------------------------------------------------------------- the space


def _configs() -> list[dict]:
    configs = []
    for n in range(3, 21):
        for variant in ([None] if n % 2 else ["skip", "relay"]):
            for pairs in (2 * n - 1, 2 * n):
                configs.append({"kind": "mitchell", "tables": n, "variant": variant,
                                "pairs": pairs})
    for n in range(2, 9):
        for pairs in (2 * n - 1, 2 * n):
            configs.append({"kind": "howell", "tables": n, "pairs": pairs})
    for n in range(4, 9):
        for pairs in (2 * n - 1, 2 * n):
            configs.append({"kind": "three-quarter-howell", "tables": n, "pairs": pairs})
    for k in range(2, 21):
        configs.append({"kind": "team-match", "pairs_per_team": k})
    return configs


CONFIGS = _configs()


def _name(config: dict) -> str:
    return "-".join(str(v) for v in config.values() if v is not None)


def fewest_boards(config: dict) -> int:
    """The fewest boards a round the movement can have: as many as the most tables that
    share one set (the relay Mitchell's two, the 2- and 3-table Howells' two and three)."""
    if config.get("variant") == "relay":
        return 2
    if config["kind"] == "howell" and config["tables"] <= 3:
        return config["tables"]
    return 1


def make(config: dict, boards_per_round: int | None = None) -> Movement:
    wanted = max(2, fewest_boards(config)) if boards_per_round is None else boards_per_round
    return generate(boards_per_round=wanted, **config)


def shares(m: Movement) -> bool:
    return (m.kind == "mitchell" and m.variant == "relay") or (
        m.kind == "howell" and m.tables <= 3)


def plays_per_board(m: Movement) -> int:
    """Each board's plays when nobody sits out (the docstring's table)."""
    return m.tables - 1 if m.variant == "skip" else m.tables


# --------------------------------------------------------------------------- properties


def assert_sound(m: Movement) -> None:
    """The properties of the brief, computed here without ``check``."""
    pair_numbers = range(1, m.pairs + 1)
    boards_played = defaultdict(list)
    plays = Counter()
    meetings = Counter()
    for rnd in m.rounds:
        seated = [p for t in rnd.tables for p in (t.ns, t.ew)] + list(rnd.sit_out)
        assert len(seated) == len(set(seated)), f"round {rnd.number}: a pair twice"
        assert set(seated) <= set(pair_numbers)
        at_tables = Counter(b for t in rnd.tables for b in t.boards)
        for t in rnd.tables:
            assert len(t.boards) == m.boards_per_round
            assert all(1 <= b <= m.boards for b in t.boards)
            for b in t.boards:
                boards_played[t.ns].append(b)
                boards_played[t.ew].append(b)
                plays[b] += 1
                if at_tables[b] > 1:
                    assert shares(m), f"round {rnd.number}: board {b} at two tables"
            meetings[frozenset((t.ns, t.ew))] += 1
    for pair, boards in boards_played.items():
        assert len(boards) == len(set(boards)), f"pair {pair} plays a board twice"
    if m.kind != "team-match":
        assert max(meetings.values()) == 1, "two pairs meet twice"
    sit_outs = sum(len(r.sit_out) for r in m.rounds)
    expected = plays_per_board(m)
    assert sum(plays.values()) == expected * m.boards - sit_outs * m.boards_per_round
    for board in range(1, m.boards + 1):
        assert plays[board] in ((expected,) if not sit_outs else (expected - 1, expected))


@pytest.mark.parametrize("config", CONFIGS, ids=_name)
def test_every_movement_passes_its_own_check(config):
    assert check(make(config)) == []


@pytest.mark.parametrize("config", CONFIGS, ids=_name)
def test_every_movement_has_the_promised_properties(config):
    assert_sound(make(config))


@settings(max_examples=80, deadline=None)
@given(config=st.sampled_from(CONFIGS), boards_per_round=st.integers(1, 6))
def test_properties_hold_for_any_boards_per_round(config, boards_per_round):
    assume(boards_per_round >= fewest_boards(config))
    movement = make(config, boards_per_round)
    assert_sound(movement)
    assert check(movement) == []
    assert movement.boards % boards_per_round == 0


@settings(max_examples=30, deadline=None)
@given(config=st.sampled_from(CONFIGS))
def test_generation_is_deterministic(config):
    assert make(config).to_dict() == make(config).to_dict()


# --------------------------------------------------------------------------- Mitchell


def test_interfaces_example_mitchell_seven_tables():
    data = generate("mitchell", tables=7, boards_per_round=3).to_dict()
    assert list(data) == ["kind", "variant", "tables", "pairs", "boards", "teams", "rounds"]
    assert {k: data[k] for k in list(data)[:6]} == {
        "kind": "mitchell", "variant": None, "tables": 7, "pairs": 14, "boards": 21,
        "teams": None,
    }
    first = data["rounds"][0]
    assert list(first) == ["round", "tables", "sit_out"]
    assert first["tables"][0] == {"table": 1, "ns": 1, "ew": 8, "boards": [1, 2, 3]}
    assert first["sit_out"] == []
    assert len(data["rounds"]) == 7
    json.dumps(data)  # plain JSON types only


def test_mitchell_ns_stay_ew_move_up_boards_move_down():
    m = generate("mitchell", tables=5, boards_per_round=2)
    for rnd, following in itertools.pairwise(m.rounds):
        for t in rnd.tables:
            up = following.tables[t.table % 5]  # the next table up (5 → 1)
            assert up.ew == t.ew
            down = following.tables[(t.table - 2) % 5]  # the next table down (1 → 5)
            assert down.boards == t.boards
            assert following.tables[t.table - 1].ns == t.ns == t.table


@pytest.mark.parametrize("n", [4, 6, 8, 14, 20])
def test_skip_mitchell_skips_before_round_half_plus_one_and_drops_the_revenge_round(n):
    m = generate("mitchell", tables=n, boards_per_round=1, variant="skip")
    assert len(m.rounds) == n - 1
    assert m.boards == n  # n sets in play, each pair plays n − 1 of them
    table_of = [{t.ew: t.table for t in rnd.tables} for rnd in m.rounds]
    for r in range(1, n - 1):
        moves = {(table_of[r][p] - table_of[r - 1][p]) % n for p in table_of[r]}
        assert moves == ({2} if r + 1 == n // 2 + 1 else {1}), f"into round {r + 1}"
    ew_pair = n + 1
    met = [t.ns for rnd in m.rounds for t in rnd.tables if t.ew == ew_pair]
    assert len(set(met)) == n - 1 and 1 + n // 2 not in met  # the skipped table


@pytest.mark.parametrize("n", [4, 6, 8, 10, 20])
def test_relay_mitchell_shares_between_first_and_last_table_with_a_bye_stand(n):
    m = generate("mitchell", tables=n, boards_per_round=3, variant="relay")
    assert len(m.rounds) == n and m.boards == 3 * n
    first = m.rounds[0].tables
    assert [t.boards[0] for t in first[: n // 2]] == [3 * s + 1 for s in range(n // 2)]
    assert first[n // 2].boards[0] == 3 * (n // 2 + 1) + 1  # set n/2+1 is on the bye stand
    for rnd in m.rounds:
        assert rnd.tables[0].boards == rnd.tables[-1].boards
        in_play = {b for t in rnd.tables for b in t.boards}
        assert len(in_play) == 3 * (n - 1)  # one set shared, one on the bye stand
    for pair in range(1, 2 * n + 1):  # everyone plays every board
        boards = [b for rnd in m.rounds for t in rnd.tables if pair in (t.ns, t.ew)
                  for b in t.boards]
        assert sorted(boards) == list(range(1, 3 * n + 1))


def test_relay_boards_travel_through_the_bye_stand():
    m = generate("mitchell", tables=6, boards_per_round=2, variant="relay")
    first, second = m.rounds[0].tables, m.rounds[1].tables
    resting = (set(range(1, 7)) - {t.boards[1] // 2 for t in first}).pop()
    assert resting == 4  # set n/2 + 1
    assert second[2].boards == (7, 8)  # from the bye stand to table n/2
    assert first[3].boards == (9, 10) and 9 not in {t.boards[0] for t in second}  # to the stand
    assert second[4].boards == first[0].boards  # tables 1 and n send theirs to table n−1


# --------------------------------------------------------------------------- Howell


@pytest.mark.parametrize("n", range(2, 9))
def test_howell_everyone_meets_everyone_once_and_plays_every_set(n):
    m = generate("howell", tables=n, boards_per_round=3)
    assert len(m.rounds) == 2 * n - 1 and m.boards == 3 * (2 * n - 1)
    meetings = Counter(frozenset((t.ns, t.ew)) for r in m.rounds for t in r.tables)
    assert set(meetings) == {frozenset(p) for p in itertools.combinations(range(1, 2 * n + 1), 2)}
    for pair in range(1, 2 * n + 1):
        boards = sorted(b for r in m.rounds for t in r.tables if pair in (t.ns, t.ew)
                        for b in t.boards)
        assert boards == list(range(1, 3 * (2 * n - 1) + 1))


@pytest.mark.parametrize("n", range(4, 9))
def test_howell_of_four_or_more_tables_is_a_room_square(n):
    m = generate("howell", tables=n, boards_per_round=2)
    for rnd in m.rounds:
        boards = [b for t in rnd.tables for b in t.boards]
        assert len(boards) == len(set(boards))
    assert "Each table plays the next board set" in guide_cards_text(m)


def test_two_table_howell_shares_every_round():
    m = generate("howell", tables=2, boards_per_round=3)
    assert len(m.rounds) == 3
    assert all(r.tables[0].boards == r.tables[1].boards for r in m.rounds)


def test_three_table_howell_shares_the_least_possible():
    m = generate("howell", tables=3, boards_per_round=3)
    shared_rounds = []
    for rnd in m.rounds:
        sets = Counter(t.boards for t in rnd.tables)
        if len(sets) < 3:
            shared_rounds.append(sorted(sets.values()))
    # No Room square of side 5: some round must put all three tables on one set.
    assert shared_rounds == [[3]]


@pytest.mark.parametrize("kind, tables", [("howell", n) for n in range(2, 9)]
                         + [("three-quarter-howell", n) for n in range(4, 9)])
@pytest.mark.parametrize("missing", [0, 1])
def test_howell_seats_are_balanced(kind, tables, missing):
    m = generate(kind, tables=tables, boards_per_round=3, pairs=2 * tables - missing)
    ns, ew = Counter(), Counter()
    for rnd in m.rounds:
        for t in rnd.tables:
            ns[t.ns] += 1
            ew[t.ew] += 1
    assert all(abs(ns[p] - ew[p]) <= 1 for p in range(1, m.pairs + 1))
    assert all(ns[p] and ew[p] for p in range(1, m.pairs + 1))  # pairs change direction


@pytest.mark.parametrize("n, rounds", [(4, 6), (5, 7), (6, 9), (7, 10), (8, 12)])
def test_three_quarter_howell(n, rounds):
    assert three_quarter_rounds(n) == rounds == math.ceil(3 * (2 * n - 1) / 4)
    m = generate("three-quarter-howell", tables=n, boards_per_round=2)
    assert len(m.rounds) == rounds and m.boards == 2 * rounds
    plays = Counter(b for r in m.rounds for t in r.tables for b in t.boards)
    assert set(plays.values()) == {n}  # like a full Howell: each board played n times
    for pair in range(1, 2 * n + 1):
        boards = sorted(b for r in m.rounds for t in r.tables if pair in (t.ns, t.ew)
                        for b in t.boards)
        assert boards == list(range(1, 2 * rounds + 1))  # every pair plays every board
        opponents = [t.ew if t.ns == pair else t.ns for r in m.rounds for t in r.tables
                     if pair in (t.ns, t.ew)]
        assert len(set(opponents)) == rounds


# --------------------------------------------------------------------------- team match


@pytest.mark.parametrize("k", range(2, 21))
def test_team_match_follows_duplicate_law_g(k):
    m = generate("team-match", pairs_per_team=k, boards_per_round=2)
    assert m.teams == {"A": list(range(1, k + 1)), "B": list(range(k + 1, 2 * k + 1))}
    assert m.tables == k and m.pairs == 2 * k and len(m.rounds) == k and m.boards == 2 * k
    team_a = set(m.teams["A"])
    for rnd in m.rounds:
        assert all((t.ns in team_a) != (t.ew in team_a) for t in rnd.tables)
        assert sum(t.ns in team_a for t in rnd.tables) == (k + 1) // 2
    for table in range(1, k + 1):  # each deal played once at each table
        boards = sorted(b for r in m.rounds for t in r.tables if t.table == table
                        for b in t.boards)
        assert boards == list(range(1, 2 * k + 1))


@pytest.mark.parametrize("k", range(4, 21))
def test_team_match_opponents_change_every_round(k):
    m = generate("team-match", pairs_per_team=k, boards_per_round=1)
    opponents = defaultdict(list)
    for rnd in m.rounds:
        for t in rnd.tables:
            opponents[t.ew].append(t.ns)
    for pair, met in opponents.items():
        assert all(a != b for a, b in itertools.pairwise(met)), f"pair {pair}: {met}"


def test_team_match_of_three_pairs_a_side_is_the_example_night():
    m = generate("team-match", pairs_per_team=3, boards_per_round=2)
    seats = {(t.ns, t.ew) for r in m.rounds for t in r.tables}
    assert seats == {(1, 4), (2, 5), (6, 3)}  # ../shared/examples/night-teams.json
    assert [t.boards for t in m.rounds[0].tables] == [(1, 2), (3, 4), (5, 6)]


def test_even_team_match_meets_each_group_opponent_twice():
    m = generate("team-match", pairs_per_team=6, boards_per_round=1)
    met = Counter((t.ew, t.ns) for r in m.rounds for t in r.tables)
    assert set(met.values()) == {2}


# --------------------------------------------------------------------------- sit-outs


@pytest.mark.parametrize("config", [c for c in CONFIGS if c.get("pairs", 0) % 2], ids=_name)
def test_an_odd_number_of_pairs_sits_one_pair_out_each_round(config):
    m = make(config)
    phantom = m.pairs + 1
    seated = {p for r in m.rounds for t in r.tables for p in (t.ns, t.ew)}
    assert phantom not in seated
    for rnd in m.rounds:
        assert len(rnd.sit_out) == 1
        assert len(rnd.tables) == m.tables - 1
    times = Counter(p for r in m.rounds for p in r.sit_out)
    assert max(times.values()) == 1
    if m.kind == "howell":  # the phantom is the stationary pair: everyone sits out once
        assert set(times) == set(range(1, m.pairs + 1))


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"kind": "mitchell", "tables": 2}, "a Mitchell needs 3 to 20 tables"),
        ({"kind": "mitchell", "tables": 21}, "a Mitchell needs 3 to 20 tables"),
        ({"kind": "mitchell"}, "a Mitchell needs a number of tables"),
        ({"kind": "mitchell", "tables": 8}, "an even-table Mitchell needs a variant: skip or"),
        ({"kind": "mitchell", "tables": 7, "variant": "skip"}, "an odd-table Mitchell takes no"),
        ({"kind": "mitchell", "tables": 8, "variant": "hop"}, "unknown Mitchell variant 'hop'"),
        ({"kind": "mitchell", "tables": 7, "pairs": 12}, "7 tables seat 13 or 14 pairs, not 12"),
        ({"kind": "howell", "tables": 9}, "a Howell needs 2 to 8 tables"),
        ({"kind": "howell", "tables": 4, "variant": "skip"}, "a Howell takes no variant"),
        ({"kind": "three-quarter-howell", "tables": 3}, "a three-quarter Howell needs 4 to 8"),
        ({"kind": "team-match"}, "a team match needs the number of pairs a team"),
        ({"kind": "team-match", "pairs_per_team": 1}, "at least 2 pairs a team"),
        ({"kind": "team-match", "pairs_per_team": 3, "tables": 4}, "uses 3 tables, not 4"),
        ({"kind": "team-match", "pairs_per_team": 3, "pairs": 5}, "has 6 pairs, not 5"),
        ({"kind": "howell", "tables": 4, "pairs_per_team": 2}, "only for a team match"),
        ({"kind": "whist-drive", "tables": 4}, "unknown movement kind 'whist-drive'"),
        ({"kind": "howell", "tables": 4, "boards_per_round": 0}, "at least 1"),
        ({"kind": "mitchell", "tables": 6, "variant": "relay", "boards_per_round": 1},
         "a relay Mitchell needs at least 2 boards a round: tables 1 and 6 share a set"),
        ({"kind": "howell", "tables": 2, "boards_per_round": 1},
         "a Howell of 2 tables needs at least 2 boards a round: both tables share"),
        ({"kind": "howell", "tables": 3, "boards_per_round": 2},
         "a Howell of 3 tables needs at least 3 boards a round: in one round all three"),
        ({"kind": "howell", "tables": True}, "a Howell needs 2 to 8 tables"),
    ],
)
def test_impossible_requests_say_why(kwargs, message):
    kwargs = {"boards_per_round": 2} | kwargs
    with pytest.raises(MovementError, match=message):
        generate(**kwargs)


def test_movement_error_is_a_value_error():
    assert issubclass(MovementError, ValueError)


# --------------------------------------------------------------------------- check finds faults


def _replace_table(m: Movement, round_index: int, table_index: int, **changes) -> Movement:
    rounds = list(m.rounds)
    tables = list(rounds[round_index].tables)
    tables[table_index] = dataclasses.replace(tables[table_index], **changes)
    rounds[round_index] = dataclasses.replace(rounds[round_index], tables=tuple(tables))
    return dataclasses.replace(m, rounds=tuple(rounds))


@pytest.fixture
def seven_table_mitchell() -> Movement:
    return generate("mitchell", tables=7, boards_per_round=3)


def test_check_finds_a_board_played_twice(seven_table_mitchell):
    m = seven_table_mitchell
    broken = _replace_table(m, 1, 0, boards=m.rounds[0].tables[0].boards)
    problems = check(broken)
    assert any("pair 1 plays board 1 more than once" in p for p in problems)


def test_check_finds_a_board_at_two_tables(seven_table_mitchell):
    m = seven_table_mitchell
    broken = _replace_table(m, 0, 1, boards=m.rounds[0].tables[0].boards)
    assert any("board 1 is at tables 1, 2" in p for p in check(broken))


def test_check_allows_only_the_relay_tables_to_share():
    m = generate("mitchell", tables=6, boards_per_round=2, variant="relay")
    assert check(m) == []
    broken = _replace_table(m, 0, 1, boards=m.rounds[0].tables[0].boards)
    assert any("is at tables 1, 2, 6" in p for p in check(broken))



def _one_board_a_round(m: Movement) -> Movement:
    """`m` with each board set cut to its first board, as a movement made elsewhere (a
    night file, an older event) may come."""
    rounds = tuple(dataclasses.replace(r, tables=tuple(
        dataclasses.replace(t, boards=((t.boards[0] - 1) // m.boards_per_round + 1,))
        for t in r.tables)) for r in m.rounds)
    return dataclasses.replace(m, rounds=rounds, boards=m.boards // m.boards_per_round,
                               boards_per_round=1)


@pytest.mark.parametrize("config, message", [
    ({"kind": "mitchell", "tables": 6, "variant": "relay"},
     "a relay Mitchell needs at least 2 boards a round"),
    ({"kind": "howell", "tables": 2}, "a Howell of 2 tables needs at least 2 boards a round"),
    ({"kind": "howell", "tables": 3}, "a Howell of 3 tables needs at least 3 boards a round"),
])
def test_check_refuses_a_set_shared_by_more_tables_than_it_has_boards(config, message):
    """Tables sharing a set pass its boards between them: with one board a round (with
    two, among three tables) a table waits for a board, so the movement is not sound."""
    one = _one_board_a_round(make(config))
    problems = check(one)
    assert len(problems) == 1 and problems[0].startswith(message)
    # A change to such a movement from a round on is refused the same way, once.
    problems = check_from(one, 1, ())
    assert problems[0].startswith(message)
    assert sum(p.startswith(message) for p in problems) == 1
    assert problems[1].startswith("round 1: board ") and problems[1].endswith(" at once")

def test_check_finds_a_pair_in_two_places_and_a_repeat_meeting(seven_table_mitchell):
    broken = _replace_table(seven_table_mitchell, 0, 1, ew=8)
    problems = check(broken)
    assert "round 1: pair 8 is in two places" in problems
    assert any("pairs 2 and 8 meet" in p for p in check(_replace_table(
        seven_table_mitchell, 2, 1, ew=8)))


def test_check_finds_numbers_out_of_range(seven_table_mitchell):
    problems = check(_replace_table(seven_table_mitchell, 0, 0, boards=(1, 2, 99)))
    assert "round 1 table 1: a board outside 1..21" in problems
    problems = check(_replace_table(seven_table_mitchell, 0, 0, ns=15))
    assert "round 1: a pair number is outside 1..14" in problems


def test_check_finds_a_mitchell_pair_changing_direction(seven_table_mitchell):
    m = seven_table_mitchell
    t = m.rounds[0].tables[0]
    problems = check(_replace_table(m, 0, 0, ns=t.ew, ew=t.ns))
    assert "pair 1 changes direction" in problems
    assert "table 1: the N–S pair changes" in problems


def test_check_finds_missing_rounds_and_wrong_play_counts(seven_table_mitchell):
    m = seven_table_mitchell
    assert "a mitchell of 7 tables has 7 rounds, not 6" in check(
        dataclasses.replace(m, rounds=m.rounds[:6]))
    short = dataclasses.replace(m, rounds=m.rounds[:6] + (Round(7, m.rounds[6].tables[:6]),))
    assert any("is played 6 times, not 7" in p for p in check(short))


def test_check_finds_a_team_match_table_of_one_team():
    m = generate("team-match", pairs_per_team=4, boards_per_round=1)
    t0, t1 = m.rounds[0].tables[0], m.rounds[0].tables[1]
    broken = _replace_table(_replace_table(m, 0, 0, ew=t1.ns), 0, 1, ns=t0.ew)
    assert any("both pairs are of one team" in p for p in check(broken))
    assert "a team match needs its teams" in check(dataclasses.replace(m, teams=None))


def test_check_finds_a_sit_out_that_is_not_needed(seven_table_mitchell):
    m = seven_table_mitchell
    rounds = (dataclasses.replace(m.rounds[0], sit_out=(3,)),) + m.rounds[1:]
    assert any("a pair sits out" in p or "in two places" in p
               for p in check(dataclasses.replace(m, rounds=rounds)))


# --------------------------------------------------------------------------- data & cards


@pytest.mark.parametrize("config", CONFIGS[::7], ids=_name)
def test_movement_from_dict_reads_back_to_dict(config):
    m = make(config, 3)
    assert movement_from_dict(json.loads(json.dumps(m.to_dict()))) == m


def test_movement_from_dict_rejects_rubbish():
    with pytest.raises(MovementError, match="not a movement"):
        movement_from_dict({"kind": "mitchell"})


def test_table_cards():
    m = generate("mitchell", tables=6, boards_per_round=2, variant="relay")
    cards = table_cards(m)
    assert [c.table for c in cards] == list(range(1, 7))
    first = cards[0].rows[0]
    assert (first.round, first.ns, first.ew, first.boards, first.shared_with) == (
        1, 1, 7, (1, 2), (6,))
    assert cards[1].rows[0].shared_with == ()


def test_pair_cards_and_sit_outs():
    m = generate("howell", tables=4, boards_per_round=2, pairs=7)
    cards = pair_cards(m)
    assert [c.pair for c in cards] == list(range(1, 8))
    for card in cards:
        assert len(card.rows) == 7
        assert sum(row.table is None for row in card.rows) == 1
        for row in card.rows:
            if row.table is not None:
                assert row.direction in ("NS", "EW") and row.opponents is not None
    assert len(table_cards(m)) == 3  # the phantom's table is never in play


def test_team_pair_cards_name_the_team():
    cards = pair_cards(generate("team-match", pairs_per_team=2, boards_per_round=2))
    assert [c.team for c in cards] == ["A", "A", "B", "B"]


def test_guide_cards_text_for_a_mitchell():
    text = guide_cards_text(generate("mitchell", tables=7, boards_per_round=3))
    assert text.startswith("Mitchell: 7 tables, 14 pairs, 21 boards (7 sets of 3), 7 rounds\n")
    assert "E–W pairs move up one table" in text
    assert "Table 2\n  Round  N–S  E–W  Boards\n      1    2    9  4–6\n" in text
    assert "Pair 9\n  round 1: table 2 E–W, boards 4–6, vs pair 2\n" in text


def test_guide_cards_text_mentions_skip_relay_teams_and_sit_outs():
    assert "before round 5 the E–W pairs move up two tables" in guide_cards_text(
        generate("mitchell", tables=8, boards_per_round=2, variant="skip"))
    relay = guide_cards_text(generate("mitchell", tables=8, boards_per_round=2,
                                      variant="relay", pairs=15))
    assert "A bye stand between tables 4 and 5" in relay
    assert "shared with table 8" in relay
    assert "Pair 16 is missing" in relay and "sits out" in relay
    team = guide_cards_text(generate("team-match", pairs_per_team=3, boards_per_round=2))
    assert "Team A: pairs 1–3; team B: pairs 4–6" in team
    assert "Pair 4 (team B)" in team


@pytest.mark.parametrize("boards, text", [
    ((4, 5, 6), "4–6"), ((7,), "7"), ((1, 3), "1, 3"), ((), "–"),
])
def test_board_range(boards, text):
    assert board_range(boards) == text


def test_dataclasses_are_frozen():
    t = TableRound(1, 1, 2, (1,))
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.ns = 3  # type: ignore[misc]


def test_is_relay_only_for_the_relay_mitchell():
    assert generate("mitchell", tables=4, boards_per_round=2, variant="relay").is_relay
    assert not generate("mitchell", tables=4, boards_per_round=2, variant="skip").is_relay
    assert not generate("mitchell", tables=5, boards_per_round=2).is_relay
    assert not generate("howell", tables=3, boards_per_round=3).is_relay


def test_a_board_played_no_more_goes_back_to_the_director():
    """A movement changed from round 4 to fewer boards a round: board 9, played by table 1
    in round 3, is played by no later round. It goes back to the director, not to a table
    "to wait there" (which said so though that table was in play)."""
    before = generate("mitchell", tables=7, boards_per_round=3)
    after = fit(generate("mitchell", tables=7, boards_per_round=2), 4,
                [r for r in before.rounds if r.number < 4], list(range(1, 15)),
                boards_made=before.boards)
    night = dataclasses.replace(before, rounds=(*before.rounds[:3], *after.rounds))
    later = {b for r in after.rounds for t in r.tables for b in t.boards}
    for card in table_cards(night):
        row = card.rows[2]  # round 3: where its boards go
        for move in row.boards_next:
            for board in move.boards:
                if board in later:
                    assert move.tables or move.stand, (card.table, board)
                else:
                    assert str(move) == "the director", (card.table, board, str(move))
    assert any(b not in later for c in table_cards(night) for b in c.rows[2].boards)
