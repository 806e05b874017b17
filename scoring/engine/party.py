"""A party night: progressive Auction, Three-Hand Auction or Whist for a club's social night.

Terms:
    round        the deals one table plays between two progressions (a fixed number of
                 deals, or as many as the time allows).
    column       who scores at a table: the sides ``NS`` and ``EW`` at four hands, the
                 players ``A``, ``B``, ``C`` at Three-Hand Auction.
    round score  a column's points for the round: the sum of its deal totals (trick and
                 honour scores), each deal scored alone by the rubber engine's one-deal
                 scoring (rules.md §10), with no game or rubber bonus: a party deal is
                 not part of a rubber.
    tally        what one player wins or loses in a round: at four hands his side's round
                 score less the opponents'; at Three-Hand his net in the settlement of
                 rule 15 (his total less each other player's, summed). A table's tallies
                 add up to 0.
    head table   table 1; the *foot table* is the last one.
    progression  where each player sits in the next round (see ``progression``).

Pinned (the laws of the games say nothing of a party night):
    - each deal starts from love: at Whist its points above five are lost (Law 47), as
      in the first deal of a game; at Auction nothing carries from deal to deal.
    - the dealer goes round the table: deal 1 is dealt by N (A), deal 2 by E (B), …
    - level at a four-hand table: N–S count as the winners, unless the director says
      otherwise (a cut of the cards); at Three-Hand the top and the bottom player are
      decided among equals by seat order (A before B before C for the top, C before B
      before A for the bottom), unless the director names the top player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .model import ResultError
from .rubber import (
    PLAYERS,
    RubberError,
    parse_auction_deal,
    parse_three_hand_deal,
    parse_whist_deal,
    score_auction_deal,
    score_three_hand_deal,
    score_whist_deal,
)
from .rules import SEATS, get_rules

PARTY_GAMES: tuple[str, ...] = ("auction", "three-hand", "whist")
FOUR_COLUMNS: tuple[str, ...] = ("NS", "EW")
_PARTNERS = {"NS": ("N", "S"), "EW": ("E", "W")}
_LOVE = {"NS": 0, "EW": 0}


def columns_of(game: str) -> tuple[str, ...]:
    return PLAYERS if game == "three-hand" else FOUR_COLUMNS


def seats_of(game: str) -> tuple[str, ...]:
    return PLAYERS if game == "three-hand" else SEATS


def dealer_of(game: str, number: int) -> str:
    """Pinned: the deal goes round the table, N (A) dealing the first deal of a round."""
    seats = seats_of(game)
    return seats[(number - 1) % len(seats)]


def column_of(game: str, seat: str) -> str:
    """The column a seat scores in: its side, or (Three-Hand) the player himself."""
    if game == "three-hand":
        return seat
    return "NS" if seat in ("N", "S") else "EW"


def score_party_deal(game: str, data: object, rules: str = "american-1913"):
    """One deal scored alone by the rubber engine's one-deal scoring: the engine's deal
    score (``DealScore``, ``ThreeHandScore`` or ``WhistDealScore``). ResultError for a
    bad deal, in the engine's words."""
    if game == "auction":
        ruleset = get_rules(rules)
        _dealer, result = parse_auction_deal(data, ruleset)
        return score_auction_deal(result, ruleset)
    if game == "three-hand":
        ruleset = get_rules(rules)
        return score_three_hand_deal(parse_three_hand_deal(data, ruleset), ruleset)
    if game == "whist":
        return score_whist_deal(parse_whist_deal(data), _LOVE)
    raise ValueError(f"unknown game {game!r}: choose one of {', '.join(PARTY_GAMES)}")


def deal_points(game: str, score) -> dict[str, int]:
    """A scored deal's total by column."""
    if game == "auction":
        return {"NS": score.ns.total, "EW": score.ew.total}
    if game == "three-hand":
        return {p: score.players[p].total for p in PLAYERS}
    return {s: score.points[s] for s in FOUR_COLUMNS}


def round_points(game: str, deals: Sequence[object], rules: str = "american-1913"
                 ) -> dict[str, int]:
    """A table's round score by column: the sum of its deals' totals. RubberError naming
    the first bad deal (its index from 0)."""
    total = dict.fromkeys(columns_of(game), 0)
    for index, data in enumerate(deals):
        try:
            points = deal_points(game, score_party_deal(game, data, rules))
        except ResultError as exc:
            raise RubberError(index, exc.field, exc.message) from None
        for key, value in points.items():
            total[key] += value
    return total


def tally(game: str, points: Mapping[str, int]) -> dict[str, int]:
    """Each column's tally for the round: at four hands its score less the opponents';
    at Three-Hand the player's net of rule 15 (his total less each other's). Sums to 0."""
    keys = columns_of(game)
    return {k: sum(points[k] - points[o] for o in keys if o != k) for k in keys}


def winner(game: str, points: Mapping[str, int]) -> str:
    """The column that moves up: the side (four hands; N–S when level) or the top
    player (Three-Hand; the earlier seat when level)."""
    keys = columns_of(game)
    return max(keys, key=lambda k: (points[k], -keys.index(k)))


def bottom(points: Mapping[str, int], top: str | None = None) -> str:
    """Three-Hand: the player with the lowest round score (the later seat when level),
    other than ``top``."""
    return min((p for p in PLAYERS if p != top),
               key=lambda k: (points[k], -PLAYERS.index(k)))


def level(game: str, points: Mapping[str, int]) -> tuple[str, ...]:
    """The columns level at the top of a table (two or more), else ()."""
    best = max(points[k] for k in columns_of(game))
    tied = tuple(k for k in columns_of(game) if points[k] == best)
    return tied if len(tied) > 1 else ()


def progression(game: str, seating: Sequence[Mapping[str, object]],
                points: Sequence[Mapping[str, int]],
                chosen: Sequence[str | None] | None = None) -> list[dict[str, object]]:
    """The next round's seating from this round's, table by table (index 0 is table 1,
    the head table), and each table's round score by column.

    Four hands: at every table but the head table the winning pair moves up one table
    and the losers stay; at the head table the winners stay and the losers go to the
    foot table. At each table the pair that stays splits and so does the pair that
    arrives, so partners change: the stayer who sat N (or E) takes N and the other
    takes E; the arriving pair's first player (who sat N or E) sits S, partnering N,
    and the other sits W, partnering E. With one table the losers "arrive" at it.

    Three-Hand: the top player of each table moves up one table; at the head table the
    top player stays and the bottom player goes to the foot table. The newcomer takes
    the seat left empty; the others keep theirs.

    ``chosen``: table by table, who moves up where the table is level (the director's
    cut of the cards), or None for the pinned rule.
    """
    n = len(seating)
    if n != len(points):
        raise ValueError("one round score per table")
    won = [c if c is not None else winner(game, p)
           for p, c in zip(points, chosen or [None] * n, strict=True)]
    if game == "three-hand":
        return _three_hand(seating, points, won)
    pairs = [{side: tuple(table[s] for s in _PARTNERS[side]) for side in FOUR_COLUMNS}
             for table in seating]
    lost = ["EW" if w == "NS" else "NS" for w in won]
    out = []
    for t in range(n):
        if t == 0:
            stay = pairs[0][won[0]]
            arrive = pairs[1][won[1]] if n > 1 else pairs[0][lost[0]]
        else:
            stay = pairs[t][lost[t]]
            arrive = pairs[t + 1][won[t + 1]] if t + 1 < n else pairs[0][lost[0]]
        out.append({"N": stay[0], "E": stay[1], "S": arrive[0], "W": arrive[1]})
    return out


def _three_hand(seating: Sequence[Mapping[str, object]],
                points: Sequence[Mapping[str, int]], top: Sequence[str]
                ) -> list[dict[str, object]]:
    n = len(seating)
    low = [bottom(p, t) for p, t in zip(points, top, strict=True)]
    out = []
    for t in range(n):
        table = dict(seating[t])
        if n == 1:
            out.append(table)
            continue
        if t == 0:
            leaving, newcomer = low[0], seating[1][top[1]]
        else:
            leaving = top[t]
            newcomer = seating[t + 1][top[t + 1]] if t + 1 < n else seating[0][low[0]]
        table[leaving] = newcomer
        out.append(table)
    return out
