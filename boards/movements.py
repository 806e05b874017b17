"""Movements: which pairs meet, at which table, on which boards, round by round.

Pure Python (no Django): the app stores ``Movement.to_dict()`` (interfaces.md §4) and
prints the guide cards from it. Every movement is generated, never typed in, and
``check`` proves the properties the director relies on.

Terms
-----
board set
    The boards one table plays in one round: ``boards_per_round`` consecutive board
    numbers (set 1 = boards 1..b, set 2 = boards b+1..2b, ...).
round
    One sitting: every table plays one board set, then pairs and boards move.
relay / shared boards
    Two tables playing the same board set in the same round, passing the boards
    between them (relay Mitchell: tables 1 and n; the 2- and 3-table Howells). They
    play the boards in different orders, so sharing wants two or more boards a round.
bye stand
    A stand with no players, holding a board set that nobody plays that round.
skip
    In a skip Mitchell the E–W pairs move up two tables instead of one, once.
sit-out
    With an odd number of pairs, the highest pair number is a phantom; the pair
    due to meet it sits out that round (no score; the table is left out of the
    round's ``tables`` and the pair is listed in ``sit_out``).

The movements (decisions, after the ACBL and EBU standard forms)
----------------------------------------------------------------
Mitchell, 3 to 20 tables: N–S pair *t* stays at table *t*; E–W pair *n+t* starts at
table *t* and moves up one table a round; boards move down one table.
  * odd *n*: *n* rounds, *n* board sets, every pair plays every set, each board is
    played *n* times.
  * ``skip`` (even *n*, E. T. Baker's skip Mitchell): before round *n*/2+1 the E–W
    pairs move up two tables. *n* board sets are in play but only *n*−1 rounds are
    played: the *n*-th would be the "revenge round" against the first opponents.
    Each pair plays *n*−1 sets and each board is played *n*−1 times.
  * ``relay`` (even *n*, share-and-relay, "relay and bye stand"): *n* board sets,
    sets 1..*n*/2 on tables 1..*n*/2, set *n*/2+1 on a bye stand between tables *n*/2
    and *n*/2+1, the rest on tables *n*/2+1..*n*−1; table *n* shares table 1's set.
    Boards move down one station (the bye stand counts as one; tables 1 and *n* are
    one station, whose boards go to table *n*−1). *n* rounds; every pair plays every
    set; each board is played *n* times.

Howell, 2 to 8 tables (2*n* pairs, 2*n*−1 rounds, 2*n*−1 board sets): every pair meets
every other pair once and plays every set once, so each board is played *n* times.
For *n* ≥ 4 the schedule is a cyclic Room square of side 2*n*−1 (no board set at two
tables in a round), built from a starter and an adder found by a small deterministic
backtracking search: in round *k* the pairs at each table are the starter's pairs
plus *k*, and each table plays the next board set each round. Pair 2*n* (the
starter's point at infinity) stays at table *n*. No Room square of side 3 or 5
exists, so the 2- and 3-table Howells share boards: with 2 tables both tables play
the same set every round; with 3 tables a search shows that some round must have
all three tables on one set (the least sharing possible), and the schedule found
has exactly one such round and no other sharing.

Three-quarter Howell, 4 to 8 tables: R = ceil(3/4 × (2*n*−1)) rounds (6, 7, 9, 10, 12)
and R board sets, laid out as a Howell design H(R, 2*n*): each round uses *n*
different sets, every pair plays every set exactly once and meets R different
opponents, and so each board is played *n* times, as in a full Howell ("played the
expected number of times"); each set rests on a relay stand in the other R−*n*
rounds. Built cyclically (starter and adder) where possible; H(6, 8) has no cyclic
form and comes from a direct backtracking search.

Howell seats: pairs change direction. Each pair's N–S and E–W rounds differ by at
most one (the meetings are oriented along an Euler circuit).

Team match (Duplicate Law G), *k* ≥ 2 pairs a team: team A is pairs 1..*k*, team B
pairs *k*+1..2*k*; *k* tables, *k* board sets, *k* rounds. Tables 1..ceil(*k*/2) seat an A
pair N–S against a B pair; the other tables a B pair N–S against an A pair, so half
of each team (as near as may be) sits N–S. N–S pairs stay put; every table plays
every set once ("each deal played once at each table") and so does every pair.
E–W pairs move within their group of tables so that opponents change every round:
  * even *k*: the E–W pairs move up one table within their group each round and
    meet each opponent of their group twice; the sets are in two halves, the groups
    swapping halves every round.
  * odd *k* (≥ 5): the groups play alternately a "home" round against a fixed
    opponent and an "away" round against a different one; a cyclic rotation cannot
    work here (a pair would meet a board again).
  * *k* = 3 and a group of one table: opponents cannot change; an exhaustive search
    shows that with three pairs a side no pair can change opponents at all.

Odd number of pairs (Mitchell, Howell, three-quarter Howell): ``pairs`` = 2*n*−1 makes
pair 2*n* a phantom: in a Mitchell an E–W pair, so N–S pairs sit out in turn; in a
Howell the stationary pair, so every other pair sits out exactly once. Each board
is then played once less for each sit-out on it.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

KINDS = ("mitchell", "howell", "three-quarter-howell", "team-match")
MITCHELL_VARIANTS = ("skip", "relay")
MITCHELL_TABLES = range(3, 21)
HOWELL_TABLES = range(2, 9)
THREE_QUARTER_TABLES = range(4, 9)
TEAM_PAIRS = range(2, 21)

_KIND_NAMES = {
    "mitchell": "Mitchell",
    "howell": "Howell",
    "three-quarter-howell": "three-quarter Howell",
    "team-match": "team match",
}
_INFINITY = -1  # the fixed point of a cyclic Howell (the stationary pair)


class MovementError(ValueError):
    """A movement that cannot be made; the message is for the director."""


@dataclass(frozen=True)
class TableRound:
    """One table in one round: who sits where and which boards they play."""

    table: int
    ns: int
    ew: int
    boards: tuple[int, ...]


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[TableRound, ...]
    sit_out: tuple[int, ...] = ()


@dataclass(frozen=True)
class Movement:
    kind: str
    variant: str | None
    tables: int
    pairs: int
    boards: int
    boards_per_round: int
    teams: dict[str, list[int]] | None
    rounds: tuple[Round, ...]

    def to_dict(self) -> dict:
        """The JSON of interfaces.md §4."""
        return {
            "kind": self.kind,
            "variant": self.variant,
            "tables": self.tables,
            "pairs": self.pairs,
            "boards": self.boards,
            "teams": None if self.teams is None else {k: list(v) for k, v in self.teams.items()},
            "rounds": [
                {
                    "round": rnd.number,
                    "tables": [
                        {"table": t.table, "ns": t.ns, "ew": t.ew, "boards": list(t.boards)}
                        for t in rnd.tables
                    ],
                    "sit_out": list(rnd.sit_out),
                }
                for rnd in self.rounds
            ],
        }


def movement_from_dict(data: dict) -> Movement:
    """Read back what ``Movement.to_dict`` wrote (e.g. a movement stored by the app)."""
    try:
        rounds = tuple(
            Round(
                number=int(rnd["round"]),
                tables=tuple(
                    TableRound(int(t["table"]), int(t["ns"]), int(t["ew"]),
                               tuple(int(b) for b in t["boards"]))
                    for t in rnd["tables"]
                ),
                sit_out=tuple(int(p) for p in rnd.get("sit_out", ())),
            )
            for rnd in data["rounds"]
        )
        teams = data.get("teams")
        per_round = next((len(t.boards) for rnd in rounds for t in rnd.tables), 0)
        return Movement(
            kind=str(data["kind"]),
            variant=data.get("variant"),
            tables=int(data["tables"]),
            pairs=int(data["pairs"]),
            boards=int(data["boards"]),
            boards_per_round=int(data.get("boards_per_round", per_round)),
            teams=None if teams is None else {k: [int(p) for p in v] for k, v in teams.items()},
            rounds=rounds,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise MovementError(f"not a movement: {exc}") from exc


# --------------------------------------------------------------------------- generate


def generate(
    kind: str,
    *,
    tables: int | None = None,
    boards_per_round: int,
    variant: str | None = None,
    pairs: int | None = None,
    pairs_per_team: int | None = None,
) -> Movement:
    """Make a movement, or raise ``MovementError`` saying what is wrong with the request."""
    if kind not in KINDS:
        raise MovementError(
            f"unknown movement kind {kind!r}: use mitchell, howell, three-quarter-howell "
            "or team-match"
        )
    _require_count(boards_per_round, "boards per round", minimum=1)
    if kind == "team-match":
        return team_match(pairs_per_team, boards_per_round, tables=tables, pairs=pairs,
                          variant=variant)
    if pairs_per_team is not None:
        raise MovementError("pairs per team is only for a team match")
    if kind == "mitchell":
        return mitchell(tables, boards_per_round, variant=variant, pairs=pairs)
    if variant is not None:
        raise MovementError(f"a {_KIND_NAMES[kind]} takes no variant (skip and relay are "
                            "for an even-table Mitchell)")
    if kind == "howell":
        return howell(tables, boards_per_round, pairs=pairs)
    return three_quarter_howell(tables, boards_per_round, pairs=pairs)


def _require_count(value: object, what: str, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MovementError(f"{what} must be a whole number")
    if value < minimum:
        raise MovementError(f"{what} must be at least {minimum}")
    return value


def _require_tables(tables: int | None, allowed: range, name: str) -> int:
    if tables is None:
        raise MovementError(f"a {name} needs a number of tables (--tables)")
    if isinstance(tables, bool) or not isinstance(tables, int) or tables not in allowed:
        raise MovementError(f"a {name} needs {allowed.start} to {allowed.stop - 1} tables")
    return tables


def _require_pairs(pairs: int | None, tables: int) -> int:
    if pairs is None:
        return 2 * tables
    if isinstance(pairs, bool) or not isinstance(pairs, int) or pairs not in (
        2 * tables - 1, 2 * tables
    ):
        raise MovementError(
            f"{tables} tables seat {2 * tables - 1} or {2 * tables} pairs, not {pairs}"
        )
    return pairs


# A schedule is the movement before numbering boards and removing the phantom:
# rounds of (table, ns, ew, board set), board sets numbered from 1.
Schedule = list[list[tuple[int, int, int, int]]]


def _assemble(kind: str, variant: str | None, tables: int, pairs: int, per_round: int,
              board_sets: int, schedule: Schedule, *, teams: dict | None = None,
              balance_seats: bool = False) -> Movement:
    phantom = 2 * tables if pairs == 2 * tables - 1 else None
    rounds = []
    for number, seats in enumerate(schedule, start=1):
        playing = [s for s in seats if phantom not in (s[1], s[2])]
        sit_out = tuple(sorted(s[2] if s[1] == phantom else s[1]
                               for s in seats if phantom in (s[1], s[2])))
        rounds.append((number, playing, sit_out))
    if balance_seats:
        rounds = _balance_directions(rounds)
    return Movement(
        kind=kind,
        variant=variant,
        tables=tables,
        pairs=pairs,
        boards=board_sets * per_round,
        boards_per_round=per_round,
        teams=teams,
        rounds=tuple(
            Round(number, tuple(TableRound(t, ns, ew, _set_boards(s, per_round))
                                for t, ns, ew, s in sorted(playing)), sit_out)
            for number, playing, sit_out in rounds
        ),
    )


def _set_boards(board_set: int, per_round: int) -> tuple[int, ...]:
    first = (board_set - 1) * per_round + 1
    return tuple(range(first, first + per_round))


# --------------------------------------------------------------------------- Mitchell


def mitchell(tables: int | None, boards_per_round: int, *, variant: str | None = None,
             pairs: int | None = None) -> Movement:
    n = _require_tables(tables, MITCHELL_TABLES, "Mitchell")
    if n % 2 and variant is not None:
        raise MovementError("an odd-table Mitchell takes no variant (skip and relay are for "
                            "an even number of tables)")
    if n % 2 == 0 and variant is None:
        raise MovementError("an even-table Mitchell needs a variant: skip or relay")
    if variant is not None and variant not in MITCHELL_VARIANTS:
        raise MovementError(f"unknown Mitchell variant {variant!r}: use skip or relay")
    pairs = _require_pairs(pairs, n)
    schedule = _mitchell_schedule(n, variant)
    return _assemble("mitchell", variant, n, pairs, boards_per_round, n, schedule)


def _mitchell_schedule(n: int, variant: str | None) -> Schedule:
    rounds = n - 1 if variant == "skip" else n
    schedule = []
    for r in range(rounds):
        seats = []
        for t in range(n):
            ew_start = (t - _ew_moves(r, n, variant)) % n  # the table this E–W pair began at
            seats.append((t + 1, t + 1, n + ew_start + 1, _mitchell_set(t, r, n, variant)))
        schedule.append(seats)
    return schedule


def _ew_moves(r: int, n: int, variant: str | None) -> int:
    """Tables an E–W pair has moved up by round r (0-based): one a round, plus the skip."""
    return r + (1 if variant == "skip" and r >= n // 2 else 0)


def _mitchell_set(t: int, r: int, n: int, variant: str | None) -> int:
    """The board set (from 1) at table t (0-based) in round r (0-based)."""
    return (_board_station(t, n, variant) + r) % n + 1


def _board_station(t: int, n: int, variant: str | None) -> int:
    """Where table t sits in the circuit the boards travel down, one station a round.

    In a relay Mitchell the bye stand is station n/2 and tables 1 and n are both
    station 0 (they share); otherwise station = table.
    """
    if variant != "relay" or t < n // 2:
        return t
    return (t + 1) % n


def bye_stand_set(movement: Movement, round_number: int) -> int | None:
    """The board set resting on the bye stand of a relay Mitchell in a round, else None."""
    if movement.kind != "mitchell" or movement.variant != "relay":
        return None
    n = movement.tables
    return (n // 2 + round_number - 1) % n + 1


# --------------------------------------------------------------------------- Howell


def howell(tables: int | None, boards_per_round: int, *, pairs: int | None = None) -> Movement:
    n = _require_tables(tables, HOWELL_TABLES, "Howell")
    pairs = _require_pairs(pairs, n)
    rounds = 2 * n - 1
    schedule = _small_howell(n) if n <= 3 else _howell_design(rounds, n)
    return _assemble("howell", None, n, pairs, boards_per_round, rounds, schedule,
                     balance_seats=True)


def three_quarter_howell(tables: int | None, boards_per_round: int, *,
                         pairs: int | None = None) -> Movement:
    n = _require_tables(tables, THREE_QUARTER_TABLES, "three-quarter Howell")
    pairs = _require_pairs(pairs, n)
    rounds = three_quarter_rounds(n)
    schedule = _howell_design(rounds, n)
    return _assemble("three-quarter-howell", None, n, pairs, boards_per_round, rounds,
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


def _balance_directions(rounds: list) -> list:
    """Seat each meeting so that every pair is N–S and E–W equally often, ±1.

    Orient the meeting graph along closed trails (a dummy vertex joins the pairs of
    odd degree, so an Euler circuit exists): each pair then enters as often as it
    leaves. The first pair of each oriented meeting sits N–S.
    """
    edges = [(seat[1], seat[2]) for _, playing, _ in rounds for seat in playing]
    oriented = iter(_orient_evenly(edges))
    balanced = []
    for number, playing, sit_out in rounds:
        seats = []
        for table, _, _, board_set in playing:
            ns, ew = next(oriented)
            seats.append((table, ns, ew, board_set))
        balanced.append((number, seats, sit_out))
    return balanced


def _orient_evenly(edges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    dummy = 0  # pair numbers start at 1
    degree = Counter(v for edge in edges for v in edge)
    all_edges = list(edges) + [(dummy, v) for v in sorted(degree) if degree[v] % 2]
    incident: dict[int, list[int]] = defaultdict(list)
    for index, (a, b) in enumerate(all_edges):
        incident[a].append(index)
        incident[b].append(index)
    used = [False] * len(all_edges)
    oriented: list[tuple[int, int] | None] = [None] * len(all_edges)
    cursor: Counter = Counter()
    for start in sorted(incident):
        trail = [start]
        while trail:
            v = trail[-1]
            links = incident[v]
            while cursor[v] < len(links) and used[links[cursor[v]]]:
                cursor[v] += 1
            if cursor[v] == len(links):
                trail.pop()
                continue
            index = links[cursor[v]]
            used[index] = True
            a, b = all_edges[index]
            w = b if a == v else a
            oriented[index] = (v, w)
            trail.append(w)
    return [edge for edge in oriented[: len(edges)] if edge is not None]


# --------------------------------------------------------------------------- team match


def team_match(pairs_per_team: int | None, boards_per_round: int, *, tables: int | None = None,
               pairs: int | None = None, variant: str | None = None) -> Movement:
    if pairs_per_team is None:
        raise MovementError("a team match needs the number of pairs a team (--pairs-per-team)")
    if isinstance(pairs_per_team, bool) or not isinstance(pairs_per_team, int):
        raise MovementError("pairs per team must be a whole number")
    if pairs_per_team < TEAM_PAIRS.start:
        raise MovementError("a team match needs at least 2 pairs a team (Duplicate Law G)")
    if pairs_per_team >= TEAM_PAIRS.stop:
        raise MovementError(f"a team match takes at most {TEAM_PAIRS.stop - 1} pairs a team")
    k = pairs_per_team
    if tables is not None and tables != k:
        raise MovementError(f"a team match of {k} pairs a team uses {k} tables, not {tables}")
    if pairs is not None and pairs != 2 * k:
        raise MovementError(f"a team match of {k} pairs a team has {2 * k} pairs, not {pairs}")
    if variant is not None:
        raise MovementError("a team match takes no variant (skip and relay are for an "
                            "even-table Mitchell)")
    teams = {"A": list(range(1, k + 1)), "B": list(range(k + 1, 2 * k + 1))}
    schedule = _team_schedule_even(k) if k % 2 == 0 else _team_schedule_odd(k)
    return _assemble("team-match", None, k, 2 * k, boards_per_round, k, schedule, teams=teams)


def _team_seats(k: int, g: int, group1: list, group2: list) -> list:
    """Seat a round: group 1 (tables 1..g) has team A N–S against team B, group 2 the
    reverse. ``group1[i]`` / ``group2[i]`` = (E–W index within the group, board set)."""
    seats = []
    for i, (b, s) in enumerate(group1):
        seats.append((i + 1, i + 1, k + 1 + b, s))
    for i, (a, s) in enumerate(group2):
        seats.append((g + 1 + i, k + g + 1 + i, g + 1 + a, s))
    return seats


def _team_schedule_even(k: int) -> Schedule:
    """k = 2g: E–W pairs move up one table in their group; set (colour, x) with
    colour = round mod 2 in group 1 (the other colour in group 2) and x = table − round//2."""
    g = k // 2
    schedule = []
    for r in range(k):
        colour, turn = r % 2, r // 2
        group1 = [((i - r) % g, colour * g + (i - turn) % g + 1) for i in range(g)]
        group2 = [((i - r) % g, (1 - colour) * g + (i - turn) % g + 1) for i in range(g)]
        schedule.append(_team_seats(k, g, group1, group2))
    return schedule


def _team_schedule_odd(k: int) -> Schedule:
    """k = 2g − 1: sets X_0..X_{g−1} (numbers 1..g) and Y_0..Y_{g−2} (g+1..k).

    Rounds alternate home, away, home, ..., home: g home rounds and g−1 away rounds.
    Group 1 (g tables, pair b): in away round j table i plays X[i + u(j)] and E–W
    pair b sits at table b + w(j) − u(j); in home rounds pair b sits at table b + c
    and table j plays the one X it has not had, X[j + u(g−1)], the others Y[j − i − 1].
    Group 2 (g − 1 tables, pair a): in away round j table i plays Y[i + j] and pair a
    sits at table a + σ(j) − j; in home rounds pair a sits at table a and the tables
    play the other Xs. u, w and σ are permutations whose away steps never equal the
    home step, so every E–W pair changes opponents every round.
    """
    g, h = (k + 1) // 2, (k - 1) // 2
    u, w = _group_one_steps(g)
    c = (w[g - 1] - u[g - 1]) % g
    sigma = _group_two_steps(h)
    missing = u[g - 1]
    schedule = []
    for r in range(k):
        j = r // 2
        if r % 2 == 0:  # home round
            group1 = [((i - c) % g, (j + missing) % g + 1 if i == j
                       else g + (j - i - 1) % g + 1) for i in range(g)]
            group2 = [(i, (j + missing + 1 + i) % g + 1) for i in range(h)]
        else:  # away round
            group1 = [((i - w[j] + u[j]) % g, (i + u[j]) % g + 1) for i in range(g)]
            group2 = [((i - sigma[j] + j) % h, g + (i + j) % h + 1) for i in range(h)]
        schedule.append(_team_seats(k, g, group1, group2))
    return _sets_in_table_order(schedule)


def _sets_in_table_order(schedule: Schedule) -> Schedule:
    """Renumber the board sets so that table t starts with set t (a relabelling only)."""
    new_number: dict[int, int] = {}
    for seats in schedule:
        for _, _, _, board_set in sorted(seats):
            new_number.setdefault(board_set, len(new_number) + 1)
    return [[(t, ns, ew, new_number[s]) for t, ns, ew, s in seats] for seats in schedule]


def _near_complete_mapping(size: int) -> list[int]:
    """For an even size: x ↦ 2x (first half), 2x + 1 (second half), a permutation whose
    steps w(x) − x take every value once except 0 (twice) and size/2 (never)."""
    return [(2 * x + (x >= size // 2)) % size for x in range(size)]


def _group_one_steps(g: int) -> tuple[list[int], list[int]]:
    """Permutations u, w of Z_g: the step at index g−1 (the home step) occurs nowhere
    else, and the other steps take as many values as may be (all of them for odd g;
    for even g one repeats, since Z_g then has no complete mapping)."""
    if g % 2:
        return list(range(g)), [2 * x % g for x in range(g)]
    if g == 2:  # no such pair exists: the E–W pairs stay put (proved by exhaustion)
        return [0, 1], [0, 1]
    order = [0, *range(2, g), 1]  # index 1 has a step (1) no other index has: put it last
    mapping = _near_complete_mapping(g)
    return order, [mapping[x] for x in order]


def _group_two_steps(h: int) -> list[int]:
    """A permutation σ of Z_h with σ(j) ≠ j for every j (away is never home), with as
    many different steps σ(j) − j as may be; the identity for a group of one table."""
    if h == 1:
        return [0]
    if h % 2 == 0:
        return [(x + h // 2) % h for x in _near_complete_mapping(h)]
    sigma = [(2 * x + 1) % h for x in range(h)]
    sigma[0], sigma[h - 1] = h - 1, 1
    return sigma


# --------------------------------------------------------------------------- check


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
    return (movement.kind == "mitchell" and movement.variant == "relay") or (
        movement.kind == "howell" and movement.tables <= 3
    )


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
    if m.kind == "mitchell" and m.variant == "relay":
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


# --------------------------------------------------------------------------- guide cards
#
# One builder for every guide card: the ``movement`` command's text, the director's
# web page, the printed PDF and the table page's "where next" all read the cards
# below, made from a generated movement or from one rebuilt from the stored meetings.


@dataclass(frozen=True)
class Seat:
    """Where a pair sits in a round: a table and a direction, or nowhere (it sits out)."""

    table: int | None
    direction: str | None = None  # "NS" or "EW"; None when the pair sits out

    @property
    def sits_out(self) -> bool:
        return self.table is None

    def __str__(self) -> str:
        if self.table is None:
            return "sit out"
        return f"table {self.table} {_DIRECTION[self.direction or '']}"


@dataclass(frozen=True)
class BoardsMove:
    """Where some of a table's boards go after a round (or came from before it).

    ``tables`` are the tables that play them in that round. When no table does, the
    boards wait: on the ``stand`` ("bye stand" of a relay Mitchell, "relay stand"
    of a Howell), or, in a Mitchell with a sit-out, at the table they move to
    (``waiting``: that table is not in play that round). No tables and no stand:
    the boards go back to (or come from) the director.
    """

    boards: tuple[int, ...]
    tables: tuple[int, ...] = ()
    stand: str = ""
    waiting: bool = False

    def __str__(self) -> str:
        if self.tables:
            word = "tables" if len(self.tables) > 1 else "table"
            text = f"{word} {' and '.join(map(str, self.tables))}"
            return text + " (not in play that round: they wait there)" if self.waiting else text
        if self.stand:
            return f"the {self.stand}"
        return "the director"


@dataclass(frozen=True)
class TableCardRow:
    """One round of a table's card. ``ns`` is None when the table is not in play.

    ``ns_next``/``ew_next``: where the two pairs sit in the next round (None after the
    last round); ``boards_next``/``boards_from``: where the boards go after the round
    and where they came from before it (empty after the last / before the first).
    """

    round: int
    ns: int | None
    ew: int | None
    boards: tuple[int, ...]
    shared_with: tuple[int, ...] = ()
    ns_next: Seat | None = None
    ew_next: Seat | None = None
    boards_next: tuple[BoardsMove, ...] = ()
    boards_from: tuple[BoardsMove, ...] = ()

    @property
    def in_play(self) -> bool:
        return self.ns is not None


@dataclass(frozen=True)
class TableCard:
    table: int
    rows: tuple[TableCardRow, ...]


@dataclass(frozen=True)
class PairCardRow:
    """One round of a pair's card; ``table`` is None when the pair sits out.

    ``next``: where the pair sits in the next round (None after the last round)."""

    round: int
    table: int | None
    direction: str | None  # "NS" or "EW"
    boards: tuple[int, ...]
    opponents: int | None
    next: Seat | None = None


@dataclass(frozen=True)
class PairCard:
    pair: int
    team: str | None
    rows: tuple[PairCardRow, ...]


class _Layout:
    """Each round's seats and board places, looked up by pair and by board."""

    def __init__(self, movement: Movement) -> None:
        self.movement = movement
        self.seats: list[dict[int, Seat]] = []
        self.board_tables: list[dict[int, tuple[int, ...]]] = []
        for rnd in movement.rounds:
            seats: dict[int, Seat] = {p: Seat(None) for p in rnd.sit_out}
            where: dict[int, list[int]] = defaultdict(list)
            for t in rnd.tables:
                seats[t.ns] = Seat(t.table, "NS")
                seats[t.ew] = Seat(t.table, "EW")
                for board in t.boards:
                    where[board].append(t.table)
            self.seats.append(seats)
            self.board_tables.append({b: tuple(sorted(ts)) for b, ts in where.items()})

    def seat(self, index: int, pair: int) -> Seat | None:
        """The pair's seat in round index (0-based); None past the last round."""
        if not 0 <= index < len(self.seats):
            return None
        return self.seats[index].get(pair, Seat(None))

    def boards_move(self, index: int, table: int, boards: tuple[int, ...],
                    step: int) -> tuple[BoardsMove, ...]:
        """Where `boards`, at `table` in round index, are in round index + step (±1)."""
        other = index + step
        if not 0 <= other < len(self.board_tables):
            return ()
        groups: dict[tuple, list[int]] = defaultdict(list)
        for board in boards:
            tables = self.board_tables[other].get(board)
            key = (tables, "", False) if tables else self._resting(table, step)
            groups[key].append(board)
        return tuple(BoardsMove(tuple(bs), *key) for key, bs in groups.items())

    def _resting(self, table: int, step: int) -> tuple[tuple[int, ...], str, bool]:
        """Boards nobody plays in the round next to this one: where do they wait?"""
        m = self.movement
        if m.kind != "mitchell" or not m.tables:
            return ((), "relay stand", False)
        # A Mitchell's boards move down one station a round (see _board_station).
        station = _board_station(table - 1, m.tables, m.variant)
        tables = _station_tables((station - step) % m.tables, m.tables, m.variant)
        if tables is None:
            return ((), f"bye stand between tables {m.tables // 2} and {m.tables // 2 + 1}",
                    False)
        return (tables, "", True)


def _station_tables(station: int, n: int, variant: str | None) -> tuple[int, ...] | None:
    """The tables at a station of a Mitchell's board circuit; None for the bye stand."""
    if variant != "relay":
        return (station + 1,)
    if station == 0:
        return (1, n)
    if station == n // 2:
        return None
    return (station + 1,) if station < n // 2 else (station,)


def table_cards(movement: Movement) -> list[TableCard]:
    """Per table, round by round: the N–S and E–W pairs, the boards (None = idle), and
    where the pairs and boards go next.

    A table that is never in play (a Howell's last table when its pair is missing)
    gets no card."""
    layout = _Layout(movement)
    cards = []
    for table in _table_numbers(movement):
        rows = []
        for index, rnd in enumerate(movement.rounds):
            here = next((t for t in rnd.tables if t.table == table), None)
            if here is None:
                rows.append(TableCardRow(rnd.number, None, None, ()))
                continue
            shared = tuple(t.table for t in rnd.tables
                           if t.table != table and set(t.boards) & set(here.boards))
            rows.append(TableCardRow(
                rnd.number, here.ns, here.ew, here.boards, shared,
                ns_next=layout.seat(index + 1, here.ns),
                ew_next=layout.seat(index + 1, here.ew),
                boards_next=layout.boards_move(index, table, here.boards, +1),
                boards_from=layout.boards_move(index, table, here.boards, -1)))
        if any(row.ns is not None for row in rows):  # a table never in play gets no card
            cards.append(TableCard(table, tuple(rows)))
    return cards


def _table_numbers(movement: Movement) -> list[int]:
    used = {t.table for rnd in movement.rounds for t in rnd.tables}
    return sorted(used | set(range(1, movement.tables + 1)))


def pair_numbers(movement: Movement) -> list[int]:
    """Every pair the movement seats or sits out (1..pairs for a generated one)."""
    return sorted({p for rnd in movement.rounds
                   for p in (*(x for t in rnd.tables for x in (t.ns, t.ew)), *rnd.sit_out)})


def pair_cards(movement: Movement) -> list[PairCard]:
    """Per pair, round by round: table, direction, boards, opponents and the next seat."""
    team_of = {p: name for name, members in (movement.teams or {}).items() for p in members}
    layout = _Layout(movement)
    cards = []
    for pair in pair_numbers(movement):
        rows = [_pair_row(rnd, pair, layout.seat(index + 1, pair))
                for index, rnd in enumerate(movement.rounds)]
        cards.append(PairCard(pair, team_of.get(pair), tuple(rows)))
    return cards


def _pair_row(rnd: Round, pair: int, after: Seat | None) -> PairCardRow:
    for t in rnd.tables:
        if pair == t.ns:
            return PairCardRow(rnd.number, t.table, "NS", t.boards, t.ew, after)
        if pair == t.ew:
            return PairCardRow(rnd.number, t.table, "EW", t.boards, t.ns, after)
    return PairCardRow(rnd.number, None, None, (), None, after)


def table_round(movement: Movement, table: int, round_number: int) -> TableCardRow | None:
    """This table's row of its card in a round: who is here, and where the pairs and
    boards go after it (the table page's "where next"); None if not in play."""
    for card in table_cards(movement):
        if card.table == table:
            return next((row for row in card.rows
                         if row.round == round_number and row.in_play), None)
    return None


def board_range(boards: Iterable[int]) -> str:
    """Boards as a director writes them: "4–6", or "1, 5, 9" when not consecutive."""
    numbers = sorted(boards)
    if not numbers:
        return "–"
    if len(numbers) > 1 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}–{numbers[-1]}"
    return ", ".join(map(str, numbers))


_DIRECTION = {"NS": "N–S", "EW": "E–W"}


def movement_title(movement: Movement) -> str:
    m = movement
    name = _KIND_NAMES[m.kind]
    if m.variant:
        name = f"{m.variant} {name}"
    sets = m.boards // m.boards_per_round
    return (f"{name[0].upper()}{name[1:]}: {m.tables} tables, {m.pairs} pairs, {m.boards} boards "
            f"({sets} sets of {m.boards_per_round}), {len(m.rounds)} rounds")


def movement_instructions(movement: Movement) -> list[str]:
    """The director's announcement: how pairs and boards move."""
    m, n = movement, movement.tables
    lines: list[str] = []
    if m.kind == "mitchell":
        lines.append(f"N–S pairs stay at their tables. After each round E–W pairs move up one "
                     f"table (from table {n} to table 1) and boards move down one table "
                     f"(from table 1 to table {n}).")
        if m.variant == "skip":
            lines.append(f"Skip: before round {n // 2 + 1} the E–W pairs move up two tables. "
                         f"{n} board sets are in play; each pair plays {n - 1} of them.")
        if m.variant == "relay":
            lines.append(f"Relay: tables 1 and {n} share a board set every round. A bye stand "
                         f"between tables {n // 2} and {n // 2 + 1} holds one set: boards go "
                         f"from table {n // 2 + 1} to the bye stand, from the bye stand to "
                         f"table {n // 2}, and from tables 1 and {n} to table {n - 1}.")
    elif m.kind in ("howell", "three-quarter-howell"):
        lines.append("Pairs change tables and directions as their pair cards show; tables "
                     "play the board sets their table cards show.")
        if shares_boards(m):
            lines.append("Tables marked 'shared' play the same boards in a round: play them in "
                         "a different order and pass them on.")
        sets = m.boards // m.boards_per_round
        if _sets_advance_by_one(m):
            lines.append(f"Each table plays the next board set each round (after set {sets} "
                         "comes set 1).")
        if sets > n and not shares_boards(m):
            lines.append(f"Board sets not in play wait on a relay stand ({sets - n} a round).")
    else:
        assert m.teams is not None
        (name_a, a), (name_b, b) = list(m.teams.items())[:2]
        half = (n + 1) // 2
        lines.append(f"Team {name_a}: pairs {a[0]}–{a[-1]}; team {name_b}: pairs "
                     f"{b[0]}–{b[-1]}. Each table seats one pair of each team; team {name_a} "
                     f"sits N–S at tables 1–{half}, team {name_b} at the others "
                     "(Duplicate Law G).")
        lines.append("N–S pairs stay at their tables; every deal is played once at each table. "
                     "E–W pairs and boards move as the cards show.")
    if m.pairs == 2 * n - 1:
        lines.append(f"Pair {2 * n} is missing: the pair due to meet it sits out that round.")
    return lines


def _sets_advance_by_one(movement: Movement) -> bool:
    """Whether every table plays set s + 1 in the round after set s (cyclic Howells)."""
    sets = movement.boards // movement.boards_per_round
    per_round = movement.boards_per_round
    for card in table_cards(movement):
        played = [(row.boards[0] - 1) // per_round for row in card.rows if row.boards]
        if len(played) != len(card.rows):
            return False
        if any((b - a) % sets != 1 for a, b in zip(played, played[1:], strict=False)):
            return False
    return True


def guide_cards_text(movement: Movement) -> str:
    """Table cards and pair cards as plain text (``manage.py movement --format text``)."""
    out = [movement_title(movement), *movement_instructions(movement), ""]
    out += ["TABLE CARDS", ""]
    for card in table_cards(movement):
        out += _table_card_lines(card, movement)
    out += ["PAIR CARDS", ""]
    for card in pair_cards(movement):
        out += _pair_card_lines(card)
    return "\n".join(out).rstrip() + "\n"


def _table_card_lines(card: TableCard, movement: Movement) -> list[str]:
    lines = [f"Table {card.table}", "  Round  N–S  E–W  Boards"]
    for row in card.rows:
        if row.ns is None:
            lines.append(f"  {row.round:5}  (not in play)")
            continue
        note = ""
        if row.shared_with:
            word = "tables" if len(row.shared_with) > 1 else "table"
            note = f"  shared with {word} {', '.join(map(str, row.shared_with))}"
        lines.append(f"  {row.round:5}  {row.ns:3}  {row.ew:3}  {board_range(row.boards)}{note}")
    relay = movement.kind == "mitchell" and movement.variant == "relay"
    if relay and card.table == movement.tables:
        lines.append("  (the bye stand between tables "
                     f"{movement.tables // 2} and {movement.tables // 2 + 1} holds a set "
                     "nobody plays that round)")
    return lines + [""]


def _pair_card_lines(card: PairCard) -> list[str]:
    team = f" (team {card.team})" if card.team else ""
    lines = [f"Pair {card.pair}{team}"]
    for row in card.rows:
        if row.table is None:
            lines.append(f"  round {row.round}: sits out")
            continue
        direction = _DIRECTION[row.direction or ""]
        lines.append(f"  round {row.round}: table {row.table} {direction}, boards "
                     f"{board_range(row.boards)}, vs pair {row.opponents}")
    return lines + [""]
