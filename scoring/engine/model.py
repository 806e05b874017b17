"""The engine's values: results in, scores out (frozen dataclasses, ints only).

Terms:
    deal result   what a table reports for one board: the contract, the tricks the
                  declaring side won in play, honours held, revokes, penalties.
    trick score   points for odd tricks; only the declaring side can have one.
    honour score  everything else: honours, slams, doubled bonus, undertricks,
                  revoke and procedural penalties, the duplicate premium.
    item          one line of the explanation of a score, with the law giving it;
                  the items of a deal score add up exactly to its two totals.
    net NS        N–S total minus E–W total; a pair's board score at auction.
"""

from __future__ import annotations

from dataclasses import dataclass


class ResultError(ValueError):
    """A deal result that cannot be scored, in words a player understands.

    ``field`` is the dotted path of the bad field ("contract.level", "honours.N",
    "penalties.0.by"); "" means the result as a whole.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class Contract:
    """The final declaration: level 1–7, denomination, declarer seat, "", "X" or "XX"."""

    level: int
    denomination: str
    declarer: str
    doubled: str = ""


@dataclass(frozen=True, slots=True)
class Revokes:
    """Established revokes per side (Law 84); ``first_penalty`` is the declarer's
    choice for the defenders' first revoke: "points" or "tricks" (Law 84(b))."""

    declaring: int = 0
    defending: int = 0
    first_penalty: str | None = None


NO_REVOKES = Revokes()


@dataclass(frozen=True, slots=True)
class Penalty:
    """A procedural penalty (rules.md §3.7): ``law`` code and the offender's seat."""

    law: str
    by: str


@dataclass(frozen=True, slots=True)
class AuctionResult:
    """One table's result on a board at Duplicate Auction.

    ``contract`` is None for a passed-out deal (English rule only); ``honours`` are
    the counts held by N, E, S, W (trump honours, or aces at no trump).
    """

    board: int
    contract: Contract | None
    tricks: int
    honours: tuple[int, int, int, int] = (0, 0, 0, 0)
    revokes: Revokes = NO_REVOKES
    penalties: tuple[Penalty, ...] = ()


@dataclass(frozen=True, slots=True)
class WhistResult:
    """One table's result on a board at Duplicate Whist: tricks won by N–S, revokes."""

    board: int
    tricks_ns: int
    revokes_ns: int = 0
    revokes_ew: int = 0


@dataclass(frozen=True, slots=True)
class SideScore:
    """One side's two columns on a deal."""

    trick_score: int
    honour_score: int

    @property
    def total(self) -> int:
        return self.trick_score + self.honour_score

    def to_dict(self) -> dict[str, int]:
        t = self.trick_score
        h = self.honour_score
        return {"trick_score": t, "honour_score": h, "total": t + h}


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One explained entry: ``points`` to ``side`` ("ns"/"ew") in ``column``
    ("trick"/"honour"), ``what`` in words, ``law`` the law that gives it."""

    side: str
    column: str
    points: int
    what: str
    law: str

    def to_dict(self) -> dict[str, object]:
        return {
            "side": self.side,
            "column": self.column,
            "points": self.points,
            "what": self.what,
            "law": self.law,
        }


@dataclass(frozen=True, slots=True)
class DealScore:
    """Both sides' scores on one deal and the items that explain them."""

    ns: SideScore
    ew: SideScore
    items: tuple[ScoreItem, ...] = ()

    @property
    def net_ns(self) -> int:
        ns = self.ns
        ew = self.ew
        return ns.trick_score + ns.honour_score - ew.trick_score - ew.honour_score

    def to_dict(self) -> dict[str, object]:
        """The deal score of docs/interfaces.md §1."""
        ns = self.ns
        ew = self.ew
        nt = ns.trick_score + ns.honour_score
        et = ew.trick_score + ew.honour_score
        return {
            "ns": {"trick_score": ns.trick_score, "honour_score": ns.honour_score, "total": nt},
            "ew": {"trick_score": ew.trick_score, "honour_score": ew.honour_score, "total": et},
            "net_ns": nt - et,
            "items": [
                {"side": i.side, "column": i.column, "points": i.points, "what": i.what,
                 "law": i.law}
                for i in self.items
            ],
        }
