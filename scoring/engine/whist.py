"""Scoring one deal of Duplicate Whist (rules.md §8; seed 001).

Terms:
    tricks     the tricks each side won (0–13); in duplicate whist only tricks are
               compared, so a side's trick score is its tricks and honours are not
               counted.
    revoke     Whist Law 75: each revoke of one side alone transfers three tricks from
               the revoking side to the other, never more than the revoking side won.
               Whist Law 85: when both sides revoked, "the revokes cancel each other":
               all of them, whatever their numbers, and the tricks stand (rules.md §8).
"""

from __future__ import annotations

import json
from functools import lru_cache

from .model import DealScore, ScoreItem, SideScore, WhistResult
from .rules import SIDES

TRICKS_PER_REVOKE = 3  # Whist Law 75


def _tricks(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"


def _revokes(n: int) -> str:
    return f"{n} revoke" if n == 1 else f"{n} revokes"


@lru_cache(maxsize=4096)
def _whist(tricks_ns: int, revokes_ns: int, revokes_ew: int) -> DealScore:
    won = {"ns": tricks_ns, "ew": 13 - tricks_ns}
    items = [
        ScoreItem(side, "trick", won[side], f"{_tricks(won[side])} won in play", "Whist 47")
        for side in SIDES
        if won[side]
    ]
    if revokes_ns and revokes_ew:
        # Whist Law 85: "the revokes cancel each other" -- all of them, whatever their
        # numbers (rules.md §8): nothing moves. A 0-point item says so.
        items.append(ScoreItem(
            "ns", "trick", 0,
            f"{_revokes(revokes_ns)} by N-S and {_revokes(revokes_ew)} by E-W cancel each "
            "other: the tricks stand", "Whist 85"))
    elif revokes_ns or revokes_ew:
        offender, other = ("ns", "ew") if revokes_ns else ("ew", "ns")
        k = revokes_ns or revokes_ew
        # Whist Law 75: three tricks for each revoke, never more than the revoker won.
        moved = min(TRICKS_PER_REVOKE * k, won[offender])
        if moved:
            who = "N-S" if offender == "ns" else "E-W"
            items.append(ScoreItem(offender, "trick", -moved,
                                   f"{_tricks(moved)} lost for {_revokes(k)}", "Whist 75"))
            items.append(ScoreItem(other, "trick", moved,
                                   f"{_tricks(moved)} taken for {_revokes(k)} by {who}",
                                   "Whist 75"))
            won[offender] -= moved
            won[other] += moved
        else:
            # The revoking side won no trick: nothing to take. A 0-point item says so,
            # as for revokes that cancel (the revoke entered is not lost from the sheet).
            who = "N-S" if offender == "ns" else "E-W"
            items.append(ScoreItem(offender, "trick", 0,
                                   f"{_revokes(k)} by {who}: no trick to take, as they "
                                   "won none", "Whist 75"))
    return DealScore(SideScore(won["ns"], 0), SideScore(won["ew"], 0), tuple(items))


def score_whist(result: WhistResult) -> DealScore:
    """The deal score of a validated whist result: each side's tricks after revokes."""
    return _whist(result.tricks_ns, result.revokes_ns, result.revokes_ew)


@lru_cache(maxsize=4096)
def _whist_json(tricks_ns: int, revokes_ns: int, revokes_ew: int) -> str:
    return json.dumps(_whist(tricks_ns, revokes_ns, revokes_ew).to_dict(), separators=(",", ":"))


def whist_json(result: WhistResult) -> str:
    """score_whist(result).to_dict() as compact JSON text."""
    return _whist_json(result.tricks_ns, result.revokes_ns, result.revokes_ew)
