"""The web score card writes a board's net score with its sign, as the traveller and the
score-card PDF do ("+170", "−48", "0"), never a bare "170" that reads like a loss's."""

import re

from tests.public.test_pages import page
from tournaments import presenters, selectors


def score_cells(html: str) -> list[str]:
    """The Score cell of each board's row on the card: the seventh cell of a contract row,
    the fifth of a ruling's (its words span the contract, by and tricks cells)."""
    body = html.split('data-testid="scorecard"', 1)[1]
    body = body.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    scores = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        tds = [re.sub(r"<[^>]+>", "", c).strip()
               for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        scores.append(tds[4] if 'colspan="3"' in row else tds[6])
    return scores


def test_each_boards_score_on_the_card_has_its_sign(client, night):
    won = 0
    for pair in range(1, 7):
        card = selectors.scorecard(night.event, pair)
        shown = score_cells(page(client, night, f"pairs/{pair}/"))
        # A ruled board (the night's average) shows its award, signed, as a score.
        assert shown == [presenters.signed(r["score"]) if r["score"] is not None
                         else presenters.side_award(r) for r in card["rows"]], pair
        for row, text in zip(card["rows"], shown, strict=True):
            if row["score"] and row["score"] > 0:
                assert text == f"+{row['score']}"
                won += 1
    assert won, "the night should have boards won, whose scores carry a plus sign"
