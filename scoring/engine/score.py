"""One deal, any rule set: the entry points that score a checked result.

Terms:
    deal score   both sides' trick and honour scores with their items (DealScore).
    board score  the number a pair is compared on (rules.md §4, §8): at auction the
                 side's net (N–S: net NS; E–W: minus net NS); at whist the tricks its
                 side won.
"""

from __future__ import annotations

from .auction import score_auction
from .model import AuctionResult, DealScore, WhistResult
from .rules import RuleSet
from .validate import parse_result
from .whist import score_whist


def score_result(result: AuctionResult | WhistResult, rules: RuleSet) -> DealScore:
    """The deal score of a result already checked by parse_result."""
    if type(result) is WhistResult:
        if not rules.is_whist:
            raise ValueError("a duplicate-whist result needs the duplicate-whist rules")
        return score_whist(result)
    if rules.is_whist:
        raise ValueError("an auction result cannot be scored under the duplicate-whist rules")
    return score_auction(result, rules)  # type: ignore[arg-type]


def score(data: object, rules: RuleSet, **kw: object) -> DealScore:
    """parse_result(data, rules, **kw) then score_result: ResultError on bad data."""
    return score_result(parse_result(data, rules, **kw), rules)  # type: ignore[arg-type]


def board_scores(deal_score: DealScore, rules: RuleSet) -> tuple[int, int]:
    """The board scores of the N–S pair and of the E–W pair (rules.md §4, §8)."""
    if rules.is_whist:
        return deal_score.ns.trick_score, deal_score.ew.trick_score
    net = deal_score.net_ns
    return net, -net
