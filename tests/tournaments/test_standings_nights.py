"""Standings against small nights checked by hand."""

import pytest

from tests.factories import make_pairs_event
from tournaments import services
from tournaments.selectors import scorecard, traveller
from tournaments.services import Actor
from tournaments.standings import standings

IMPORT = Actor.system("import")


def rows(data, direction):
    ranking = next(r for r in data["rankings"] if r["direction"] == direction)
    return {row["pair"]: (row["place"], row["score"], row["exact"], row["boards"])
            for row in ranking["rows"]}


@pytest.mark.django_db
def test_whist_night_compares_tricks():
    """Rules §8: at whist a pair's board score is its side's tricks; Whist Law 85 and 75:
    one side's revokes each move three tricks; both sides' cancel each other."""
    event = make_pairs_event(pairs=6, boards=2, rules="duplicate-whist")
    for (ns, ew), tricks in zip([(1, 4), (2, 5), (3, 6)], [8, 7, 6], strict=True):
        services.result_record(event=event, board=1, ns=ns, ew=ew, actor=IMPORT,
                               data={"tricks_ns": tricks})
    # Board 2: 9, 7 and 9 with one E-W revoke (E-W won 4: 3 move to N-S, who score 12).
    services.result_record(event=event, board=2, ns=1, ew=4, data={"tricks_ns": 9},
                           actor=IMPORT)
    services.result_record(event=event, board=2, ns=2, ew=5, data={"tricks_ns": 7},
                           actor=IMPORT)
    result, _ = services.result_record(event=event, board=2, ns=3, ew=6, actor=IMPORT,
                                       data={"tricks_ns": 9, "revokes": {"NS": 0, "EW": 1}})
    assert (result.ns_score, result.ew_score) == (12, 1)
    data = standings(event)
    # Board 1: N-S average 7: +1, 0, -1. Board 2: N-S average 28/3: -1/3, -7/3, +8/3.
    assert rows(data, "NS") == {
        3: ("1", 2, "5/3", 2), 1: ("2", 1, "2/3", 2), 2: ("3", -2, "-7/3", 2)}
    # E-W: board 1 tricks 5, 6, 7 (avg 6); board 2 tricks 4, 6, 1 (avg 11/3).
    assert rows(data, "EW") == {
        5: ("1", 2, "7/3", 2), 4: ("2", -1, "-2/3", 2), 6: ("3", -2, "-5/3", 2)}


@pytest.mark.django_db
def test_howell_night_one_ranking():
    """Pairs change direction, so there is one ranking (rules.md §4.5)."""
    event = make_pairs_event(pairs=4, boards=3)
    one_nt = {"contract": {"level": 1, "denomination": "NT", "declarer": "N"}}
    plays = [  # board, ns, ew, tricks by N
        (1, 1, 2, 7), (1, 3, 4, 8),
        (2, 2, 3, 7), (2, 4, 1, 5),
        (3, 1, 3, 9), (3, 4, 2, 7),
    ]
    for board, ns, ew, tricks in plays:
        services.result_record(event=event, board=board, ns=ns, ew=ew, actor=IMPORT,
                               data={**one_nt, "tricks": tricks})
    # Net N-S: 1NT+0 = 10; +1 = 20; 1NT-2 = -100; +2 = 30 + 125 = 155.
    # Board 1: 10 and 20, avg 15 -> pair1 -5, pair3 +5, pair2 +5, pair4 -5.
    # Board 2: 10 and -100, avg -45 -> pair2 +55, pair4 -55, pair3 -55, pair1 +55.
    # Board 3: 155 and 10, avg 165/2 -> pair1 +145/2, pair4 -145/2, pair3 -145/2, pair2 +145/2.
    data = standings(event)
    assert [r["direction"] for r in data["rankings"]] == ["ALL"]
    # Pair 1: -5 + 55 + 145/2 = 245/2; pair 2: 5 + 55 + 145/2 = 265/2; 3 and 4 the negatives.
    assert rows(data, "ALL") == {
        2: ("1", 133, "265/2", 3),
        1: ("2", 123, "245/2", 3),
        3: ("3", -123, "-245/2", 3),
        4: ("4", -133, "-265/2", 3),
    }
    card = scorecard(event, 1)
    assert [r["plus_minus"] for r in card["rows"]] == ["-5", "55", "145/2"]
    assert card["rows"][-1]["running"] == "245/2" and card["shown"] == 123
    board = traveller(event, 3)
    assert board["average"] == {"ns": "165/2", "ew": "-165/2"}
    assert [r["ns_plus_minus"] for r in board["rows"]] == ["145/2", "-145/2"]


@pytest.mark.django_db
def test_matchpoints_percentages():
    event = make_pairs_event(pairs=6, boards=1, method="matchpoints")
    one_nt = {"contract": {"level": 1, "denomination": "NT", "declarer": "N"}}
    for (ns, ew), tricks in zip([(1, 4), (2, 5), (3, 6)], [9, 7, 7], strict=True):
        services.result_record(event=event, board=1, ns=ns, ew=ew, actor=IMPORT,
                               data={**one_nt, "tricks": tricks})
    data = standings(event)
    # Top 4: pair 1 beats both (4 = 100 %), pairs 2 and 3 tie each other (1 = 25 %).
    assert rows(data, "NS") == {1: ("1", 100.0, "100", 1), 2: ("2=", 25.0, "25", 1),
                                3: ("2=", 25.0, "25", 1)}
