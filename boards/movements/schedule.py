"""What every generator shares: checking the request, and turning a schedule (the
movement before numbering boards and removing the phantom) into a ``Movement``."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from .model import Movement, MovementError, Round, TableRound


def require_count(value: object, what: str, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MovementError(f"{what} must be a whole number")
    if value < minimum:
        raise MovementError(f"{what} must be at least {minimum}")
    return value


def require_tables(tables: int | None, allowed: range, name: str) -> int:
    if tables is None:
        raise MovementError(f"a {name} needs a number of tables (--tables)")
    if isinstance(tables, bool) or not isinstance(tables, int) or tables not in allowed:
        raise MovementError(f"a {name} needs {allowed.start} to {allowed.stop - 1} tables")
    return tables


# Tables sharing a set play its boards in different orders, each passing a board on
# when done: a set shared by more tables than it has boards leaves one of them waiting.
def sharing_tables(kind: str, tables: int, variant: str | None) -> int:
    """The most tables that share one board set in a round of the movement (1: none)."""
    if kind == "mitchell" and variant == "relay":
        return 2  # tables 1 and n, every round
    if kind == "howell" and tables <= 3:
        return tables  # the 2-table Howell every round; the 3-table one in one round
    return 1


def sharing_too_few(kind: str, tables: int, variant: str | None, boards_per_round: int
                    ) -> str | None:
    """Why a movement whose tables share board sets cannot have `boards_per_round`, in
    the director's words; None when it can (or shares nothing)."""
    least = sharing_tables(kind, tables, variant)
    if boards_per_round >= least:
        return None
    if kind == "mitchell":
        return (f"a relay Mitchell needs at least {least} boards a round: tables 1 and "
                f"{tables} share a set every round, passing its boards between them, so "
                "with fewer one table waits for a board")
    sharing = ("both tables share one set every round" if tables == 2
               else "in one round all three tables share one set")
    return (f"a Howell of {tables} tables needs at least {least} boards a round: "
            f"{sharing}, passing its boards between them, so with fewer a table waits "
            "for a board")


def require_pairs(pairs: int | None, tables: int) -> int:
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


def assemble(kind: str, variant: str | None, tables: int, pairs: int, per_round: int,
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
