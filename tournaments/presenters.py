"""How the game's numbers and words are written for people: one place for every medium.

The web pages (through the template tags of ``templatetags/bridge.py``), the PDFs
(``reports/base.py`` and ``reports/documents.py``) and the text output of the
commands all write a number, a score, a suit, a contract, a side, a ruling and a
message through these functions, so a page, a printout and a terminal say the same.
What programs read is not written here: the ``exact`` fraction strings of the
standings JSON (interfaces.md §3, ``"-121/3"``) stay as the engine writes them.

Terms and the rules pinned here (docs/decisions.md, "Numbers and words"):

- A *number* is written as people read it, never as an improper fraction: a whole
  number as it is, a fraction as a mixed number with its vulgar fraction where
  Unicode has one ("6½", "−22⅗"), otherwise to two decimals ("5.43"). A negative
  number takes the minus sign U+2212 ("−"), never the hyphen-minus.
- The *exact* value of a number that was rounded for showing is the mixed number
  written in full: the vulgar fraction where there is one, else superscript and
  subscript digits about the fraction slash U+2044 ("5³⁄₇"), so that no text people
  read holds "n/d".
- A *score* is signed: "+12", "−7", "0" (plus/minus and net scores).
- A *plus/minus total* (a pair's night, its overall standing, a season's score) shows
  the nearest whole number, a half away from zero, as the standings do (rules.md §4, the
  pair contest): "+395", its exact value ("+394⁶⁄₇") on a tap, or beside it on paper.
- A *side* is "N–S" or "E–W" (with an en dash); its long name "North–South".
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from math import gcd
from typing import Any

from django.utils import timezone

from boards.movements import board_range, tables_words
from scoring.engine import shown as nearest_whole

MINUS = "\u2212"
FRACTION_SLASH = "\u2044"

VULGAR = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓", Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼", Fraction(3, 4): "¾",
    Fraction(1, 5): "⅕", Fraction(2, 5): "⅖", Fraction(3, 5): "⅗", Fraction(4, 5): "⅘",
    Fraction(1, 6): "⅙", Fraction(5, 6): "⅚",
    Fraction(1, 8): "⅛", Fraction(3, 8): "⅜", Fraction(5, 8): "⅝", Fraction(7, 8): "⅞",
}
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")

Number = Fraction | int | str | None
_PLAIN_RATIO = re.compile(r"-?[0-9]+(?:/[0-9]+)?\Z")  # "190", "-121/3"
_VULGAR_RATIOS = {(f.numerator, f.denominator): text for f, text in VULGAR.items()}


# --- numbers ------------------------------------------------------------------------------------


def fraction(value: Fraction | int | str) -> Fraction:
    """A number from an int, a Fraction or an exact string ("-121/3", "−121/3", "190")."""
    if isinstance(value, str):
        return Fraction(value.strip().replace(MINUS, "-"))
    return Fraction(value)


def _split(value: Fraction) -> tuple[str, int, Fraction]:
    """The sign ("" or "−"), the whole part and the proper fraction left over."""
    sign = MINUS if value < 0 else ""
    whole, rest = divmod(abs(value.numerator), value.denominator)
    return sign, whole, Fraction(rest, value.denominator)


def number(value: Number) -> str:
    """6½, −22⅗, 190, or two decimals where there is no vulgar fraction (5.43); "" for None."""
    if value is None or value == "":
        return ""
    if value.__class__ is int:  # the common case, said without a Fraction
        return f"{MINUS}{-value}" if value < 0 else str(value)
    v = fraction(value)
    sign, whole, rest = _split(v)
    if not rest:
        return f"{sign}{whole}"
    if rest in VULGAR:
        return f"{sign}{whole or ''}{VULGAR[rest]}"
    two = (Decimal(abs(v.numerator)) / Decimal(v.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{sign if two else ''}{two}"


def _ratio(value: Fraction | int | str) -> tuple[int, int]:
    """(numerator, denominator) in lowest terms, the denominator positive: what
    fraction(value) holds, worked out without a Fraction for an int or a plain "n/d"
    string (a score card of 2,000 pairs says some 200,000 of them)."""
    if value.__class__ is int:
        return value, 1
    if value.__class__ is str:
        text = value.strip().replace(MINUS, "-")
        if _PLAIN_RATIO.match(text):
            top, _slash, bottom = text.partition("/")
            numerator, denominator = int(top), int(bottom or 1)
            if denominator:
                common = gcd(numerator, denominator)
                return numerator // common, denominator // common
    v = fraction(value)
    return v.numerator, v.denominator


def exact(value: Number) -> str:
    """The exact value in full: 6½, −40⅓, 5³⁄₇ (never "n/d"); "" for None."""
    if value is None or value == "":
        return ""
    return _exact_ratio(*_ratio(value))


def _exact_ratio(numerator: int, denominator: int) -> str:
    """``exact`` of numerator/denominator, in lowest terms, the denominator positive."""
    sign = MINUS if numerator < 0 else ""
    whole, rest = divmod(abs(numerator), denominator)  # rest/denominator: lowest terms
    if not rest:
        return f"{sign}{whole}"
    vulgar = _VULGAR_RATIOS.get((rest, denominator))
    if vulgar:
        return f"{sign}{whole or ''}{vulgar}"
    top = str(rest).translate(_SUPERSCRIPT)
    bottom = str(denominator).translate(_SUBSCRIPT)
    return f"{sign}{whole or ''}{top}{FRACTION_SLASH}{bottom}"


def is_rounded(shown: Number, value: Number) -> bool:
    """Whether `shown` (what a page prints) differs from the exact `value`."""
    if value is None or value == "":
        return False
    if shown is None or shown == "":
        return True
    try:
        return _ratio(shown) != _ratio(value)
    except (ValueError, ZeroDivisionError):
        return True


def signed(value: Number) -> str:
    """A score with its sign: +12, −7, 0, +6½; "" when there is none."""
    text = number(value)
    if value.__class__ is int:
        return "+" + text if value > 0 else text
    if text and fraction(value) > 0:
        return "+" + text
    return text


def signed_exact(value: Number) -> str:
    """A plus/minus (or net) score's exact value with its sign, as a score is written:
    +6½, +5³⁄₇, −40⅓, 0; "" for None. Never for matchpoints, points or an average."""
    text = exact(value)
    if text and text[0] != MINUS and text != "0":
        return "+" + text
    return text


def rounded_exact(shown: int, value: Number) -> str | None:
    """``signed_exact(value)`` where the whole number `shown` differs from it, else None
    (None too when there is no value, as ``is_rounded`` has it): what a cell writes
    beside or beneath a rounded score. `value` is read once (a big event's score cards say
    some 100,000 running totals)."""
    if value is None or value == "":
        return None
    numerator, denominator = _ratio(value)
    if denominator == 1 and numerator == shown:
        return None
    text = _exact_ratio(numerator, denominator)
    return "+" + text if numerator > 0 else text


def plus_minus(value: Number) -> str:
    """A plus/minus total as the standings show it (the engine's ``shown``: the nearest
    whole, a half away from zero): "+395" for 394⁶⁄₇; "" for None."""
    if value is None or value == "":
        return ""
    return signed(nearest_whole(fraction(value)))


def dashed_sides(text: str) -> str:
    """The engine's words ("revokes by N-S") with the sides as a page writes them ("N–S")."""
    return str(text).replace("N-S", side("NS")).replace("E-W", side("EW"))


def score_item(item: dict, *, is_whist: bool = False) -> str:
    """One line of a deal's score as a page lists it: "N–S trick 24: 2 odd tricks at 12
    (Law 36)"; at whist, where every point is a trick, "N–S: 8 tricks won in play (Whist
    Law 47)" (not "N–S trick 8", which read as the eighth trick). The engine's own words
    keep their "N-S"; a page writes its sides with the en dash, its numbers with "−"."""
    what = dashed_sides(item["what"])
    law = item.get("law_text") or law_text(item["law"])
    if is_whist:
        return f"{side(item['side'])}: {what} ({law})"
    return f"{side(item['side'])} {item['column']} {number(item['points'])}: {what} ({law})"


def match_verdict(match: dict) -> str:
    """A team match's result in words, with its margin as Duplicate Law G counts it: the
    fractions of the averages are disregarded, so the margin is that of the totals shown,
    "Murray Hill won by 509" (1875 – 2384, whatever the exact 1874⅔); only where the shown
    totals tie does the fraction decide, "Home won by the fraction of a point"; "A tie";
    while a board is still to come in (``complete`` false) "Home leads by 12: not every
    board is in yet", "Level: …" (the standings JSON's match, interfaces.md §3)."""
    by = " by the fraction of a point" if match.get("by_fraction") else ""
    if match.get("winner") and not by and match.get("scores"):
        won, lost = sorted(match["scores"], reverse=True)
        by = f" by {won - lost}"
    if match.get("complete") is False:
        lead = f"{match['winner']} leads{by}" if match.get("winner") else "Level"
        return f"{lead}: not every board is in yet"
    return f"{match['winner']} won{by}" if match.get("winner") else "A tie"


def tricks_won(row: dict) -> int | None:
    """At whist, the tricks the score card's pair's side won in play (a card's row gives
    N–S's, as the traveller does); None for a ruling."""
    tricks = row.get("tricks")
    if tricks is None:
        return None
    return tricks if row["direction"] == "NS" else 13 - tricks


def match_totals(match: dict) -> dict:
    """A team match (the standings JSON's, interfaces.md §3) as Duplicate Law G counts it,
    for a member to check: each team's points won by its pairs at the tables, the odd-pair
    average added (when the teams sat unequal numbers of pairs N–S; ``odd``), and the
    total, exactly (the fraction of a point decides) and as shown; ``rule``, the law's sum
    in words, for the page and the PDF alike."""
    added = match.get("added") or ["0"] * len(match["teams"])
    lines = []
    for team, score, total, plus in zip(match["teams"], match["scores"], match["exact"],
                                        added, strict=True):
        total_f, plus_f = fraction(total), fraction(plus)
        lines.append({"team": team, "won": exact(total_f - plus_f),
                      "added": exact(plus_f) if plus_f else "", "total": exact(total_f),
                      "score": number(score), "rounded": total_f != score})
    odd = any(line["added"] for line in lines)
    rule = ("Duplicate Law G: a team scores the points its pairs won on every board"
            + ("; with an odd pair, the team with more pairs N–S adds the average won by all "
               "E–W pairs, the other team the average won by all N–S pairs" if odd else "")
            + ". Totals are shown to the nearest point"
            + ("; these differ by less than a point, so the exact totals decide."
               if match.get("by_fraction") else ", unless the fraction is needed to avoid a tie."))
    return {"lines": lines, "odd": odd, "rule": rule}


def percent(value: float | Fraction | int | None) -> str:
    """A matchpoint percentage to two decimals: "56.25%"."""
    if value is None:
        return ""
    exactly = (Decimal(value.numerator) / Decimal(value.denominator)
               if isinstance(value, Fraction) else Decimal(str(value)))
    shown = exactly.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{shown}%".replace("-", MINUS)


def matchpoint_total(matchpoints: Number, top: int, score: float | Fraction | int) -> str:
    """A pair's matchpoint night as its score card totals it, in the standings' own
    numbers: its matchpoints exactly, never signed (they are never negative), of the top
    it could have made, and the percentage that places it: "33 of 48 (68.75%)",
    "12½ of 24 (52.08%)"."""
    return f"{exact(matchpoints)} of {number(top)} ({percent(score)})"


def own_average_on_card(row: dict, played: Number) -> str:
    """Why a matchpoint card's total is more than its running total under "own-average"
    (docs/decisions.md, 85): `row` is the pair's standings row (boards played, not played,
    the top over the whole session), `played` the matchpoints the card's boards add up to."""
    boards, missed = row["boards"], row["not_played"]
    board_top = row["top"] // (boards + missed)
    which = "the board" if missed == 1 else f"the {missed} boards"
    return (f"On {which} it did not play, the pair is credited with its own average on the "
            f"{boards} it played ({exact(played)} of {number(board_top * boards)}), as the "
            f"standings do: the total covers all {boards + missed} boards.")


def minus(text: Any) -> str:
    """Text with its leading hyphen-minus made a true minus sign ("-7" → "−7")."""
    text = "" if text is None else str(text)
    return MINUS + text[1:] if text.startswith("-") else text


def clock(moment: Any) -> str:
    """A moment as the club's clock shows it (settings.TIME_ZONE): "22:45" (the templates'
    ``|time:"H:i"``)."""
    return timezone.localtime(moment).strftime("%H:%M")


# --- cards, contracts, sides, rulings ------------------------------------------------------------

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset({"H", "D"})
DENOMINATIONS = {**SUITS, "RS": "R♠", "NT": "NT"}  # RS: royal spades (Laws of Auction)
DENOMINATION_NAMES = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts",
                      "RS": "royal spades", "NT": "no trump"}
DOUBLING = {"": "", "X": " ×", "XX": " ××"}
SIDES = {"NS": "N–S", "EW": "E–W"}
SIDE_NAMES = {"NS": "North–South", "EW": "East–West", "ALL": "All pairs"}
SEATS = {"N": "North", "E": "East", "S": "South", "W": "West"}
RULINGS = {
    "average": "Average (Duplicate Law B)",
    "fouled": "Fouled board (Duplicate Law B)",
    # Two-table duplicate, Duplicate Law B(3): no new deal played in its place (one is a
    # board re-dealt, its new results shown as any board's).
    "cancelled": "Cancelled at both tables (Duplicate Law B)",
    "not-played": "Not played",
    "adjusted": "Adjusted score",
    "assigned": "Assigned score",
}
ADJUST_GRADES = {"plus": "Average-plus", "average": "Average", "minus": "Average-minus"}
MOVEMENTS = {
    "mitchell": "Mitchell", "howell": "Howell", "three-quarter-howell": "¾ Howell",
    "team-match": "Team match", "none": "No movement",
}
VARIANTS = {"skip": "skip (after half the rounds)", "relay": "relay and bye stand"}
METHODS = {
    "plus-minus": "plus/minus against the average (Duplicate Law H)",
    "matchpoints": "matchpoints",
    "total-points": "total points (Duplicate Law G)",
}


def denomination(code: str | None) -> str:
    """♠ ♥ ♦ ♣, R♠ for royal spades, NT; an unknown code as it is."""
    return DENOMINATIONS.get(code or "", code or "")


def is_red(code: str | None) -> bool:
    return code in RED_SUITS


def contract(level: int | None, denom: str | None, doubled: str | None = "",
             declarer: str | None = "") -> str:
    """"3♥ × by S"; no level is a passed-out deal."""
    if not level:
        return "Passed out"
    by = f" by {declarer}" if declarer else ""
    return f"{level}{denomination(denom)}{DOUBLING.get(doubled or '', '')}{by}"


def side(code: str | None) -> str:
    """"N–S" / "E–W" for "NS", "ns", "EW", "ew"; anything else as it is."""
    if not code:
        return ""
    return SIDES.get(code.upper(), code)


def side_name(code: str) -> str:
    """"North–South", "East–West", "All pairs"."""
    return SIDE_NAMES.get(code.upper(), code)


def ruling(kind: str | None, offending: str | None = "") -> str:
    """"Fouled board (Duplicate Law B), N–S at fault"; "" when there is no ruling."""
    if not kind:
        return ""
    text = RULINGS.get(kind, kind)
    if kind == "fouled" and offending:
        text += f", {side(offending)} at fault"
    return text


def not_played_words(row: dict) -> str:
    """Why a board of a traveller or a score card was not played: "Not played: pair 5 left
    after round 3" (its later boards went to both pairs not played, decision 103: the
    row's ``left``, (pair, round)), else "Not played at the table (the director's ruling)"
    (slow play, the time ran out: decision 99)."""
    left = row.get("left")
    if left:
        return f"Not played: pair {left[0]} left after round {left[1]}"
    return "Not played at the table (the director's ruling)"


def ruling_words(row: dict) -> str:
    """A ruled row of a traveller or a score card in words: a club adjustment ("Adjusted:
    N–S average-plus, E–W average-minus"), why a board was not played (``not_played_words``),
    or the ruling with the award the traveller gives it ("Average (Duplicate Law B);
    awarded N–S −35, E–W +35", ``award_words``); "" for a row with no ruling."""
    if row.get("adjustment"):
        return row["adjustment"]
    kind = row.get("ruling")
    if kind == "not-played":
        return not_played_words(row)
    award = award_words(row)
    return ruling(kind, row.get("offending")) + (f"; {award}" if award else "")


def side_award(row: dict, *, is_whist: bool = False) -> str:
    """A score card's ruled board, what the card's pair scores for it (its side of the
    traveller's ``award``), as the card's Score column writes a score: signed, exactly
    ("+12½", "−35"); unsigned at whist (tricks, "7"); "" for none."""
    award = row.get("award")
    if not award or row.get("direction") not in ("NS", "EW"):
        return ""
    value = award[0 if row["direction"] == "NS" else 1]
    return exact(value) if is_whist else signed_exact(value)


def rounds_words(first: int, last: int) -> str:
    """"Round 1", "Rounds 1 and 2", "Rounds 1 to 5"."""
    if first == last:
        return f"Round {first}"
    return f"Rounds {first} {'and' if last == first + 1 else 'to'} {last}"


def joined_late_words(pair: int | None, joined_round: int | None) -> str:
    """A late pair's score card (decision 102; or one seated by a movement change,
    decision 195), what its rows leave out: "Rounds 1 and 2 not played: pair 8 joined
    late, from round 3."; "" for a pair there from the start."""
    if not joined_round or joined_round <= 1:
        return ""
    return (f"{rounds_words(1, joined_round - 1)} not played: pair {pair} joined late, "
            f"from round {joined_round}.")


def seat(code: str | None) -> str:
    """"North", "East", "South", "West"; anything else as it is."""
    return SEATS.get(code or "", code or "")


def method(code: str) -> str:
    """How an event is scored, in a sentence's middle: "plus/minus against the average
    (Duplicate Law H)" (never the lower-cased label: "duplicate law h")."""
    return METHODS.get(code, code)


def movement(code: str) -> str:
    """"Mitchell", "¾ Howell" (the model's label says "3/4")."""
    return MOVEMENTS.get(code, code)


def variant(code: str) -> str:
    """An even Mitchell's variant: "relay and bye stand"."""
    return VARIANTS.get(code, code)


def movement_size(m: Any, left: Iterable[tuple[int, int]] = ()) -> str:
    """A movement's size as the director sets out the room: "4 tables and one sit-out,
    9 pairs" (a Howell leaves the missing pair's table out), "5 tables, 10 pairs"; with
    the pairs that have left, (number, after round), said after it: "7 tables and one
    sit-out, 14 pairs (pair 12 left after round 5)"."""
    tables = tables_words(m)
    gone = "; ".join(f"pair {number} left after round {after}"
                     for number, after in sorted(left))
    return f"{tables}, {m.pairs} pairs" + (f" ({gone})" if gone else "")


def _getter(row: Any):
    if isinstance(row, dict):
        return row.get
    return lambda name, default=None: getattr(row, name, default)


def tricks_words(n: Any) -> str:
    """"1 trick", "9 tricks"."""
    return f"{n} trick" if n == 1 else f"{n} tricks"


def outcome(level: int | None, denom: str | None, doubled: str | None, declarer: str | None,
            tricks: int | None, *, passed_out: bool = False) -> str:
    """A deal's result in a few words: "3♥ by S, made", "4♠ × by N, made with 1
    overtrick", "2NT by W, down 2", "Passed out"; whist (no contract): "N–S won 8 tricks"."""
    if passed_out:
        return "Passed out"
    if not level:
        return f"N–S won {tricks_words(tricks)}" if tricks is not None else ""
    played = contract(level, denom, doubled, declarer)
    need = 6 + level
    if tricks is None:
        return played
    if tricks < need:
        return f"{played}, down {need - tricks}"
    over = tricks - need
    if not over:
        return f"{played}, made"
    return f"{played}, made with {over} overtrick{'s' if over > 1 else ''}"


def deal_outcome(data: Any) -> str:
    """outcome() of a deal result as interfaces.md §1 writes it (an assigned E-W result)."""
    if not isinstance(data, dict):
        return ""
    if "tricks_ns" in data:
        return f"N–S won {tricks_words(data['tricks_ns'])}"
    played = data.get("contract")
    if not played:
        return "Passed out"
    return outcome(played.get("level"), played.get("denomination"), played.get("doubled"),
                   played.get("declarer"), data.get("tricks"))


def adjustment(row: Any) -> str:
    """A club adjustment as travellers, score cards and the audit mark it: "Adjusted: N–S
    average-plus, E–W average-minus", "Assigned: 3♥ by S, made", and for a split score
    "Assigned: N–S 3♥ by S, made; E–W 3♥ by S, down 1". "" for anything else."""
    if row is None:
        return ""
    get = _getter(row)
    kind = get("ruling", "")
    if kind == "adjusted":
        grades = [f"{side(code)} {ADJUST_GRADES.get(get(code + '_adjust') or '', '?').lower()}"
                  for code in ("ns", "ew")]
        return "Adjusted: " + ", ".join(grades)
    if kind != "assigned":
        return ""
    ns_words = outcome(get("level"), get("denomination"), get("doubled"), get("declarer"),
                       get("tricks"), passed_out=get("passed_out", False))
    ew_result = (get("details") or {}).get("ew_result")
    if ew_result is None:
        return f"Assigned: {ns_words}"
    return f"Assigned: N–S {ns_words}; E–W {deal_outcome(ew_result)}"


def result_line(row: Any, *, is_whist: bool = False) -> str:
    """A result (or an audit snapshot of one) in a line a player reads: "3♥ × by S, 9 tricks"."""
    if row is None:
        return "No result"
    get = _getter(row)
    if get("voided", False):
        return "Removed"
    if get("ruling", "") in ("adjusted", "assigned"):
        return adjustment(row)
    if get("ruling", ""):
        return ruling(get("ruling", ""), get("offending", ""))
    if get("passed_out", False):
        return "Passed out"
    tricks = get("tricks")
    if is_whist or not get("level"):
        return f"N–S won {tricks_words(tricks)}" if tricks is not None else "No result"
    played = contract(get("level"), get("denomination", ""), get("doubled", ""), get("declarer"))
    return f"{played}, {tricks_words(tricks)}"


def result_marks(row: Any, *, is_whist: bool = False) -> list[str]:
    """What a result's line does not say but its score counts: its revokes, by side, and
    its procedural penalties, by player ("a revoke by E–W", "2 revokes by N–S", "penalty
    on W"), in that order; [] for none."""
    get = _getter(row)
    details = get("details") or {}
    revokes = details.get("revokes") or {}
    if is_whist:
        by_side = [(code, revokes.get(code) or 0) for code in ("NS", "EW")]
    else:
        declarer = get("declarer") or ""
        declaring = "NS" if declarer in ("N", "S") else "EW"
        defending = "EW" if declaring == "NS" else "NS"
        by_side = [(declaring, revokes.get("declaring") or 0),
                   (defending, revokes.get("defending") or 0)]
    marks = [f"{'a revoke' if n == 1 else f'{n} revokes'} by {side(code)}"
             for code, n in by_side if n]
    marks += [f"penalty on {p['by']}" for p in details.get("penalties") or []]
    return marks


def side_score(total_trick: int, honour: int) -> str:
    """"42 (14 trick + 28 honour)", "30 (trick)", "0"."""
    total = number(total_trick + honour)
    if total_trick and honour:
        return f"{total} ({number(total_trick)} trick + {number(honour)} honour)"
    if total_trick or honour:
        return f"{total} ({'trick' if total_trick else 'honour'})"
    return total


def score_line(row: Any) -> str:
    """"N–S 185 (30 trick + 155 honour), E–W 0", or "" when there is no score."""
    get = _getter(row)
    if get("ns_trick") is None:
        return ""
    return (f"N–S {side_score(get('ns_trick'), get('ns_honour') or 0)}, "
            f"E–W {side_score(get('ew_trick'), get('ew_honour') or 0)}")


# --- people and messages ------------------------------------------------------------------------


def law_text(law: str) -> str:
    """The engine's law code as players read it: "47a" -> "Law 47a", "Duplicate F" ->
    "Duplicate Law F", "Duplicate F, 81" -> "Duplicate Law F, Law 81", "Whist 85" ->
    "Whist Law 85"; the rubber's codes: "Three-Hand 13" -> "Three-Hand rule 13" (the
    rules of Three-Hand Auction, seed 000), "Whist Club 1913" (the Whist Club's code of
    1913, not a law of Whist) stays as it is."""
    parts = []
    for part in str(law).split(","):
        part = part.strip()
        if part.startswith("Whist Club"):
            parts.append(part)
        elif part.startswith("Three-Hand "):
            parts.append("Three-Hand rule " + part.removeprefix("Three-Hand ").strip())
        elif part.startswith("Duplicate "):
            parts.append("Duplicate Law " + part.removeprefix("Duplicate ").strip())
        elif part.startswith("Whist "):  # the Laws of Whist (seed 001): "Whist Law 85"
            parts.append("Whist Law " + part.removeprefix("Whist ").strip())
        elif part:
            parts.append("Law " + part)
    return ", ".join(parts)


def person(user: Any) -> str:
    """A user as people know them: the full name, else the user name."""
    if user is None:
        return ""
    full = (user.get_full_name() or "").strip() if hasattr(user, "get_full_name") else ""
    return full or user.get_username()


def actor(label: str, user: Any = None) -> str:
    """Who made a change, by name: "Ann Lee (director)", "Table 3", "E–W pair 3"."""
    if user is not None:
        return f"{person(user)} (director)" if getattr(user, "is_staff", False) \
            else person(user)
    return sentence(label)


def sentence(text: Any) -> str:
    """A message as it stands alone: its first letter a capital, the rest untouched."""
    text = "" if text is None else str(text)
    for i, ch in enumerate(text):
        if ch.isalpha():
            return text[:i] + ch.upper() + text[i + 1:]
        if not ch.isspace() and ch not in "\"'“‘(":
            return text
    return text


# --- boards not played (standings) ---------------------------------------------------------

NOT_PLAYED_NOTES = {
    "plus-minus": "A board not played at a pair's table is not compared (Duplicate Law H): "
                  "“{example}” means the pair played {played} of its {session} boards, and "
                  "its score is over those it played.",
    "neuberg": "A board not played at a pair's table is not compared: “{example}” means the "
               "pair played {played} of its {session} boards, and its percentage is of the "
               "most it could have made on those (the boards played fewer times are factored "
               "up by Neuberg's formula).",
    "own-average": "A board not played at a pair's table is not compared: “{example}” means "
                   "the pair played {played} of its {session} boards; on each board it did "
                   "not play it is credited with its own average on those it played, so its "
                   "matchpoints and top cover all {session}.",
}


def boards_played(boards: int, not_played: int = 0, missed: int = 0) -> str:
    """The standings' Boards column: "24", or "22 of 24" when the pair did not play 2
    (`not_played` at its table, `missed`: a late pair's boards of the rounds before it
    joined)."""
    return (f"{boards} of {boards + not_played + missed}" if not_played or missed
            else str(boards))


def some_pair_short(standings: dict) -> bool:
    """Whether a ranking has a pair with fewer boards (played and not played) than another
    of it: only then may one have joined late, so only then are the late pairs read."""
    for ranking in standings.get("rankings", ()):
        counts = {r.get("boards", 0) + r.get("not_played", 0) for r in ranking.get("rows", ())}
        if len(counts) > 1:
            return True
    return False


def late_missed(row: dict, late_pairs: Iterable[dict] | None) -> int:
    """How many boards a standings row's pair missed by joining late (selectors.late_pairs:
    [{"pair", "joined_round", "missed"}]); 0 for a pair there from the start."""
    return next((late["missed"] for late in late_pairs or () if late["pair"] == row["pair"]),
                0)


def row_boards_played(row: dict, late_pairs: Iterable[dict] | None = None) -> str:
    """A standings row's Boards cell (``boards_played``), a late pair's "10 of 14" too."""
    return boards_played(row["boards"], row.get("not_played", 0),
                         late_missed(row, late_pairs))


def late_pairs_notes(standings: dict, late_pairs: Iterable[dict] | None) -> list[str]:
    """What a late pair's "10 of 14" in the Boards column means (decision 102): "Pair 8
    joined late, from round 3: “10 of 14” means it played 10 of its 14 boards, and its
    score is over those it played."; one for each late pair ranked, [] for none."""
    late = {entry["pair"]: entry for entry in late_pairs or () if entry["missed"]}
    if not late or standings.get("kind") == "teams":  # a team's row has no pair
        return []
    notes, seen = [], set()
    for ranking in standings.get("rankings", ()):
        for r in ranking.get("rows", ()):
            entry = late.get(r["pair"])
            if entry is None or r["pair"] in seen:
                continue
            seen.add(r["pair"])
            shown = row_boards_played(r, late_pairs)
            notes.append(f"Pair {r['pair']} joined late, from round {entry['joined_round']}: "
                         f"“{shown}” means it played {r['boards']} of its "
                         f"{shown.rpartition(' ')[2]} boards, and its score is over those it "
                         "played.")
    return notes


def not_played_note(standings: dict) -> str:
    """What "22 of 24" in the Boards column means, with the event's way of scoring it; ""
    when no pair has a board not played."""
    rows = [r for ranking in standings.get("rankings", ()) for r in ranking.get("rows", ())
            if r.get("not_played")]
    if not rows:
        return ""
    first = rows[0]
    key = (standings.get("not_played_scoring", "neuberg")
           if standings.get("method") == "matchpoints" else "plus-minus")
    played, session = first["boards"], first["boards"] + first["not_played"]
    return NOT_PLAYED_NOTES[key].format(example=boards_played(played, first["not_played"]),
                                        played=played, session=session)


# --- irregular boards (Duplicate Law B) ----------------------------------------------------------

IRREGULAR_FOUND = {
    "original": "before or during the original play",
    "before-overplay": "when the cards were taken up for overplay, before it began",
    "overplay": "after the overplay began",
}
IRREGULAR_LAW = {"original": "Duplicate Law B(1)", "before-overplay": "Duplicate Law B(2)",
                 "overplay": "Duplicate Law B(3)"}


def _where_found(irr: Any) -> str:
    meeting = irr.meeting
    return f"table {meeting.table}, round {meeting.round}" if meeting is not None else ""


def irregular_wait(irr: Any) -> str:
    """What the table that found an irregular board reads while it waits."""
    number = irr.board.number
    if irr.status == "sent-back":
        return (f"Board {number} went back to table {irr.sent_to_table} to be put right "
                f"({IRREGULAR_LAW[irr.stage]}); wait for it to come back.")
    return (f"Board {number} has a hand with the wrong number of cards: the director is on "
            "the way. Do not play it until the director says so.")


def card_words(card: str) -> str:
    """A card as its code is stored ("S5", "HT") in a player's writing: "the ♠5", "the ♥10"."""
    suit, rank = card[:1].upper(), card[1:].upper()
    return f"the {SUITS.get(suit, suit)}{'10' if rank == 'T' else rank}"


def award_words(row: dict) -> str:
    """A ruled board, what each side scores for it (the traveller's `award`): a team
    match's totals or whist's tricks, "awarded N–S 70, E–W 5"; a pair contest's scores,
    one side's a loss, signed as the traveller's net is, "awarded N–S −35, E–W +35"; ""
    for none."""
    award = row.get("award")
    if not award:
        return ""
    say = signed_exact if any(fraction(v) < 0 for v in award) else exact
    return f"awarded N–S {say(award[0])}, E–W {say(award[1])}"


def board_team_words(traveller: dict) -> list[str]:
    """A team match's board (Duplicate Law G), a sentence a match: what each team's pairs
    won on it, "On this board Gramercy (pairs 1, 2 and 3) won 179, Murray Hill (pairs 4, 5
    and 6) won 410"; or that it is left out of the match. [] for a pairs event."""
    out = []
    for match in traveller.get("teams") or ():
        if all(side["won"] is None for side in match):
            out.append(f"This board is left out of the match between "
                       f"{listed([side['team'] for side in match])}.")
            continue
        out.append("On this board " + ", ".join(
            f"{side['team']} (pair{'s' if len(side['pairs']) > 1 else ''} "
            f"{listed(side['pairs'])}) won {exact(side['won'] or 0)}" for side in match) + ".")
    return out


def traveller_average(traveller: dict) -> str:
    """The average a traveller's ± are against (Duplicate Law H), in words: "Average of the
    tables: N–S 42½, E–W −42½"; compared within each section, each section's: "Average of
    the tables in section A: N–S −93⅓, E–W 93⅓; in section B: …"; "" for none."""
    average = traveller.get("average")
    if average:
        return f"Average of the tables: N–S {exact(average['ns'])}, E–W {exact(average['ew'])}"
    parts = [f"in section {a['section']}: N–S {exact(a['ns'])}, E–W {exact(a['ew'])}"
             for a in traveller.get("section_averages") or ()]
    return "Average of the tables " + "; ".join(parts) if parts else ""


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def neuberg_notes(traveller: dict) -> list[str]:
    """A matchpoint board played fewer times than the most played, as its traveller says
    it under the results (selectors' ``factored``: the standings factor it up by
    Neuberg's formula): "Matchpoints factored (Neuberg): played 5 times, not 7 times, so
    each score is scaled from a top of 8 on this board to a top of 12"; played once, "… so
    it scores the average, 6 of a top of 12"; each section's where each is compared alone
    ("In section B, matchpoints factored …"). [] for a board played as often as the most."""
    lines = []
    for f in traveller.get("factored") or ():
        played, top, scaled = f["played"], f["top"], f["scaled_top"]
        most = scaled // 2 + 1  # the results of the boards played the most
        if played == 1:
            how = (f"so it scores the average, {exact(scaled // 2)} of a top of "
                   f"{exact(scaled)}")
        else:
            how = (f"so each score is scaled from a top of {exact(top)} on this board to a "
                   f"top of {exact(scaled)}")
        text = (f"matchpoints factored (Neuberg): played {_times(played)}, not "
                f"{_times(most)}, {how}")
        lines.append(f"In section {f['section']}, {text}" if f.get("section")
                     else text[0].upper() + text[1:])
    return lines


def sent_back_here(irr: Any) -> str:
    """What the table a board was sent back to reads (Duplicate Law B(2)): what is wrong,
    when the report says it, and what to do."""
    number, found_at = irr.board.number, irr.meeting.table  # sent back from its meeting
    wrong = "a hand has the wrong number of cards"
    if irr.misplaced_card and irr.surplus_seat:
        wrong = f"{card_words(irr.misplaced_card)} was in {SEATS[irr.surplus_seat]}'s hand"
    elif irr.short_seat and irr.surplus_seat:
        wrong = f"{SEATS[irr.short_seat]} was short, {SEATS[irr.surplus_seat]} had the surplus"
    return (f"Board {number} came back to you from table {found_at}: {wrong}. Put it right "
            f"as you played it ({IRREGULAR_LAW[irr.stage]}), then return it to table "
            f"{found_at}.")


IRREGULAR_OUTCOMES = {"new-deal": "new deal", "fouled": "fouled board", "average": "average",
                      "cancelled": "board cancelled", "rectified": "put right",
                      "withdrawn": "report withdrawn"}
# What an irregular board's audit entry keeps of it (services.irregular._snapshot).
IRREGULAR_AUDIT_KEYS = {"board", "law", "stage", "status", "section", "table", "round",
                        "short_seat", "surplus_seat", "misplaced_card", "outcome",
                        "sent_to_table", "sent_to_round"}


def irregular_audit_words(snapshot: dict | None, *, several: bool = False) -> str:
    """An irregular board's audit entry (Duplicate Law B) as a director reads it: "Board 6,
    found at table 2, round 2 after the overplay began (Duplicate Law B(3)): South short,
    North with the surplus; decided: fouled board, N–S at fault", never "board: 6, law: …,
    short seat: S". "Section B: board 6, …" where the event has several sections."""
    if not snapshot:
        return ""
    text = f"Board {snapshot.get('board')}"
    if snapshot.get("table") is not None:
        text += f", found at table {snapshot['table']}"
        if snapshot.get("round") is not None:
            text += f", round {snapshot['round']}"
    if several and snapshot.get("section"):
        text = f"Section {snapshot['section']}: b{text[1:]}"
    stage = snapshot.get("stage")
    if stage in IRREGULAR_FOUND:
        text += f" {IRREGULAR_FOUND[stage]} ({IRREGULAR_LAW[stage]})"
    short, surplus = snapshot.get("short_seat"), snapshot.get("surplus_seat")
    if snapshot.get("misplaced_card") and surplus in SEATS:
        text += f": {card_words(snapshot['misplaced_card'])} in {SEATS[surplus]}'s hand"
        if short in SEATS:
            text += f", {SEATS[short]} short"
    elif short in SEATS and surplus in SEATS:
        text += f": {SEATS[short]} short, {SEATS[surplus]} with the surplus"
    status, outcome = snapshot.get("status"), snapshot.get("outcome")
    if status == "sent-back" and snapshot.get("sent_to_table") is not None:
        text += (f"; sent back to table {snapshot['sent_to_table']} (round "
                 f"{snapshot.get('sent_to_round')}) to be put right")
    elif status == "reported":
        text += "; reported, waiting for the director"
    elif status == "withdrawn" or outcome == "withdrawn":
        text += "; report withdrawn, the cards were right"
    elif outcome:
        words = IRREGULAR_OUTCOMES.get(outcome, outcome)
        if outcome == "fouled" and short in SEATS:
            words += f", {'N–S' if short in ('N', 'S') else 'E–W'} at fault"
        text += f"; decided: {words}"
    return text


def irregular_note(irr: Any) -> str:
    """One line for a traveller, a score card or a list: what became of the report."""
    number, law = irr.board.number, IRREGULAR_LAW[irr.stage]
    where = _where_found(irr)
    found = f" (found at {where})" if where else ""
    seats = ""
    if irr.short_seat and irr.surplus_seat:
        seats = f"{SEATS[irr.short_seat]} short, {SEATS[irr.surplus_seat]} with the surplus: "
    outcome, status = irr.outcome, irr.status
    if status == "withdrawn":
        return f"Board {number}: report withdrawn, the cards were right{found}."
    if status == "sent-back":
        return (f"Board {number} sent back to table {irr.sent_to_table} (round "
                f"{irr.sent_to_round}) to be rectified, {law}{found}.")
    if status == "reported":
        return f"Board {number}: a hand with the wrong number of cards{found}, {law}: " \
               "waiting for the director."
    if outcome == "new-deal":
        both = " at both tables" if irr.stage == "overplay" else ""
        return f"Board {number} re-dealt{both} under {law}{found}: the new deal is played."
    if outcome == "rectified":
        return (f"Board {number} sent back to table {irr.sent_to_table} (round "
                f"{irr.sent_to_round}) and rectified under {law}{found}.")
    if outcome == "cancelled":
        return f"Board {number} cancelled at both tables under {law}{found}."
    if outcome == "average":
        return f"Board {number}{found}: {seats}average for both pairs, {law}."
    if outcome == "fouled":
        side_at_fault = "N–S" if irr.short_seat in ("N", "S") else "E–W"
        return (f"Board {number}{found}: {seats}fouled board, {side_at_fault} at fault "
                f"(lowest and highest score), {law}.")
    return f"Board {number}: {law}{found}."


def pair_names(names: list[str], substitutes: list[dict] | None = None) -> str:
    """"Ann Lee & Bob Ray", and any substitute after: "Ann Lee & Bob Ray (Carl Day for
    Bob Ray from round 4)"."""
    text = " & ".join(names)
    if substitutes:
        text += " (" + "; ".join(f"{s['name']} for {s['for']} from round {s['from_round']}"
                                 for s in substitutes) + ")"
    return text


def player_label(player) -> str:
    """How the pairs list writes a player: ``Ann Lee #1234`` for a member (the club's
    number after "#"), ``Ann Lee`` for a visitor."""
    return f"{player.name} #{player.number}" if player.number else player.name


def listed(words: Sequence[object]) -> str:
    """Words as a sentence lists them: "11", "11 and 12", "10, 11 and 12"."""
    words = [str(w) for w in words]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def merge_words(before: dict | None, after: dict | None) -> tuple[str, str]:
    """A merge of two records of one person as its audit entry reads (before, after):
    "Two records of one person: member 122, Amos Pell; the visitor Amos Pell" and "Merged
    the visitor Amos Pell into member 122, Amos Pell: the seat in pair 6 and the score card
    are Amos Pell's now". The entry keeps the records as data (services.members_merge), and
    a director reads none of it as data."""
    before, after = before or {}, after or {}
    keep, drop = before.get("keep") or {}, before.get("drop") or {}
    merged = after.get("player") or keep

    def record(r: dict) -> str:
        name = r.get("name", "")
        return f"member {r['number']}, {name}" if r.get("number") else f"the visitor {name}"

    if drop.get("number") and not keep.get("number"):  # the visitor kept takes the number
        into = f"the visitor record of {keep.get('name', '')}, now member {drop['number']}"
    else:
        into = record(merged)
    moved: list[tuple[str, bool]] = []  # (words, plural)
    pairs = [str(n) for n in after.get("pairs") or []]
    if pairs:
        several = len(pairs) > 1
        moved.append((f"the seat{'s' if several else ''} in pair{'s' if several else ''} "
                      f"{listed(pairs)}", several))
    for key, one, many in (("substitutes", "the substitution", "substitutions"),
                           ("score_cards", "the score card", "score cards")):
        count = after.get(key) or 0
        if count:
            moved.append((one, False) if count == 1 else (f"{count} {many}", True))
    places = len(after.get("party_players") or ())  # a party night's own entry
    if places:
        moved.append(("the place at the party night", False) if places == 1
                     else (f"{places} places at the party night", True))
    text = f"Merged {record(drop)} into {into}"
    if moved:
        plural = len(moved) > 1 or moved[0][1]
        text += (f": {listed([words for words, _ in moved])} {'are' if plural else 'is'} "
                 f"{merged.get('name', '')}'s now")
    return f"Two records of one person: {record(keep)}; {record(drop)}", text


def table_label(table: int, section: str = "", *, several: bool = False,
                capital: bool = True) -> str:
    """"Table 3", or "Section B, table 3" when the event has several sections."""
    if several and section:
        return f"{'Section' if capital else 'section'} {section}, table {table}"
    return f"{'Table' if capital else 'table'} {table}"


def agree_round_words(after: dict | None, *, several: bool = False) -> str:
    """A round agreed (Duplicate Law E) as its audit entry reads: "Round 2 agreed at table
    3", "Round 2 agreed at tables 1–4", "Section B: round 2 agreed at table 3" where the
    event has several sections; agreed by the director with boards not in, "Round 2 agreed
    at tables 1–4 with 2 boards not in: table 3: board 5 not entered; table 4: board 6 not
    confirmed". The entry keeps {"section", "round", "tables", "outstanding"}
    (services.round_agree; the table's one-statement road writes the same)."""
    after = after or {}
    tables = [t for t in after.get("tables") or () if isinstance(t, int)]
    number = after.get("round")
    text = f"Round {number} agreed" if number is not None else "Round agreed"
    if tables:
        text += f" at table{'s' if len(tables) > 1 else ''} {board_range(tables)}"
    if several and after.get("section"):
        text = f"Section {after['section']}: {text[0].lower()}{text[1:]}"
    outstanding = [str(o) for o in after.get("outstanding") or ()]
    if outstanding:
        # Each is selectors.Outstanding's "Round 2, table 3: board 5 not entered": the
        # round is said once, at the start.
        prefix = f"Round {number}, "
        lines = [o[len(prefix):] if o.startswith(prefix) else o for o in outstanding]
        text += (f" with {len(lines)} board{'s' if len(lines) > 1 else ''} not in: "
                 + "; ".join(lines))
    return text


# --- seasons ---------------------------------------------------------------------------------


def season_rule(season: Any) -> str:
    """The season's rule in words: "Best 5 nights of the season, points for places
    (10, 8, 6 …); at least 3 nights to be placed"."""
    what = "points for places" if season.counts == "points" else "each night's score"
    scale = ", ".join(str(p) for p in season.points_scale or [])
    if season.counts == "points" and scale:
        what += f" ({scale})"
    rule = {"total": f"Total of {what}", "average": f"Average of {what}",
            "best": f"Best {season.best_of} night{'s' if season.best_of != 1 else ''}: "
                    f"{what}"}[season.rule]
    if season.min_events > 1:
        rule += f"; at least {season.min_events} nights to be placed"
    return rule


def season_score(value: Number, *, counts: str, method: str | None) -> str:
    """A season's (or one night's) score as the table shows it: points as "6½", a
    plus/minus as the standings show it, the nearest whole ("+12" for 12⅓), a matchpoint
    percentage to two decimals ("54.17%"), as the standings do."""
    if value is None or value == "":
        return ""
    if counts == "points":
        return number(value)
    if method == "matchpoints":
        return percent(fraction(value))
    return plus_minus(value)


def season_exact(value: Number, *, counts: str, method: str | None) -> str:
    """A season's (or one night's) score exactly, for a tap or a note: a plus/minus with
    its sign ("+12⅓", as ``season_score`` shows it "+12"), points and percentages as they
    are ("6½", "54⅙")."""
    if counts == "points" or method == "matchpoints":
        return exact(value)
    return signed_exact(value)


def day(value: datetime.date | str) -> str:
    """A date as every page writes it: "26 Nov 2026" (from a date or "2026-11-26")."""
    if isinstance(value, str):
        value = datetime.date.fromisoformat(value)
    return f"{value.day} {value:%b %Y}"


def _day(iso: str) -> str:
    """"2026-11-03" as a column head: "3 Nov"."""
    day = datetime.date.fromisoformat(iso)
    return f"{day.day} {day:%b}"


def season_rows(table: dict) -> tuple[list[dict], list[dict]]:
    """The season's table for a page (and the PDF): each counted event as a column, and
    each row's people (member numbers for links), place ("–" below the minimum
    attendance), shown score and nights ("2= · 8", in brackets when not counted)."""
    columns = [{**e, "day": _day(e["date"])} for e in table["events"] if e["counts"]]
    counts, method = table["counts"], table["method"]
    rows = []
    for row in table["rows"]:
        by_event = {n["event"]: n for n in row["nights"]}
        nights = []
        for e in columns:
            n = by_event.get(e["id"])
            if n is None:
                nights.append(None)
                continue
            value = n["points"] if counts == "points" else n["score"]
            written = season_score(value, counts=counts, method=method)
            exactly = season_exact(value, counts=counts, method=method)
            nights.append({"place": n["place"], "counted": n["counted"], "value": written,
                           "exact": exactly if exactly not in written else ""})
        rows.append({**row, "place": row["place"] or "–", "placed": row["place"] is not None,
                     "shown": season_score(row["score"], counts=counts,
                                                      method=method),
                     "exact": season_exact(row["score"], counts=counts, method=method),
                     "night_cells": nights})
    return columns, rows
