"""Properties that hold for every deal (hypothesis)."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import (
    RULE_SET_NAMES,
    get_rules,
    honours_from_deal,
    parse_deal,
    parse_result,
    score,
    score_result,
)
from scoring.engine.auction import part_json, parts_of
from scoring.engine.deal import RANKS, SUITS
from scoring.engine.validate import auction_values
from scoring.engine.whist import whist_json

from .strategies import AUCTION_RULES, auction_results, whist_results

SETTINGS = settings(max_examples=300, deadline=None)
ROTATE = {"N": "E", "E": "S", "S": "W", "W": "N"}


def _columns_add_up(ds) -> None:
    for side, sc in (("ns", ds.ns), ("ew", ds.ew)):
        for column, total in (("trick", sc.trick_score), ("honour", sc.honour_score)):
            assert sum(i.points for i in ds.items
                       if i.side == side and i.column == column) == total
    assert ds.ns.total - ds.ew.total == ds.net_ns


def _honour_items(ds):
    return [i for i in ds.items if i.law == "3" and "slam" not in i.what]


@SETTINGS
@given(st.sampled_from(AUCTION_RULES).flatmap(lambda r: st.tuples(st.just(r),
                                                                    auction_results(r))))
def test_items_add_up_to_the_totals(case):
    rules, data = case
    ds = score(data, get_rules(rules))
    _columns_add_up(ds)
    assert all(i.points > 0 for i in ds.items)
    assert all(i.side in ("ns", "ew") and i.column in ("trick", "honour") for i in ds.items)
    assert all(i.side == ("ns" if data["contract"]["declarer"] in "NS" else "ew")
               for i in ds.items if i.column == "trick")


@SETTINGS
@given(auction_results(), st.sampled_from(["", "X", "XX"]), st.integers(0, 13))
def test_law_53_honours_never_depend_on_doubling_or_the_result(data, doubled, tricks):
    rules = get_rules()
    other = json.loads(json.dumps(data))
    other["contract"]["doubled"] = doubled
    other["tricks"] = tricks
    other.pop("revokes", None)
    assert _honour_items(score(data, rules)) == _honour_items(score(other, rules))


@SETTINGS
@given(st.sampled_from(AUCTION_RULES).flatmap(lambda r: st.tuples(st.just(r),
                                                                    auction_results(r))))
def test_net_ns_is_minus_net_ew_when_the_table_turns(case):
    """Turning every seat one place clockwise (and the dealer with it) swaps the sides."""
    rules_name, data = case
    rules = get_rules(rules_name)
    turned = json.loads(json.dumps(data))
    turned["board"] = data["board"] + 1
    turned["contract"]["declarer"] = ROTATE[data["contract"]["declarer"]]
    turned["honours"] = {ROTATE[s]: n for s, n in data["honours"].items()}
    for p in turned.get("penalties", []):
        p["by"] = ROTATE[p["by"]]
    a = score(data, rules)
    b = score(turned, rules)
    assert (b.ns, b.ew) == (a.ew, a.ns)
    assert b.net_ns == -a.net_ns


@SETTINGS
@given(auction_results(penalties=False))
def test_law_47a_doubling_a_failed_contract_never_lowers_the_defenders_points(data):
    rules = get_rules()
    level = data["contract"]["level"]
    data["tricks"] = min(data["tricks"], 5 + level)  # failed in play
    totals = []
    for doubled in ("", "X", "XX"):
        data["contract"]["doubled"] = doubled
        ds = score(data, rules)
        totals.append((ds.ew if data["contract"]["declarer"] in "NS" else ds.ns).total)
    assert totals[0] <= totals[1] <= totals[2]


@SETTINGS
@given(st.sampled_from(AUCTION_RULES).flatmap(lambda r: st.tuples(st.just(r),
                                                                    auction_results(r))))
def test_the_cli_text_is_the_deal_score(case):
    rules_name, data = case
    rules = get_rules(rules_name)
    result = parse_result(data, rules)
    expected = score_result(result, rules).to_dict()
    # The command's own path: the checked fields straight to the scorer.
    assert json.loads(part_json(parts_of(*auction_values(data, rules), rules))) == expected


@SETTINGS
@given(whist_results())
def test_whist_tricks_add_to_13_and_items_add_up(data):
    rules = get_rules("duplicate-whist")
    ds = score(data, rules)
    assert ds.ns.trick_score + ds.ew.trick_score == 13
    _columns_add_up(ds)
    assert json.loads(whist_json(parse_result(data, rules))) == ds.to_dict()


@st.composite
def deals(draw) -> str:
    cards = [s + r for s in SUITS for r in RANKS]
    cards = draw(st.permutations(cards))
    hands = []
    for i in range(4):
        hand = cards[13 * i: 13 * i + 13]
        hands.append(".".join("".join(r for r in RANKS if s + r in hand) for s in SUITS))
    return draw(st.sampled_from("NESW")) + ":" + " ".join(hands)


@SETTINGS
@given(deals(), st.sampled_from(["S", "C", "D", "H", "RS", "NT"]))
def test_law_3_honours_from_any_deal(deal, denomination):
    counts = honours_from_deal(deal, denomination)
    assert sum(counts.values()) == (4 if denomination == "NT" else 5)
    assert sum(len(c) for h in parse_deal(deal).values() for c in h.values()) == 52
    data = {"board": 1, "contract": {"level": 1, "denomination": denomination,
                                     "declarer": "N"}, "tricks": 7}
    parsed = parse_result(data, get_rules(), deal=deal)
    assert parsed.honours == tuple(counts[s] for s in "NESW")
    # The same honours given by hand agree with the hand record.
    assert parse_result(data | {"honours": counts}, get_rules(), deal=deal) == parsed


def test_rule_set_names_are_all_scored():
    assert set(RULE_SET_NAMES) == {*AUCTION_RULES, "duplicate-whist"}
