"""Rule sets and the fixed vocabulary of the game (rules.md §1, §2, §8).

Terms:
    seat          N, E, S or W; partners are N–S and E–W.
    side          "ns" or "ew" (lower case in scores and items).
    board         a numbered deal played at several tables; it fixes the dealer.
    denomination  S, C, D, H, RS (royal spades, "lilies") or NT.
    trick value   the points for each odd trick in a denomination (Law 3).
    rule set      american-1913 (default), english (Foster's note after Duplicate
                  Law H) or duplicate-whist (seed 001, Whist Law 47).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

SEATS: tuple[str, ...] = ("N", "E", "S", "W")
SIDES: tuple[str, ...] = ("ns", "ew")
#: The side each seat belongs to.
SIDE_OF_SEAT: Mapping[str, str] = MappingProxyType({"N": "ns", "S": "ns", "E": "ew", "W": "ew"})
OTHER_SIDE: Mapping[str, str] = MappingProxyType({"ns": "ew", "ew": "ns"})
#: The two seats of each side, in the order of SEATS.
SIDE_SEATS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {side: tuple(seat for seat in SEATS if SIDE_OF_SEAT[seat] == side) for side in SIDES})
DENOMINATIONS: tuple[str, ...] = ("S", "C", "D", "H", "RS", "NT")
#: Doubling multiplies each trick over six by 1, 2 or 4 (Law 53).
DOUBLING: Mapping[str, int] = MappingProxyType({"": 1, "X": 2, "XX": 4})
RULINGS: tuple[str, ...] = ("average", "fouled", "cancelled", "not-played", "adjusted")
#: An adjusted score's grade for each side (club practice, not the 1913 laws):
#: average-plus, average, average-minus.
ADJUST_GRADES: tuple[str, ...] = ("plus", "average", "minus")
# Rulings that take a result out of the comparison: it credits neither pair.
NO_COMPARISON: tuple[str, ...] = ("cancelled", "not-played")

RULE_SET_NAMES: tuple[str, ...] = ("american-1913", "english", "duplicate-whist")


@dataclass(frozen=True, slots=True)
class PenaltyRule:
    """A procedural penalty of rules.md §3.7: points to the offender's adversaries."""

    code: str
    points: int
    law: str
    what: str


#: rules.md §3.7. The points go to the adversaries' honour score.
PENALTY_RULES: Mapping[str, PenaltyRule] = MappingProxyType(
    {
        # Duplicate Law F: a declaration, double or redouble out of turn must stand.
        "F-declaration-out-of-turn": PenaltyRule(
            "F-declaration-out-of-turn", 50, "Duplicate F", "declaration out of turn by {by}"
        ),
        # Duplicate Law F for Law 81: omitting to play to a trick.
        "F-law-81": PenaltyRule(
            "F-law-81", 50, "Duplicate F, 81", "{by} omitted to play to a trick"
        ),
        # Law 90: looking at a quitted trick.
        "90": PenaltyRule("90", 25, "90", "{by} looked at a quitted trick"),
        # Law 54, with Duplicate Law F: no new deal, so the points penalty.
        "54-redouble-more-than-once": PenaltyRule(
            "54-redouble-more-than-once", 100, "54", "{by} redoubled more than once"
        ),
        "54-double-partner": PenaltyRule(
            "54-double-partner", 50, "54", "{by} doubled partner's declaration or double"
        ),
    }
)
PENALTY_CODES: tuple[str, ...] = tuple(PENALTY_RULES)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The settings that differ between the rule sets of rules.md §2 and §8.

    ``trick_values`` maps each allowed denomination to its trick value (Law 3).
    """

    name: str
    is_whist: bool
    royal_spades: bool  # RS exists as a separate denomination (American rule)
    dealer_may_pass: bool  # English rule: "No bid"; American: Law 42
    little_slam: int
    grand_slam: int
    one_spade_cap: bool  # Law 48
    trick_values: Mapping[str, int] = field(compare=False, hash=False, repr=False)

    @property
    def denominations(self) -> tuple[str, ...]:
        return tuple(self.trick_values)

    def trick_value(self, denomination: str) -> int:
        return self.trick_values[denomination]


# Law 3 (Whist Club of New York, November 1913).
_AMERICAN_VALUES = {"S": 2, "C": 6, "D": 7, "H": 8, "RS": 9, "NT": 10}
# English rule: spades are always royals (value 9); RS is not a separate call.
_ENGLISH_VALUES = {"S": 9, "C": 6, "D": 7, "H": 8, "NT": 10}

_RULE_SETS: dict[str, RuleSet] = {
    "american-1913": RuleSet(
        name="american-1913",
        is_whist=False,
        royal_spades=True,
        dealer_may_pass=False,
        little_slam=20,
        grand_slam=40,
        one_spade_cap=True,
        trick_values=MappingProxyType(_AMERICAN_VALUES),
    ),
    "english": RuleSet(
        name="english",
        is_whist=False,
        royal_spades=False,
        dealer_may_pass=True,
        little_slam=50,
        grand_slam=100,
        one_spade_cap=False,
        trick_values=MappingProxyType(_ENGLISH_VALUES),
    ),
    # Duplicate whist: no contract, only tricks are compared (rules.md §8).
    "duplicate-whist": RuleSet(
        name="duplicate-whist",
        is_whist=True,
        royal_spades=False,
        dealer_may_pass=False,
        little_slam=0,
        grand_slam=0,
        one_spade_cap=False,
        trick_values=MappingProxyType({}),
    ),
}


def get_rules(name: str = "american-1913") -> RuleSet:
    """The rule set called ``name``; ValueError for an unknown name."""
    try:
        return _RULE_SETS[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown rule set {name!r}: choose one of {', '.join(RULE_SET_NAMES)}"
        ) from None


def partner(seat: str) -> str:
    """The seat across the table (rules.md §1: N and S are partners, E and W)."""
    return SEATS[(SEATS.index(seat) + 2) % len(SEATS)]


def dealer_for_board(board: int) -> str:
    """The dealer of ``board`` (rules.md §1): N, E, S, W for boards 1, 2, 3, 4, then again."""
    if type(board) is not int or board < 1:
        raise ValueError("a board number is a whole number from 1 up")
    return SEATS[(board - 1) % 4]
