"""Dealing new hands for a hand record.

Pure Python (no Django). A deal is a PBN ``Deal`` string from North:
``"N:spades.hearts.diamonds.clubs east south west"``, suits in the order
S H D C and cards ranked ``AKQJT98765432`` within a suit.

The shuffle is ``secrets.SystemRandom`` (the operating system's cryptographic
source) unless a ``random.Random`` is passed in, which tests use to get the same
deals every time. ``Random.shuffle`` is a Fisher–Yates shuffle, so every one of the
52! orders of the pack is equally likely when the source is uniform.
"""

from __future__ import annotations

import random
import secrets

from scoring.engine import RANKS, SUITS

PACK = tuple(rank + suit for suit in SUITS for rank in RANKS)  # "AS", "KS", ..., "2C"


def deal_board(rng: random.Random | None = None) -> str:
    """One deal, thirteen cards to each hand, as a PBN Deal string from North."""
    shuffler = rng if rng is not None else secrets.SystemRandom()
    cards = list(PACK)
    shuffler.shuffle(cards)
    return "N:" + " ".join(_hand(cards[13 * i: 13 * (i + 1)]) for i in range(4))


def deal_boards(count: int, rng: random.Random | None = None) -> list[str]:
    """``count`` independent deals (boards 1..count of a new hand record)."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError("the number of boards to deal must be a whole number, 0 or more")
    shuffler = rng if rng is not None else secrets.SystemRandom()
    return [deal_board(shuffler) for _ in range(count)]


def _hand(cards: list[str]) -> str:
    """Thirteen cards as "spades.hearts.diamonds.clubs", highest first in each suit."""
    return ".".join(
        "".join(sorted((c[0] for c in cards if c[1] == suit), key=RANKS.index))
        for suit in SUITS
    )
