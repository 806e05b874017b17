"""A matchpoint night's score card by e-mail, the text and the PDF attached: each board's
matchpoints exactly and unsigned ("½", never "+1 (½)"), the running total likewise, and the
total as the standings give it, "Total: 12½ of 24 (52.08%)" (pair 1 of the reports' night:
4, 0, 4, 0, 4 and ½ on board 6, factored up by Neuberg's formula)."""

from __future__ import annotations

from tournaments import presenters, selectors, services, standings
from tournaments.mail.cards import pair_card
from tournaments.models import Event

from ..reports.night import build_night
from ..reports.pdf import pdf_text
from .conftest import address_of, give_addresses

DONE = "the last round was played but not confirmed"


def board_lines(text: str) -> dict[int, list[str]]:
    """Each board's line of the card's text, split into its columns."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Board"))
    found = {}
    for line in lines[start + 1:]:
        if not line.strip():
            break
        found[int(line.split()[0])] = line.split("  ")
    return found


def test_the_text_writes_matchpoints_unsigned_and_the_standings_total(director):
    night = build_night(director, method="matchpoints")
    card = pair_card(night.event, 1)
    head = next(line for line in card.text.splitlines() if line.startswith("Board"))
    assert head.split()[-3:] == ["Matchpoints", "Running", "total"]
    lines = board_lines(card.text)
    columns = {board: [c.strip() for c in line if c.strip()][-2:]
               for board, line in lines.items()}
    assert columns == {1: ["4", "4"], 2: ["0", "4"], 3: ["4", "8"], 4: ["0", "8"],
                       5: ["4", "12"], 6: ["½", "12½"]}
    assert "Total: 12½ of 24 (52.08%)" in card.text
    for line in lines.values():  # the net score is signed; the matchpoints never are
        assert not any(c.strip().startswith("+") for c in line[-2:])
    # The PDF attached says the same.
    printed = pdf_text(card.pdf)
    assert "Total: 12½ of 24 (52.08%)" in printed
    assert "+1 (½)" not in printed and "+13" not in printed


def test_every_card_totals_as_the_standings_do(director):
    night = build_night(director, method="matchpoints")
    ranked = {row["pair"]: row for ranking in standings.standings(night.event)["rankings"]
              for row in ranking["rows"]}
    for pair in range(1, 7):
        row = ranked[pair]
        text = pair_card(night.event, pair).text
        assert (f"Total: {presenters.exact(row['matchpoints'])} of {row['top']} "
                f"({row['score']:.2f}%)") in text
        card = selectors.scorecard(night.event, pair)
        for r in card["rows"]:
            line = board_lines(text)[r["board"]]
            cells = [c.strip() for c in line if c.strip()]
            assert cells[-2:] == [presenters.exact(r["plus_minus"]),
                                  presenters.exact(r["running"])], (pair, r["board"])


def test_the_mail_sent_has_it(director, smtp, django_capture_on_commit_callbacks):
    night = build_night(director, method="matchpoints")
    give_addresses()
    with django_capture_on_commit_callbacks(execute=True):
        night.event = services.event_close(event=night.event, actor=night.actor, reason=DONE,
                                           publish_final=True)
    assert night.event.published == Event.Published.FINAL
    [message] = smtp.to(address_of("Ann Lee"))
    text = message.get_body(("plain",)).get_content()
    assert "Total: 12½ of 24 (52.08%)" in text
    assert "+13" not in text and "(½)" not in text
    [attachment] = list(message.iter_attachments())
    assert "Total: 12½ of 24 (52.08%)" in pdf_text(attachment.get_content())
