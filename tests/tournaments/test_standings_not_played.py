"""The standings JSON for a board not played at a table, in each setting (docs/engine.md
items 24-25; interfaces.md §3's shape kept, "not_played" added where a pair has one)."""

import pytest

from tests.factories import DirectorFactory, make_pairs_event
from tournaments import services, standings
from tournaments.models import Event, Pair, Team
from tournaments.services import Actor


def _contract(tricks):
    return {"contract": {"level": 1, "denomination": "NT", "declarer": "N"}, "tricks": tricks}


def _night(not_played_scoring, method="matchpoints"):
    """Three tables (pairs 1-3 N-S against 4-6 E-W), three boards; board 2 not played
    at table 3. N-S: board 1 9, 8, 7 tricks; board 2 9, 8; board 3 7, 8, 9."""
    event = make_pairs_event(pairs=6, boards=3, method=method,
                             not_played_scoring=not_played_scoring)
    importer = Actor.system("import")
    director = Actor.director(DirectorFactory())
    tricks = {1: (9, 8, 7), 2: (9, 8, None), 3: (7, 8, 9)}
    for board, row in tricks.items():
        for table, made in enumerate(row, start=1):
            if made is None:
                services.ruling_award(event=event, board=board, ns=table, ew=table + 3,
                                      kind="not-played", actor=director,
                                      reason="no time left to play it")
            else:
                services.result_record(event=event, board=board, ns=table, ew=table + 3,
                                       data=_contract(made), actor=importer)
    return Event.objects.get(pk=event.pk)


def _rows(event):
    data = standings.standings(event)
    return {row["pair"]: row for ranking in data["rankings"] for row in ranking["rows"]}


@pytest.mark.django_db
def test_neuberg_scores_the_pair_over_the_boards_it_played():
    rows = _rows(_night("neuberg"))
    # Pair 3: board 1 lowest (0), board 3 highest (4): 4 of a top 8, 2 boards played.
    assert rows[3] == {"place": rows[3]["place"], "pair": 3, "names": rows[3]["names"],
                       "score": 50.0, "exact": "50", "matchpoints": "4", "top": 8,
                       "boards": 2, "not_played": 1, "members": [None, None]}
    # Pair 1 played all three: board 2 factored (Neuberg) from 2 results to 3.
    assert rows[1]["boards"] == 3 and rows[1]["top"] == 12
    assert rows[1]["matchpoints"] == "15/2" and "not_played" not in rows[1]


@pytest.mark.django_db
def test_own_average_credits_the_pair_its_average_on_the_boards_it_did_not_play():
    rows = _rows(_night("own-average"))
    # Pair 3 averaged 2 of 4: credited 2 on board 2; 6 of 12 over its session of three
    # boards, the same 50 %; "boards" still counts the two it played.
    assert rows[3]["matchpoints"] == "6" and rows[3]["top"] == 12
    assert rows[3]["score"] == 50.0 and rows[3]["boards"] == 2 and rows[3]["not_played"] == 1
    assert rows[6]["matchpoints"] == "6" and rows[6]["top"] == 12
    # The others are scored as under Neuberg.
    assert rows[1]["matchpoints"] == "15/2" and rows[1]["top"] == 12


@pytest.mark.django_db
def test_plus_minus_shows_the_boards_played():
    rows = _rows(_night("own-average", method="plus-minus"))
    assert rows[3]["boards"] == 2 and rows[3]["not_played"] == 1
    assert "top" not in rows[3] and "matchpoints" not in rows[3]
    assert rows[1]["boards"] == 3


@pytest.mark.django_db
def test_changing_the_setting_changes_the_standings():
    event = _night("neuberg")
    assert _rows(event)[3]["top"] == 8
    Event.objects.filter(pk=event.pk).update(not_played_scoring="own-average")
    assert _rows(Event.objects.get(pk=event.pk))[3]["top"] == 12


@pytest.mark.django_db
def test_a_team_match_leaves_a_deal_not_played_out_at_both_tables():
    # Duplicate Law G: each deal is played once at each table.
    event = make_pairs_event(pairs=4, boards=2, kind="teams", method="total-points")
    home, away = Team.objects.create(event=event, name="Home"), Team.objects.create(
        event=event, name="Away")
    Pair.objects.filter(event=event, number__in=(1, 4)).update(team=home)
    Pair.objects.filter(event=event, number__in=(2, 3)).update(team=away)
    importer = Actor.system("import")
    director = Actor.director(DirectorFactory())
    services.result_record(event=event, board=1, ns=1, ew=2, data=_contract(10),
                           actor=importer)
    services.ruling_award(event=event, board=1, ns=3, ew=4, kind="not-played",
                          actor=director, reason="the board was not played at table 2")
    services.result_record(event=event, board=2, ns=1, ew=2, data=_contract(7),
                           actor=importer)
    services.result_record(event=event, board=2, ns=3, ew=4, data=_contract(7),
                           actor=importer)
    match = standings.standings(event)["matches"][0]
    # Board 2 alone: Home's N-S made 1NT at table 1 and Away's
    # N-S did the same at table 2: a tie. Board 1 (Home +3 odd) is left out.
    assert match["exact"][0] == match["exact"][1] and match["winner"] is None
