"""The checker: every way a movement breaks the rules of its kind."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from .howell import three_quarter_rounds
from .model import KINDS, Movement, Round
from .schedule import sharing_too_few


def expected_plays(movement: Movement) -> int:
    """How often each board is played when no pair sits out."""
    if movement.kind == "mitchell" and movement.variant == "skip":
        return movement.tables - 1
    return movement.tables


def expected_rounds(movement: Movement) -> int | None:
    n = movement.tables
    return {
        "mitchell": n - 1 if movement.variant == "skip" else n,
        "howell": 2 * n - 1,
        "three-quarter-howell": three_quarter_rounds(n),
        "team-match": n,
    }.get(movement.kind)


def shares_boards(movement: Movement) -> bool:
    """Whether two tables may hold the same board in one round (interfaces.md §4)."""
    return movement.is_relay or (movement.kind == "howell" and movement.tables <= 3)


def check(movement: Movement) -> list[str]:
    """Every way the movement breaks the rules of its kind; an empty list means sound."""
    problems: list[str] = []
    problems += _check_shape(movement)
    if problems:
        return problems
    problems += _check_rounds(movement)
    problems += _check_boards(movement)
    problems += _check_opponents(movement)
    if movement.kind == "mitchell":
        problems += _check_mitchell(movement)
    if movement.kind == "team-match":
        problems += _check_team_match(movement)
    return problems


def _check_shape(m: Movement) -> list[str]:
    problems = []
    if m.kind not in KINDS:
        problems.append(f"unknown kind {m.kind!r}")
    if m.boards_per_round < 1 or m.boards % m.boards_per_round:
        problems.append(f"{m.boards} boards do not make sets of {m.boards_per_round}")
    elif (too_few := sharing_too_few(m.kind, m.tables, m.variant, m.boards_per_round)):
        problems.append(too_few)
    if m.pairs not in (2 * m.tables - 1, 2 * m.tables):
        problems.append(f"{m.tables} tables cannot seat {m.pairs} pairs")
    wanted = expected_rounds(m)
    if wanted is not None and len(m.rounds) != wanted:
        problems.append(f"a {m.kind} of {m.tables} tables has {wanted} rounds, "
                        f"not {len(m.rounds)}")
    for index, rnd in enumerate(m.rounds, start=1):
        if rnd.number != index:
            problems.append(f"round {index} is numbered {rnd.number}")
    return problems


def _check_rounds(m: Movement) -> list[str]:
    problems = []
    for rnd in m.rounds:
        where = f"round {rnd.number}"
        tables = [t.table for t in rnd.tables]
        if len(set(tables)) != len(tables):
            problems.append(f"{where}: a table is used twice")
        if any(not 1 <= t <= m.tables for t in tables):
            problems.append(f"{where}: a table number is outside 1..{m.tables}")
        seated = [p for t in rnd.tables for p in (t.ns, t.ew)] + list(rnd.sit_out)
        for pair, times in Counter(seated).items():
            if times > 1:
                problems.append(f"{where}: pair {pair} is in two places")
        if any(not 1 <= p <= m.pairs for p in seated):
            problems.append(f"{where}: a pair number is outside 1..{m.pairs}")
        if m.pairs == 2 * m.tables and rnd.sit_out:
            problems.append(f"{where}: a pair sits out although no pair is missing")
        if m.pairs == 2 * m.tables - 1 and sorted(seated) != list(range(1, m.pairs + 1)):
            problems.append(f"{where}: not every pair is seated or sitting out")
        if m.pairs == 2 * m.tables and sorted(seated) != list(range(1, m.pairs + 1)):
            problems.append(f"{where}: not every pair is seated")
        for t in rnd.tables:
            if len(t.boards) != m.boards_per_round:
                problems.append(f"{where} table {t.table}: {len(t.boards)} boards, "
                                f"not {m.boards_per_round}")
            if any(not 1 <= b <= m.boards for b in t.boards):
                problems.append(f"{where} table {t.table}: a board outside 1..{m.boards}")
            if t.ns == t.ew:
                problems.append(f"{where} table {t.table}: pair {t.ns} plays itself")
    return problems


def _check_boards(m: Movement) -> list[str]:
    problems = []
    played_by: dict[int, Counter] = defaultdict(Counter)
    plays: Counter = Counter()
    for rnd in m.rounds:
        holders: dict[int, list[int]] = defaultdict(list)
        for t in rnd.tables:
            for board in t.boards:
                holders[board].append(t.table)
                plays[board] += 1
                played_by[t.ns][board] += 1
                played_by[t.ew][board] += 1
        for board, tables in sorted(holders.items()):
            if len(tables) > 1 and not _sharing_allowed(m, tables):
                problems.append(f"round {rnd.number}: board {board} is at tables "
                                f"{', '.join(map(str, tables))}")
    for pair, boards in sorted(played_by.items()):
        twice = sorted(b for b, times in boards.items() if times > 1)
        if twice:
            problems.append(f"pair {pair} plays board {twice[0]} more than once")
    problems += _check_play_counts(m, plays)
    return problems


def _sharing_allowed(m: Movement, tables: list[int]) -> bool:
    if len(tables) > m.boards_per_round:
        return False  # one of them would wait for a board (sharing_too_few)
    if m.is_relay:
        return sorted(tables) == [1, m.tables]
    return shares_boards(m)


def _check_play_counts(m: Movement, plays: Counter) -> list[str]:
    expected = expected_plays(m)
    missing = sum(len(rnd.sit_out) for rnd in m.rounds) * m.boards_per_round
    problems = []
    for board in range(1, m.boards + 1):
        times = plays[board]
        low = expected - 1 if missing else expected
        if not low <= times <= expected:
            problems.append(f"board {board} is played {times} times, not {expected}")
    shortfall = expected * m.boards - sum(plays.values())
    if not problems and shortfall != missing:
        problems.append(f"the boards are played {shortfall} times fewer than expected, "
                        f"but the sit-outs account for {missing}")
    return problems


def _check_opponents(m: Movement) -> list[str]:
    if m.kind == "team-match":
        return []
    meetings = Counter(frozenset((t.ns, t.ew)) for rnd in m.rounds for t in rnd.tables)
    return [f"pairs {min(p)} and {max(p)} meet {times} times"
            for p, times in sorted(meetings.items(), key=lambda i: sorted(i[0])) if times > 1]


def _check_mitchell(m: Movement) -> list[str]:
    problems = []
    ns_of_table: dict[int, set[int]] = defaultdict(set)
    directions: dict[int, set[str]] = defaultdict(set)
    for rnd in m.rounds:
        for t in rnd.tables:
            ns_of_table[t.table].add(t.ns)
            directions[t.ns].add("NS")
            directions[t.ew].add("EW")
    problems += [f"table {t}: the N–S pair changes" for t, p in sorted(ns_of_table.items())
                 if len(p) > 1]
    problems += [f"pair {p} changes direction" for p, d in sorted(directions.items())
                 if len(d) > 1]
    return problems


def _check_team_match(m: Movement) -> list[str]:
    k = m.tables
    if m.teams is None:
        return ["a team match needs its teams"]
    team_a, team_b = set(m.teams.get("A", ())), set(m.teams.get("B", ()))
    problems = []
    if team_a != set(range(1, k + 1)) or team_b != set(range(k + 1, 2 * k + 1)):
        problems.append(f"team A must be pairs 1..{k} and team B pairs {k + 1}..{2 * k}")
    at_table: dict[int, Counter] = defaultdict(Counter)
    for rnd in m.rounds:
        a_north = 0
        for t in rnd.tables:
            if {t.ns in team_a, t.ew in team_a} != {True, False}:
                problems.append(f"round {rnd.number} table {t.table}: both pairs are of one "
                                "team")
            a_north += t.ns in team_a
            at_table[t.table].update(t.boards)
        if a_north not in (k // 2, (k + 1) // 2):
            problems.append(f"round {rnd.number}: {a_north} pairs of team A sit N–S, "
                            f"not half of {k}")
    for table in range(1, k + 1):
        if any(at_table[table][b] != 1 for b in range(1, m.boards + 1)):
            problems.append(f"table {table} does not play every board exactly once")
    return problems


def check_from(movement: Movement, from_round: int, history: Sequence[Round]) -> list[str]:
    """Every way the rounds of `movement` from `from_round` on clash with what was
    already played (`history`: the rounds before, as played); an empty list means the
    change is sound. The pair numbers are the players' own on both sides.

    A pair may not play a board it has played already, nor one board twice in the
    rounds to come; it sits at one place in each round; two tables hold one board in a
    round only where the movement shares boards (a relay); every board number is a
    board (from 1). Meeting an opponent again is allowed (see ``repeat_meetings``).
    Rounds of `movement` before `from_round` are not looked at.
    """
    problems: list[str] = []
    later = [r for r in history if r.number >= from_round]
    if later:
        problems.append(f"round {later[0].number} is played already: the change starts at "
                        f"round {from_round}")
    played: dict[int, dict[int, int]] = defaultdict(dict)  # pair -> board -> round
    for rnd in history:
        for t in rnd.tables:
            for board in t.boards:
                for pair in (t.ns, t.ew):
                    played[pair].setdefault(board, rnd.number)
    coming: dict[int, dict[int, int]] = defaultdict(dict)
    # (The one board a round it would pass between two tables: said once.)
    shared_too_few = sharing_too_few(movement.kind, movement.tables, movement.variant,
                                     movement.boards_per_round)
    for rnd in (r for r in movement.rounds if r.number >= from_round):
        where = f"round {rnd.number}"
        tables = Counter(t.table for t in rnd.tables)
        problems += [f"{where}: table {t} is used twice" for t, n in sorted(tables.items())
                     if n > 1]
        seated = Counter(p for t in rnd.tables for p in (t.ns, t.ew))
        seated.update(rnd.sit_out)
        problems += [f"{where}: pair {p} is in two places" for p, n in sorted(seated.items())
                     if n > 1]
        holders: dict[int, list[int]] = defaultdict(list)
        for t in rnd.tables:
            if t.ns == t.ew:
                problems.append(f"{where} table {t.table}: pair {t.ns} plays itself")
            for board in t.boards:
                holders[board].append(t.table)
                if board < 1:
                    problems.append(f"{where} table {t.table}: board {board} is not a board")
                for pair in (t.ns, t.ew):
                    before = played[pair].get(board)
                    if before is not None:
                        problems.append(f"{where} table {t.table}: pair {pair} played board "
                                        f"{board} already, in round {before}")
                    again = coming[pair].get(board)
                    if again is not None:
                        problems.append(f"{where} table {t.table}: pair {pair} would play "
                                        f"board {board} a second time (it has it in round "
                                        f"{again})")
                    coming[pair].setdefault(board, rnd.number)
        for board, at in sorted(holders.items()):
            if len(at) > 1 and not _sharing_allowed(movement, at):
                if shared_too_few and shared_too_few not in problems:
                    problems.append(shared_too_few)  # (why, once: before the first)
                problems.append(f"{where}: board {board} is at tables "
                                f"{', '.join(map(str, sorted(at)))} at once")
    return problems


def repeat_meetings(movement: Movement, from_round: int, history: Sequence[Round]
                    ) -> list[str]:
    """Pairs who would meet again from `from_round` on, having met before: allowed (no
    law forbids it) but worth a word to the director."""
    met: dict[frozenset, int] = {}
    for rnd in history:
        for t in rnd.tables:
            met.setdefault(frozenset((t.ns, t.ew)), rnd.number)
    notes = []
    for rnd in (r for r in movement.rounds if r.number >= from_round):
        for t in rnd.tables:
            key = frozenset((t.ns, t.ew))
            if key in met:
                notes.append(f"pairs {min(key)} and {max(key)} meet again in round "
                             f"{rnd.number} (they met in round {met[key]})")
            met.setdefault(key, rnd.number)
    return notes
