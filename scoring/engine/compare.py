"""Comparing results: the pair contest, matchpoints, team matches (exact Fractions).

Terms:
    comparison group  the results of one board that are compared (Duplicate Law H:
                      only pairs who played the same hands).
    board score       the number a pair is compared on: its side's net at auction,
                      its side's tricks at whist (scoring.engine.board_scores).
    real result       a result played at the table; artificial results (rulings of
                      Duplicate Law B(3)) never enter an average.
    plus/minus        a pair's board score minus its direction's average board score.
    matchpoints       2 for each result of the same direction beaten, 1 for each tie;
                      the top is 2 × (results − 1); Neuberg factors a board played
                      fewer times than expected: ((M + 1) × E / A) − 1.
    ruling            "average" (both pairs take the average: plus/minus 0, 50 % of the
                      top), "fouled" (the offending side takes the lowest, its opponents
                      the highest score made at any table on the deal), "cancelled"
                      (a new deal: the result does not count at all), "not-played" (the
                      board was not played at that table: no comparison, no credit),
                      "adjusted" (club practice, not the 1913 laws: each side is graded
                      average-plus, average or average-minus; see ADJUSTED_* below).
    adjusted score    never enters the average nor the matchpoint field, and counts as
                      played. Matchpoints: 60 % / 50 % / 40 % of the board's top (the
                      "60/40"). Plus/minus (Pinned, docs/engine.md): average-plus is
                      +1/10 of the spread between the highest and the lowest board score
                      of the side's direction among the real results (as 60 % is 10 % of
                      the top above the middle), average 0, average-minus the negative.
    shown number      the nearest whole number of an exact value; ranking uses the
                      exact value ("by the fraction of a point", Duplicate Law G).
    team match        Duplicate Law G: each team adds the totals its pairs won; with an
                      odd number of pairs a side, the team with more pairs N–S adds the
                      average total of all E–W pairs, the other the N–S average.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from .rules import ADJUST_GRADES, NO_COMPARISON, RULINGS, SIDES

PLUS_MINUS = "plus-minus"
MATCHPOINTS = "matchpoints"
PAIR_METHODS: tuple[str, ...] = (PLUS_MINUS, MATCHPOINTS)
# Matchpoints: how a pair is scored on a board it did not play (a "not-played" result).
# "neuberg": the board's other results are factored (Neuberg) and the pair is scored over
# the boards it played; "own-average": besides, the pair is credited on each board it did
# not play with its own average on the boards it played (docs/engine.md, item 24).
NOT_PLAYED_NEUBERG = "neuberg"
NOT_PLAYED_OWN_AVERAGE = "own-average"
NOT_PLAYED_SCORINGS: tuple[str, ...] = (NOT_PLAYED_NEUBERG, NOT_PLAYED_OWN_AVERAGE)
NOT_PLAYED = "not-played"

Scores = tuple[Fraction, Fraction]


# --- numbers shown and ranks -------------------------------------------------------------


def shown(value: Fraction | int) -> int:
    """The nearest whole number, a half going away from zero (rules.md §4.4)."""
    v = Fraction(value)
    n = (2 * abs(v.numerator) + v.denominator) // (2 * v.denominator)
    return n if v >= 0 else -n


def shown_half_up(value: Fraction | int) -> int:
    """The nearest whole number, a half going up (Duplicate Law G team averages)."""
    v = Fraction(value)
    return (2 * v.numerator + v.denominator) // (2 * v.denominator)


def fraction_str(value: Fraction | int) -> str:
    """An exact value as text: "190", "-121/3"."""
    return str(Fraction(value))


def rank(scores: Mapping[Hashable, Fraction | int]) -> list[tuple[Hashable, str]]:
    """Keys best first with their places: "1", "2=", "2=", "4". Only equal exact values
    share a place; tied keys are listed in key order when the keys can be compared."""
    rows = list(scores.items())
    with suppress(TypeError):  # keys that cannot be compared keep their order
        rows.sort(key=lambda row: row[0])  # type: ignore[arg-type,return-value]
    rows.sort(key=lambda row: row[1], reverse=True)
    out: list[tuple[Hashable, str]] = []
    i = 0
    while i < len(rows):
        j = i
        while j + 1 < len(rows) and rows[j + 1][1] == rows[i][1]:
            j += 1
        place = f"{i + 1}=" if j > i else str(i + 1)
        out.extend((rows[k][0], place) for k in range(i, j + 1))
        i = j + 1
    return out


# --- the pair contest --------------------------------------------------------------------


class Entry(NamedTuple):
    """One table's result on a board, for comparison.

    ``ns``/``ew``: the pairs (any hashable key); ``ns_score``/``ew_score``: their board
    scores (None for an artificial result); ``ruling``: None, "average", "fouled" or
    "cancelled" or "not-played" or "adjusted"; ``offending``: "ns" or "ew", the side whose
    player was short (fouled); ``ns_adjust``/``ew_adjust``: an adjusted score's grade for
    each side, "plus", "average" or "minus".
    A named tuple, not a dataclass: a large event builds tens of thousands of them.
    """

    ns: Hashable
    ew: Hashable
    ns_score: int | None = None
    ew_score: int | None = None
    ruling: str | None = None
    offending: str | None = None
    ns_adjust: str | None = None
    ew_adjust: str | None = None


@dataclass(frozen=True, slots=True)
class PairTotal:
    """A pair's contest score: ``exact`` (plus/minus, or matchpoints), boards counted,
    and for matchpoints the total ``top`` and the ``percentage`` (exact / top × 100)."""

    exact: Fraction
    boards: int
    top: Fraction | None = None
    percentage: Fraction | None = None


def _check(entry: Entry) -> None:
    if entry.ruling is None:
        if entry.ns_score is None or entry.ew_score is None:
            raise ValueError("a played result needs the board scores of both pairs")
    elif entry.ruling not in RULINGS:
        raise ValueError(f"a ruling is one of {', '.join(RULINGS)}, not {entry.ruling!r}")
    elif entry.ruling == "fouled" and entry.offending not in SIDES:
        raise ValueError('a fouled board needs the offending side: "ns" or "ew"')
    elif entry.ruling == "adjusted" and not (entry.ns_adjust in ADJUST_GRADES
                                             and entry.ew_adjust in ADJUST_GRADES):
        raise ValueError("an adjusted score grades both sides: "
                         f"{', '.join(ADJUST_GRADES)}")


# An adjusted score's grade as tenths above the middle: matchpoints 60 % / 50 % / 40 % of
# the top is the half top plus 1/5, 0 or -1/5 of it; plus/minus takes +1/10, 0 or -1/10 of
# the direction's spread of real board scores (Pinned: docs/engine.md).
ADJUST_TENTHS = {"plus": 1, "average": 0, "minus": -1}


def _adjusted(entries: Sequence[Entry]) -> bool:
    return any(e.ruling == "adjusted" for e in entries)


def _real(entries: Sequence[Entry]) -> list[Entry]:
    for entry in entries:
        _check(entry)
    return [e for e in entries if e.ruling is None]


Scaled = tuple[int, int]


def plus_minus_scaled(entries: Sequence[Entry]) -> tuple[int, list[Scaled | None]]:
    """:func:`plus_minus_board` in whole numbers: ``(d, values)`` where each value is the
    (N–S, E–W) plus/minus times ``d``, the number of real results (times 10 on a board
    with an adjusted score). Sums over many boards stay in integers this way, which is
    what makes large standings fast."""
    real = _real(entries)
    # A board with an adjusted score is kept in tenths too (its spread / 10).
    scale = 10 if _adjusted(entries) else 1
    n = len(real) or 1
    out: list[Scaled | None] = []
    if real:
        ns_scores = [e.ns_score for e in real]
        ew_scores = [e.ew_score for e in real]
        sum_ns = scale * sum(ns_scores)  # type: ignore[arg-type]
        sum_ew = scale * sum(ew_scores)  # type: ignore[arg-type]
        kn = scale * n
    for e in entries:
        if e.ruling is None:
            out.append((kn * e.ns_score - sum_ns, kn * e.ew_score - sum_ew))  # type: ignore[operator]
        elif e.ruling in NO_COMPARISON:
            out.append(None)
        elif e.ruling == "adjusted":
            # Club practice: never in the average; spread / 10, times 10 n, is n × spread.
            if not real:
                out.append((0, 0))
            else:
                ns_spread = max(ns_scores) - min(ns_scores)  # type: ignore[type-var,operator]
                ew_spread = max(ew_scores) - min(ew_scores)  # type: ignore[type-var,operator]
                out.append((ADJUST_TENTHS[e.ns_adjust] * n * ns_spread,  # type: ignore[index]
                            ADJUST_TENTHS[e.ew_adjust] * n * ew_spread))  # type: ignore[index]
        elif e.ruling == "average" or not real:
            # Duplicate Law B(3): each pair takes the average score for that deal.
            # Pinned here: a fouled board with no real result to compare is an average.
            out.append((0, 0))
        elif e.offending == "ew":
            out.append((kn * max(ns_scores) - sum_ns, kn * min(ew_scores) - sum_ew))  # type: ignore[type-var,operator]
        else:
            out.append((kn * min(ns_scores) - sum_ns, kn * max(ew_scores) - sum_ew))  # type: ignore[type-var,operator]
    return scale * n, out


def _unscale(d: int, values: list[Scaled | None]) -> list[Scores | None]:
    return [None if v is None else (Fraction(v[0], d), Fraction(v[1], d)) for v in values]


def plus_minus_board(entries: Sequence[Entry]) -> list[Scores | None]:
    """Per entry the plus/minus of its N–S and its E–W pair (Duplicate Law H), or None
    for a cancelled result. The average is over the real results only (Duplicate Law
    B(3)); an average ruling gets 0; a fouled board gives the offending pair the lowest
    and its opponents the highest board score of a real result, less the average."""
    return _unscale(*plus_minus_scaled(entries))


def neuberg(mp: Fraction | int, actual: int, expected: int) -> Fraction:
    """Neuberg's formula ((M + 1) × E / A) − 1 for M on the 2/1 scale (rules.md §4)."""
    if actual == expected:
        return Fraction(mp)
    return Fraction((mp + 1) * expected, actual) - 1


def _raw_matchpoints(scores: list[int]) -> list[int]:
    """2 for each other score beaten, 1 for each tied (the 2/1 scale)."""
    ordered = sorted(scores)
    return [
        2 * bisect_left(ordered, s) + (bisect_right(ordered, s) - bisect_left(ordered, s) - 1)
        for s in scores
    ]


def matchpoint_top(entries: Sequence[Entry], expected: int | None = None) -> int:
    """The top of a board: 2 × (E − 1), E the expected number of results (by default
    the number of real results on the board)."""
    e = len(_real(entries)) if expected is None else expected
    return max(0, 2 * (e - 1))


def matchpoints_scaled(entries: Sequence[Entry], expected: int | None = None
                       ) -> tuple[int, list[Scaled | None]]:
    """:func:`matchpoints_board` in whole numbers: ``(d, values)``, each value the
    (N–S, E–W) matchpoints times ``d`` (1, or the number of real results when Neuberg
    factors the board; times 5 on a board with an adjusted score)."""
    real = _real(entries)
    actual = len(real)
    e = actual if expected is None else expected
    if e < 1 and actual:
        raise ValueError("the expected number of results must be at least 1")
    # Neuberg factors a board played fewer (or more) times than expected, a board with a
    # single real result included: its (M + 1) × E / A − 1 is then E − 1, the average.
    factoring = bool(actual) and e != actual
    n = actual if factoring else 1
    # A board with an adjusted score is kept in fifths too (60 % of the top is 6/5 of half).
    scale = 5 if _adjusted(entries) else 1
    d = scale * n

    def factored(mp: int) -> int:
        # Neuberg ((M + 1) × E / A) − 1, times A (and times the scale).
        return scale * ((mp + 1) * e - actual if factoring else mp)

    ns_mp = [factored(m) for m in _raw_matchpoints([r.ns_score for r in real])]  # type: ignore[misc]
    ew_mp = [factored(m) for m in _raw_matchpoints([r.ew_score for r in real])]  # type: ignore[misc]
    half_top = max(0, e - 1) * d
    out: list[Scaled | None] = []
    k = 0
    for entry in entries:
        if entry.ruling is None:
            out.append((ns_mp[k], ew_mp[k]))
            k += 1
        elif entry.ruling in NO_COMPARISON:
            out.append(None)
        elif entry.ruling == "adjusted":
            # Club practice: 60 % / 50 % / 40 % of the top, outside the field.
            out.append((half_top + ADJUST_TENTHS[entry.ns_adjust] * half_top // 5,  # type: ignore[index]
                        half_top + ADJUST_TENTHS[entry.ew_adjust] * half_top // 5))  # type: ignore[index]
        elif entry.ruling == "average" or not real:
            out.append((half_top, half_top))
        elif entry.offending == "ew":
            out.append((max(ns_mp), min(ew_mp)))
        else:
            out.append((min(ns_mp), max(ew_mp)))
    return d, out


def matchpoints_board(entries: Sequence[Entry], expected: int | None = None
                      ) -> list[Scores | None]:
    """Per entry the matchpoints of its N–S and its E–W pair, or None when cancelled.

    Real results are compared with the other real results of their direction and,
    when ``expected`` differs from their number, factored by Neuberg's formula.
    An average ruling scores half the top; a fouled board gives the offending pair the
    matchpoints of the lowest real result of its direction and its opponents those of
    the highest (the pair "is given" that score, Duplicate Law B(3)).
    """
    return _unscale(*matchpoints_scaled(entries, expected))


def _counted(entries: Sequence[Entry]) -> int:
    return sum(1 for e in entries if e.ruling not in NO_COMPARISON)


def own_average_total(matchpoints: Fraction, played: int, not_played: int,
                      board_top: int) -> tuple[Fraction, int]:
    """A pair's matchpoints and top over its whole session under "own-average": on each
    of its ``not_played`` boards it is credited with its own average on the ``played``
    boards (``matchpoints / played``), so both cover ``played + not_played`` boards and
    its percentage is unchanged. ``played`` is at least 1."""
    whole = played + not_played
    return Fraction(matchpoints) * whole / played, board_top * whole


def pair_contest(
    boards: Mapping[int, Sequence[Entry]],
    method: str = PLUS_MINUS,
    *,
    expected: int | None = None,
    not_played_scoring: str = NOT_PLAYED_NEUBERG,
) -> dict[Hashable, PairTotal]:
    """Each pair's contest score over all boards (Duplicate Law H, rules.md §4).

    ``boards`` maps a board number to its comparison group. Pairs who never appear
    in a result that counts are absent. A pair's ``boards`` counts its results that
    count (average and fouled rulings count as played; cancelled and not-played ones
    do not). For ``"matchpoints"`` every board is factored to ``expected`` results, by
    default the most results (counting average and fouled tables) any board had.

    ``not_played_scoring`` (matchpoints only): ``"neuberg"`` scores a pair over the
    boards it played (its top is smaller); ``"own-average"`` credits it, on each board
    it did not play (a "not-played" result of its own), with its own average on the
    boards it played, so ``exact`` and ``top`` cover its whole session (``boards`` still
    counts the boards played; the percentage is the same either way).
    """
    if method not in PAIR_METHODS:
        raise ValueError(f"the method is one of {', '.join(PAIR_METHODS)}, not {method!r}")
    if not_played_scoring not in NOT_PLAYED_SCORINGS:
        raise ValueError(f"a board not played is scored by one of "
                         f"{', '.join(NOT_PLAYED_SCORINGS)}, not {not_played_scoring!r}")
    if method == MATCHPOINTS and expected is None:
        expected = max((_counted(entries) for entries in boards.values()), default=0)
    exact: dict[Hashable, Fraction] = {}
    played: dict[Hashable, int] = {}
    tops: dict[Hashable, int] = {}
    missed: dict[Hashable, int] = {}
    board_top = 0 if method == PLUS_MINUS else max(0, 2 * (expected - 1))  # type: ignore[operator]
    for entries in boards.values():
        if method == PLUS_MINUS:
            scores = plus_minus_board(entries)
        else:
            scores = matchpoints_board(entries, expected)
        for entry, pair_scores in zip(entries, scores, strict=True):
            if pair_scores is None:
                if entry.ruling == NOT_PLAYED:
                    for pair in (entry.ns, entry.ew):
                        missed[pair] = missed.get(pair, 0) + 1
                continue
            for pair, value in ((entry.ns, pair_scores[0]), (entry.ew, pair_scores[1])):
                exact[pair] = exact.get(pair, Fraction(0)) + value
                played[pair] = played.get(pair, 0) + 1
                tops[pair] = tops.get(pair, 0) + board_top
    out: dict[Hashable, PairTotal] = {}
    own_average = not_played_scoring == NOT_PLAYED_OWN_AVERAGE
    for pair, value in exact.items():
        if method == PLUS_MINUS:
            out[pair] = PairTotal(value, played[pair])
            continue
        top = Fraction(tops[pair])
        # Pinned: with no possible comparison (top 0) a pair has 50 %.
        percentage = value / top * 100 if top else Fraction(50)
        if own_average and missed.get(pair):
            value, whole_top = own_average_total(value, played[pair], missed[pair], board_top)
            top = Fraction(whole_top)
        out[pair] = PairTotal(value, played[pair], top, percentage)
    return out


def ranking_directions(boards: Mapping[int, Sequence[Entry]]) -> dict[str, list[Hashable]]:
    """The rankings of rules.md §4.5: {"NS": [...], "EW": [...]} when every pair kept one
    direction all session (a Mitchell, as in compass whist), else {"ALL": [...]} (a
    Howell). Pairs in order of first appearance; cancelled results count as seating."""
    ns: dict[Hashable, None] = {}
    ew: dict[Hashable, None] = {}
    for entries in boards.values():
        for entry in entries:
            ns.setdefault(entry.ns)
            ew.setdefault(entry.ew)
    if ns.keys() & ew.keys():
        return {"ALL": list({**ns, **ew})}
    return {"NS": list(ns), "EW": list(ew)}


# --- team matches ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TeamDeal:
    """One deal at one table of a team match: the pairs, the totals (trick + honour)
    each side won (None for an artificial result), a ruling, and the board number
    (needed only to award artificial results and to cancel a board everywhere)."""

    ns_pair: Hashable
    ew_pair: Hashable
    ns_total: int | None = None
    ew_total: int | None = None
    ruling: str | None = None
    offending: str | None = None
    board: int | None = None


@dataclass(frozen=True, slots=True)
class TeamMatch:
    """A team match scored by Duplicate Law G.

    ``teams`` in order of first appearance in the deals (the N–S pair's team first);
    ``exact`` their exact totals, including ``added`` (the odd-pair average each
    added); ``scores`` the shown totals (nearest whole, half up); ``winner`` None
    for a tied match; ``by_fraction`` when the shown scores tie but the exact do not.
    """

    teams: tuple[Hashable, Hashable]
    exact: tuple[Fraction, Fraction]
    scores: tuple[int, int]
    winner: Hashable | None
    by_fraction: bool
    added: tuple[Fraction, Fraction] = (Fraction(0), Fraction(0))


def _team_sides(deals: Sequence[TeamDeal], team_of: Mapping[Hashable, Hashable]
                ) -> tuple[list[Hashable], dict[Hashable, set], dict[Hashable, set]]:
    teams: list[Hashable] = []
    ns: dict[Hashable, set] = {}
    ew: dict[Hashable, set] = {}
    for d in deals:
        for pair in (d.ns_pair, d.ew_pair):
            if pair not in team_of:
                raise ValueError(f"pair {pair!r} is in no team")
            if team_of[pair] not in teams:
                teams.append(team_of[pair])
        if team_of[d.ns_pair] == team_of[d.ew_pair]:
            raise ValueError(f"pairs {d.ns_pair!r} and {d.ew_pair!r} are of the same team; "
                             "each table has one pair of each team")
        ns.setdefault(team_of[d.ns_pair], set()).add(d.ns_pair)
        ew.setdefault(team_of[d.ew_pair], set()).add(d.ew_pair)
    if len(teams) != 2:
        raise ValueError(f"a team match is between two teams, not {len(teams)}")
    both = set().union(*ns.values()) & set().union(*ew.values())
    if both:
        raise ValueError(f"pair {sorted(map(repr, both))[0]} sat both N-S and E-W; "
                         "in a team match a pair keeps its direction")
    return teams, ns, ew


def _check_team_sizes(teams: list[Hashable], ns: dict, ew: dict) -> None:
    # Duplicate Law G: equal teams of at least two pairs, half of each N–S.
    sizes = [len(ns.get(t, ())) + len(ew.get(t, ())) for t in teams]
    if sizes[0] != sizes[1]:
        raise ValueError(f"the teams must be of equal size, not {sizes[0]} and {sizes[1]} pairs")
    if sizes[0] < 2:
        raise ValueError("a team has at least two pairs")
    for t in teams:
        if abs(len(ns.get(t, ())) - len(ew.get(t, ()))) > 1:
            raise ValueError(f"half of team {t!r}, or as near as possible, sits N-S")
    if sum(len(v) for v in ns.values()) != sum(len(v) for v in ew.values()):
        raise ValueError("each table has one pair of each team: as many pairs N-S as E-W")


def _award(d: TeamDeal, real: Mapping[int | None, list[TeamDeal]]) -> tuple[Fraction, Fraction]:
    """The totals won at one table: the real totals, or those of Duplicate Law B(3)."""
    if d.ruling is None:
        if d.ns_total is None or d.ew_total is None:
            raise ValueError("a played deal needs the totals of both sides")
        return Fraction(d.ns_total), Fraction(d.ew_total)
    if d.ruling not in RULINGS:
        raise ValueError(f"a ruling is one of {', '.join(RULINGS)}, not {d.ruling!r}")
    if d.board is None:
        raise ValueError("an artificial result in a team match needs its board number")
    others = real.get(d.board, [])
    if not others:
        # Pinned: nothing was scored on the deal at any table, so nothing to award.
        return Fraction(0), Fraction(0)
    ns_totals = [o.ns_total for o in others]
    ew_totals = [o.ew_total for o in others]
    if d.ruling == "average":
        return Fraction(sum(ns_totals), len(others)), Fraction(sum(ew_totals), len(others))  # type: ignore[arg-type]
    if d.offending not in SIDES:
        raise ValueError('a fouled board needs the offending side: "ns" or "ew"')
    if d.offending == "ew":
        return Fraction(max(ns_totals)), Fraction(min(ew_totals))  # type: ignore[type-var]
    return Fraction(min(ns_totals)), Fraction(max(ew_totals))  # type: ignore[type-var]


def team_awards(deals: Sequence[TeamDeal]) -> list[tuple[Fraction, Fraction] | None]:
    """What each deal of a match scores for the two sides, in the order given: the totals
    (trick + honour) won at its table, or the award of an average or fouled board (their
    average at the other tables, or the lowest and highest: Duplicate Law B(3)); None for
    a deal left out of the match (cancelled, or not played at one of its tables)."""
    for d in deals:
        if d.ruling == NOT_PLAYED and d.board is None:
            raise ValueError("a deal not played in a team match needs its board number")
    left_out = {d.board for d in deals if d.ruling in NO_COMPARISON}
    kept = [d.ruling not in NO_COMPARISON and (d.board is None or d.board not in left_out)
            for d in deals]
    real: dict[int | None, list[TeamDeal]] = {}
    for d, counted in zip(deals, kept, strict=True):
        if counted and d.ruling is None:
            real.setdefault(d.board, []).append(d)
    return [_award(d, real) if counted else None
            for d, counted in zip(deals, kept, strict=True)]


def team_match(deals: Sequence[TeamDeal], team_of: Mapping[Hashable, Hashable]) -> TeamMatch:
    """Score a match between two teams (Duplicate Law G, rules.md §5).

    A cancelled deal (two-table new deal, Duplicate Law B(3)) is removed at every table
    of its board; so is a deal not played at one table ("not-played"): Duplicate Law G
    has each deal played once at each table, so a deal one table missed is left out of
    the match at both (docs/engine.md, item 25). Average and fouled rulings award the
    totals of the real results on that board (their average; or the lowest to the
    offending side and the highest to its opponents), and these awards enter the
    odd-pair averages like any total.
    """
    deals = list(deals)
    teams, ns, ew = _team_sides(deals, team_of)
    _check_team_sizes(teams, ns, ew)
    exact = {t: Fraction(0) for t in teams}
    all_ns = all_ew = Fraction(0)
    for d, award in zip(deals, team_awards(deals), strict=True):
        if award is None:
            continue
        won_ns, won_ew = award
        exact[team_of[d.ns_pair]] += won_ns
        exact[team_of[d.ew_pair]] += won_ew
        all_ns += won_ns
        all_ew += won_ew
    added = {t: Fraction(0) for t in teams}
    n_ns = {t: len(ns.get(t, ())) for t in teams}
    if n_ns[teams[0]] != n_ns[teams[1]]:
        # Duplicate Law G: odd pairs; the team with more pairs N–S adds the average of all
        # E–W pairs, the other team the average of all N–S pairs.
        first, second = teams
        more, fewer = (first, second) if n_ns[first] > n_ns[second] else (second, first)
        added[more] = all_ew / sum(len(v) for v in ew.values())
        added[fewer] = all_ns / sum(len(v) for v in ns.values())
    totals = tuple(exact[t] + added[t] for t in teams)
    scores = tuple(shown_half_up(v) for v in totals)
    if totals[0] == totals[1]:
        winner = None
    else:
        winner = teams[0] if totals[0] > totals[1] else teams[1]
    return TeamMatch(
        teams=(teams[0], teams[1]),
        exact=(totals[0], totals[1]),
        scores=(scores[0], scores[1]),
        winner=winner,
        by_fraction=winner is not None and scores[0] == scores[1],
        added=(added[teams[0]], added[teams[1]]),
    )


@dataclass(frozen=True, slots=True)
class TeamRow:
    """A team's line in an event of several matches."""

    place: str
    team: Hashable
    matches_won: Fraction
    points: int
    exact_points: Fraction = Fraction(0)


def rank_teams(matches: Sequence[TeamMatch]) -> list[TeamRow]:
    """Teams by matches won (a tied match half to each); equal numbers of matches
    are decided by the exact total points (Foster). ``points`` is that total shown
    to the nearest whole number (half up); equal on both shares the place."""
    won: dict[Hashable, Fraction] = {}
    points: dict[Hashable, Fraction] = {}
    for m in matches:
        for team, value in zip(m.teams, m.exact, strict=True):
            won.setdefault(team, Fraction(0))
            points[team] = points.get(team, Fraction(0)) + value
        if m.winner is None:
            for team in m.teams:
                won[team] += Fraction(1, 2)
        else:
            won[m.winner] += 1
    keys = {team: (won[team], points[team]) for team in won}
    places = dict(rank(keys))  # type: ignore[arg-type]
    order = [team for team, _ in rank(keys)]  # type: ignore[arg-type]
    return [TeamRow(places[t], t, won[t], shown_half_up(points[t]), points[t]) for t in order]
