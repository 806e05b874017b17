"""Standings, kept up to date incrementally.

Terms: a *comparison group* is the results of one board that are compared with
each other (Duplicate Law H: the whole event, or one section when the director
limits it); a *contribution* is what one group adds to each pair's total.

Every change to a result stamps it with the event's change number (``seq``),
taken under the event's row lock, so changes commit in ``seq`` order. A process
keeps each event's state with the ``seq`` it has seen; a reader fetches only the
results changed since, recomputes only their boards' groups, and moves each
pair's total by the difference. The standings a page shows therefore always
match the stored results, and one new result costs one board, not the night.

The pairs' names are read again only when ``Event.roster_seq`` moves (every change to a
name, a late pair or a substitute bumps it). A pair row of interfaces.md §3 keeps
``names`` as the pair's two players and gains ``"substitutes": [{"name", "for",
"from_round"}]`` only when the pair has any (docs/decisions.md).
"""

from __future__ import annotations

import math
import threading
from bisect import bisect_left, bisect_right
from collections import Counter, OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from itertools import repeat
from typing import Any, NamedTuple

from django.db import connection

from scoring.engine import (
    NO_COMPARISON,
    NOT_PLAYED,
    NOT_PLAYED_OWN_AVERAGE,
    Entry,
    TeamDeal,
    fraction_str,
    matchpoints_scaled,
    own_average_total,
    plus_minus_scaled,
    rank,
    rank_teams,
    team_match,
)
from scoring.engine import team_awards as engine_team_awards

from .models import Event, Meeting, Pair, Result

ROW_FIELDS = (
    "id", "seq", "voided", "board__number", "ns_pair__number", "ew_pair__number",
    "ns_pair__section_id", "ruling", "offending", "ns_score", "ew_score",
    "ns_trick", "ns_honour", "ew_trick", "ew_honour", "ns_adjust", "ew_adjust",
)
Scores = tuple[Fraction, Fraction] | None
Scaled = tuple[int, int]


class Row(NamedTuple):
    """A stored result reduced to what comparisons need: its engine entry and totals."""

    id: int
    board: int
    group: Any
    entry: Entry
    ns_total: int | None
    ew_total: int | None

    @property
    def ns(self) -> int:
        return self.entry.ns

    @property
    def ew(self) -> int:
        return self.entry.ew


def _row(values: tuple, by_section: bool) -> Row:
    (rid, _seq, _voided, board, ns, ew, section, ruling, offending, ns_score, ew_score,
     ns_trick, ns_honour, ew_trick, ew_honour, ns_adjust, ew_adjust) = values
    if ruling == "assigned":
        # Club practice: an assigned score is compared as if played (each direction on its
        # own board score, so a split's two results need not add up to nothing).
        ruling = ""
    return Row(
        rid, board, (section, board) if by_section else board,
        Entry(ns, ew, ns_score, ew_score, ruling or None, offending or None,
              ns_adjust or None, ew_adjust or None),
        None if ns_trick is None else ns_trick + ns_honour,
        None if ew_trick is None else ew_trick + ew_honour,
    )


# Rulings a group's fast path takes as played: none, or an assigned score (compared as if
# played, see _row).
_PLAYED_RULINGS = frozenset(("", "assigned"))


def _group_key(values: tuple, by_section: bool) -> Any:
    """A fetched row's comparison group, as _row gives it."""
    return (values[6], values[3]) if by_section else values[3]


def _raw_matchpoints(scores: tuple[int, ...]) -> list[int]:
    """The engine's raw matchpoints on the 2/1 scale (2 for each score beaten, 1 for each
    tied), for a group of played results only (matchpoints_scaled's own computation)."""
    ordered = sorted(scores)
    out = []
    for s in scores:
        low = bisect_left(ordered, s)
        out.append(2 * low + bisect_right(ordered, s) - low - 1)
    return out


@dataclass
class PairState:
    """One event's pair contest: per group the entries' scores, per pair the totals.

    Scores are kept as whole numbers over each board's denominator (the engine's
    ``*_scaled`` functions), and a pair's total as a sum per denominator, so no
    Fraction is built until a total is shown.

    A full recompute (``load``) keeps each group's fetched rows as they came and scores a
    group of played results straight from its columns (the engine's arithmetic, with no
    object built per result); a group with any ruling goes through the engine. A group's
    ``Row`` objects are built only when a change touches it (``apply``) or when somebody
    asks for ``rows``.
    """

    method: str
    by_section: bool
    # Matchpoints: how a pair is scored on a board it did not play (Event.not_played_scoring).
    not_played_scoring: str = "neuberg"
    seq: int = 0
    # The groups whose rows are built: result id -> Row, and group -> {result id: Row}.
    _rows: dict[int, Row] = field(default_factory=dict)
    groups: dict[Any, dict[int, Row]] = field(default_factory=dict)
    # The groups whose rows are not built yet: group -> the rows as fetched (ROW_FIELDS).
    raw: dict[Any, list[tuple]] = field(default_factory=dict)
    group_of: dict[int, Any] = field(default_factory=dict)  # result id -> its group
    counted: dict[Any, int] = field(default_factory=dict)  # group -> results compared
    # group -> (denominator, {result id: (ns, ew) scaled, or None when cancelled})
    scores: dict[Any, tuple[int, dict[int, Scaled | None]]] = field(default_factory=dict)
    # The pairs each scored entry was credited to, so a change can be taken back exactly.
    credited: dict[Any, dict[int, tuple[int, int]]] = field(default_factory=dict)
    sums: dict[int, dict[int, int]] = field(default_factory=dict)  # pair -> {d: numerator}
    played: dict[int, int] = field(default_factory=dict)
    expected: int = 0  # matchpoints: the most counted results any board had
    # How many live results each pair has as N-S and as E-W (rules.md §4.5: one ranking
    # when any pair played both directions), kept up to date rather than recounted.
    ns_seats: Counter = field(default_factory=Counter)
    ew_seats: Counter = field(default_factory=Counter)
    # How many live "not-played" results each pair has: the boards of its session it did
    # not play (shown, and credited at its own average under "own-average").
    not_played: Counter = field(default_factory=Counter)
    names: dict[int, list[str]] | None = None  # pair -> players, as of names_roster
    names_roster: int = -1
    # pair -> [{"name", "for", "from_round"}], only pairs with substitutes; as of names_roster
    substitutes: dict[int, list[dict]] = field(default_factory=dict)
    # pair -> its section's name (pairs with a section only); as of names_roster
    sections: dict[int, str] = field(default_factory=dict)
    # pair -> its two players' member numbers (None for a visitor); as of names_roster
    members: dict[int, list[str | None]] = field(default_factory=dict)
    current_roster: int = 0  # Event.roster_seq when the state was last brought up to date

    def names_for(self, event: Event) -> dict[int, list[str]]:
        """The pairs' names (and substitutes and sections), read again only when a pair has
        changed since: every change to them moves Event.roster_seq."""
        if self.names is None or self.names_roster != self.current_roster:
            self.names, self.substitutes, self.sections, self.members = pair_roster(event)
            self.names_roster = self.current_roster
        return self.names

    @property
    def rows(self) -> dict[int, Row]:
        """Every live result's Row, by result id (builds the rows not built yet)."""
        self._build(list(self.raw))
        return self._rows

    def _build(self, groups: Iterable[Any]) -> None:
        """Build the Row objects of these groups from their fetched rows."""
        rows, by_section = self._rows, self.by_section
        for group in groups:
            fetched = self.raw.pop(group, None)
            if fetched is None:
                continue
            built = self.groups.setdefault(group, {})
            for values in fetched:
                row = _row(values, by_section)
                rows[row.id] = row
                built[row.id] = row

    def load(self, values: list[tuple]) -> None:
        """A fresh state from every live row as fetched (ROW_FIELDS): the full recompute.

        The same totals, scores and counts as ``apply`` of every row, computed a group at
        a time from the group's columns."""
        raw = self.raw
        if self.by_section:
            for v in values:
                key = (v[6], v[3])
                group = raw.get(key)
                if group is None:
                    group = raw[key] = []
                group.append(v)
        else:
            for v in values:
                group = raw.get(v[3])
                if group is None:
                    group = raw[v[3]] = []
                group.append(v)
        columns = {}
        slow = []
        counted = self.counted
        group_of = self.group_of
        for key, fetched in raw.items():
            cols = tuple(zip(*fetched, strict=True))
            group_of.update(zip(cols[0], repeat(key)))
            self.ns_seats.update(cols[4])
            self.ew_seats.update(cols[5])
            if (_PLAYED_RULINGS.issuperset(cols[7]) and None not in cols[9]
                    and None not in cols[10]):
                columns[key] = cols
                counted[key] = len(fetched)
            else:
                slow.append(key)
                counted[key] = sum(1 for v in fetched if v[7] not in NO_COMPARISON)
        if self.method == "matchpoints":
            self.expected = max(counted.values(), default=0)
        per_d: dict[int, dict[int, int]] = {}
        played = Counter()
        for key, cols in columns.items():
            ids, ns_pairs, ew_pairs = cols[0], cols[4], cols[5]
            d, ns_values, ew_values = self._played_scores(cols[9], cols[10])
            scaled = zip(ns_values, ew_values, strict=True)
            self.scores[key] = (d, dict(zip(ids, scaled, strict=True)))
            self.credited[key] = dict(zip(ids, zip(ns_pairs, ew_pairs, strict=True), strict=True))
            acc = per_d.get(d)
            if acc is None:
                acc = per_d[d] = {}
            get = acc.get
            for pair, value in zip(ns_pairs, ns_values, strict=True):
                acc[pair] = get(pair, 0) + value
            for pair, value in zip(ew_pairs, ew_values, strict=True):
                acc[pair] = get(pair, 0) + value
            played.update(ns_pairs)
            played.update(ew_pairs)
        sums = self.sums
        for d, acc in per_d.items():
            for pair, numerator in acc.items():
                by_d = sums.get(pair)
                if by_d is None:
                    by_d = sums[pair] = {}
                by_d[d] = numerator
        self.played = dict(played)
        self._build(slow)
        missed = self.not_played
        for key in slow:
            for row in self.groups[key].values():
                if row.entry.ruling == NOT_PLAYED:
                    missed.update((row.entry.ns, row.entry.ew))
            self._recompute(key)

    def _played_scores(self, ns_scores: tuple[int, ...], ew_scores: tuple[int, ...]
                       ) -> tuple[int, list[int], list[int]]:
        """A group of played results only: (d, N-S values, E-W values), exactly as the
        engine's plus_minus_scaled / matchpoints_scaled give them for such a group."""
        actual = len(ns_scores)
        if self.method == "matchpoints":
            e = self.expected or actual
            if e == actual:  # nothing to factor: the raw values
                return 1, _raw_matchpoints(ns_scores), _raw_matchpoints(ew_scores)
            return (actual, [(m + 1) * e - actual for m in _raw_matchpoints(ns_scores)],
                    [(m + 1) * e - actual for m in _raw_matchpoints(ew_scores)])
        sum_ns, sum_ew = sum(ns_scores), sum(ew_scores)
        return (actual, [actual * s - sum_ns for s in ns_scores],
                [actual * s - sum_ew for s in ew_scores])

    def apply(self, changed: Iterable[Row], removed: Iterable[int]) -> None:
        touched = set()
        added = list(changed)
        removed = list(removed)
        group_of = self.group_of
        if self.raw:
            self._build({group_of.get(rid) for rid in removed}
                        | {group_of.get(row.id) for row in added}
                        | {row.group for row in added})
        rows, groups = self._rows, self.groups
        gone: list[Row] = []
        for rid in removed:
            old = rows.pop(rid, None)
            if old is not None:
                groups[old.group].pop(rid, None)
                group_of.pop(rid, None)
                touched.add(old.group)
                gone.append(old)
        for row in added:
            old = rows.get(row.id)
            if old is not None:
                gone.append(old)
                if old.group != row.group:
                    groups[old.group].pop(row.id, None)
                    touched.add(old.group)
            rows[row.id] = row
            group_of[row.id] = row.group
            group = groups.get(row.group)
            if group is None:
                group = groups[row.group] = {}
                touched.add(row.group)
            group[row.id] = row
        touched.update(row.group for row in added)
        self._seat(gone, added)
        for group in touched:
            members = groups.get(group)
            if members:
                self.counted[group] = sum(1 for r in members.values()
                                          if r.entry.ruling not in NO_COMPARISON)
            else:
                self.counted.pop(group, None)
        if self.method == "matchpoints":
            expected = max(self.counted.values(), default=0)
            if expected != self.expected:
                # Neuberg factors every board to the expected count: all boards change.
                self.expected = expected
                self._build(list(self.raw))
                touched = set(groups)
        for group in touched:
            self._recompute(group)

    def _seat(self, gone: list[Row], added: list[Row]) -> None:
        """Move the direction counts: Counter's update and subtract run in C."""
        for seats, side in ((self.ns_seats, "ns"), (self.ew_seats, "ew")):
            seats.update(getattr(r.entry, side) for r in added)
            if gone:
                pairs = [getattr(r.entry, side) for r in gone]
                seats.subtract(pairs)
                for pair in pairs:
                    if seats.get(pair) == 0:
                        del seats[pair]
        missed = self.not_played
        for r in added:
            if r.entry.ruling == NOT_PLAYED:
                missed.update((r.entry.ns, r.entry.ew))
        for r in gone:
            if r.entry.ruling == NOT_PLAYED:
                missed.subtract((r.entry.ns, r.entry.ew))
                for pair in (r.entry.ns, r.entry.ew):
                    if missed.get(pair) == 0:
                        del missed[pair]

    def _recompute(self, group: Any) -> None:
        d, old = self.scores.pop(group, (1, {}))
        credited = self.credited.pop(group, {})
        self._add([(credited[rid], v) for rid, v in old.items()], d, -1)
        rows = list(self.groups.get(group, {}).values())
        if not rows:
            self.groups.pop(group, None)
            return
        entries = [r.entry for r in rows]
        if self.method == "matchpoints":
            d, values = matchpoints_scaled(entries, self.expected or None)
        else:
            d, values = plus_minus_scaled(entries)
        pairs = [(e.ns, e.ew) for e in entries]
        self.scores[group] = (d, {r.id: v for r, v in zip(rows, values, strict=True)})
        self.credited[group] = {r.id: p for r, p in zip(rows, pairs, strict=True)}
        self._add(list(zip(pairs, values, strict=True)), d, +1)

    def _add(self, credits: list[tuple[tuple[int, int], Scaled | None]], d: int,
             sign: int) -> None:
        """Add (or take back, sign -1) each entry's scaled scores to its two pairs.

        The hot loop of a full recompute: kept flat, with local names."""
        sums, played = self.sums, self.played
        for pairs, values in credits:
            if values is None:
                continue
            for pair, value in ((pairs[0], values[0]), (pairs[1], values[1])):
                by_d = sums.get(pair)
                if by_d is None:
                    by_d = sums[pair] = {}
                by_d[d] = by_d.get(d, 0) + sign * value
                count = played.get(pair, 0) + sign
                if count:
                    played[pair] = count
                else:
                    del played[pair]
                    del sums[pair]

    def totals(self, pairs: Iterable[int]) -> tuple[dict[int, int], int]:
        """Each pair's total as a whole number over one common denominator L, and L.

        Comparing whole numbers is what keeps ranking 2,000 pairs cheap."""
        pairs = list(pairs)
        common = math.lcm(*{d for p in pairs for d in self.sums[p]}) if pairs else 1
        return {p: sum(n * (common // d) for d, n in self.sums[p].items()) for p in pairs}, common

    def exact(self, pair: int) -> Fraction:
        return sum((Fraction(n, d) for d, n in self.sums[pair].items()), Fraction(0))

    def top(self) -> int:
        return max(0, 2 * (self.expected - 1))

    def session(self, pair: int) -> tuple[Fraction, int]:
        """A pair's matchpoints and total top as the standings show them: over the boards
        it played, or under "own-average" over its whole session (pair_contest's)."""
        matchpoints, played = self.exact(pair), self.played[pair]
        missed = self.not_played.get(pair, 0)
        if self.not_played_scoring == NOT_PLAYED_OWN_AVERAGE and missed:
            return own_average_total(matchpoints, played, missed, self.top())
        return matchpoints, self.top() * played

    def entry_scores(self, row: Row) -> Scores:
        return self.result_scores(row.id)

    def result_scores(self, result_id: int) -> Scores:
        """A live result's plus/minus (or matchpoints) for both sides; None for a result
        the comparison does not count (or one the state does not hold)."""
        scaled = self.result_scaled(result_id)
        return None if scaled is None else (Fraction(scaled[1], scaled[0]),
                                            Fraction(scaled[2], scaled[0]))

    def result_scaled(self, result_id: int) -> tuple[int, int, int] | None:
        """``result_scores`` in whole numbers: (d, N-S times d, E-W times d), or None."""
        d, values = self.scores.get(self.group_of.get(result_id), (1, {}))
        scaled = values.get(result_id)
        return None if scaled is None else (d, scaled[0], scaled[1])


# --- the per-process cache ------------------------------------------------------------

_CACHE: OrderedDict[tuple, PairState] = OrderedDict()
_CACHE_SIZE = 16
_LOCK = threading.Lock()


def _fetch(event: Event, since: int | None) -> tuple[list[tuple], int, int]:
    """The rows changed since `since` (all live rows when None), the seq they reach, and
    the seq of the last change to the pairs' names.

    The rows come through a bare cursor: the ORM builds the SQL, but turning 52,000
    rows into Python tuples is the driver's job alone."""
    seq, roster_seq = Event.objects.filter(pk=event.pk).values_list("seq", "roster_seq").get()
    rows = Result.objects.filter(event_id=event.pk)
    if since is None:
        rows = rows.filter(voided=False)
    else:
        rows = rows.filter(seq__gt=since)
    sql, params = rows.values_list(*ROW_FIELDS).query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        values = cursor.fetchall()
    reached = max([seq, *(v[1] for v in values)])
    return values, reached, roster_seq


def pair_state(event: Event) -> PairState:
    """The event's pair contest, brought up to date with the stored results."""
    key = (event.pk, event.created_at, event.method, event.compare_by_section,
           event.not_played_scoring)
    # Inside a transaction the rows read may never commit: compute, but never cache.
    cacheable = not connection.in_atomic_block
    with _LOCK:
        state = _CACHE.get(key) if cacheable else None
        if state is None:
            state = PairState(method=event.method, by_section=event.compare_by_section,
                              not_played_scoring=event.not_played_scoring)
            values, state.seq, roster_seq = _fetch(event, None)
            state.load(values)
        else:
            values, reached, roster_seq = _fetch(event, state.seq)
            changed = [_row(v, state.by_section) for v in values if not v[2]]
            removed = [v[0] for v in values if v[2]]
            state.apply(changed, removed)
            state.seq = reached
        state.current_roster = roster_seq
        if cacheable:
            _CACHE[key] = state
            _CACHE.move_to_end(key)
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
        return state


def clear_cache() -> None:
    with _LOCK:
        _CACHE.clear()


# --- standings (interfaces.md §3) ----------------------------------------------------------


def pair_names(event: Event) -> dict[int, list[str]]:
    """Each pair's number and its two players' names, as the standings show them."""
    pairs = Pair.objects.filter(event=event).values_list(
        "number", "player_1__name", "player_2__name")
    return {number: [a, b] for number, a, b in pairs}


ROSTER_FIELDS = ("number", "player_1__name", "player_2__name", "substitutes__seat",
                 "substitutes__from_round", "substitutes__player__name")


def roster_from_rows(rows: Iterable[tuple]) -> tuple[dict[int, list[str]], dict[int, list[dict]]]:
    """Names and substitutes from rows of ROSTER_FIELDS (one row per pair and substitute,
    in the order the substitutes played)."""
    names: dict[int, list[str]] = {}
    subs: dict[int, list[dict]] = {}
    for number, first, second, seat, from_round, name in rows:
        names[number] = [first, second]
        if seat is not None:
            subs.setdefault(number, []).append(
                {"name": name, "for": first if seat == 1 else second, "from_round": from_round})
    return names, subs


def pair_roster(event: Event) -> tuple[dict[int, list[str]], dict[int, list[dict]],
                                        dict[int, str], dict[int, list[str | None]]]:
    """Each pair's two players (as pair_names), its substitutes ({"name", "for" (the
    player replaced), "from_round"}, pairs without any left out), its section's name
    (pairs without a section left out) and its players' member numbers (None for a
    visitor), in one query."""
    rows = list(Pair.objects.filter(event=event)
                .order_by("number", "substitutes__from_round", "substitutes__seat")
                .values_list("player_1__number", "player_2__number", "section__name",
                             *ROSTER_FIELDS))
    names, subs = roster_from_rows(row[3:] for row in rows)
    return (names, subs, {row[3]: row[2] for row in rows if row[2] is not None},
            {row[3]: [row[0], row[1]] for row in rows})


def pair_substitutes(event: Event) -> dict[int, list[dict]]:
    """Each pair's substitutes (pair_roster's second part)."""
    return pair_roster(event)[1]


def _percent(value: Fraction) -> float:
    """A percentage to two decimals, a half going up."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return float(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def shown_scaled(numerator: int, denominator: int) -> int:
    """compare.shown without building a Fraction (nearest whole, half away from zero)."""
    n = (2 * abs(numerator) + denominator) // (2 * denominator)
    return n if numerator >= 0 else -n


def exact_scaled(numerator: int, denominator: int) -> str:
    """compare.fraction_str without building a Fraction: "190", "-121/3"."""
    g = math.gcd(numerator, denominator)
    numerator, denominator = numerator // g, denominator // g
    return str(numerator) if denominator == 1 else f"{numerator}/{denominator}"


_shown, _exact = shown_scaled, exact_scaled


def _plus_minus_values(state: PairState, pairs: list[int]) -> tuple[dict, dict]:
    """Sort keys (whole numbers over a common denominator) and the shown values."""
    totals, common = state.totals(pairs)
    shown_values = {p: {"score": _shown(totals[p], common), "exact": _exact(totals[p], common)}
                    for p in pairs}
    return totals, shown_values


def _matchpoint_values(state: PairState, pairs: list[int]) -> tuple[dict, dict]:
    """A pair's percentage of the tops it could have made; sorted in whole numbers over a
    common denominator of the possible tops (doubled, so that the 50 % of a pair with no
    possible top stays whole)."""
    totals, common = state.totals(pairs)
    top = state.top()
    possible = {p: top * state.played[p] for p in pairs}
    scale = math.lcm(*[v for v in possible.values() if v] or [1])
    keys = {p: 2 * totals[p] * (scale // possible[p]) if possible[p] else common * scale
            for p in pairs}
    own_average = state.not_played_scoring == NOT_PLAYED_OWN_AVERAGE
    shown_values = {}
    for p in pairs:
        value = (Fraction(totals[p] * 100, common * possible[p]) if possible[p]
                 else Fraction(50))
        matchpoints, top_shown = _exact(totals[p], common), possible[p]
        missed = state.not_played.get(p, 0)
        if own_average and missed:
            # Credited its own average on each board it did not play: matchpoints and
            # top over its whole session (the percentage, and so the place, unchanged).
            whole = state.played[p] + missed
            matchpoints = _exact(totals[p] * whole, common * state.played[p])
            top_shown = top * whole
        shown_values[p] = {"score": _percent(value), "exact": fraction_str(value),
                           "matchpoints": matchpoints, "top": top_shown}
    return keys, shown_values


def _pair_rows(state: PairState, pairs: list[int], names: dict[int, list[str]]) -> list[dict]:
    values = _matchpoint_values if state.method == "matchpoints" else _plus_minus_values
    keys, shown_values = values(state, pairs)
    return [
        {"place": place, "pair": pair, "names": names.get(pair, []),
         "members": state.members.get(pair, [None, None]),
         "score": shown_values[pair]["score"], "exact": shown_values[pair]["exact"],
         "boards": state.played[pair],
         **({"substitutes": state.substitutes[pair]} if pair in state.substitutes else {}),
         **{k: v for k, v in shown_values[pair].items() if k not in ("score", "exact")},
         **({"not_played": state.not_played[pair]} if state.not_played.get(pair) else {})}
        for pair, place in rank(keys)
    ]


def _directions(state: PairState) -> tuple[set[int], set[int]]:
    return set(state.ns_seats), set(state.ew_seats)


def pair_standings(event: Event) -> dict:
    state = pair_state(event)
    names = state.names_for(event)
    ns, ew = _directions(state)
    ranked = list(state.played)
    if ns & ew:
        rankings = [{"direction": "ALL", "rows": _pair_rows(state, ranked, names)}]
    else:
        rankings = [
            {"direction": "NS", "rows": _pair_rows(state, [p for p in ranked if p in ns], names)},
            {"direction": "EW", "rows": _pair_rows(state, [p for p in ranked if p in ew], names)},
        ]
    sections = state.sections
    by_section = []
    if len(set(sections.values())) > 1:
        # Several sections: each section's own ranking (Duplicate Law H). Compared within
        # the section, these are the rankings; compared across the field, the field's
        # ranking stays first and the sections' places are added (docs/decisions.md).
        for name in sorted(set(sections.values())):
            own = [p for p in ranked if sections.get(p) == name]
            if set(own) & ns & ew or not (set(own) & (ns | ew)):
                by_section.append({"section": name, "direction": "ALL",
                                   "rows": _pair_rows(state, own, names)})
            else:
                by_section += [{"section": name, "direction": side,
                                "rows": _pair_rows(state, [p for p in own if p in seats], names)}
                               for side, seats in (("NS", ns), ("EW", ew))]
        if event.compare_by_section:
            rankings = by_section
    out = {
        "event": event.name,
        "kind": "pairs",
        "method": event.method,
        "rankings": rankings,
        "published": event.published,
        "seq": state.seq,
    }
    if by_section and not event.compare_by_section:
        out["section_rankings"] = by_section
        for ranking in rankings:  # the field's rankings: each pair's section beside it
            for row in ranking["rows"]:
                row["section"] = sections.get(row["pair"])
    if event.method == "matchpoints":
        # What "matchpoints" and "top" cover for a pair with a board not played.
        out["not_played_scoring"] = state.not_played_scoring
    return out


def _team_matches(event: Event) -> tuple[dict[frozenset, list[tuple[int, TeamDeal]]],
                                          dict[int, str], int, int]:
    """The event's results as the deals of its matches (each with its result's id), by
    the two teams that met; each pair's team by number; the standings' change number; how
    many results the event has (a pair without a team's too)."""
    values, seq, _ = _fetch(event, None)
    team_of = dict(Pair.objects.filter(event=event, team__isnull=False)
                   .values_list("number", "team__name"))
    by_match: dict[frozenset, list[tuple[int, TeamDeal]]] = {}
    for r in (_row(v, False) for v in values):
        if r.ns not in team_of or r.ew not in team_of:
            continue
        key = frozenset((team_of[r.ns], team_of[r.ew]))
        by_match.setdefault(key, []).append((r.id, TeamDeal(
            r.ns, r.ew, r.ns_total, r.ew_total, r.entry.ruling, r.entry.offending, r.board)))
    return by_match, team_of, seq, len(values)


def team_awards(event: Event) -> dict[int, tuple[Fraction, Fraction] | None]:
    """What each result of a team match scores for N-S and E-W (the engine's
    ``team_awards``: its totals, an average or fouled board's award), by result id; None
    for a deal left out of its match. A pair's score card adds these, as its team does."""
    awards: dict[int, tuple[Fraction, Fraction] | None] = {}
    for deals in _team_matches(event)[0].values():
        ids = [rid for rid, _deal in deals]
        awards.update(zip(ids, engine_team_awards([d for _rid, d in deals]), strict=True))
    return awards


def team_standings(event: Event) -> dict:
    by_match_ids, team_of, seq, results = _team_matches(event)
    by_match = {key: [d for _rid, d in deals] for key, deals in by_match_ids.items()}
    order = {name: i for i, name in enumerate(
        event.teams.order_by("id").values_list("name", flat=True))}
    matches = [team_match(deals, team_of) for deals in by_match.values()]
    matches.sort(key=lambda m: tuple(sorted(order.get(t, 0) for t in m.teams)))
    # Every board of the movement has its result: until then a match is led, not won. A
    # night with no result at all is not complete, whatever its movement.
    expected = sum(len(boards) for boards in Meeting.objects.filter(
        section__event=event).values_list("boards", flat=True))
    complete = results > 0 and results >= expected
    return {
        "event": event.name,
        "kind": "teams",
        "method": event.method,
        "complete": complete,
        "matches": [_match_json(m, order) | {"complete": complete} for m in matches],
        "rankings": [{"direction": "ALL", "rows": [
            {"place": row.place, "team": row.team, "matches_won": fraction_str(row.matches_won),
             "points": row.points, "exact_points": fraction_str(row.exact_points)}
            for row in rank_teams(matches)
        ]}],
        "published": event.published,
        "seq": seq,
    }


def _match_json(match, order: dict[str, int]) -> dict:
    """A match with its teams in the order they were entered (the first team first)."""
    pairs = list(zip(match.teams, match.exact, match.scores, match.added, strict=True))
    pairs.sort(key=lambda p: order.get(p[0], 0))
    return {
        "teams": [p[0] for p in pairs],
        "scores": [p[2] for p in pairs],
        "exact": [fraction_str(p[1]) for p in pairs],
        "added": [fraction_str(p[3]) for p in pairs],
        "winner": match.winner,
        "by_fraction": match.by_fraction,
    }


def standings(event: Event) -> dict:
    """The standings JSON of interfaces.md §3, with "published" and "seq" added."""
    if event.kind == "teams":
        return team_standings(event)
    return pair_standings(event)


# --- several sessions: the overall standings ------------------------------------------------


def session_weights(sessions: list[Event]) -> list[Fraction]:
    """How much each session counts overall: the last in full, each earlier one at the
    first session's carry-over percentage (Event.carry_over)."""
    carried = Fraction(sessions[0].carry_over, 100)
    return [Fraction(1) if i == len(sessions) - 1 else carried for i in range(len(sessions))]


def _overall_published(sessions: list[Event]) -> str:
    """Final when every session's standings are final; provisional when every session's are
    published; else none."""
    levels = {s.published for s in sessions}
    if levels == {Event.Published.FINAL}:
        return Event.Published.FINAL
    if Event.Published.NONE in levels:
        return Event.Published.NONE
    return Event.Published.PROVISIONAL


def overall_standings(event: Event) -> dict:
    """The standings of an event of several sessions, pairs ranked together by number.

    Plus/minus: the sum of each session's score, weighted (session_weights). Matchpoints:
    the weighted matchpoints over the weighted tops the pair could have made, as a
    percentage (so a session of more boards counts for more). A pair that did not play a
    session adds nothing from it: no plus/minus (the average) and no tops; its session
    cell is null. A pair is ranked when it played a session that counts (weight above 0).
    All pairs are ranked together ("ALL"), whatever directions they sat in.
    """
    sessions = list(event.session_events())
    weights = session_weights(sessions)
    first = sessions[0]
    matchpoints = first.method == "matchpoints"
    names: dict[int, list[str]] = {}
    cells: dict[int, list[dict | None]] = {}
    won: dict[int, Fraction] = {}  # weighted plus/minus, or weighted matchpoints
    tops: dict[int, Fraction] = {}
    counted: set[int] = set()
    for i, (session, weight) in enumerate(zip(sessions, weights, strict=True)):
        state = pair_state(session)
        names.update(state.names_for(session))
        for pair in state.played:
            row = cells.setdefault(pair, [None] * len(sessions))
            if matchpoints:
                points, top = state.session(pair)
                value = Fraction(100) * points / top if top else Fraction(50)
                row[i] = {"score": _percent(value), "exact": fraction_str(value),
                          "matchpoints": fraction_str(points), "top": fraction_str(top)}
                tops[pair] = tops.get(pair, Fraction(0)) + weight * top
            else:
                points = state.exact(pair)
                row[i] = {"score": _shown(points.numerator, points.denominator),
                          "exact": fraction_str(points)}
            won[pair] = won.get(pair, Fraction(0)) + weight * points
            if weight:
                counted.add(pair)
    totals: dict[int, Fraction] = {}
    for pair in counted:
        if matchpoints:
            totals[pair] = (Fraction(100) * won[pair] / tops[pair] if tops[pair]
                            else Fraction(50))
        else:
            totals[pair] = won[pair]
    rows = []
    for pair, place in rank(totals):
        value = totals[pair]
        row = {"place": place, "pair": pair, "names": names.get(pair, []),
               "score": _percent(value) if matchpoints
               else _shown(value.numerator, value.denominator),
               "exact": fraction_str(value), "sessions": cells[pair]}
        if matchpoints:
            row.update(matchpoints=fraction_str(won[pair]), top=fraction_str(tops[pair]))
        rows.append(row)
    return {
        "event": first.name,
        "kind": first.kind,
        "method": first.method,
        "carry_over": first.carry_over,
        "sessions": [{"session": s.session_number, "id": s.pk, "name": s.name,
                      "date": s.date.isoformat(), "counted": fraction_str(100 * w),
                      "published": s.published}
                     for s, w in zip(sessions, weights, strict=True)],
        "rankings": [{"direction": "ALL", "rows": rows}],
        "published": _overall_published(sessions),
    }
