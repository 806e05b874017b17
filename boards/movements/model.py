"""The movement itself: rounds of tables, who sits where, which boards; and its JSON."""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("mitchell", "howell", "three-quarter-howell", "team-match")
MITCHELL_VARIANTS = ("skip", "relay")
MITCHELL_TABLES = range(3, 21)
HOWELL_TABLES = range(2, 9)
THREE_QUARTER_TABLES = range(4, 9)
TEAM_PAIRS = range(2, 21)

KIND_NAMES = {
    "mitchell": "Mitchell",
    "howell": "Howell",
    "three-quarter-howell": "three-quarter Howell",
    "team-match": "team match",
}


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

    @property
    def playing_tables(self) -> frozenset[int]:
        """The tables with a game in some round: a Howell with its last pair missing leaves
        that pair's table out (its opponents sit out), though ``tables`` counts it."""
        return frozenset(t.table for r in self.rounds for t in r.tables)

    @property
    def in_play(self) -> int:
        """How many tables play (``playing_tables``; ``tables`` for one with no rounds)."""
        return len(self.playing_tables) or self.tables

    @property
    def has_sit_out(self) -> bool:
        return any(r.sit_out for r in self.rounds)

    @property
    def is_relay(self) -> bool:
        """A relay (share-and-relay, "relay and bye stand") Mitchell: tables 1 and n share."""
        return self.kind == "mitchell" and self.variant == "relay"

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
