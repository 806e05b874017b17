"""Template filters for the game: suits, contracts, sides, rulings, numbers and scores.

Every filter writes through ``tournaments.presenters`` (the one place that says how a
number, a score, a suit, a contract, a side or a ruling is written); this module only
wraps the words in HTML (a red suit, a rounded score with its exact value on tap).
"""

from django import template
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe

from .. import presenters

register = template.Library()


@register.filter
def denomination(code: str) -> str:
    """A denomination as players write it: ♠ ♥ ♦ ♣, royal spades as R♠, no trump NT."""
    text = presenters.denomination(code)
    if code not in presenters.DENOMINATIONS or code == "NT":
        return text
    return format_html('<span class="{}">{}</span>', "red" if presenters.is_red(code)
                       else "black", text)


@register.filter
def suit(letter: str) -> str:
    return denomination(letter)


@register.simple_tag
def contract(level, denom: str, doubled: str = "", declarer: str = "") -> str:
    """3♥ × by S; an empty level is a passed-out deal."""
    if not level:
        return presenters.contract(level, denom)
    doubling = presenters.DOUBLING.get(doubled or "", "")
    by = f" by {declarer}" if declarer else ""
    return format_html("{}{}{}{}", level, denomination(denom), doubling, by)


@register.filter
def signed(value) -> str:
    """+12 / −7 / 0 / +6½ for plus/minus scores."""
    return presenters.signed(value)


@register.filter
def number(value) -> str:
    """6½, −22⅗, 190, or two decimals (presenters.number)."""
    return presenters.number(value)


@register.filter
def verdict(match) -> str:
    """A team match's result: "Home won by 46", "Home leads by 46: not every board is in
    yet"."""
    return presenters.match_verdict(match)


@register.filter
def tricks_won(row) -> int | None:
    """At whist, the tricks the card's pair's side won in play (presenters)."""
    return presenters.tricks_won(row)


@register.filter
def match_totals(match) -> dict:
    """A team match's points won, odd-pair average added and total (presenters)."""
    return presenters.match_totals(match)


@register.filter
def award_words(row) -> str:
    """A team match's ruled board, what each side scores (presenters.award_words)."""
    return presenters.award_words(row)


@register.filter
def ruling_words(row) -> str:
    """A score card's ruled board in words: the adjustment, why it was not played, or the
    ruling and its award (presenters.ruling_words)."""
    return presenters.ruling_words(row)


@register.filter
def side_award(row, is_whist=False) -> str:
    """A score card's ruled board, the pair's own award: "+16⅔" (presenters.side_award)."""
    return presenters.side_award(row, is_whist=bool(is_whist))


@register.filter
def joined_late_words(card) -> str:
    """"Rounds 1 and 2 not played: pair 8 joined late, from round 3." (presenters)."""
    return presenters.joined_late_words(card["pair"], card.get("joined_round"))


@register.filter
def board_team_words(traveller) -> list[str]:
    """A team match's board, what each team's pairs won on it (presenters)."""
    return presenters.board_team_words(traveller)


@register.filter
def traveller_average(traveller) -> str:
    """The average the traveller's ± are against, in words (presenters.traveller_average)."""
    return presenters.traveller_average(traveller)


@register.filter
def neuberg_notes(traveller) -> list[str]:
    """A matchpoint board factored up, in words (presenters.neuberg_notes)."""
    return presenters.neuberg_notes(traveller)


@register.filter
def exact(value) -> str:
    """The exact value in full: −40⅓, 5³⁄₇ (presenters.exact)."""
    return presenters.exact(value)


@register.filter
def signed_exact(value) -> str:
    """A plus/minus's exact value with its sign: +4⅓, −40⅓, 0 (presenters.signed_exact)."""
    return presenters.signed_exact(value)


@register.filter
def side(code: str) -> str:
    """"N–S" / "E–W"."""
    return presenters.side(code)


@register.filter
def seat(code: str) -> str:
    """"North", "East", "South", "West"."""
    return presenters.seat(code)


@register.filter
def side_name(code: str) -> str:
    """"North–South", "East–West", "All pairs"."""
    return presenters.side_name(code)


@register.filter
def ruling(kind: str, offending: str = "") -> str:
    """"Fouled board (Duplicate Law B), N–S at fault"."""
    return presenters.ruling(kind, offending)


@register.filter
def method(code: str) -> str:
    """How an event is scored: "plus/minus against the average (Duplicate Law H)"."""
    return presenters.method(code)


@register.filter
def movement(code: str) -> str:
    """"Mitchell", "¾ Howell"."""
    return presenters.movement(code)


@register.filter
def movement_size(m) -> str:
    """"4 tables and one sit-out, 9 pairs"."""
    return presenters.movement_size(m)


@register.filter
def person(user) -> str:
    """A user by name (the full name, else the user name)."""
    return presenters.person(user)


@register.filter
def who(entry) -> str:
    """An audit entry's author by name: "Ann Lee (director)", "Table 3"."""
    return presenters.actor(entry.actor_label, entry.actor)


@register.filter
def sentence(text) -> str:
    """A message with a capital first letter."""
    return presenters.sentence(text)


@register.filter
def boards_played(row: dict, late_pairs=None) -> str:
    """A standings row's Boards cell: "24", or "22 of 24" with 2 boards not played (or
    missed by a late pair, `late_pairs`: selectors.late_pairs, as the view gives them)."""
    return presenters.row_boards_played(row, late_pairs)


@register.filter
def late_missed(row: dict, late_pairs=None) -> int:
    """The boards a standings row's late pair missed, 0 for any other (presenters)."""
    return presenters.late_missed(row, late_pairs)


@register.filter
def late_pairs_notes(standings, late_pairs=None) -> list[str]:
    """What each late pair's "10 of 14" means (presenters.late_pairs_notes)."""
    return presenters.late_pairs_notes(standings, late_pairs)


@register.filter
def not_played_note(standings) -> str:
    return presenters.not_played_note(standings)


@register.filter(is_safe=True)
def linked_pair_names(row) -> str:
    """A standings row's players, each member's name a link to their own results page
    (/members/<number>/; a visitor's name plain), then any substitutes as pair_names."""
    numbers = row.get("members") or []
    names = []
    for i, name in enumerate(row.get("names") or []):
        number = numbers[i] if i < len(numbers) else None
        names.append(format_html('<a href="{}">{}</a>', reverse("public-member", args=[number]),
                                 name) if number else escape(name))
    subs = [{**s, "name": escape(s["name"]), "for": escape(s["for"])}
            for s in row.get("substitutes") or []]
    return mark_safe(presenters.pair_names(names, subs))  # noqa: S308


@register.filter(is_safe=True)
def pair_names(names, substitutes=None) -> str:
    """"Ann Lee & Bob Ray (Carl Day for Bob Ray from round 4)" (presenters.pair_names):
    the names escaped, the "&" between them kept as the page's own text."""
    subs = [{**s, "name": escape(s["name"]), "for": escape(s["for"])}
            for s in substitutes or []]
    return mark_safe(presenters.pair_names([escape(n) for n in names or []], subs))  # noqa: S308


@register.filter
def table_label(where, style: str = "") -> str:
    """A TableCode or a Meeting named "Table 3", or "Section B, table 3" when its event
    has several sections; `|table_label:"in"` starts in lower case ("section B, table 3")."""
    section = where.section
    several = getattr(section, "_several", None)
    if several is None:
        several = section._several = section.event.sections.count() > 1
    return presenters.table_label(where.table, section.name, several=several,
                                  capital=style != "in")
