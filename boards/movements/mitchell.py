"""The Mitchell: N–S pairs stay, E–W pairs move up, boards move down (skip and relay)."""

from __future__ import annotations

from .model import MITCHELL_TABLES, MITCHELL_VARIANTS, Movement, MovementError
from .schedule import Schedule, assemble, require_pairs, require_tables


def mitchell(tables: int | None, boards_per_round: int, *, variant: str | None = None,
             pairs: int | None = None) -> Movement:
    n = require_tables(tables, MITCHELL_TABLES, "Mitchell")
    if n % 2 and variant is not None:
        raise MovementError("an odd-table Mitchell takes no variant (skip and relay are for "
                            "an even number of tables)")
    if n % 2 == 0 and variant is None:
        raise MovementError("an even-table Mitchell needs a variant: skip or relay")
    if variant is not None and variant not in MITCHELL_VARIANTS:
        raise MovementError(f"unknown Mitchell variant {variant!r}: use skip or relay")
    pairs = require_pairs(pairs, n)
    schedule = _mitchell_schedule(n, variant)
    return assemble("mitchell", variant, n, pairs, boards_per_round, n, schedule)


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
    return (board_station(t, n, variant) + r) % n + 1


def board_station(t: int, n: int, variant: str | None) -> int:
    """Where table t sits in the circuit the boards travel down, one station a round.

    In a relay Mitchell the bye stand is station n/2 and tables 1 and n are both
    station 0 (they share); otherwise station = table.
    """
    if variant != "relay" or t < n // 2:
        return t
    return (t + 1) % n


def station_tables(station: int, n: int, variant: str | None) -> tuple[int, ...] | None:
    """The tables at a station of a Mitchell's board circuit; None for the bye stand."""
    if variant != "relay":
        return (station + 1,)
    if station == 0:
        return (1, n)
    if station == n // 2:
        return None
    return (station + 1,) if station < n // 2 else (station,)
