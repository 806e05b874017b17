"""Changing the movement between rounds: the new movement's later rounds, seated with
the pairs and boards of the night so far.

Terms
-----
history
    The rounds already played (or at least begun), before ``from_round``, as
    ``Round``\\ s with the pairs' own numbers and the boards as played.
position
    A pair number of a freshly generated movement (1..pairs). The generator knows
    nothing of the night: its pair 9 is a place in the movement, not pair 9 of the
    club. ``fit`` chooses which pair takes each position.
board set
    ``boards_per_round`` consecutive boards (set 1 = boards 1..b, ...). ``fit`` chooses
    which set of the night each set of the new movement is.

How the fitting works (decisions)
---------------------------------
``fit`` searches, depth first, for a seating of the pairs in the positions; the board
sets then follow by a matching (a set of the new movement may become any set of the
night that none of its players has played). It tries, in this order:

1. every set a set the night has (or the movement's own count of sets), no pair
   meeting an opponent it has met;
2. the same, opponents met again allowed;
3. the seating that leaves the fewest sets unmatched, opponents not met again; each
   unmatched set becomes a new set of boards after every board there is;
4. the same, opponents met again allowed.

In a Mitchell every pair keeps the direction it has played so far (the Mitchell's two
rankings, N–S and E–W, stay whole); only when no seating keeps the directions (a
Mitchell of other proportions) may they change. The N–S pairs are stationary: each
pass first seats every N–S pair at the table it sat at in the last round played, and
only when no such seating is found does it let them move (the director's preview then
names each one that moves). Every place is first offered the pair that sat there in
the last round played, as the new movement has that round, so a change that keeps the
movement's shape (the boards per round, say) goes on from where each pair is. Each
pass has a budget of tried seatings; the last pass always finds a seating when the
pairs fit, and ``check_from`` then finds nothing. When nothing is found the movement is
seated in the plain order (pairs by number, sets as generated) and ``check_from`` says
what is wrong with it. Pure Python, no Django.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from .model import Movement, MovementError, Round, TableRound

BUDGET = 4_000  # seatings tried in one pass: well under a second in all


def later_rounds(movement: Movement, from_round: int) -> tuple[Round, ...]:
    """The movement's rounds from `from_round` on; MovementError when there are none."""
    rounds = tuple(r for r in movement.rounds if r.number >= from_round)
    if not rounds:
        raise MovementError(f"this movement has {len(movement.rounds)} rounds: it has no "
                            f"round {from_round} to change to")
    return rounds


def fit(movement: Movement, from_round: int, history: Sequence[Round],
        pairs: Sequence[int], *, boards_made: int = 0, budget: int = BUDGET) -> Movement:
    """`movement` (freshly generated, for ``len(pairs)`` pairs) seated with the night's
    `pairs` and board sets from `from_round` on, fitted to what the `history` played;
    its rounds are only those from `from_round`. `boards_made`: the boards the night
    has already (sets beyond them are new boards)."""
    if len(pairs) != movement.pairs:
        raise MovementError(f"the movement seats {movement.pairs} pairs, not {len(pairs)}")
    rounds = later_rounds(movement, from_round)
    problem = _Problem(movement, rounds, history, list(pairs), boards_made)
    every = len(problem.players_of_set)
    for repeats, need in ((False, every), (True, every), (False, 0), (True, 0)):
        for pin in (True, False) if movement.kind == "mitchell" else (False,):
            found = problem.solve(repeats=repeats, need=need, budget=budget, pin=pin)
            if found is not None:
                return problem.relabel(*problem.complete(found))
    return problem.relabel(*problem.plain())


class _Problem:
    def __init__(self, movement: Movement, rounds: tuple[Round, ...],
                 history: Sequence[Round], pairs: list[int], boards_made: int) -> None:
        self.movement, self.rounds, self.pairs = movement, rounds, sorted(pairs)
        self.per = movement.boards_per_round
        self.sets_new = movement.boards // self.per
        self.sets_made = -(-boards_made // self.per)
        self.blocked: dict[int, set[int]] = defaultdict(set)  # pair -> sets it has played
        self.met: dict[int, set[int]] = defaultdict(set)
        self.direction: dict[int, set[str]] = defaultdict(set)
        last_ns: dict[int, int] = {}  # table -> its N–S pair in the last round played
        for rnd in sorted(history, key=lambda r: r.number):
            for t in rnd.tables:
                for pair in (t.ns, t.ew):
                    self.blocked[pair].update((b - 1) // self.per + 1 for b in t.boards)
                self.met[t.ns].add(t.ew)
                self.met[t.ew].add(t.ns)
                self.direction[t.ns].add("NS")
                self.direction[t.ew].add("EW")
                last_ns[t.table] = t.ns
        self.meetings = [(t.ns, t.ew, self._set_of(t.boards)) for r in rounds for t in r.tables]
        self.players_of_set: dict[int, set[int]] = defaultdict(set)
        for ns, ew, s in self.meetings:
            self.players_of_set[s].update((ns, ew))
        self.position_side: dict[int, str] = {}
        self.preferred: dict[int, int] = {}
        for r in rounds:
            for t in r.tables:
                self.position_side.setdefault(t.ns, "NS")
                self.position_side.setdefault(t.ew, "EW")
                if movement.kind == "mitchell" and t.table in last_ns:
                    self.preferred.setdefault(t.ns, last_ns[t.table])
        # Each place is first offered the pair that sat there in the last round played,
        # as the new movement has that round.
        last = max(history, key=lambda r: r.number, default=None)
        same = next((r for r in movement.rounds if last and r.number == last.number), None)
        if same is not None:
            sat = {t.table: t for t in last.tables}
            for t in same.tables:
                if t.table in sat:
                    self.preferred.setdefault(t.ns, sat[t.table].ns)
                    self.preferred.setdefault(t.ew, sat[t.table].ew)
        positions = sorted({p for r in movement.rounds for t in r.tables for p in (t.ns, t.ew)}
                           | {p for r in movement.rounds for p in r.sit_out})
        self.positions = positions

    def _set_of(self, boards: tuple[int, ...]) -> int:
        return (boards[0] - 1) // self.per + 1

    # --- the search ----------------------------------------------------------------------
    #
    # Only the pairs are searched; the board sets follow by a matching: a set of the new
    # movement may be a set of the night that none of the pairs playing it has played.

    def _order(self) -> list[int]:
        order: list[int] = []
        for ns, ew, _ in self.meetings:
            order += [p for p in (ns, ew) if p not in order]
        return order + [p for p in self.positions if p not in order]

    def _pair_choices(self, position: int, keep_sides: bool, pin: bool = False
                      ) -> list[int]:
        side = self.position_side.get(position)
        first = self.preferred.get(position)
        if pin and side == "NS" and first in self.pairs and self.movement.kind == "mitchell":
            return [first]  # a stationary pair stays at its table
        ordered = ([first] if first in self.pairs else []) + [
            p for p in self.pairs if p != first]
        if not keep_sides or self.movement.kind != "mitchell" or side is None:
            return ordered
        return [p for p in ordered if self.direction[p] <= {side}]

    def _match(self, pair_of: dict[int, int]) -> dict[int, int]:
        """The most sets of the new movement matched to sets of the night (each to one),
        no pair seated so far playing a set it has played; each tried as itself first."""
        groups = range(1, max(self.sets_new, self.sets_made) + 1)
        allowed = {}
        for s, positions in self.players_of_set.items():
            seated = [pair_of[p] for p in positions if p in pair_of]
            allowed[s] = [g for g in ([s] if s in groups else []) + [
                g for g in groups if g != s] if not any(g in self.blocked[p] for p in seated)]
        owner: dict[int, int] = {}

        def augment(s: int, seen: set[int]) -> bool:
            for g in allowed[s]:
                if g in seen:
                    continue
                seen.add(g)
                if g not in owner or augment(owner[g], seen):
                    owner[g] = s
                    return True
            return False

        for s in sorted(allowed):
            augment(s, set())
        return {s: g for g, s in owner.items()}

    def solve(self, *, repeats: bool, need: int, budget: int, keep_sides: bool = True,
              pin: bool = False
              ) -> tuple[dict[int, int], dict[int, int]] | None:
        """Seat the pairs so that at least `need` sets are sets of the night; the best
        seating found within the budget when `need` is 0."""
        order = self._order()
        choices = {p: self._pair_choices(p, keep_sides, pin) for p in order}
        opponents: dict[int, list[int]] = defaultdict(list)
        for ns, ew, _ in self.meetings:
            opponents[ns].append(ew)
            opponents[ew].append(ns)
        pair_of: dict[int, int] = {}
        used: set[int] = set()
        best: list = [None, -1]
        tried = 0

        def place(index: int) -> bool:
            nonlocal tried
            matched = self._match(pair_of)
            if len(matched) < max(need, best[1] + 1 if index == len(order) else need):
                return False
            if index == len(order):
                best[:] = [(dict(pair_of), matched), len(matched)]
                return need > 0 or len(matched) == len(self.players_of_set)
            position = order[index]
            for pair in choices[position]:
                if pair in used:
                    continue
                if not repeats and any(pair_of.get(o) in self.met[pair]
                                       for o in opponents[position]):
                    continue
                tried += 1
                if tried > budget:
                    return False
                pair_of[position] = pair
                used.add(pair)
                if place(index + 1):
                    return True
                del pair_of[position]
                used.discard(pair)
            return False

        if place(0):
            return best[0]
        if need == 0 and best[0] is not None:
            return best[0]
        if need == 0 and repeats and keep_sides:
            # No seating keeps every pair's side (a Mitchell of other proportions).
            return self.solve(repeats=repeats, need=0, budget=budget, keep_sides=False,
                              pin=pin)
        return None

    def complete(self, found: tuple[dict[int, int], dict[int, int]]
                 ) -> tuple[dict[int, int], dict[int, int]]:
        """Sets the matching left out become new sets, after every set there is."""
        pair_of, set_of = found
        fresh = max(self.sets_new, self.sets_made)
        for s in sorted(self.players_of_set):
            if s not in set_of:
                fresh += 1
                set_of[s] = fresh
        return pair_of, set_of

    def plain(self) -> tuple[dict[int, int], dict[int, int]]:
        sets = {s for _, _, s in self.meetings}
        return dict(zip(self.positions, self.pairs, strict=False)), {s: s for s in sets}

    def relabel(self, pair_of: dict[int, int], set_of: dict[int, int]) -> Movement:
        per = self.per

        def boards(old: tuple[int, ...]) -> tuple[int, ...]:
            s = self._set_of(old)
            shift = (set_of[s] - s) * per
            return tuple(b + shift for b in old)

        rounds = tuple(
            Round(r.number,
                  tuple(TableRound(t.table, pair_of[t.ns], pair_of[t.ew], boards(t.boards))
                        for t in r.tables),
                  tuple(sorted(pair_of[p] for p in r.sit_out)))
            for r in self.rounds)
        top = max((b for r in rounds for t in r.tables for b in t.boards), default=0)
        return replace(self.movement, rounds=rounds, boards=top)
