"""One pair's personal score card for the mail: the text of the message and the PDF.

The PDF is the print room's (``reports.documents.ScorecardsRenderer``) with the one
card; the text writes the same rows in the same words and numbers ("6½", "−22⅗",
"3♥ × by S"), as a table of fixed-width columns that a plain-text mail keeps.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from django.conf import settings
from django.urls import reverse

from .. import presenters, selectors
from ..models import Event
from ..reports.base import contract_words, slug
from ..reports.documents import ScorecardsRenderer


@dataclass(frozen=True)
class Card:
    """What a player's mail says about their pair: the subject, the text, the PDF."""

    pair: int
    names: str
    subject: str
    text: str
    filename: str
    pdf: bytes


def pair_card(event: Event, pair_number: int) -> Card:
    """The pair's card as the score card pages show it, with the PDF of the same card."""
    card = selectors.scorecard(event, pair_number)
    data = {"event": event.name, "rules": event.rules, "method": event.method, "cards": [card]}
    _name, _mimetype, pdf = ScorecardsRenderer().render(data)
    return Card(
        pair=pair_number,
        names=card["names_text"],
        subject=f"Your score card: {event.name}, pair {pair_number}",
        text=card_text(event, card),
        filename=f"{slug(event.name)}-pair-{pair_number}-score-card.pdf",
        pdf=pdf,
    )


def _exact_note(shown, exact) -> str:
    """As the PDF writes it: a plus/minus's whole number shown, the exact value beside it,
    signed, when they differ ("+4 (+4⅓)")."""
    if shown is None:
        return ""
    text = presenters.signed(shown)
    if presenters.is_rounded(shown, exact):
        text += f" ({presenters.signed_exact(exact)})"
    return text


def _played(row: dict, whist: bool) -> list[str]:
    """The contract, declarer and tricks columns (whist: the tricks alone); a ruled board's
    words as the traveller, the web card and the PDF write them (why it was not played,
    the award: contract_words)."""
    words = contract_words(row)
    late = " (played late)" if row.get("late_play") else ""
    if whist:  # the tricks the pair's side won in play
        tricks = "" if row["tricks"] is None else str(presenters.tricks_won(row))
        return [(words or tricks) + late]
    if words is not None:
        return [words + late, "", ""]
    contract = presenters.contract(row["level"], row["denomination"], row.get("doubled"))
    tricks = "" if row["tricks"] is None else str(row["tricks"])
    return [contract + late, row["declarer"] or "", tricks]


def _table(head: list[str], rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(line[i]) for line in [head, *rows]) for i in range(len(head))]

    def line(cells: list[str]) -> str:
        return "  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                         for i, (cell, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    return [line(head), *(line(r) for r in rows)]


def _matchpoints(value) -> str:
    """A board's matchpoints, or the running total of them, exactly and unsigned ("6½")."""
    return "" if value is None else presenters.exact(value)


def card_text(event: Event, card: dict) -> str:
    """The card as lines of text, as the PDF beside it has it: the board rows (scores
    signed; matchpoints exactly, unsigned), the notes under them, the total."""
    whist = event.is_whist
    team = card["method"] == "total-points"
    compared = not team
    mp = card["method"] == "matchpoints"
    head = ["Board", "Sat", "Against"] + (["Tricks won in play"] if whist
                                          else ["Contract", "By", "Tricks"])
    # A team match: what the pair won for its team (Duplicate Law G), not a net score.
    head += ["Points won", "Running total"] if team else ["Score"]
    if compared:
        head += ["Matchpoints" if card["method"] == "matchpoints" else "±", "Running total"]
    rows = []
    for r in card["rows"]:
        line = [str(r["board"]), presenters.side(r["direction"]), str(r["opponents"]),
                *_played(r, whist)]
        if team:
            line += (["—", "—"] if r["plus_minus"] is None else
                     [presenters.exact(r["plus_minus"]), presenters.exact(r["running"])])
        elif r["score"] is None and r.get("ruling"):  # the award the traveller gives, or ""
            line.append(presenters.side_award(r, is_whist=whist))
        else:
            line.append(("" if r["score"] is None else str(r["score"])) if whist
                        else presenters.signed(r["score"]))
        if mp:
            line += [_matchpoints(r["plus_minus"]), _matchpoints(r["running"])]
        elif compared:
            line += [_exact_note(r["shown"], r["plus_minus"]),
                     _exact_note(r["running_shown"], r["running"])]
        rows.append(line)
    numeric = {0, 2, len(head) - 1} | ({len(head) - 2, len(head) - 3} if compared
                                       else {len(head) - 2})
    if not whist:
        numeric.add(5)
    lines = _table(head, rows, numeric) if rows else ["No boards played."]
    late = presenters.joined_late_words(card.get("pair"), card.get("joined_round"))
    if late:  # the rounds before a late pair joined have no rows
        lines = [late, "", *lines]
    notes = [f"Board {r['board']}: {r['note']}" for r in card["rows"] if r.get("note")]
    if notes:
        lines += ["", *notes]
    if mp and rows:  # as the standings give it: "12½ of 24 (52.08%)"
        lines += ["", f"Total: {card['total_text']}"]
        if card.get("total_note"):
            lines += textwrap.wrap(card["total_note"], 72)
    elif compared and rows:
        lines += ["", f"Total: {_exact_note(card['shown'], card['total'])}"]
    elif rows:
        lines += ["", f"Total won for the team: {presenters.exact(card['total'])}"]
    return "\n".join(lines)


def standings_url(event: Event, pair_number: int) -> str:
    """The pair's page on the site (its card, with links to every board)."""
    return settings.SITE_URL + reverse("public-pair",
                                       kwargs={"pk": event.pk, "number": pair_number})
