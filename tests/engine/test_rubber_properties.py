"""Properties of every rubber (hypothesis; rules.md §10)."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import (
    PLAYERS,
    RubberError,
    auction_rubber,
    three_hand_rubber,
    whist_rubber,
)

from .rubber_strategies import auction_deals, three_hand_deals, whist_deals
from .strategies import AUCTION_RULES

SETTINGS = settings(max_examples=150, deadline=None)


def _played(score, deals):
    """The rubber of the longest prefix of ``deals`` that is not past its end, checking
    on the way that it ends exactly when someone has won two games."""
    previous = score([])
    for n in range(len(deals) + 1):
        try:
            rubber = score(deals[:n])
        except RubberError as exc:
            # Only the deal right after the end of the rubber is refused.
            assert exc.index == n - 1 and exc.field == "" and previous.complete
            return previous
        wins = Counter(g.winner for g in rubber.games)
        assert rubber.complete == (max(wins.values(), default=0) == 2)
        assert rubber.complete == (rubber.winner is not None)
        if rubber.complete:
            assert wins[rubber.winner] == 2
        previous = rubber
    return previous


def _games_partition(rubber, n: int) -> None:
    """The games hold consecutive deals, from the first, each deal at most once."""
    seen = [i for g in rubber.games for i in g.deals]
    assert seen == list(range(len(seen))) and len(seen) <= n


@SETTINGS
@given(st.sampled_from(AUCTION_RULES).flatmap(
    lambda r: st.tuples(st.just(r), st.lists(auction_deals(r), max_size=10))))
def test_auction_rubber_ends_at_two_games_and_totals_add_up(case):
    rules, deals = case
    r = _played(lambda d: auction_rubber(d, rules), deals)
    _games_partition(r, len(r.deals))
    assert len(r.games) <= 3
    for side, key in (("NS", "ns"), ("EW", "ew")):
        deal_points = sum(getattr(d, key).total for d in r.deals)
        item_points = sum(i.points for d in r.deals for i in d.items if i.side == key)
        bonus = sum(b.points for b in r.bonuses if b.to == side)
        assert deal_points == item_points
        assert r.totals[side] == deal_points + bonus == deal_points + r.rubber_bonus[side]
    assert r.net["NS"] == r.totals["NS"] - r.totals["EW"] == -r.net["EW"]
    assert all(i.law != "Duplicate A" for d in r.deals for i in d.items)
    for game in r.games:  # the winner reached 30 for tricks; the other did not
        assert game.points[game.winner] >= 30
        assert min(game.points.values()) < 30


@SETTINGS
@given(st.sampled_from(AUCTION_RULES).flatmap(
    lambda r: st.tuples(st.just(r), st.lists(three_hand_deals(r), max_size=12))))
def test_three_hand_rubber_ends_at_two_games_and_settles_to_zero(case):
    rules, deals = case
    r = _played(lambda d: three_hand_rubber(d, rules), deals)
    _games_partition(r, len(r.deals))
    assert len(r.games) <= 4  # rule 11: two, three or four games
    for player in PLAYERS:
        deal_points = sum(d.players[player].total for d in r.deals)
        item_points = sum(i.points for d in r.deals for i in d.items if i.player == player)
        bonus = sum(b.points for b in r.bonuses if b.to == player)
        assert deal_points == item_points
        assert r.totals[player] == deal_points + bonus
    # Rule 14: 125 a game, and 250 for the rubber.
    assert sum(b.points for b in r.bonuses) == 125 * len(r.games) + 250 * r.complete
    # Rule 15: what one wins another loses.
    assert sum(r.net.values()) == 0
    s = r.settlement
    assert s["A-B"] + s["B-C"] == s["A-C"]
    assert r.net["A"] == s["A-B"] + s["A-C"]


@SETTINGS
@given(st.lists(whist_deals(), max_size=20))
def test_whist_no_deal_scores_past_five_and_the_rubber_ends_at_two_games(deals):
    r = _played(whist_rubber, deals)
    _games_partition(r, len(r.deals))
    before = {"NS": 0, "EW": 0}
    for index, ds in enumerate(r.deals):
        assert all(0 <= ds.score_after[s] <= 5 for s in ("NS", "EW"))
        assert {s: before[s] + ds.points[s] for s in before} == ds.score_after
        for side in ("NS", "EW"):
            assert sum(i.points for i in ds.items if i.side == side) == ds.points[side]
        revoked = deals[index].get("revokes", {})
        for side in ("NS", "EW"):
            if revoked.get(side):  # Law 86: it cannot win the game on that deal
                assert ds.score_after[side] <= 4 and ds.game_won_by != side
        if ds.game_won_by:
            assert ds.score_after[ds.game_won_by] == 5
            before = {"NS": 0, "EW": 0}
        else:
            assert max(ds.score_after.values()) <= 4
            before = dict(ds.score_after)
    for game in r.games:
        losers = game.points["EW" if game.winner == "NS" else "NS"]
        assert game.points[game.winner] == 5 and losers <= 4
        assert game.value == (3 if losers == 0 else 2 if losers <= 2 else 1)  # Law 53
    values = {s: sum(g.value for g in r.games if g.winner == s) for s in ("NS", "EW")}
    assert r.net["NS"] == values["NS"] - values["EW"] + r.rubber_points["NS"] \
        - r.rubber_points["EW"]
    assert r.net["EW"] == -r.net["NS"]
