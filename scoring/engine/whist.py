"""Scoring one deal of Duplicate Whist (rules.md §8; seed 001).

Terms:
    tricks     the tricks each side won (0–13); in duplicate whist only tricks are
               compared, so a side's trick score is its tricks and honours are not
               counted.
    revoke     Whist Law 85: revokes of the two sides cancel one for one; Whist Law 75:
               each revoke left over transfers three tricks from the revoking side to
               the other, never more than the revoking side won.
"""

from __future__ import annotations

import json
from functools import lru_cache

from .model import DealScore, ScoreItem, SideScore, WhistResult

TRICKS_PER_REVOKE = 3  # Whist Law 75


def _tricks(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"


@lru_cache(maxsize=4096)
def _whist(tricks_ns: int, revokes_ns: int, revokes_ew: int) -> DealScore:
    won = {"ns": tricks_ns, "ew": 13 - tricks_ns}
    items = [
        ScoreItem(side, "trick", won[side], f"{_tricks(won[side])} won in play", "Whist 47")
        for side in ("ns", "ew")
        if won[side]
    ]
    # Whist Law 85: the revokes of the two sides cancel one for one.
    left = revokes_ns - revokes_ew
    if left:
        offender, other = ("ns", "ew") if left > 0 else ("ew", "ns")
        k = abs(left)
        # Whist Law 75: three tricks for each revoke, never more than the revoker won.
        moved = min(TRICKS_PER_REVOKE * k, won[offender])
        if moved:
            revokes = f"{k} revoke" if k == 1 else f"{k} revokes"
            if revokes_ns and revokes_ew:
                revokes += " left over after Whist Law 85"
            who = "N-S" if offender == "ns" else "E-W"
            items.append(ScoreItem(offender, "trick", -moved,
                                   f"{_tricks(moved)} lost for {revokes}", "Whist 75"))
            items.append(ScoreItem(other, "trick", moved,
                                   f"{_tricks(moved)} taken for {revokes} by {who}", "Whist 75"))
            won[offender] -= moved
            won[other] += moved
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
