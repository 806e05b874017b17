"""The team match (Duplicate Law G): each deal played once at each table."""

from __future__ import annotations

from .model import TEAM_PAIRS, Movement, MovementError
from .schedule import Schedule, assemble


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
    return assemble("team-match", None, k, 2 * k, boards_per_round, k, schedule, teams=teams)


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
