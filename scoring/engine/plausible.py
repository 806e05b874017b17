"""Results worth a second look before they are saved (live entry).

Terms:
    warning   something the laws allow but a table almost never has on one deal, so
              more likely a slip of the finger than the play: 9 revokes typed for 0, the
              defenders' tricks typed for the declarer's. A warning never refuses a
              result: the table (or the director) looks again and may save it as entered.

The thresholds, and why (docs/engine.md, "Unusual results"):
    MOST_REVOKES      2 revokes by one side on one deal. A revoke is an accident; three by
                      one side on one deal is almost unheard of, and 9 or 13 is a count of
                      tricks typed in the wrong box.
    MOST_PENALTIES    2 procedural penalties on one board (rules.md §3.7). Each is a
                      rare, deliberate ruling; three on one deal is more likely a box
                      ticked twice.
    MOST_POINTS       500 to one side on one board. Without doubling no sensible result
                      reaches it (7 NT made with the four aces in one hand scores 335;
                      seven undoubled undertricks are 350); with it, only a big doubled or
                      redoubled swing does (doubled down 5 is exactly 500).
    MOST_UNDERTRICKS  4. Five or more tricks short of the contract (won in play) is what
                      the defenders' tricks typed for the declarer's look like (4 ♥ with
                      3 tricks: 7 short).
    Three tricks from nothing: the defenders revoked and the declarer took three tricks
                      (Law 84(b)), but the declaring side won all 13 in play: there are
                      none to take (rules.md §3.1, min(3, 13 − tricks)), so the revoke
                      gives nothing, where 100 points were the declarer's for the
                      asking. More likely the wrong choice tapped than the declarer's.
Duplicate Whist has only tricks and revokes: only the revoke rule applies.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import AuctionResult, DealScore, WhistResult

# Every warning's code, as the API's schema lists them.
CODES = ("revokes", "revoke-choice", "penalties", "points", "undertricks")
MOST_REVOKES = 2
MOST_PENALTIES = 2
MOST_POINTS = 500
MOST_UNDERTRICKS = 4

_SIDE_NAMES = {"ns": "North–South", "ew": "East–West", "NS": "North–South",
               "EW": "East–West"}
_DENOMINATIONS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥", "RS": "R♠", "NT": "NT"}


@dataclass(frozen=True, slots=True)
class Unusual:
    """One warning: ``code`` (revokes, revoke-choice, penalties, points, undertricks),
    ``field`` (the dotted path of the result field to look at again, as ResultError names
    them) and ``message`` in the table's words."""

    code: str
    field: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "field": self.field, "message": self.message}


def _points(n: int) -> str:
    return f"{n:,}"


def _revoke_warning(count: int, who: str, field: str) -> Unusual:
    return Unusual("revokes", field,
                   f"{who} revoked {count} times on this board: more than {MOST_REVOKES} "
                   f"on one deal is very rare. Is {count} right?")


def unusual(result: AuctionResult | WhistResult, score: DealScore) -> tuple[Unusual, ...]:
    """The warnings for a checked and scored result, most telling first; () when none."""
    out: list[Unusual] = []
    if isinstance(result, WhistResult):
        for side, count in (("NS", result.revokes_ns), ("EW", result.revokes_ew)):
            if count > MOST_REVOKES:
                out.append(_revoke_warning(count, _SIDE_NAMES[side], f"revokes.{side}"))
        return tuple(out)
    contract = result.contract
    if contract is None:
        return ()
    need = 6 + contract.level
    short = need - result.tricks
    if short > MOST_UNDERTRICKS:
        out.append(Unusual(
            "undertricks", "tricks",
            f"The declaring side won {result.tricks} trick{'' if result.tricks == 1 else 's'} "
            f"in {contract.level}{_DENOMINATIONS[contract.denomination]}: {short} short of the "
            "contract. Did you enter the defenders' tricks?"))
    revokes = result.revokes
    for count, who, field in ((revokes.declaring, "The declaring side", "revokes.declaring"),
                              (revokes.defending, "The defenders", "revokes.defending")):
        if count > MOST_REVOKES:
            out.append(_revoke_warning(count, who, field))
    if (revokes.defending and not revokes.declaring and revokes.first_penalty == "tricks"
            and result.tricks == 13):
        out.append(Unusual(
            "revoke-choice", "revokes.first_penalty",
            "The declarer took three tricks for the defenders' revoke, but the declaring side "
            "won all 13: there are none to take, so the revoke gives nothing. The declarer "
            "may take 100 points instead (Law 84(b)). Is \"three tricks\" right?"))
    if len(result.penalties) > MOST_PENALTIES:
        out.append(Unusual(
            "penalties", "penalties",
            f"{len(result.penalties)} penalties on this board: more than {MOST_PENALTIES} "
            "on one deal is very rare. Is each of them right?"))
    for side, total in (("ns", score.ns.total), ("ew", score.ew.total)):
        if total > MOST_POINTS:
            out.append(Unusual(
                "points", "",
                f"{_SIDE_NAMES[side]} score {_points(total)} on this board: more than "
                f"{MOST_POINTS} on one deal is very rare. Are the contract, the doubling, "
                "the tricks and the revokes right?"))
    return tuple(out)
