"""The scoring engine: pure Python, no Django (rules: docs/rules.md; CLI: interfaces.md §1).

Public API (all re-exported here)::

    # rule sets (rules.py)
    RULE_SET_NAMES = ("american-1913", "english", "duplicate-whist")
    RuleSet                    frozen: name, is_whist, royal_spades, dealer_may_pass,
                               little_slam, grand_slam, one_spade_cap, trick_values;
                               .denominations, .trick_value(denomination)
    get_rules(name: str = "american-1913") -> RuleSet        ValueError if unknown
    dealer_for_board(board: int) -> str                      "N" | "E" | "S" | "W"
    partner(seat: str) -> str                                "N" <-> "S", "E" <-> "W"
    SEATS, SIDES, DENOMINATIONS, DOUBLING, RULINGS, NO_COMPARISON, ADJUST_GRADES,
    PENALTY_CODES, RULE_SET_NAMES
    SIDE_OF_SEAT, OTHER_SIDE, SIDE_SEATS                     "N" -> "ns", "ns" -> "ew",
                                                             "ns" -> ("N", "S")
    PENALTY_RULES                                            code -> PenaltyRule(points, law, what)
    SUITS                                                    ("S", "H", "D", "C"), a hand's order
    RANKS                                                    "AKQJT98765432", a suit's order

    # values (model.py)
    Contract(level, denomination, declarer, doubled="")
    Revokes(declaring=0, defending=0, first_penalty=None)   "points" | "tricks"
    Penalty(law, by)
    AuctionResult(board, contract: Contract | None, tricks, honours=(0, 0, 0, 0),
                  revokes=Revokes(), penalties=())          honours for N, E, S, W
    WhistResult(board, tricks_ns, revokes_ns=0, revokes_ew=0)
    SideScore(trick_score, honour_score)                    .total, .to_dict()
    ScoreItem(side, column, points, what, law)              .to_dict()
    DealScore(ns, ew, items)                                .net_ns, .to_dict()
    class ResultError(ValueError)                           .field, .message

    # one deal
    parse_result(data, rules, *, deal: str | None = None, board: int | None = None,
                 honours_complete: bool = False, strict: bool = False)
        -> AuctionResult | WhistResult                      ResultError on bad data
    score_result(result, rules) -> DealScore
    score(data, rules, **kw) -> DealScore                   parse_result + score_result
    board_scores(deal_score, rules) -> tuple[int, int]      (N-S pair, E-W pair)

    # results worth a second look before saving (plausible.py)
    Unusual(code, field, message)                           .to_dict()
    unusual(result, deal_score) -> tuple[Unusual, ...]      () when nothing is unusual

    # deals (deal.py)
    parse_deal(deal: str, *, allow_unknown=False, as_given=False)
        -> dict[str, dict[str, str]]                        DealError on a bad deal
    deal_from_north(hands) -> str                           "N:...", the cards in order
    honours_from_deal(deal: str, denomination: str) -> dict[str, int]

    # comparisons (compare.py)
    Entry(ns, ew, ns_score=None, ew_score=None, ruling=None, offending=None)
    PairTotal(exact, boards, top=None, percentage=None)
    plus_minus_board(entries) -> list[tuple[Fraction, Fraction] | None]
    plus_minus_scaled(entries) -> (d, list[tuple[int, int] | None])   the same, times d
    matchpoints_board(entries, expected=None) -> list[tuple[Fraction, Fraction] | None]
    matchpoints_scaled(entries, expected=None) -> (d, list[tuple[int, int] | None])
    matchpoint_top(entries, expected=None) -> int
    neuberg(mp, actual, expected) -> Fraction
    pair_contest(boards, method="plus-minus", *, expected=None,
                 not_played_scoring="neuberg") -> dict[pair, PairTotal]
    own_average_total(matchpoints, played, not_played, board_top) -> (Fraction, int)
    NOT_PLAYED_SCORINGS                                      ("neuberg", "own-average")
    NOT_PLAYED                                               "not-played", the ruling
    ranking_directions(boards) -> {"NS": [pairs], "EW": [pairs]} or {"ALL": [pairs]}
    shown(value) -> int              nearest whole, half away from zero
    shown_half_up(value) -> int      nearest whole, half up (team totals)
    rank(scores) -> list[tuple[key, str]]                   "1", "2=", "2=", "4"
    fraction_str(value) -> str                              "190", "-121/3"
    TeamDeal(ns_pair, ew_pair, ns_total=None, ew_total=None, ruling=None,
             offending=None, board=None)
    TeamMatch(teams, exact, scores, winner, by_fraction, added)
    team_match(deals, team_of) -> TeamMatch
    team_awards(deals) -> [(N-S won, E-W won) or None for a deal left out]
    TeamRow(place, team, matches_won, points, exact_points)
    rank_teams(matches) -> list[TeamRow]

    # rubbers (rubber.py; rules.md §10, interfaces.md §5)
    RUBBER_GAMES = ("auction", "three-hand", "whist")
    RUBBER_RULE_SETS = ("american-1913", "english")
    PLAYERS = ("A", "B", "C")                                Three-Hand Auction, rule (1)
    class RubberError(ResultError)                          .index (the deal), .field, .message
    score_rubber(game, deals, rules="american-1913", *, strict=False)
        -> AuctionRubber | ThreeHandRubber | WhistRubber    RubberError on a bad deal
    auction_rubber(deals, rules="american-1913") -> AuctionRubber
    three_hand_rubber(deals, rules="american-1913") -> ThreeHandRubber
    whist_rubber(deals) -> WhistRubber
    parse_auction_deal(data, rules) -> (dealer, AuctionResult)    ResultError on bad data
    score_auction_deal(result, rules) -> DealScore          rules.md §3 less the premium
    without_premium(deal_score) -> DealScore
    parse_three_hand_deal(data, rules) -> ThreeHandDeal
    score_three_hand_deal(deal, rules) -> ThreeHandScore    .players {A,B,C: SideScore}, .items
    parse_whist_deal(data) -> WhistDeal
    score_whist_deal(deal, before={"NS": n, "EW": n}) -> WhistDealScore
    Game(winner, deals, points, value=None); Bonus(to, points, what, law, deal)
    AuctionRubber(games, winner, complete, rubber_bonus, totals, net, deals, bonuses,
                  part_scores)                              .to_dict(): interfaces.md §5
    ThreeHandRubber(games, winner, complete, totals, settlement, net, deals, bonuses,
                    part_scores)                            .to_dict()
    WhistRubber(games, winner, complete, rubber_points, net, deals, score)   .to_dict()
    ThreeHandDeal, PlayerItem, ThreeHandScore, WhistDeal, WhistItem, WhistDealScore

    # a party night (party.py: progressive play; the module is ``engine.party``)
    PARTY_GAMES = ("auction", "three-hand", "whist")
    score_party_deal(game, data, rules="american-1913")     one deal scored alone
    party_progression(game, seating, points) -> next round's seating, table by table
    party_tally(game, points) -> {column: tally}            a table's tallies sum to 0

Scores are ints, comparisons exact ``Fraction``s, never floats. Decisions the rules
leave open are listed in docs/engine.md.
"""

from .compare import (
    MATCHPOINTS,
    NOT_PLAYED,
    NOT_PLAYED_NEUBERG,
    NOT_PLAYED_OWN_AVERAGE,
    NOT_PLAYED_SCORINGS,
    PAIR_METHODS,
    PLUS_MINUS,
    Entry,
    PairTotal,
    TeamDeal,
    TeamMatch,
    TeamRow,
    fraction_str,
    matchpoint_top,
    matchpoints_board,
    matchpoints_scaled,
    neuberg,
    own_average_total,
    pair_contest,
    plus_minus_board,
    plus_minus_scaled,
    rank,
    rank_teams,
    ranking_directions,
    shown,
    shown_half_up,
    team_awards,
    team_match,
)
from .deal import RANKS, SUITS, DealError, deal_from_north, honours_from_deal, parse_deal
from .model import (
    AuctionResult,
    Contract,
    DealScore,
    Penalty,
    ResultError,
    Revokes,
    ScoreItem,
    SideScore,
    WhistResult,
)
from .party import PARTY_GAMES, score_party_deal
from .party import progression as party_progression
from .party import tally as party_tally
from .plausible import Unusual, unusual
from .rubber import (
    PLAYERS,
    RUBBER_GAMES,
    RUBBER_RULE_SETS,
    AuctionRubber,
    Bonus,
    Game,
    PlayerItem,
    RubberError,
    ThreeHandDeal,
    ThreeHandRubber,
    ThreeHandScore,
    WhistDeal,
    WhistDealScore,
    WhistItem,
    WhistRubber,
    auction_rubber,
    parse_auction_deal,
    parse_three_hand_deal,
    parse_whist_deal,
    score_auction_deal,
    score_rubber,
    score_three_hand_deal,
    score_whist_deal,
    three_hand_rubber,
    whist_rubber,
    without_premium,
)
from .rules import (
    ADJUST_GRADES,
    DENOMINATIONS,
    DOUBLING,
    NO_COMPARISON,
    OTHER_SIDE,
    PENALTY_CODES,
    PENALTY_RULES,
    RULE_SET_NAMES,
    RULINGS,
    SEATS,
    SIDE_OF_SEAT,
    SIDE_SEATS,
    SIDES,
    RuleSet,
    dealer_for_board,
    get_rules,
    partner,
)
from .score import board_scores, score, score_result
from .validate import parse_result

__all__ = [
    "PARTY_GAMES",
    "party_progression",
    "party_tally",
    "score_party_deal",
    "DENOMINATIONS",
    "DOUBLING",
    "MATCHPOINTS",
    "NOT_PLAYED",
    "NOT_PLAYED_NEUBERG",
    "NOT_PLAYED_OWN_AVERAGE",
    "NOT_PLAYED_SCORINGS",
    "PAIR_METHODS",
    "PENALTY_CODES",
    "PENALTY_RULES",
    "OTHER_SIDE",
    "PLUS_MINUS",
    "RANKS",
    "RULE_SET_NAMES",
    "RULINGS",
    "NO_COMPARISON",
    "ADJUST_GRADES",
    "SEATS",
    "SIDES",
    "SIDE_OF_SEAT",
    "SIDE_SEATS",
    "SUITS",
    "AuctionResult",
    "Contract",
    "DealError",
    "DealScore",
    "Entry",
    "PairTotal",
    "Penalty",
    "ResultError",
    "Revokes",
    "RuleSet",
    "ScoreItem",
    "SideScore",
    "TeamDeal",
    "TeamMatch",
    "TeamRow",
    "Unusual",
    "WhistResult",
    "board_scores",
    "deal_from_north",
    "dealer_for_board",
    "fraction_str",
    "get_rules",
    "honours_from_deal",
    "matchpoint_top",
    "matchpoints_board",
    "matchpoints_scaled",
    "neuberg",
    "own_average_total",
    "pair_contest",
    "parse_deal",
    "parse_result",
    "partner",
    "plus_minus_board",
    "plus_minus_scaled",
    "rank",
    "rank_teams",
    "ranking_directions",
    "score",
    "score_result",
    "shown",
    "shown_half_up",
    "team_awards",
    "team_match",
    "unusual",
    "PLAYERS",
    "RUBBER_GAMES",
    "RUBBER_RULE_SETS",
    "AuctionRubber",
    "Bonus",
    "Game",
    "PlayerItem",
    "RubberError",
    "ThreeHandDeal",
    "ThreeHandRubber",
    "ThreeHandScore",
    "WhistDeal",
    "WhistDealScore",
    "WhistItem",
    "WhistRubber",
    "auction_rubber",
    "parse_auction_deal",
    "parse_three_hand_deal",
    "parse_whist_deal",
    "score_auction_deal",
    "score_rubber",
    "score_three_hand_deal",
    "score_whist_deal",
    "three_hand_rubber",
    "whist_rubber",
    "without_premium",
]
