"""The sample nights of ../shared/examples against their standings, computed independently."""

import json
from collections import defaultdict
from pathlib import Path

from scoring.engine import (
    Entry,
    TeamDeal,
    board_scores,
    fraction_str,
    get_rules,
    pair_contest,
    rank,
    rank_teams,
    ranking_directions,
    score,
    shown,
    team_match,
)

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "examples"
# The shared folder sits beside the repository; tests/nights keeps copies of the nights,
# so these run in any checkout.
EXAMPLES = SHARED if SHARED.is_dir() else Path(__file__).resolve().parents[1] / "nights" / "data"


def load(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text())


def night_entries(night: dict) -> dict[int, list[Entry]]:
    """Score every result (honours checked against the deal) and build the Entries."""
    rules = get_rules(night["event"]["rules"])
    deals = {b["number"]: b.get("deal") for b in night["boards"]}
    boards: dict[int, list[Entry]] = defaultdict(list)
    for row in night["results"]:
        board = row["board"]
        if "result" in row:
            ds = score(row["result"], rules, board=board, deal=deals[board])
            ns, ew = board_scores(ds, rules)
            boards[board].append(Entry(row["ns"], row["ew"], ns, ew))
        else:
            ruling = row["ruling"]
            boards[board].append(Entry(row["ns"], row["ew"], ruling=ruling["kind"],
                                       offending=ruling.get("offending")))
    return boards


def test_duplicate_law_h_mitchell_night_standings():
    night = load("night-mitchell.json")
    expected = load("night-mitchell.standings.json")
    boards = night_entries(night)
    totals = pair_contest(boards, night["event"]["method"])
    directions = ranking_directions(boards)  # a Mitchell: N-S and E-W rankings
    assert sorted(directions) == sorted(r["direction"] for r in expected["rankings"])
    for ranking in expected["rankings"]:
        pairs = directions[ranking["direction"]]
        places = dict(rank({p: totals[p].exact for p in pairs}))
        got = [
            {"place": places[p], "pair": p, "score": shown(totals[p].exact),
             "exact": fraction_str(totals[p].exact), "boards": totals[p].boards}
            for p, _ in rank({p: totals[p].exact for p in pairs})
        ]
        want = [{k: row[k] for k in ("place", "pair", "score", "exact", "boards")}
                for row in ranking["rows"]]
        assert got == want, ranking["direction"]


def test_duplicate_law_b3_mitchell_night_has_rulings():
    boards = night_entries(load("night-mitchell.json"))
    rulings = [e for entries in boards.values() for e in entries if e.ruling]
    assert {(e.ruling, e.offending) for e in rulings} == {("average", None), ("fouled", "ew")}


def test_duplicate_law_g_team_night_standings():
    night = load("night-teams.json")
    expected = load("night-teams.standings.json")
    rules = get_rules(night["event"]["rules"])
    team_of = {p["number"]: p["team"] for p in night["pairs"]}
    deals = {b["number"]: b.get("deal") for b in night.get("boards", [])}
    rows = []
    for row in night["results"]:
        ds = score(row["result"], rules, board=row["board"], deal=deals.get(row["board"]))
        rows.append(TeamDeal(row["ns"], row["ew"], ds.ns.total, ds.ew.total,
                             board=row["board"]))
    match = team_match(rows, team_of)
    want = expected["matches"][0]
    assert list(match.teams) == want["teams"]
    assert list(match.scores) == want["scores"] == [2837, 3863]
    assert [fraction_str(x) for x in match.exact] == want["exact"] == ["8512/3", "11588/3"]
    assert match.winner == want["winner"]
    assert match.by_fraction == want["by_fraction"]
    got = [{"place": r.place, "team": r.team, "matches_won": fraction_str(r.matches_won),
            "points": r.points} for r in rank_teams([match])]
    assert got == expected["rankings"][0]["rows"]
