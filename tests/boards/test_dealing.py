"""Dealing: whole, fair deals in PBN notation."""

import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boards import dealing
from boards.dealing import PACK, deal_board, deal_boards
from boards.pbn import normalize_deal

HAND = r"[AKQJT98765432]*\.[AKQJT98765432]*\.[AKQJT98765432]*\.[AKQJT98765432]*"
DEAL = re.compile(rf"^N:{HAND} {HAND} {HAND} {HAND}$")


def hands(deal: str) -> list[set[str]]:
    """Each seat's cards as rank + suit, N E S W."""
    return [{rank + suit for suit, ranks in zip("SHDC", hand.split("."), strict=True)
             for rank in ranks} for hand in deal[2:].split()]


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**64))
def test_a_deal_is_52_different_cards_13_a_hand_in_order(seed):
    deal = deal_board(random.Random(seed))
    assert DEAL.match(deal)
    seats = hands(deal)
    assert [len(h) for h in seats] == [13, 13, 13, 13]
    assert set().union(*seats) == set(PACK)
    assert normalize_deal(deal) == deal  # suits S.H.D.C, ranks AKQJT98765432


def test_the_default_shuffle_is_the_system_random(monkeypatch):
    used = []

    class Spy(random.Random):
        def shuffle(self, x):
            used.append(len(x))
            super().shuffle(x)

    monkeypatch.setattr(dealing.secrets, "SystemRandom", Spy)
    deal_board()
    deal_boards(3)
    assert used == [52, 52, 52, 52]


def test_system_random_deals_are_whole_and_differ():
    deals = deal_boards(20)
    assert all(DEAL.match(d) and set().union(*hands(d)) == set(PACK) for d in deals)
    assert len(set(deals)) == 20  # a repeat has probability about 20² / 52!


def test_a_seeded_random_gives_the_same_deals():
    assert deal_boards(5, random.Random(1913)) == deal_boards(5, random.Random(1913))
    assert deal_boards(5, random.Random(1913)) != deal_boards(5, random.Random(1914))


@pytest.mark.parametrize("count", [-1, 1.5, True])
def test_deal_boards_wants_a_count(count):
    with pytest.raises(ValueError, match="whole number"):
        deal_boards(count)


def test_deal_boards_of_none():
    assert deal_boards(0) == []


def test_every_card_goes_to_every_seat_equally_often():
    """Chi-square over (card, seat) with a fixed seed: deterministic, so never flaky.

    4000 deals: each of the 208 cells expects 1000. The statistic has 156 degrees of
    freedom (mean 156, sd 17.7); 262 is six standard deviations above the mean.
    """
    rng = random.Random(20261117)
    counts = Counter()
    for _ in range(4000):
        for seat, cards in enumerate(hands(deal_board(rng))):
            counts.update((card, seat) for card in cards)
    chi_square = sum((counts[(card, seat)] - 1000) ** 2 / 1000
                     for card in PACK for seat in range(4))
    assert chi_square < 262


def test_system_random_is_roughly_fair():
    """400 deals from the system's source: the ace of spades goes to each seat 100 times
    on average (sd 8.7); 45..155 fails about once in 10^9 runs."""
    seats = Counter()
    for deal in deal_boards(400):
        seats.update(i for i, cards in enumerate(hands(deal)) if "AS" in cards)
    assert all(45 <= seats[i] <= 155 for i in range(4))


def test_suit_lengths_look_like_bridge():
    """The mean length of a suit in a hand is 13/4; with 2000 seeded deals the mean of
    8000 spade lengths is within 0.05 of it (sd 0.016)."""
    rng = random.Random(7)
    lengths = [len(hand.split(".")[0]) for _ in range(2000)
               for hand in deal_board(rng)[2:].split()]
    assert abs(sum(lengths) / len(lengths) - 3.25) < 0.05
