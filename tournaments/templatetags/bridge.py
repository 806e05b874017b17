"""Template filters for the game: suit symbols, contracts, signed scores."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()

SYMBOLS = {
    "S": ("♠", "black"),
    "H": ("♥", "red"),
    "D": ("♦", "red"),
    "C": ("♣", "black"),
    "RS": ("♠", "black"),
}


@register.filter
def denomination(code: str) -> str:
    """A denomination as players write it: ♠ ♥ ♦ ♣, royal spades as R♠, no trump NT."""
    if code == "NT":
        return "NT"
    if code not in SYMBOLS:
        return code or ""
    symbol, colour = SYMBOLS[code]
    prefix = "R" if code == "RS" else ""
    return format_html('<span class="{}">{}{}</span>', colour, prefix, symbol)


@register.filter
def suit(letter: str) -> str:
    return denomination(letter)


@register.simple_tag
def contract(level, denom: str, doubled: str = "", declarer: str = "") -> str:
    """3♥ X by S; an empty level is a passed-out deal."""
    if not level:
        return "Passed out"
    doubling = {"X": " ×", "XX": " ××"}.get(doubled or "", "")
    by = f" by {declarer}" if declarer else ""
    return format_html("{}{}{}{}", level, denomination(denom), doubling, by)


@register.filter
def signed(value) -> str:
    """+12 / −7 / 0 for plus/minus scores."""
    if value is None or value == "":
        return ""
    number = int(value)
    if number > 0:
        return f"+{number}"
    if number < 0:
        return mark_safe(f"&minus;{-number}")  # noqa: S308 - an int we formatted ourselves
    return "0"


@register.filter
def minus(value) -> str:
    """An exact value as text ("-121/3") with a true minus sign (−121/3)."""
    text = "" if value is None else str(value)
    return "\u2212" + text[1:] if text.startswith("-") else text
