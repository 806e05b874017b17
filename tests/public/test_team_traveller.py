"""A team match's traveller says what each team's pairs won on the board (Duplicate Law
G), on the web and in print: its rows name pairs, and a reader could not tell which team
a pair played for, nor who won the board."""

from fractions import Fraction

import pytest

from tests.reports.pdf import pdf_text
from tournaments import selectors, services, standings
from tournaments.nightfile import night_import
from tournaments.reports.services import RENDERERS, report_data
from tournaments.services import Actor

pytestmark = pytest.mark.django_db

# rules.md §9, examples 2 and 1, each with the honours of every seat.
ONE_NT_MADE = {"contract": {"level": 1, "denomination": "NT", "declarer": "N"}, "tricks": 9,
               "honours": {"N": 2, "S": 1, "W": 1}}  # N-S: trick 30, honour 30 + 125: 185
THREE_HEARTS_DOWN = {"contract": {"level": 3, "denomination": "H", "declarer": "S"},
                     "tricks": 7, "honours": {"N": 2, "S": 1, "E": 1, "W": 1}}
# ... N-S: simple honours 16; E-W: 2 undertricks, 100

MATCH = {
    "format": "duplicate-night/1",
    "event": {"name": "Knickerbocker v Manhattan", "date": "2026-11-24",
              "rules": "american-1913", "kind": "teams", "method": "total-points"},
    "boards": [{"number": 1}, {"number": 2}],
    "teams": [{"name": "Knickerbocker"}, {"name": "Manhattan"}],
    "pairs": [{"number": n, "players": [f"North {n}", f"South {n}"],
               "team": "Knickerbocker" if n <= 3 else "Manhattan"} for n in range(1, 7)],
    # Three tables, one pair of each team at each: 1 v 4, 5 v 2, 3 v 6.
    "results": [
        {"board": 1, "ns": 1, "ew": 4, "result": ONE_NT_MADE},
        {"board": 1, "ns": 5, "ew": 2, "result": THREE_HEARTS_DOWN},
        # Duplicate Law B(3), the adversary had the surplus: each side the average won
        # at the other tables, N-S (185 + 16) / 2 = 100½, E-W (0 + 100) / 2 = 50.
        {"board": 1, "ns": 3, "ew": 6, "ruling": {"kind": "average"}},
        # A deal not played at one table is left out of the match at every table.
        {"board": 2, "ns": 1, "ew": 4, "result": ONE_NT_MADE},
        {"board": 2, "ns": 5, "ew": 2, "result": THREE_HEARTS_DOWN},
        {"board": 2, "ns": 3, "ew": 6, "ruling": {"kind": "not-played"}},
    ],
}
# Board 1 by hand: Knickerbocker 185 (pair 1) + 100 (pair 2) + 100½ (pair 3) = 385½;
# Manhattan 0 (pair 4) + 16 (pair 5) + 50 (pair 6) = 66.
BOARD_1 = ("On this board Knickerbocker (pairs 1, 2 and 3) won 385½, "
           "Manhattan (pairs 4, 5 and 6) won 66.")
BOARD_2 = "This board is left out of the match between Knickerbocker and Manhattan."


@pytest.fixture
def match(director):
    event = night_import(data=MATCH, actor=Actor.system("import"))
    return services.event_publish(event=event, level="final", actor=Actor.director(director))


def test_each_teams_points_on_the_board_worked_by_hand(match):
    one, two = selectors.travellers(match)
    assert one["teams"] == [[
        {"team": "Knickerbocker", "pairs": [1, 2, 3], "won": "771/2"},
        {"team": "Manhattan", "pairs": [4, 5, 6], "won": "66"}]]
    assert [side["won"] for side in two["teams"][0]] == [None, None]
    # The boards add up to what the standings say the teams' pairs won (the odd-pair
    # average is the match's, added once, not a board's).
    [played] = standings.standings(match)["matches"]
    assert played["teams"] == ["Knickerbocker", "Manhattan"]
    assert [Fraction(exact) - Fraction(added) for exact, added
            in zip(played["exact"], played["added"], strict=True)] == [Fraction(771, 2), 66]


def test_the_board_page_says_it(client, match):
    one = client.get(f"/events/{match.pk}/boards/1/").content.decode()
    assert f'<p data-testid="team-board">{BOARD_1}</p>' in one
    two = client.get(f"/events/{match.pk}/boards/2/").content.decode()
    assert BOARD_2 in two and "won" not in two.split("Traveller", 1)[1].split("<table", 1)[0]


def test_a_pairs_night_has_no_such_line(client, director):
    data = {**MATCH, "event": {**MATCH["event"], "kind": "pairs", "method": "plus-minus"},
            "teams": [], "pairs": [{k: v for k, v in p.items() if k != "team"}
                                   for p in MATCH["pairs"]]}
    event = night_import(data=data, actor=Actor.system("import"))
    assert all(t["teams"] == [] for t in selectors.travellers(event))
    services.event_publish(event=event, level="final", actor=Actor.director(director))
    assert 'data-testid="team-board"' not in client.get(
        f"/events/{event.pk}/boards/1/").content.decode()


def test_the_printed_travellers_say_it(match):
    _name, _type, content = RENDERERS["travellers"]().render(report_data(match, "travellers"))
    text = " ".join(pdf_text(content).split())
    assert BOARD_1 in text and BOARD_2 in text


def test_several_matches_on_one_board_each_get_their_sentence():
    """An event of four teams plays two matches on a board: each match its own line, in
    the order of its first team's pairs."""
    teams = {n: (i, name, pairs) for i, (name, pairs) in enumerate(
        (("A", (1, 2)), ("B", (3, 4)), ("C", (5, 6)), ("D", (7, 8)))) for n in pairs}
    rows = [{"result_id": 1, "ns": 5, "ew": 7}, {"result_id": 2, "ns": 8, "ew": 6},
            {"result_id": 3, "ns": 1, "ew": 3}, {"result_id": 4, "ns": 4, "ew": 2}]
    awards = {1: (Fraction(100), Fraction(0)), 2: (Fraction(0), Fraction(50)),
              3: (Fraction(0), Fraction(30)), 4: None}
    lines = selectors._board_teams(rows, teams, awards)
    assert [[(side["team"], side["won"]) for side in match] for match in lines] == [
        [("A", "0"), ("B", "30")], [("C", "150"), ("D", "0")]]
