"""Rubber play: the games in the seeds beyond duplicate (rules.md §10; interfaces.md §5).

Terms:
    rubber       the best of three games (Auction; Whist Law 46); at Three-Hand Auction
                 it lasts until one player has won two games (rule 11: two to four games).
    game         Auction: 30 trick points since the last game (rules.md §10.1); Whist:
                 five points (Whist Law 47).
    part-score   the trick points a side (a player) has toward the game in progress;
                 every part-score is wiped when a game is won.
    deal index   a deal's place in the rubber's list, from 0, as errors name it.
    adversaries  at Three-Hand Auction, the two players against the declarer, partners
                 for that deal only (rule 7).
    game value   Whist Law 53: treble (3), double (2) or single (1) by the losers' score.
    strict       the command's reading (``python -m scoring rubber``), as validate.py's:
                 an optional key is left out, never null (``contract`` null is a
                 passed-out deal), and a passed-out deal has no tricks. The pad's stored
                 deals are read as before (null = left out).

One deal is scored by the duplicate engine (rules.md §3: ``score_result``), less the
duplicate premium of Duplicate Law A, which rubber play does not have. Three-Hand Auction
scores the deal as though the declarer sat N with the dummy S and the adversaries E–W,
then gives each adversary in full what the E–W side would have scored (rules.md §10.2);
only its honours (rule 13) and penalties (rules 5, 9, 10) are its own.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .model import AuctionResult, Contract, DealScore, ResultError, Revokes, SideScore
from .rules import SEATS, RuleSet, get_rules
from .score import score_result
from .validate import (
    NULL_ADVICE,
    _contract,
    _kind,
    _one_of,
    _revokes,
    _unknown_key,
    _whole,
    optional,
    parse_result,
    passed_out_tricks,
)

RUBBER_GAMES: tuple[str, ...] = ("auction", "three-hand", "whist")
RUBBER_RULE_SETS: tuple[str, ...] = ("american-1913", "english")
PLAYERS: tuple[str, ...] = ("A", "B", "C")  # Three-Hand Auction, rule (1)
WHIST_SIDES: tuple[str, ...] = ("NS", "EW")

AUCTION_GAME = 30  # rules.md §10.1: 30 trick points since the last game
AUCTION_RUBBER_BONUS = 250  # Whist Club code of 1913 (Foster, Work)
THREE_HAND_GAME_BONUS = 125  # Three-Hand rule 14, for each of a player's two games
THREE_HAND_RUBBER_BONUS = 250  # Three-Hand rule 14
WHIST_GAME = 5  # Whist Law 47
WHIST_RUBBER_POINTS = 2  # Whist Law 54
WHIST_REVOKE = 3  # Whist Law 75: three tricks or three points for each revoke
REVOKE_PENALTIES: tuple[str, ...] = ("tricks", "deduct", "add")  # Whist Law 75 I

_PREMIUM_LAW = "Duplicate A"  # the duplicate premium: no part of a rubber
_SIDE_KEY = {"ns": "NS", "ew": "EW"}
_SIDE_NAME = {"NS": "N-S", "EW": "E-W"}
_OTHER = {"NS": "EW", "EW": "NS"}
_MISSING = object()


class RubberError(ResultError):
    """A bad deal of a rubber: ``index`` is its place in the list (from 0), ``field``
    the dotted path of the bad field in it ("" for the deal as a whole)."""

    def __init__(self, index: int, field: str, message: str) -> None:
        super().__init__(field, message)
        self.index = index


# --------------------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class Game:
    """One game won: its winner (a side, or a player at Three-Hand), the indexes of
    its deals, the points each scored toward it (trick points; whist points) and, at
    whist, its value (Whist Law 53)."""

    winner: str
    deals: tuple[int, ...]
    points: Mapping[str, int]
    value: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"winner": self.winner, "deals": list(self.deals),
                               "points": dict(self.points)}
        if self.value is not None:
            out["value"] = self.value
        return out


@dataclass(frozen=True, slots=True)
class Bonus:
    """Points scored for games or the rubber, not for a deal's play: ``to`` a side or
    a player, after the deal at index ``deal``, with the law that gives them."""

    to: str
    points: int
    what: str
    law: str
    deal: int

    def to_dict(self) -> dict[str, Any]:
        return {"to": self.to, "points": self.points, "what": self.what, "law": self.law,
                "deal": self.deal}


@dataclass(frozen=True, slots=True)
class AuctionRubber:
    """A four-hand Auction rubber (rules.md §10.1). ``deals`` are the deal scores
    (rules.md §3 without the premium); ``part_scores`` the trick points toward the game
    in progress (0–0 when the last deal finished a game)."""

    games: tuple[Game, ...]
    winner: str | None
    complete: bool
    rubber_bonus: Mapping[str, int]
    totals: Mapping[str, int]
    net: Mapping[str, int]
    deals: tuple[DealScore, ...]
    bonuses: tuple[Bonus, ...]
    part_scores: Mapping[str, int]

    def to_dict(self) -> dict[str, Any]:
        """The output of interfaces.md §5 (``--game auction``), with the deals."""
        return {
            "games": [g.to_dict() for g in self.games],
            "winner": self.winner,
            "complete": self.complete,
            "rubber_bonus": dict(self.rubber_bonus),
            "totals": dict(self.totals),
            "net": dict(self.net),
            "part_scores": dict(self.part_scores),
            "bonuses": [b.to_dict() for b in self.bonuses],
            "deals": [d.to_dict() for d in self.deals],
        }


@dataclass(frozen=True, slots=True)
class ThreeHandDeal:
    """One deal of Three-Hand Auction, checked. ``contract`` is None for a passed-out
    deal (English rule); its ``declarer`` field is always "N" (the declarer's seat when
    the deal is scored as four hands), ``declarer`` here is the player. ``honours``:
    counts held by A, B, C and the dummy. ``penalties``: (rule, offender) pairs."""

    dealer: str
    declarer: str | None
    contract: Contract | None
    tricks: int
    honours: Mapping[str, int]
    revokes: Revokes
    penalties: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class PlayerItem:
    """One explained entry of a Three-Hand deal: ``points`` to ``player``."""

    player: str
    column: str
    points: int
    what: str
    law: str

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "column": self.column, "points": self.points,
                "what": self.what, "law": self.law}


@dataclass(frozen=True, slots=True)
class ThreeHandScore:
    """Each player's two columns on one deal, and the items explaining them."""

    players: Mapping[str, SideScore]
    items: tuple[PlayerItem, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"players": {p: s.to_dict() for p, s in self.players.items()},
                "items": [i.to_dict() for i in self.items]}


@dataclass(frozen=True, slots=True)
class ThreeHandRubber:
    """A Three-Hand Auction rubber (rules.md §10.2). ``settlement["A-B"]`` is what A
    wins from B (negative: loses); ``net`` what each player wins in all (sums to 0)."""

    games: tuple[Game, ...]
    winner: str | None
    complete: bool
    totals: Mapping[str, int]
    settlement: Mapping[str, int]
    net: Mapping[str, int]
    deals: tuple[ThreeHandScore, ...]
    bonuses: tuple[Bonus, ...]
    part_scores: Mapping[str, int]

    def to_dict(self) -> dict[str, Any]:
        """The output of interfaces.md §5 (``--game three-hand``), with the deals."""
        return {
            "games": [g.to_dict() for g in self.games],
            "winner": self.winner,
            "complete": self.complete,
            "totals": dict(self.totals),
            "settlement": dict(self.settlement),
            "net": dict(self.net),
            "part_scores": dict(self.part_scores),
            "bonuses": [b.to_dict() for b in self.bonuses],
            "deals": [d.to_dict() for d in self.deals],
        }


@dataclass(frozen=True, slots=True)
class WhistDeal:
    """One deal of a whist rubber, checked. ``honours_ns``: trump honours (A K Q J)
    held by N–S, or None when not given (neither side scores honours);
    ``revoke_penalty``: the adversaries' choice (Whist Law 75), or None."""

    tricks_ns: int
    honours_ns: int | None = None
    revokes_ns: int = 0
    revokes_ew: int = 0
    revoke_penalty: str | None = None


@dataclass(frozen=True, slots=True)
class WhistItem:
    """One explained entry of a whist deal: ``points`` (negative for a deduction) to
    ``side`` ("NS"/"EW"); a 0-point item says why something did not count."""

    side: str
    points: int
    what: str
    law: str

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side, "points": self.points, "what": self.what, "law": self.law}


@dataclass(frozen=True, slots=True)
class WhistDealScore:
    """The points each side scored on one deal (after the limits of Whist Laws 47
    and 86), its items, the score of the game after it, and the game's winner if the
    deal won it."""

    points: Mapping[str, int]
    items: tuple[WhistItem, ...]
    score_after: Mapping[str, int]
    game_won_by: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"points": dict(self.points), "items": [i.to_dict() for i in self.items],
                "score_after": dict(self.score_after), "game_won_by": self.game_won_by}


@dataclass(frozen=True, slots=True)
class WhistRubber:
    """A whist rubber (rules.md §10.3). ``score`` is the game in progress."""

    games: tuple[Game, ...]
    winner: str | None
    complete: bool
    rubber_points: Mapping[str, int]
    net: Mapping[str, int]
    deals: tuple[WhistDealScore, ...]
    score: Mapping[str, int]

    def to_dict(self) -> dict[str, Any]:
        """The output of interfaces.md §5 (``--game whist``), with the deals."""
        return {
            "games": [g.to_dict() for g in self.games],
            "winner": self.winner,
            "complete": self.complete,
            "rubber_points": dict(self.rubber_points),
            "net": dict(self.net),
            "score": dict(self.score),
            "deals": [d.to_dict() for d in self.deals],
        }


# --------------------------------------------------------------------------- checking


def _deals_list(deals: object) -> Sequence[object]:
    if not isinstance(deals, (list, tuple)):
        raise RubberError(0, "", "a rubber must be a JSON array of its deals, in the order "
                                 f"played, not {_kind(deals)}")
    return deals


def _keys(data: object, allowed: tuple[str, ...], place: str, field: str = "") -> dict:
    """``data`` as an object whose keys are all in ``allowed`` (a misspelt optional
    field silently ignored would score the deal wrongly: engine.md decision 1)."""
    if not isinstance(data, dict):
        raise ResultError(field, f"{place} must be a JSON object, not {_kind(data)}")
    for key in data:
        if key in allowed:
            continue
        text = str(key)
        shown = repr(key) if len(text) <= 30 else repr(text[:30] + "...")
        message = f"{shown} is not a field of {place}"
        close = difflib.get_close_matches(text[:40], list(allowed), n=1)
        if close:
            message += f" (did you mean {close[0]!r}?)"
        message += f"; the fields are {', '.join(allowed)}"
        raise ResultError(f"{field}.{text}" if field else text, message)
    return data


def _after_the_end(index: int, who: str) -> RubberError:
    """A deal after the rubber was won (interfaces.md §5: an error naming that deal)."""
    return RubberError(index, "", f"this deal comes after the end of the rubber: {who} won "
                                  f"it with the deal at index {index - 1}. Start a new "
                                  "rubber for this deal")


# --------------------------------------------------------------------------- shared


def without_premium(ds: DealScore) -> DealScore:
    """A duplicate deal score less Duplicate Law A's premium: rubber play has games
    and rubbers instead (Duplicate Law A: "In Duplicate Auction there are neither
    games nor rubbers"; rules.md §10.1)."""
    cut = {"ns": 0, "ew": 0}
    kept = []
    for item in ds.items:
        if item.law == _PREMIUM_LAW:
            cut[item.side] += item.points
        else:
            kept.append(item)
    if not cut["ns"] and not cut["ew"]:
        return ds
    return DealScore(SideScore(ds.ns.trick_score, ds.ns.honour_score - cut["ns"]),
                     SideScore(ds.ew.trick_score, ds.ew.honour_score - cut["ew"]),
                     tuple(kept))


def _rules(rules: RuleSet | str) -> RuleSet:
    rules = get_rules(rules) if isinstance(rules, str) else rules
    if rules.is_whist:
        raise ValueError("a rubber of Auction is played under american-1913 or english rules")
    return rules


# --------------------------------------------------------------------------- auction

_AUCTION_DEAL_KEYS = frozenset({"dealer", "contract", "tricks", "honours", "revokes",
                                "penalties"})


def parse_auction_deal(data: object, rules: RuleSet, strict: bool = False
                       ) -> tuple[str, AuctionResult]:
    """A deal of an Auction rubber (interfaces.md §5: a §1 deal result whose ``board``
    is replaced by ``dealer``): the dealer and the result, checked as §1 checks it.
    The result's board is one that gives that dealer (1 for N ... 4 for W), so that
    Law 48 looks at the actual dealer. ResultError for the first bad field."""
    if not isinstance(data, dict):
        raise ResultError("", f"a deal must be a JSON object, not {_kind(data)}")
    if "board" in data:
        raise ResultError("board", "a rubber deal has no board number: give the dealer "
                                   "(N, E, S or W) instead")
    if not data.keys() <= _AUCTION_DEAL_KEYS:
        _unknown_key(data, _AUCTION_DEAL_KEYS, "")
    dealer = data.get("dealer", _MISSING)
    if dealer is _MISSING:
        raise ResultError("dealer", "the dealer is missing (N, E, S or W)")
    dealer = _one_of(dealer, "dealer", "the dealer", SEATS)
    rest = {key: value for key, value in data.items() if key != "dealer"}
    result = parse_result(rest, rules, board=SEATS.index(dealer) + 1, strict=strict)
    return dealer, result  # type: ignore[return-value]


def score_auction_deal(result: AuctionResult, rules: RuleSet) -> DealScore:
    """One deal of an Auction rubber: rules.md §3 without the premium (§10.1)."""
    return without_premium(score_result(result, rules))


def auction_rubber(deals: object, rules: RuleSet | str = "american-1913",
                   strict: bool = False) -> AuctionRubber:
    """Score a four-hand Auction rubber (rules.md §10.1) from its deals in play order.

    RubberError names the first bad deal: a bad field, or a deal after the rubber was won.
    """
    rules = _rules(rules)
    deals = _deals_list(deals)
    games: list[Game] = []
    won = {"NS": 0, "EW": 0}
    part = {"NS": 0, "EW": 0}
    in_game: list[int] = []
    scores: list[DealScore] = []
    bonuses: list[Bonus] = []
    winner: str | None = None
    for index, data in enumerate(deals):
        if winner is not None:
            raise _after_the_end(index, _SIDE_NAME[winner])
        try:
            _, result = parse_auction_deal(data, rules, strict)
        except ResultError as exc:
            raise RubberError(index, exc.field, exc.message) from None
        ds = score_auction_deal(result, rules)
        scores.append(ds)
        in_game.append(index)
        # rules.md §10.1: only trick scores count toward game (doubled values and tricks
        # transferred for a revoke included); the deal that wins it counts whole.
        part["NS"] += ds.ns.trick_score
        part["EW"] += ds.ew.trick_score
        side = next((s for s in WHIST_SIDES if part[s] >= AUCTION_GAME), None)
        if side is None:
            continue
        games.append(Game(side, tuple(in_game), dict(part)))
        won[side] += 1
        # Both sides' part-scores are wiped when a game is won; nothing carries over.
        part = {"NS": 0, "EW": 0}
        in_game = []
        if won[side] == 2:
            # The best of three games: two games win the rubber and its 250.
            winner = side
            bonuses.append(Bonus(side, AUCTION_RUBBER_BONUS, "rubber (two games won)",
                                 "Whist Club 1913", index))
    totals = {"NS": sum(d.ns.total for d in scores), "EW": sum(d.ew.total for d in scores)}
    bonus = {"NS": 0, "EW": 0}
    for b in bonuses:
        bonus[b.to] += b.points
        totals[b.to] += b.points
    net = totals["NS"] - totals["EW"]
    return AuctionRubber(tuple(games), winner, winner is not None, bonus, totals,
                         {"NS": net, "EW": -net}, tuple(scores), tuple(bonuses), part)


# --------------------------------------------------------------------------- three-hand

_THREE_HAND_KEYS = ("dealer", "declarer", "contract", "tricks", "honours", "revokes",
                    "penalties")
_THREE_CONTRACT_KEYS = ("level", "denomination", "doubled")
_THREE_HONOUR_KEYS = ("A", "B", "C", "dummy")
_PENALTY_KEYS = ("rule", "by")
_THREE_HONOURS_NULL = ("honours must be an object of counts (A, B, C, dummy), not null: "
                       "leave honours out when no one held any")
#: Three-Hand rules 5, 9, 10: the rule, the points to each other player, the words.
THREE_HAND_PENALTIES: Mapping[str, tuple[int, str]] = {
    "5": (50, "declaration out of turn by {by}"),
    "9": (50, "card exposed by {by} before the final declaration"),
    "10": (100, "double out of turn by {by}"),
}


def _player(value: object, field: str, name: str) -> str:
    return _one_of(value, field, name, PLAYERS)


def _three_honours(value: object, no_trump: bool) -> dict[str, int]:
    data = _keys(value, _THREE_HONOUR_KEYS, "honours (A, B, C and dummy)", "honours")
    most = 4 if no_trump else 5
    name = "aces" if no_trump else "honours"
    counts = {key: _whole(data.get(key, 0), f"honours.{key}", f"{name} held by {key}", 0, most)
              for key in _THREE_HONOUR_KEYS}
    total = sum(counts.values())
    if total > most:
        raise ResultError("honours", f"honours add up to {total}; "
                          + ("at no trump they are the 4 aces" if no_trump else "a suit has 5"))
    return counts


def _three_penalties(value: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, list):
        raise ResultError("penalties", f"penalties must be a list, not {_kind(value)}")
    out = []
    for i, item in enumerate(value):
        field = f"penalties.{i}"
        data = _keys(item, _PENALTY_KEYS, "a penalty", field)
        rule = data.get("rule", _MISSING)
        if rule is _MISSING:
            raise ResultError(f"{field}.rule", "the penalty's rule is missing (5, 9 or 10)")
        rule = _one_of(rule, f"{field}.rule", "the penalty's rule", tuple(THREE_HAND_PENALTIES))
        by = data.get("by", _MISSING)
        if by is _MISSING:
            raise ResultError(f"{field}.by", "the offender (by) is missing")
        out.append((rule, _player(by, f"{field}.by", "the offender (by)")))
    return tuple(out)


def parse_three_hand_deal(data: object, rules: RuleSet, strict: bool = False
                          ) -> ThreeHandDeal:
    """A deal of Three-Hand Auction in the shape of interfaces.md §5, checked.
    ResultError(field, message) for the first bad field."""
    data = _keys(data, _THREE_HAND_KEYS, "a three-hand deal")
    dealer = data.get("dealer", _MISSING)
    if dealer is _MISSING:
        raise ResultError("dealer", "the dealer is missing (A, B or C)")
    dealer = _player(dealer, "dealer", "the dealer")
    value = data.get("contract", _MISSING)
    if value is _MISSING:
        raise ResultError("contract", "the contract is missing (null for a passed-out deal)")
    penalties = optional(data, "penalties", strict, NULL_ADVICE["penalties"])
    penalties = () if penalties is None else _three_penalties(penalties)
    if value is None:
        return _three_passed_out(data, rules, dealer, penalties, strict)
    declarer = data.get("declarer", _MISSING)
    if declarer is _MISSING:
        raise ResultError("declarer", "the declarer is missing (A, B or C)")
    declarer = _player(declarer, "declarer", "the declarer")
    contract = _keys(value, _THREE_CONTRACT_KEYS, "the contract", "contract")
    # The contract is checked as §1 checks it, the declarer sitting N (see the docstring).
    checked = _contract({**contract, "declarer": "N"}, rules, strict)
    tricks = data.get("tricks", _MISSING)
    if tricks is _MISSING:
        raise ResultError("tricks", "the number of tricks won by the declarer with the dummy "
                                    "is missing")
    tricks = _whole(tricks, "tricks", "tricks", 0, 13)
    value = optional(data, "honours", strict, _THREE_HONOURS_NULL)
    honours = (dict.fromkeys(_THREE_HONOUR_KEYS, 0) if value is None
               else _three_honours(value, checked.denomination == "NT"))
    value = optional(data, "revokes", strict, NULL_ADVICE["revokes"])
    revokes = Revokes() if value is None else _revokes(value, strict)
    return ThreeHandDeal(dealer, declarer, checked, tricks, honours, revokes, penalties)


def _three_passed_out(data: dict, rules: RuleSet, dealer: str,
                      penalties: tuple[tuple[str, str], ...], strict: bool = False
                      ) -> ThreeHandDeal:
    if not rules.dealer_may_pass:
        # Law 42 (rule 4: "The dealer declares"): the dealer must bid.
        raise ResultError("contract", "the dealer must bid under the American rule: "
                                      "a deal cannot be passed out")
    declarer = data.get("declarer")
    if declarer is not None or (strict and "declarer" in data):
        raise ResultError("declarer", "a passed-out deal has no declarer: leave declarer out")
    passed_out_tricks(data, strict)
    value = optional(data, "honours", strict, _THREE_HONOURS_NULL)
    if value is not None and any(_three_honours(value, no_trump=False).values()):
        raise ResultError("honours", "a passed-out deal has no trumps, so no honours")
    value = optional(data, "revokes", strict, NULL_ADVICE["revokes"])
    if value is not None:
        r = _revokes(value, strict)
        if r.declaring or r.defending:
            raise ResultError("revokes", "a passed-out deal is not played, so it has no revokes")
    return ThreeHandDeal(dealer, None, None, 0, dict.fromkeys(_THREE_HONOUR_KEYS, 0),
                         Revokes(), penalties)


def _rule_13(count: int, v: int, no_trump: bool) -> tuple[int, str]:
    """Three-Hand rule 13: one hand's honours, scored alone ((0, "") for none)."""
    if not count:
        return 0, ""
    if no_trump:
        # "In a no-trump declaration, each ace counts ten, and four held by one player
        # count 100."
        return (100 if count == 4 else 10 * count), f"{count} {'ace' if count == 1 else 'aces'}"
    multiple = {1: 1, 2: 2, 3: 3, 4: 8, 5: 10}[count]
    return multiple * v, f"{count} {'honour' if count == 1 else 'honours'}"


def score_three_hand_deal(deal: ThreeHandDeal, rules: RuleSet) -> ThreeHandScore:
    """One deal of Three-Hand Auction (rules.md §10.2, rules (7), (9), (10), (12), (13))."""
    cols = {p: [0, 0] for p in PLAYERS}
    items: list[PlayerItem] = []

    def add(player: str, column: str, points: int, what: str, law: str) -> None:
        if points:
            cols[player][0 if column == "trick" else 1] += points
            items.append(PlayerItem(player, column, points, what, law))

    if deal.contract is not None and deal.declarer is not None:
        c = deal.contract
        declarer = deal.declarer
        adversaries = [p for p in PLAYERS if p != declarer]
        v = rules.trick_values[c.denomination]
        no_trump = c.denomination == "NT"
        # Rule 13: each player scores the honours in his own hand; the declarer also,
        # separately, those in the dummy.
        for player in PLAYERS:
            points, what = _rule_13(deal.honours[player], v, no_trump)
            add(player, "honour", points, what, "Three-Hand 13")
        points, what = _rule_13(deal.honours["dummy"], v, no_trump)
        add(declarer, "honour", points, f"dummy's {what}", "Three-Hand 13")
        # Rule 12 and rules.md §10.2: the deal as Auction scores it, the declarer at N
        # (board 1 makes him the dealer for Law 48, board 2 not), the adversaries E-W.
        board = 1 if declarer == deal.dealer else 2
        four_hands = AuctionResult(board, c, deal.tricks, (0, 0, 0, 0), deal.revokes, ())
        for item in without_premium(score_result(four_hands, rules)).items:
            if item.side == "ns":
                add(declarer, item.column, item.points, item.what, item.law)
                continue
            # Each adversary scores in full what goes to "the adversaries" (rule 12;
            # Law 48's capped loss is capped at 100 for each).
            law = f"{item.law}, Three-Hand 12" if item.law in ("47a", "48") else item.law
            for player in adversaries:
                add(player, item.column, item.points, item.what, law)
    for rule, by in deal.penalties:
        points, what = THREE_HAND_PENALTIES[rule]
        # Rules 5 and 9: "each of the other players"; rule 10, "each of his
        # adversaries", read as each of the other two (rules.md §10.2).
        for player in PLAYERS:
            if player != by:
                add(player, "honour", points, what.format(by=by), f"Three-Hand {rule}")
    return ThreeHandScore({p: SideScore(*cols[p]) for p in PLAYERS}, tuple(items))


def three_hand_rubber(deals: object, rules: RuleSet | str = "american-1913",
                      strict: bool = False) -> ThreeHandRubber:
    """Score a Three-Hand Auction rubber (rules.md §10.2) from its deals in play order."""
    rules = _rules(rules)
    deals = _deals_list(deals)
    games: list[Game] = []
    won = dict.fromkeys(PLAYERS, 0)
    part = dict.fromkeys(PLAYERS, 0)
    in_game: list[int] = []
    scores: list[ThreeHandScore] = []
    bonuses: list[Bonus] = []
    winner: str | None = None
    for index, data in enumerate(deals):
        if winner is not None:
            raise _after_the_end(index, winner)
        try:
            deal = parse_three_hand_deal(data, rules, strict)
        except ResultError as exc:
            raise RubberError(index, exc.field, exc.message) from None
        ts = score_three_hand_deal(deal, rules)
        scores.append(ts)
        in_game.append(index)
        for player in PLAYERS:
            part[player] += ts.players[player].trick_score
        # Game = 30 trick points by one player (only the declarer scores tricks).
        player = next((p for p in PLAYERS if part[p] >= AUCTION_GAME), None)
        if player is None:
            continue
        games.append(Game(player, tuple(in_game), dict(part)))
        won[player] += 1
        part = dict.fromkeys(PLAYERS, 0)  # a game wipes every player's part-score
        in_game = []
        # Rule 14: 125 for winning a game, 125 more for a second, 250 for the rubber.
        nth = "first" if won[player] == 1 else "second"
        bonuses.append(Bonus(player, THREE_HAND_GAME_BONUS, f"{nth} game won",
                             "Three-Hand 14", index))
        if won[player] == 2:
            # Rule 11: the rubber ends when one player has won two games.
            winner = player
            bonuses.append(Bonus(player, THREE_HAND_RUBBER_BONUS, "rubber (two games won)",
                                 "Three-Hand 14", index))
    totals = {p: sum(s.players[p].total for s in scores) for p in PLAYERS}
    for b in bonuses:
        totals[b.to] += b.points
    # Rule 15: each pair of players settles the difference of their totals.
    settlement = {f"{x}-{y}": totals[x] - totals[y]
                  for i, x in enumerate(PLAYERS) for y in PLAYERS[i + 1:]}
    net = {p: sum(totals[p] - totals[q] for q in PLAYERS if q != p) for p in PLAYERS}
    return ThreeHandRubber(tuple(games), winner, winner is not None, totals, settlement, net,
                           tuple(scores), tuple(bonuses), part)


# --------------------------------------------------------------------------- whist

_WHIST_KEYS = ("tricks_ns", "honours", "revokes", "revoke_penalty")


def parse_whist_deal(data: object, strict: bool = False) -> WhistDeal:
    """A deal of a whist rubber in the shape of interfaces.md §5, checked."""
    data = _keys(data, _WHIST_KEYS, "a whist deal")
    tricks = data.get("tricks_ns", _MISSING)
    if tricks is _MISSING:
        raise ResultError("tricks_ns", "the number of tricks won by N-S (tricks_ns) is missing")
    tricks = _whole(tricks, "tricks_ns", "tricks_ns", 0, 13)
    honours = None
    value = optional(data, "honours", strict, "honours must be an object (NS), not null: "
                                              "leave honours out when they are not scored")
    if value is not None:
        held = _keys(value, ("NS",), "honours (give the honours N-S held; E-W hold the rest)",
                     "honours")
        if "NS" not in held:
            # A count left out must not read as 0 (E-W would then score four honours).
            raise ResultError("honours.NS", "say how many honours N-S held (0 to 4), or "
                                            "leave honours out")
        honours = _whole(held["NS"], "honours.NS", "honours held by N-S", 0, 4)
    ns = ew = 0
    value = optional(data, "revokes", strict, NULL_ADVICE["whist.revokes"])
    if value is not None:
        revokes = _keys(value, WHIST_SIDES, "revokes", "revokes")
        ns = _whole(revokes.get("NS", 0), "revokes.NS", "revokes by N-S", 0, 13)
        ew = _whole(revokes.get("EW", 0), "revokes.EW", "revokes by E-W", 0, 13)
    penalty = optional(data, "revoke_penalty", strict,
                       'revoke_penalty must be "tricks", "deduct" or "add", not null: leave '
                       "revoke_penalty out when the adversaries have no choice to make")
    if penalty is not None:
        penalty = _one_of(penalty, "revoke_penalty", "the revoke penalty", REVOKE_PENALTIES)
    elif bool(ns) != bool(ew):
        # Whist Law 75 I: the adversaries choose the penalty.
        raise ResultError("revoke_penalty",
                          "for the revoke the adversaries take three tricks, deduct three "
                          'points or add three: revoke_penalty must be "tricks", "deduct" '
                          'or "add"')
    return WhistDeal(tricks, honours, ns, ew, penalty)


def _n(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def score_whist_deal(deal: WhistDeal, before: Mapping[str, int]) -> WhistDealScore:
    """One deal of a whist rubber, from the score of the game ``before`` it (Whist Laws
    47–50, 75, 85, 86). The items come in Law 50's order: the revoke penalty, then
    tricks, then honours; once a side has won the game, later items do not count."""
    score = {"NS": before["NS"], "EW": before["EW"]}
    items: list[WhistItem] = []
    won = {"NS": deal.tricks_ns, "EW": 13 - deal.tricks_ns}
    revokes = {"NS": deal.revokes_ns, "EW": deal.revokes_ew}
    # Law 86: a side cannot win the game on a deal in which it revoked; it stops at four.
    # Law 85: if both sides revoked, neither can.
    limit = {s: WHIST_GAME - 1 if revokes[s] else WHIST_GAME for s in WHIST_SIDES}
    winner: list[str] = []

    def add(side: str, points: int, what: str, law: str) -> None:
        if winner:
            items.append(WhistItem(side, 0, f"{what}: not counted, {_SIDE_NAME[winner[0]]} "
                                            "had already won the game", "Whist 50"))
            return
        room = limit[side] - score[side]
        counted = min(points, room)
        items.append(WhistItem(side, counted, what, law))
        if points > counted:
            lost = points - counted
            if limit[side] < WHIST_GAME:
                items.append(WhistItem(side, 0, f"{_n(lost, 'point')}: not counted, a side "
                                                "that revoked cannot score more than four",
                                       "Whist 86"))
            else:
                items.append(WhistItem(side, 0, f"{_n(lost, 'point')} over five: not counted",
                                       "Whist 47"))
        score[side] += counted
        if score[side] >= WHIST_GAME:
            winner.append(side)

    # 1. The revoke penalty takes precedence of all other scores (Law 50, Law 75 V).
    if revokes["NS"] and revokes["EW"]:
        items.append(WhistItem("NS", 0, f"{_n(revokes['NS'], 'revoke')} by N-S and "
                                        f"{_n(revokes['EW'], 'revoke')} by E-W cancel each "
                                        "other", "Whist 85"))
    elif revokes["NS"] or revokes["EW"]:
        offender = "NS" if revokes["NS"] else "EW"
        claimants = _OTHER[offender]
        k = revokes[offender]
        for_what = f"for {_n(k, 'revoke')} by {_SIDE_NAME[offender]}"
        if deal.revoke_penalty == "tricks":
            moved = min(WHIST_REVOKE * k, won[offender])  # never more than the side won
            won[offender] -= moved
            won[claimants] += moved
            items.append(WhistItem(claimants, 0, f"{_n(moved, 'trick')} taken {for_what}",
                                   "Whist 75"))
        elif deal.revoke_penalty == "deduct":
            cut = min(WHIST_REVOKE * k, score[offender])  # the score stops at 0
            score[offender] -= cut
            items.append(WhistItem(offender, -cut, f"{_n(cut, 'point')} deducted {for_what}",
                                   "Whist 75"))
        else:
            add(claimants, WHIST_REVOKE * k, f"{_n(WHIST_REVOKE * k, 'point')} added "
                                             f"{for_what}", "Whist 75")
    # 2. Tricks: each trick above six is one point (Law 47).
    for side in WHIST_SIDES:
        if won[side] > 6:
            add(side, won[side] - 6, f"{_n(won[side] - 6, 'trick')} above six", "Whist 47")
    # 3. Honours (Law 48): four score 4, any three score 2; partners' together.
    if deal.honours_ns is not None:
        held = {"NS": deal.honours_ns, "EW": 4 - deal.honours_ns}
        for side in WHIST_SIDES:
            if held[side] < 3:
                continue
            points = 4 if held[side] == 4 else 2
            what = f"{'four' if held[side] == 4 else 'three'} honours"
            if before[side] == WHIST_GAME - 1 and not winner:
                # Law 49: a side at four at the start of the deal cannot score honours.
                items.append(WhistItem(side, 0, f"{what}: not scored at the score of four",
                                       "Whist 49"))
            else:
                add(side, points, what, "Whist 48")
    points = {s: score[s] - before[s] for s in WHIST_SIDES}
    return WhistDealScore(points, tuple(items), score, winner[0] if winner else None)


def _game_value(losers: int) -> int:
    """Whist Law 53: treble if the losers have not scored, double for 1 or 2, single
    for 3 or 4."""
    return 3 if losers == 0 else 2 if losers <= 2 else 1


def whist_rubber(deals: object, strict: bool = False) -> WhistRubber:
    """Score a whist rubber (rules.md §10.3; Dummy and Double Dummy alike) from its deals
    in play order."""
    deals = _deals_list(deals)
    games: list[Game] = []
    won = {"NS": 0, "EW": 0}
    score = {"NS": 0, "EW": 0}
    in_game: list[int] = []
    scores: list[WhistDealScore] = []
    winner: str | None = None
    for index, data in enumerate(deals):
        if winner is not None:
            raise _after_the_end(index, _SIDE_NAME[winner])
        try:
            deal = parse_whist_deal(data, strict)
        except ResultError as exc:
            raise RubberError(index, exc.field, exc.message) from None
        ws = score_whist_deal(deal, score)
        scores.append(ws)
        in_game.append(index)
        score = dict(ws.score_after)
        side = ws.game_won_by
        if side is None:
            continue
        games.append(Game(side, tuple(in_game), score, _game_value(score[_OTHER[side]])))
        won[side] += 1
        # Law 75 III: a penalty counts only in the game in which it occurs; the next
        # game starts at love.
        score = {"NS": 0, "EW": 0}
        in_game = []
        if won[side] == 2:
            winner = side  # Law 46: the best of three games
    rubber_points = {s: WHIST_RUBBER_POINTS if s == winner else 0 for s in WHIST_SIDES}
    # Laws 53-55: the winners' game values and the rubber points, less the losers' game
    # value (a three-game rubber); unfinished: each side's game values.
    values = {s: sum(g.value or 0 for g in games if g.winner == s) + rubber_points[s]
              for s in WHIST_SIDES}
    net = values["NS"] - values["EW"]
    return WhistRubber(tuple(games), winner, winner is not None, rubber_points,
                       {"NS": net, "EW": -net}, tuple(scores), score)


# --------------------------------------------------------------------------- entry


def score_rubber(game: str, deals: object, rules: RuleSet | str = "american-1913",
                 *, strict: bool = False) -> AuctionRubber | ThreeHandRubber | WhistRubber:
    """Score one rubber of ``game`` ("auction", "three-hand" or "whist"); whist takes
    no rule set. RubberError for a bad deal, ValueError for an unknown game. ``strict``:
    the command's reading (see the terms above)."""
    if game == "auction":
        return auction_rubber(deals, rules, strict)
    if game == "three-hand":
        return three_hand_rubber(deals, rules, strict)
    if game == "whist":
        return whist_rubber(deals, strict)
    raise ValueError(f"unknown game {game!r}: choose one of {', '.join(RUBBER_GAMES)}")
