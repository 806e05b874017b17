"""The Howell and the three-quarter Howell: every pair meets (nearly) every other."""

from __future__ import annotations

import math
from collections import defaultdict
from functools import cache

from .model import HOWELL_TABLES, THREE_QUARTER_TABLES, Movement, MovementError
from .schedule import Schedule, assemble, require_pairs, require_tables

_INFINITY = -1  # the fixed point of a cyclic Howell (the stationary pair)


def howell(tables: int | None, boards_per_round: int, *, pairs: int | None = None) -> Movement:
    n = require_tables(tables, HOWELL_TABLES, "Howell")
    pairs = require_pairs(pairs, n)
    rounds = 2 * n - 1
    schedule = _small_howell(n) if n <= 3 else _howell_design(rounds, n)
    return assemble("howell", None, n, pairs, boards_per_round, rounds, schedule,
                     balance_seats=True)


def three_quarter_howell(tables: int | None, boards_per_round: int, *,
                         pairs: int | None = None) -> Movement:
    n = require_tables(tables, THREE_QUARTER_TABLES, "three-quarter Howell")
    pairs = require_pairs(pairs, n)
    rounds = three_quarter_rounds(n)
    schedule = _howell_design(rounds, n)
    return assemble("three-quarter-howell", None, n, pairs, boards_per_round, rounds,
                     schedule, balance_seats=True)


def three_quarter_rounds(tables: int) -> int:
    """Rounds (and board sets) of a three-quarter Howell: ceil(3/4 of a full Howell's)."""
    return math.ceil(3 * (2 * tables - 1) / 4)


def _howell_design(rounds: int, tables: int) -> Schedule:
    """A Howell design H(rounds, 2 × tables) as a schedule: cyclic if possible."""
    cyclic = _cyclic_starter(rounds, tables)
    if cyclic is not None:
        return _develop_cyclic(rounds, tables, *cyclic)
    return _searched_design(rounds, tables)


@cache
def _cyclic_starter(rounds: int, tables: int) -> tuple[tuple, tuple] | None:
    """A starter and adder over Z_rounds plus (2·tables − rounds) fixed points.

    The starter is round 1: ``tables`` pairs partitioning the points. Round k is the
    starter plus k (fixed points stay); starter pair i plays board set k + adder[i].
    Needed: pure pairs with distinct differences ±d (and never d = rounds/2), so no
    two pairs meet twice; distinct adders, so no set is at two tables in a round;
    and the pairs minus their adders partition the points, so every pair plays
    every set once. Found by a deterministic backtracking search.
    """
    fixed = 2 * tables - rounds
    starter: list[tuple[int, int]] = []
    adder: list[int] = []
    in_row: set[int] = set()
    in_column: set[int] = set()
    differences: set[int] = set()
    adders: set[int] = set()

    def place(points: tuple[int, ...], a: int) -> bool:
        columns = {(p - a) % rounds for p in points}
        if a in adders or len(columns) < len(points) or columns & in_column:
            return False
        in_row.update(points)
        in_column.update(columns)
        adders.add(a)
        adder.append(a)
        return True

    def unplace(points: tuple[int, ...], a: int) -> None:
        in_row.difference_update(points)
        in_column.difference_update((p - a) % rounds for p in points)
        adders.discard(a)
        adder.pop()

    def fixed_pairs(j: int) -> bool:
        if j == fixed:
            return pure_pairs(0)
        for x in range(rounds):
            if x in in_row:
                continue
            for a in range(rounds):
                if place((x,), a):
                    starter.append((_INFINITY - j, x))
                    if fixed_pairs(j + 1):
                        return True
                    starter.pop()
                    unplace((x,), a)
        return False

    def pure_pairs(i: int) -> bool:
        if i == tables - fixed:
            return True
        y = min(p for p in range(rounds) if p not in in_row)
        for z in range(y + 1, rounds):
            d = (z - y) % rounds
            if z in in_row or d in differences or 2 * d == rounds:
                continue
            for a in range(rounds):
                if place((y, z), a):
                    differences.update((d, rounds - d))
                    starter.append((y, z))
                    if pure_pairs(i + 1):
                        return True
                    starter.pop()
                    differences.difference_update((d, rounds - d))
                    unplace((y, z), a)
        return False

    if not fixed_pairs(0):
        return None
    return tuple(starter), tuple(adder)


def _develop_cyclic(rounds: int, tables: int, starter: tuple, adder: tuple) -> Schedule:
    """Number the pairs (point p is pair p+1, fixed point j is pair rounds+1+j) and
    seat the pure pairs at the first tables, the fixed points at the last ones, so
    the highest pair (the phantom, if any) keeps to the last table."""
    pure = [i for i in range(tables) if starter[i][0] > _INFINITY]
    fixed = sorted((i for i in range(tables) if starter[i][0] <= _INFINITY),
                   key=lambda i: -starter[i][0])

    def pair_number(point: int, k: int) -> int:
        if point <= _INFINITY:
            return rounds + (_INFINITY - point) + 1
        return (point + k) % rounds + 1

    order = pure + fixed
    first = adder[order[0]]  # number the sets so that table 1 starts with set 1
    schedule = []
    for k in range(rounds):
        seats = []
        for table, i in enumerate(order, start=1):
            a, b = (pair_number(p, k) for p in starter[i])
            seats.append((table, a, b, (k + adder[i] - first) % rounds + 1))
        schedule.append(seats)
    return schedule


@cache
def _searched_design_rows(rounds: int, tables: int) -> tuple:
    """A Howell design H(rounds, 2·tables) by plain backtracking, round by round.

    Used only where no cyclic one exists (H(6, 8)); the first round is fixed as
    {0,1}, {2,3}, ... on sets 0, 1, ...
    """
    points = 2 * tables
    met: set[tuple[int, int]] = set()
    in_set = [set() for _ in range(rounds)]
    rows: list[list[tuple[int, int, int]]] = []

    def fill(r: int, seated: set[int], sets_used: set[int], cells: list) -> bool:
        if len(cells) == tables:
            rows.append(list(cells))
            if len(rows) == rounds or fill(r + 1, set(), set(), []):
                return True
            rows.pop()
            return False
        a = min(p for p in range(points) if p not in seated)
        for b in range(a + 1, points):
            if b in seated or (a, b) in met:
                continue
            for s in range(rounds):
                if s in sets_used or a in in_set[s] or b in in_set[s]:
                    continue
                if len(in_set[s]) >= points:
                    continue
                met.add((a, b))
                seated.update((a, b))
                sets_used.add(s)
                in_set[s].update((a, b))
                cells.append((a, b, s))
                if fill(r, seated, sets_used, cells):
                    return True
                cells.pop()
                in_set[s].difference_update((a, b))
                sets_used.discard(s)
                seated.difference_update((a, b))
                met.discard((a, b))
                if r == 0:  # the first round is fixed: no alternatives to try
                    return False
        return False

    if not fill(0, set(), set(), []):  # pragma: no cover - H(6, 8) exists
        raise MovementError(f"no Howell design of {rounds} rounds for {tables} tables")
    return tuple(tuple(row) for row in rows)


def _searched_design(rounds: int, tables: int) -> Schedule:
    last = 2 * tables - 1  # the highest pair (a possible phantom) keeps to the last table
    schedule = []
    for row in _searched_design_rows(rounds, tables):
        cells = sorted(row, key=lambda c: (last in c[:2], c[2]))
        schedule.append([(t, a + 1, b + 1, s + 1) for t, (a, b, s) in enumerate(cells, 1)])
    return schedule


@cache
def _small_howell_sets(tables: int) -> tuple[tuple[int, ...], ...]:
    """Board sets for the 2- and 3-table Howells, which must share boards.

    Pairs meet as in the cyclic 1-factorisation; the sets are chosen by branch and
    bound to make the fewest pairs of tables share a set in a round.
    """
    rounds = 2 * tables - 1
    meetings = _small_howell_meetings(tables)
    cells = [(k, i) for k in range(rounds) for i in range(tables)]
    played = defaultdict(set)
    chosen: dict[tuple[int, int], int] = {}
    best: dict = {"cost": math.inf, "sets": None}

    def search(index: int, cost: int) -> None:
        if cost >= best["cost"]:
            return
        if index == len(cells):
            best["cost"], best["sets"] = cost, dict(chosen)
            return
        k, i = cells[index]
        a, b = meetings[k][i]
        for s in range(rounds):
            if s in played[a] or s in played[b]:
                continue
            sharing = sum(1 for j in range(i) if chosen[(k, j)] == s)
            played[a].add(s)
            played[b].add(s)
            chosen[(k, i)] = s
            search(index + 1, cost + sharing)
            del chosen[(k, i)]
            played[a].discard(s)
            played[b].discard(s)

    search(0, 0)
    sets = best["sets"]
    return tuple(tuple(sets[(k, i)] for i in range(tables)) for k in range(rounds))


def _small_howell_meetings(tables: int) -> list[list[tuple[int, int]]]:
    """Round k: {∞, k} at the last table and {k + x, k − x} at table x (points mod 2n−1)."""
    m = 2 * tables - 1
    return [
        [((k + x) % m, (k - x) % m) for x in range(1, tables)] + [(m, k)]
        for k in range(m)
    ]


def _small_howell(tables: int) -> Schedule:
    sets = _small_howell_sets(tables)
    return [
        [(i + 1, a + 1, b + 1, sets[k][i] + 1) for i, (a, b) in enumerate(row)]
        for k, row in enumerate(_small_howell_meetings(tables))
    ]
