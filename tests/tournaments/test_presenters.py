"""The presenters: one way to write a number, a score, a suit, a contract, a side, a ruling."""

import datetime
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments import presenters as p


@pytest.mark.parametrize(("value", "text"), [
    (190, "190"), (0, "0"), (-7, "−7"), ("190", "190"),
    (Fraction(13, 2), "6½"), ("13/2", "6½"), ("-113/5", "−22⅗"), ("-121/3", "−40⅓"),
    ("1/2", "½"), ("-1/3", "−⅓"), ("2200/3", "733⅓"), ("7/8", "⅞"), ("-5/6", "−⅚"),
    ("1/7", "0.14"), ("-38/7", "−5.43"), ("1/200", "0.01"), ("-1/1000", "0.00"),
    (None, ""), ("", ""),
])
def test_a_number_is_a_mixed_vulgar_fraction_or_two_decimals(value, text):
    assert p.number(value) == text


@pytest.mark.parametrize(("value", "text"), [
    ("-121/3", "−40⅓"), ("38/7", "5³⁄₇"), ("-1/7", "−¹⁄₇"), ("949/6", "158⅙"), ("12", "12"),
])
def test_the_exact_value_is_written_in_full_without_a_slash(value, text):
    assert p.exact(value) == text
    assert "/" not in p.exact(value) and "-" not in p.exact(value)


@pytest.mark.parametrize(("value", "text"), [
    ("13/2", "+6½"), ("38/7", "+5³⁄₇"), ("-121/3", "−40⅓"), ("-1/7", "−¹⁄₇"),
    ("2764/7", "+394⁶⁄₇"), (Fraction(13, 3), "+4⅓"), ("1/2", "+½"),
    (0, "0"), ("0", "0"), (12, "+12"), ("12", "+12"), (-7, "−7"), (None, ""), ("", ""),
])
def test_a_plus_minus_written_exactly_carries_its_sign(value, text):
    # "Score +4 | Exact 4⅓" read as if the exact value had lost its sign (decisions, 200).
    assert p.signed_exact(value) == text
    assert "/" not in p.signed_exact(value) and "-" not in p.signed_exact(value)


def test_signed_scores_take_a_true_minus():
    assert [p.signed(v) for v in (12, -7, 0, "13/2", "-13/2", None)] == [
        "+12", "−7", "0", "+6½", "−6½", ""]
    assert p.percent(56.25) == "56.25%" and p.percent(50) == "50.00%"


def test_a_plus_minus_total_shows_the_nearest_whole_as_the_standings_do():
    # 394⁶⁄₇ is not "+394.86" on a summary page: the standings' "+395", exact on a tap.
    assert [p.plus_minus(v) for v in ("2764/7", "-2764/7", "5/2", "-5/2", 0, "", None)] == [
        "+395", "−395", "+3", "−3", "0", "", ""]
    assert [p.plus_minus(v) for v in ("7/2", "-7/2", "10/3")] == ["+4", "−4", "+3"]
    assert p.season_score("2764/7", counts="score", method="plus-minus") == "+395"
    assert p.season_score("163/3", counts="score", method="matchpoints") == "54.33%"
    assert p.season_score("13/2", counts="points", method="plus-minus") == "6½"
    assert p.percent(Fraction(163, 3)) == "54.33%"


def test_a_season_night_rounded_keeps_its_exact_value_for_the_tap():
    table = {"counts": "score", "method": "plus-minus",
             "events": [{"id": 1, "name": "Tuesday", "date": "2026-11-03", "counts": True}],
             "rows": [{"score": "2764/7", "place": 1, "players": [],
                       "nights": [{"event": 1, "place": "1", "counted": True,
                                   "score": "2764/7", "points": "0"}]}]}
    _columns, rows = p.season_rows(table)
    assert rows[0]["shown"] == "+395" and rows[0]["exact"] == "+394⁶⁄₇"
    assert rows[0]["night_cells"][0]["value"] == "+395"
    assert rows[0]["night_cells"][0]["exact"] == "+394⁶⁄₇"
    # Points and percentages are not a plus/minus: their exact values take no "+".
    _columns, rows = p.season_rows({**table, "counts": "points", "rows": [
        {**table["rows"][0], "score": "13/2",
         "nights": [{**table["rows"][0]["nights"][0], "points": "13/2"}]}]})
    assert rows[0]["exact"] == "6½" and rows[0]["night_cells"][0]["value"] == "6½"
    assert p.season_exact("325/6", counts="score", method="matchpoints") == "54⅙"


def test_rounded_is_judged_on_the_exact_value():
    assert p.is_rounded(7, "20/3") and not p.is_rounded(1, "7/7") and not p.is_rounded(5, "5")
    assert not p.is_rounded(None, None) and p.is_rounded(None, "1/3")


def test_suits_contracts_sides_and_rulings():
    assert [p.denomination(c) for c in ("S", "H", "D", "C", "RS", "NT")] == [
        "♠", "♥", "♦", "♣", "R♠", "NT"]
    assert p.is_red("H") and p.is_red("D") and not p.is_red("RS")
    assert p.contract(3, "H", "X", "S") == "3♥ × by S"
    assert p.contract(None, None) == "Passed out"
    assert (p.side("ns"), p.side("EW"), p.side_name("ALL")) == ("N–S", "E–W", "All pairs")
    assert [p.seat(s) for s in ("N", "E", "S", "W")] == ["North", "East", "South", "West"]
    assert p.ruling("fouled", "ns") == "Fouled board (Duplicate Law B), N–S at fault"
    assert p.ruling("average") == "Average (Duplicate Law B)"
    assert p.method("plus-minus") == "plus/minus against the average (Duplicate Law H)"
    assert p.movement("three-quarter-howell") == "¾ Howell"


def test_a_result_and_its_score_in_a_line():
    row = {"level": 4, "denomination": "H", "doubled": "", "declarer": "S", "tricks": 10,
           "ns_trick": 0, "ns_honour": 0, "ew_trick": 14, "ew_honour": 28}
    assert p.result_line(row) == "4♥ by S, 10 tricks"
    assert p.result_line({**row, "tricks": 1}) == "4♥ by S, 1 trick"
    assert p.result_line({"tricks": 1}, is_whist=True) == "N–S won 1 trick"
    assert p.score_line(row) == "N–S 0, E–W 42 (14 trick + 28 honour)"
    assert p.score_line({**row, "ew_honour": 0}) == "N–S 0, E–W 14 (trick)"
    assert p.result_line({"ruling": "fouled", "offending": "ew"}) == (
        "Fouled board (Duplicate Law B), E–W at fault")
    assert p.result_line({"tricks": 8}, is_whist=True) == "N–S won 8 tricks"
    assert p.result_line(None) == "No result"


def test_people_and_sentences():
    class User:
        is_staff = True

        def __init__(self, full, name):
            self.full, self.name = full, name

        def get_full_name(self):
            return self.full

        def get_username(self):
            return self.name

    assert p.person(User("Ann Lee", "ann")) == "Ann Lee"
    assert p.person(User("", "ann")) == "ann"
    assert p.actor("director ann", User("Ann Lee", "ann")) == "Ann Lee (director)"
    assert p.actor("table 3") == "Table 3"
    assert p.sentence("tricks must be between 0 and 13") == "Tricks must be between 0 and 13"
    assert p.sentence('"x" is not a seat') == '"X" is not a seat'
    assert p.sentence("3♥ is fine") == "3♥ is fine" and p.sentence("") == ""


def test_law_codes_read_as_players_name_the_laws():
    assert p.law_text("47a") == "Law 47a"
    assert p.law_text("Duplicate F, 81") == "Duplicate Law F, Law 81"
    assert p.law_text("Whist 85") == "Whist Law 85"
    assert p.law_text("Whist 75") == "Whist Law 75"


def test_the_rubbers_law_codes_read_as_their_rules_name_them():
    # The rubber bonus is the Whist Club's code of 1913, not a law of Whist.
    assert p.law_text("Whist Club 1913") == "Whist Club 1913"
    assert p.law_text("Three-Hand 13") == "Three-Hand rule 13"
    assert p.law_text("Three-Hand 14, 84") == "Three-Hand rule 14, Law 84"
    # The duplicate laws read as before.
    assert p.law_text("Duplicate B(3), Whist 53") == "Duplicate Law B(3), Whist Law 53"


def test_a_date_is_written_one_way():
    assert p.day(datetime.date(2026, 11, 3)) == p.day("2026-11-03") == "3 Nov 2026"


def test_a_score_item_reads_as_a_page_writes_it():
    lost = {"side": "ew", "column": "trick", "points": -3, "what": "3 tricks lost for 1 revoke",
            "law": "Whist 75"}
    taken = {**lost, "side": "ns", "points": 3, "what": "3 tricks taken for 1 revoke by E-W"}
    # At whist every point is a trick: "N–S: 8 tricks won in play", not "N–S trick 8".
    assert p.score_item(taken, is_whist=True).startswith(
        "N–S: 3 tricks taken for 1 revoke by E–W (")
    assert p.score_item(lost).startswith("E–W trick −3: 3 tricks lost")


@given(st.fractions(max_denominator=1000).filter(lambda v: abs(v) < 10_000),
       st.sampled_from(["str", "fraction", "int"]))
def test_a_rounded_scores_exact_value_is_said_as_signed_exact_says_it(value, form):
    """rounded_exact reads the value once for what is_rounded and signed_exact said apart."""
    shown = round(value)
    given_as = {"str": str(value), "fraction": value,
                "int": int(value) if value.denominator == 1 else str(value)}[form]
    expected = p.signed_exact(given_as) if p.is_rounded(shown, given_as) else None
    assert p.rounded_exact(shown, given_as) == expected
    assert p.rounded_exact(shown + 1, given_as) == p.signed_exact(given_as)
    assert p.rounded_exact(shown, None) is None and p.rounded_exact(shown, "") is None
