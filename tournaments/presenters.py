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
- A *side* is "N–S" or "E–W" (with an en dash); its long name "North–South".
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.utils import timezone

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
    v = fraction(value)
    sign, whole, rest = _split(v)
    if not rest:
        return f"{sign}{whole}"
    if rest in VULGAR:
        return f"{sign}{whole or ''}{VULGAR[rest]}"
    two = (Decimal(abs(v.numerator)) / Decimal(v.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{sign if two else ''}{two}"


def exact(value: Number) -> str:
    """The exact value in full: 6½, −40⅓, 5³⁄₇ (never "n/d"); "" for None."""
    if value is None or value == "":
        return ""
    sign, whole, rest = _split(fraction(value))
    if not rest:
        return f"{sign}{whole}"
    if rest in VULGAR:
        return f"{sign}{whole or ''}{VULGAR[rest]}"
    top = str(rest.numerator).translate(_SUPERSCRIPT)
    bottom = str(rest.denominator).translate(_SUBSCRIPT)
    return f"{sign}{whole or ''}{top}{FRACTION_SLASH}{bottom}"


def is_rounded(shown: Number, value: Number) -> bool:
    """Whether `shown` (what a page prints) differs from the exact `value`."""
    if value is None or value == "":
        return False
    if shown is None or shown == "":
        return True
    try:
        return fraction(shown) != fraction(value)
    except (ValueError, ZeroDivisionError):
        return True


def signed(value: Number) -> str:
    """A score with its sign: +12, −7, 0, +6½; "" when there is none."""
    text = number(value)
    if text and fraction(value) > 0:
        return "+" + text
    return text


def percent(value: float | Fraction | int | None) -> str:
    """A matchpoint percentage to two decimals: "56.25%"."""
    if value is None:
        return ""
    shown = Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{shown}%".replace("-", MINUS)


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
    "cancelled": "Cancelled: new deal (Duplicate Law B)",
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


def movement_size(m: Any) -> str:
    """A movement's size as the director sets out the room: "4 tables and one sit-out,
    9 pairs" (a Howell leaves the missing pair's table out), "5 tables, 10 pairs"."""
    in_play = len({t.table for r in m.rounds for t in r.tables}) or m.tables
    tables = f"{in_play} table{'s' if in_play != 1 else ''}"
    if any(r.sit_out for r in m.rounds):
        tables += " and one sit-out"
    return f"{tables}, {m.pairs} pairs"


def _getter(row: Any):
    if isinstance(row, dict):
        return row.get
    return lambda name, default=None: getattr(row, name, default)


def result_line(row: Any, *, is_whist: bool = False) -> str:
    """A result (or an audit snapshot of one) in a line a player reads: "3♥ × by S, 9 tricks"."""
    if row is None:
        return "No result"
    get = _getter(row)
    if get("voided", False):
        return "Removed"
    if get("ruling", ""):
        return ruling(get("ruling", ""), get("offending", ""))
    if get("passed_out", False):
        return "Passed out"
    tricks = get("tricks")
    if is_whist or not get("level"):
        return f"N–S won {tricks} tricks" if tricks is not None else "No result"
    played = contract(get("level"), get("denomination", ""), get("doubled", ""), get("declarer"))
    return f"{played}, {tricks} tricks"


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
    "Whist Law 85"."""
    parts = []
    for part in str(law).split(","):
        part = part.strip()
        if part.startswith("Duplicate "):
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


def pair_names(names: list[str], substitutes: list[dict] | None = None) -> str:
    """"Ann Lee & Bob Ray", and any substitute after: "Ann Lee & Bob Ray (Carl Day for
    Bob Ray from round 4)"."""
    text = " & ".join(names)
    if substitutes:
        text += " (" + "; ".join(f"{s['name']} for {s['for']} from round {s['from_round']}"
                                 for s in substitutes) + ")"
    return text
