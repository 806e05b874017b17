"""Scoring one deal of Duplicate Auction (rules.md §3).

Terms:
    need        tricks the declaring side must win: 6 + level.
    t           tricks the declaring side won in play; T = t + tricks transferred
                for a defenders' revoke (Law 84(b)).
    m           1, 2 or 4: undoubled, doubled, redoubled (Law 53).
    v           the trick value of the denomination (Law 3).
    odd tricks  tricks over six (Law 47: all of them count, not only those bid).
    undertricks tricks short of need (Law 47a).
    premium     125 to a side that makes 30 or more for tricks (Duplicate Law A).

The parts that depend only on a few small numbers are computed once and cached
(the contract part, the honours part, each penalty), so scoring many results is a
few dictionary look-ups each.
"""

from __future__ import annotations

import json
from functools import lru_cache

from .model import AuctionResult, Contract, DealScore, Penalty, Revokes, ScoreItem, SideScore
from .rules import (
    DOUBLING,
    OTHER_SIDE,
    PENALTY_RULES,
    SIDE_OF_SEAT,
    SIDES,
    RuleSet,
    dealer_for_board,
)

PREMIUM = 125  # Duplicate Law A
PREMIUM_AT = 30  # Duplicate Law A: 30 or more for tricks on one deal
REVOKE_POINTS = 100  # Law 84(a)(b)(c), Law 89
UNDERTRICK = 50  # Law 47a: 50, doubled 100, redoubled 200 for each
ONE_SPADE_LIMIT = 100  # Law 48

# ns trick, ns honour, ew trick, ew honour, the items, and the items as JSON text
Part = tuple[int, int, int, int, tuple[ScoreItem, ...], str]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class _Sheet:
    """A score sheet being filled in: the two columns of each side and the items."""

    __slots__ = ("cols", "items")

    def __init__(self) -> None:
        self.cols = {"ns": [0, 0], "ew": [0, 0]}
        self.items: list[ScoreItem] = []

    def add(self, side: str, column: str, points: int, what: str, law: str) -> None:
        if points:
            self.cols[side][0 if column == "trick" else 1] += points
            self.items.append(ScoreItem(side, column, points, what, law))

    def part(self) -> Part:
        ns, ew = self.cols["ns"], self.cols["ew"]
        return (ns[0], ns[1], ew[0], ew[1], tuple(self.items), items_json(self.items))


def items_json(items: tuple[ScoreItem, ...] | list[ScoreItem]) -> str:
    """The items as the inside of a JSON array (no brackets)."""
    return ",".join(json.dumps(item.to_dict(), separators=(",", ":")) for item in items)


def _trick_what(n: int, v: int, m: int) -> str:
    odd = _plural(n, "odd trick")
    if m == 1:
        return f"{odd} at {v}"
    return f"{odd} at {v}, {'doubled' if m == 2 else 'redoubled'}: {v * m} each"


def _undertricks(sheet: _Sheet, side: str, u: int, m: int, cap: bool) -> None:
    """Law 47a: 50, 100 or 200 for each undertrick; Law 48 caps the dealer's one spade."""
    points = UNDERTRICK * m * u
    what = _plural(u, "undertrick") + {1: "", 2: ", doubled", 4: ", redoubled"}[m]
    if cap and points > ONE_SPADE_LIMIT:
        # Law 48: the loss on the dealer's one spade is at most 100, unless redoubled.
        sheet.add(side, "honour", ONE_SPADE_LIMIT,
                  f"{what}, limited to 100 (dealer's one spade)", "48")
    else:
        sheet.add(side, "honour", points, what, "47a")


def _slam(sheet: _Sheet, side: str, tricks: int, little: int, grand: int) -> None:
    """Slams are scored by a side winning 12 or 13 tricks in play, made or not (Law 3)."""
    if tricks == 13:
        sheet.add(side, "honour", grand, "grand slam", "3")
    elif tricks == 12:
        sheet.add(side, "honour", little, "little slam", "3")


def _made(sheet: _Sheet, decl: str, v: int, m: int, t: int, big_t: int, need: int) -> None:
    """Contract made (T >= need): trick score and the doubled bonus (rules.md §3.2)."""
    odd_total = big_t - 6
    odd_play = min(max(0, t - 6), odd_total)
    # Law 47: every odd trick counts; Law 53: doubling doubles, redoubling quadruples it.
    sheet.add(decl, "trick", odd_play * v * m, _trick_what(odd_play, v, m),
              "47" if m == 1 else "53")
    moved = odd_total - odd_play
    if moved:
        # Law 84(b), footnote 22: transferred tricks at the doubled or redoubled value.
        sheet.add(
            decl,
            "trick",
            moved * v * m,
            f"{_plural(moved, 'odd trick')} from tricks taken for a revoke, at {v * m} each",
            "84b",
        )
    if m > 1 and t >= need:
        # Law 56: only when made without transferred tricks (Law 84(b)).
        base = 50 if m == 2 else 100
        extra = t - need
        what = f"doubled contract made: {base}" if m == 2 else f"redoubled contract made: {base}"
        if extra:
            what += f" + {base} × {_plural(extra, 'extra trick')}"
        sheet.add(decl, "honour", base + base * extra, what, "56")


def _premium(sheet: _Sheet) -> None:
    """Duplicate Law A: 125 to a side making 30 or more for tricks."""
    for side in SIDES:
        if sheet.cols[side][0] >= PREMIUM_AT:
            sheet.add(side, "honour", PREMIUM, "duplicate premium (30 or more for tricks)",
                      "Duplicate A")


@lru_cache(maxsize=1 << 16)
def contract_part(
    v: int,
    level: int,
    m: int,
    t: int,
    decl: str,
    cap: bool,
    little: int,
    grand: int,
    rd: int,
    rf: int,
    take_tricks: bool,
) -> Part:
    """Everything but honours and procedural penalties, for the declaring side ``decl``.

    ``rd``/``rf``: revokes by the declaring side / the defenders; ``take_tricks``: the
    declarer's choice for the defenders' first revoke (Law 84(b)); ``cap``: Law 48 applies.
    """
    dfn = OTHER_SIDE[decl]
    need = 6 + level
    sheet = _Sheet()
    if rd and rf:
        # Law 89: both sides revoked: only honours, and 100 for each extra revoke.
        if rd > 1:
            sheet.add(dfn, "honour", REVOKE_POINTS * (rd - 1),
                      f"{_plural(rd - 1, 'extra revoke')} by the declaring side", "89")
        if rf > 1:
            sheet.add(decl, "honour", REVOKE_POINTS * (rf - 1),
                      f"{_plural(rf - 1, 'extra revoke')} by the defenders", "89")
    elif rd:
        # Law 84(a): the declaring side cannot score for tricks (nor slam, bonus, premium);
        # the defenders take 100, and their undertricks if the contract failed.
        sheet.add(dfn, "honour", REVOKE_POINTS, "revoke by the declaring side", "84a")
        if rd > 1:
            # Law 84(c): 100 for each further revoke by the same side.
            sheet.add(dfn, "honour", REVOKE_POINTS * (rd - 1),
                      f"{_plural(rd - 1, 'further revoke')} by the declaring side", "84c")
        if t < need:
            _undertricks(sheet, dfn, need - t, m, cap)
        _slam(sheet, dfn, 13 - t, little, grand)
    elif rf:
        # Law 84(b): the declarer takes 100 or three tricks for the first revoke.
        moved = 0
        if take_tricks:
            moved = min(3, 13 - t)  # Pinned: never more tricks than the defenders won
        else:
            sheet.add(decl, "honour", REVOKE_POINTS, "revoke by the defenders: declarer takes 100",
                      "84b")
        if rf > 1:
            sheet.add(decl, "honour", REVOKE_POINTS * (rf - 1),
                      f"{_plural(rf - 1, 'further revoke')} by the defenders", "84c")
        if t + moved >= need:
            _made(sheet, decl, v, m, t, t + moved, need)
        # The revoking defenders score no undertricks and no slam (Law 84, last paragraph);
        # transferred tricks never make a slam (Law 84(b)).
        _slam(sheet, decl, t, little, grand)
        _premium(sheet)
    else:
        if t >= need:
            _made(sheet, decl, v, m, t, t, need)
        else:
            _undertricks(sheet, dfn, need - t, m, cap)
        _slam(sheet, decl, t, little, grand)
        _slam(sheet, dfn, 13 - t, little, grand)
        _premium(sheet)
    return sheet.part()


_SUIT_HONOURS = {
    # (total, most in one hand) -> (multiple of the trick value, words); Law 3 table.
    (3, 1): (2, "simple honours"), (3, 2): (2, "simple honours"), (3, 3): (2, "simple honours"),
    (4, 2): (4, "4 honours divided"), (4, 3): (4, "4 honours divided"),
    (4, 4): (8, "4 honours in one hand"),
    (5, 3): (5, "5 honours divided"),
    (5, 4): (9, "4 honours in one hand, the 5th in partner's"),
    (5, 5): (10, "5 honours in one hand"),
}
_NT_HONOURS = {
    (3, 2): (30, "3 aces"), (3, 3): (30, "3 aces"),
    (4, 2): (40, "4 aces divided"), (4, 3): (40, "4 aces divided"),
    (4, 4): (100, "4 aces in one hand"),
}


def side_honours(a: int, b: int, v: int, no_trump: bool) -> tuple[int, str]:
    """Law 3: the honour score of a side whose two hands hold ``a`` and ``b`` honours
    (trump A K Q J 10 worth ``v`` a trick; aces at no trump). (0, "") for 2 or fewer."""
    total = a + b
    if total < 3:
        return 0, ""
    key = (total, max(a, b))
    if no_trump:
        return _NT_HONOURS[key]
    multiple, what = _SUIT_HONOURS[key]
    return multiple * v, what


@lru_cache(maxsize=4096)
def honour_part(v: int, no_trump: bool, honours: tuple[int, int, int, int]) -> Part:
    """Honours are scored by the side holding them, whatever happened (Law 3, Law 84),
    and never doubled (Law 53)."""
    n, e, s, w = honours
    sheet = _Sheet()
    for side, a, b in (("ns", n, s), ("ew", e, w)):
        points, what = side_honours(a, b, v, no_trump)
        sheet.add(side, "honour", points, what, "3")
    return sheet.part()


@lru_cache(maxsize=256)
def penalty_item(code: str, by: str) -> ScoreItem:
    """rules.md §3.7: the points go to the offender's adversaries' honour score."""
    rule = PENALTY_RULES[code]
    return ScoreItem(OTHER_SIDE[SIDE_OF_SEAT[by]], "honour", rule.points,
                     rule.what.format(by=by), rule.law)


_PASSED_OUT: Part = (0, 0, 0, 0, (), "")


def parts_of(
    board: int,
    c: Contract | None,
    tricks: int,
    honours: tuple[int, int, int, int],
    r: Revokes,
    penalties: tuple[Penalty, ...],
    rules: RuleSet,
) -> Part:
    """The two columns of each side, the items and their JSON, for the fields of a
    checked auction result (those of AuctionResult, in order)."""
    if c is None:
        # rules.md §3.8: a passed-out deal (English rule) scores nothing.
        part = _PASSED_OUT
    else:
        v = rules.trick_values[c.denomination]
        cp = contract_part(
            v, c.level, DOUBLING[c.doubled], tricks, SIDE_OF_SEAT[c.declarer],
            # Law 48: the dealer's one spade (2-point spades), not redoubled.
            rules.one_spade_cap and c.level == 1 and c.denomination == "S"
            and c.doubled != "XX" and c.declarer == dealer_for_board(board),
            rules.little_slam, rules.grand_slam,
            r.declaring, r.defending, r.first_penalty == "tricks",
        )
        hp = honour_part(v, c.denomination == "NT", honours)
        # Honours first, as in the example of interfaces.md §1.
        if not hp[4]:
            part = cp
        elif not cp[4]:
            part = hp
        else:
            part = (cp[0], cp[1] + hp[1], cp[2], cp[3] + hp[3], hp[4] + cp[4],
                    hp[5] + "," + cp[5])
    if penalties:
        nt, nh, et, eh, items, text = part
        extra = tuple(penalty_item(p.law, p.by) for p in penalties)
        for item in extra:
            if item.side == "ns":
                nh += item.points
            else:
                eh += item.points
        more = items_json(extra)
        part = (nt, nh, et, eh, items + extra, f"{text},{more}" if text else more)
    return part


def deal_parts(result: AuctionResult, rules: RuleSet) -> Part:
    """parts_of for an AuctionResult."""
    return parts_of(result.board, result.contract, result.tricks, result.honours,
                    result.revokes, result.penalties, rules)


# SideScores are immutable and few (two small ints), so equal ones are shared.
_side_score = lru_cache(maxsize=1 << 14)(SideScore)


def score_auction(result: AuctionResult, rules: RuleSet) -> DealScore:
    """The deal score of a checked auction result under ``rules``."""
    nt, nh, et, eh, items, _ = deal_parts(result, rules)
    return DealScore(_side_score(nt, nh), _side_score(et, eh), items)


_DEAL_JSON = (
    '{"ns":{"trick_score":%d,"honour_score":%d,"total":%d},'
    '"ew":{"trick_score":%d,"honour_score":%d,"total":%d},"net_ns":%d,"items":[%s]}'
)


def part_json(part: Part) -> str:
    """A deal score as compact JSON text, from its parts."""
    nt, nh, et, eh, _, text = part
    return _DEAL_JSON % (nt, nh, nt + nh, et, eh, et + eh, nt + nh - et - eh, text)
