"""Deals in PBN ``Deal`` notation, and the honours they give each seat.

Terms:
    deal        "N:AKQJ.T98.765.432 <E> <S> <W>": the seat of the first hand, a
                colon, then the four hands clockwise (N E S W), each as its
                spades.hearts.diamonds.clubs; 10 is written T. A hand may be "-"
                (unknown); with one hand unknown it is the 13 cards left over.
    honours     suit contract: the A K Q J 10 of trumps (royal spades and spades are
                the same cards); no trump: the four aces (Law 3).
"""

from __future__ import annotations

from functools import lru_cache

from .rules import DENOMINATIONS, SEATS

RANKS = "AKQJT98765432"
SUITS = ("S", "H", "D", "C")
_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten"}
_FULL_PACK = frozenset(s + r for s in SUITS for r in RANKS)

Hand = dict[str, str]


class DealError(ValueError):
    """A malformed deal. The message is for a player; ``problem`` says what is wrong,
    for a caller that words it its own way (the PBN reader names the file's line):

        ("text",)                         not text at all
        ("start",)                        no seat and colon first
        ("hands", found)                  not four hands
        ("suits", seat, found)            a hand without four suits
        ("card", seat, suit, rank)        a rank that is not a card
        ("repeat", seat, suit)            a card twice in one suit of a hand
        ("count", seat, cards)            a hand without 13 cards
        ("twice", suit, rank, seat, seat) one card in two hands (the earlier hand first)
        ("unknown", seats)                two or more hands unknown
    """

    def __init__(self, message: str, problem: tuple) -> None:
        super().__init__(message)
        self.problem = problem


def _card_name(suit: str, rank: str) -> str:
    return f"the {_RANK_NAMES.get(rank, rank)} of {_SUIT_NAMES[suit]}"


def _parse_hand(text: str, seat: str) -> Hand:
    suits = text.split(".")
    if len(suits) != 4:
        raise DealError(
            f"{seat}'s hand must have four suits separated by dots (spades.hearts.diamonds.clubs)",
            ("suits", seat, len(suits)),
        )
    hand: Hand = {}
    for suit, cards in zip(SUITS, suits, strict=True):
        cards = "" if cards == "-" else cards.replace("10", "T")  # "-": a void, as some write
        for rank in cards:
            if rank not in RANKS:
                raise DealError(
                    f"{rank!r} in {seat}'s {_SUIT_NAMES[suit]} is not a card "
                    "(use A K Q J T 9 8 7 6 5 4 3 2; 10 is written T)",
                    ("card", seat, suit, rank),
                )
        if len(set(cards)) != len(cards):
            raise DealError(f"{seat}'s {_SUIT_NAMES[suit]} name a card twice",
                            ("repeat", seat, suit))
        hand[suit] = "".join(sorted(cards, key=RANKS.index))
    return hand


def _cards(hand: Hand) -> set[str]:
    return {s + r for s, ranks in hand.items() for r in ranks}


def parse_deal(deal: str, *, allow_unknown: bool = False,
               as_given: bool = False) -> dict[str, dict[str, str]]:
    """Seat -> suit (S/H/D/C) -> cards, highest first (e.g. "AKT2"), for N E S W.

    Checks 13 cards a hand and 52 different cards. A single unknown hand ("-") is
    filled in with the cards left over. More unknown hands are an error unless
    ``allow_unknown``; then those seats are left out of the answer. ``as_given``: every
    unknown hand, even a single one, is left out (a hand record keeps what it was given).
    ``DealError`` (a ValueError), with a message a player understands, for anything else.
    """
    if not isinstance(deal, str):
        raise DealError("a deal must be text like 'N:AKQJ.T98.765.432 ...'", ("text",))
    text = deal.strip()
    if len(text) < 2 or text[1] != ":" or text[0].upper() not in SEATS:
        raise DealError("a deal starts with the seat of the first hand and a colon, like 'N:...'",
                        ("start",))
    parts = text[2:].split()
    if len(parts) != 4:
        raise DealError(f"a deal has four hands separated by spaces; this one has {len(parts)}",
                        ("hands", len(parts)))
    first = SEATS.index(text[0].upper())
    hands: dict[str, Hand] = {}
    for i, part in enumerate(parts):
        seat = SEATS[(first + i) % 4]
        if part == "-":
            continue
        hands[seat] = _parse_hand(part.upper(), seat)
    seen: dict[str, str] = {}
    for seat, hand in hands.items():
        count = sum(len(ranks) for ranks in hand.values())
        if count != 13:
            raise DealError(f"{seat}'s hand has {count} cards; a hand has 13",
                            ("count", seat, count))
        for card in _cards(hand):
            if card in seen:
                raise DealError(
                    f"{_card_name(card[0], card[1])} is dealt twice ({seen[card]} and {seat})",
                    ("twice", card[0], card[1], *sorted((seen[card], seat), key=SEATS.index)),
                )
            seen[card] = seat
    missing = [seat for seat in SEATS if seat not in hands]
    if len(missing) == 1 and not as_given:
        rest = _FULL_PACK - seen.keys()
        hands[missing[0]] = {
            s: "".join(r for r in RANKS if s + r in rest) for s in SUITS
        }
    elif missing and not (allow_unknown or as_given):
        raise DealError(
            f"the hands of {' and '.join(missing)} are unknown; "
            "the deal needs at least three hands",
            ("unknown", tuple(missing)),
        )
    return {seat: hands[seat] for seat in SEATS if seat in hands}


def deal_from_north(hands: dict[str, Hand]) -> str:
    """The deal text of ``parse_deal``'s hands, from North, the cards in order: how a deal
    is stored and written. A hand not given is "-"."""
    return "N:" + " ".join(
        ".".join(hands[seat][suit] for suit in SUITS) if seat in hands else "-" for seat in SEATS
    )


def _count(hand: Hand, denomination: str) -> int:
    if denomination == "NT":
        return sum(1 for suit in SUITS if "A" in hand[suit])
    trumps = hand["S" if denomination == "RS" else denomination]
    return sum(1 for rank in trumps if rank in "AKQJT")


@lru_cache(maxsize=4096)
def known_honours(deal: str, denomination: str) -> tuple[int | None, ...]:
    """Honour counts for N, E, S, W; None for a hand the deal does not show."""
    if denomination not in DENOMINATIONS:
        raise ValueError(f"the denomination must be one of {', '.join(DENOMINATIONS)}")
    hands = parse_deal(deal, allow_unknown=True)
    return tuple(_count(hands[seat], denomination) if seat in hands else None for seat in SEATS)


def honours_from_deal(deal: str, denomination: str) -> dict[str, int]:
    """The honours each seat holds in ``denomination`` (Law 3): trump A K Q J 10,
    or aces at no trump. ValueError for a bad or incomplete deal or denomination."""
    if not isinstance(deal, str):
        raise ValueError("a deal must be text like 'N:AKQJ.T98.765.432 ...'")
    counts = known_honours(deal, denomination)
    if None in counts:
        unknown = " and ".join(seat for seat, n in zip(SEATS, counts, strict=True) if n is None)
        raise ValueError(f"the hands of {unknown} are unknown, so the honours cannot be counted")
    return dict(zip(SEATS, counts, strict=True))  # type: ignore[arg-type]
