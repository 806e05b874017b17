"""A matchpoint night's score card on the pair's page: each board's matchpoints exactly and
unsigned ("½", "4"; never "+4", "+1 (½)" or "1/2"), the running total likewise, and the
total as the standings give it, "12½ of 24 (52.08%)". Matchpoints are never negative and
never rounded, so the card says nothing of rounding. A plus/minus night keeps its signs.

The night (tests/reports/night.py): 3 tables, 6 boards, a top of 4 a board; board 6 is
ruled average at one table, so its other two results are factored up by Neuberg's formula
(rules.md §4): the pair that lost it scores ((0 + 1) × 3 / 2) − 1 = ½."""

import re

from tests.reports.night import build_night
from tournaments import presenters, selectors, standings

from .test_pages import page


def body_rows(html: str) -> list[list[str]]:
    """The text of each cell of each board's row of the card."""
    body = html.split('data-testid="scorecard"', 1)[1]
    body = body.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [[re.sub(r"<[^>]+>", "", c).strip()
             for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def total_cell(html: str) -> str:
    return re.search(r'data-testid="total">(.*?)</th>', html, re.S).group(1).strip()


def standing_rows(event) -> dict[int, dict]:
    return {row["pair"]: row for ranking in standings.standings(event)["rankings"]
            for row in ranking["rows"]}


def test_a_matchpoint_card_writes_matchpoints_unsigned_and_exactly(client, director):
    night = build_night(director, method="matchpoints")
    html = page(client, night, "pairs/1/")
    rows = body_rows(html)
    # Pair 1 (N–S): 4, 0, 4, 0, 4 on boards 1-5, and ½ on board 6 (Neuberg).
    assert [row[-2] for row in rows] == ["4", "0", "4", "0", "4", "½"]
    assert [row[-1] for row in rows] == ["4", "4", "8", "8", "12", "12½"]
    assert total_cell(html) == "12½ of 24 (52.08%)"
    # What the standings say of pair 1: 52.08%, 12½ matchpoints of 24.
    row = standing_rows(night.event)[1]
    assert (row["score"], row["matchpoints"], row["top"]) == (52.08, "25/2", 24)
    assert "52.08%" in page(client, night, "standings/")
    # Nothing on the card is rounded: no note says it is.
    assert 'data-testid="rounded-note"' not in html
    assert "rounded to the nearest point" not in html


def test_every_pairs_card_totals_as_the_standings_do(client, director):
    night = build_night(director, method="matchpoints")
    ranked = standing_rows(night.event)
    halves = 0
    for pair in range(1, 7):
        card = selectors.scorecard(night.event, pair)
        html = page(client, night, f"pairs/{pair}/")
        row = ranked[pair]
        assert total_cell(html) == (f"{presenters.exact(row['matchpoints'])} of {row['top']} "
                                    f"({row['score']:.2f}%)"), pair
        for cells, r in zip(body_rows(html), card["rows"], strict=True):
            mp, running = cells[-2], cells[-1]
            assert mp == presenters.exact(r["plus_minus"]), (pair, r["board"])
            assert running == presenters.exact(r["running"]), (pair, r["board"])
            for text in (mp, running):
                assert "+" not in text and "/" not in text and "." not in text
            halves += "½" in mp
        assert "rounded to the nearest point" not in html
    assert halves, "the night should have a board scored in half matchpoints"


def test_a_plus_minus_card_keeps_its_signs(client, director):
    night = build_night(director)
    card = selectors.scorecard(night.event, 1)
    html = page(client, night, "pairs/1/")
    assert total_cell(html) == presenters.signed(card["shown"])
    assert [row[-2] for row in body_rows(html)] == [presenters.signed(r["shown"])
                                                    for r in card["rows"]]
    assert " of " not in total_cell(html)


def test_under_own_average_the_total_is_the_standings_and_says_why(client, director):
    """Credited its own average on the board it did not play (docs/decisions.md, 85), the
    pair's matchpoints and top cover the whole session: more than its running total, which
    adds the boards it played. The card gives the standings' total and says why."""
    from tournaments.models import Event

    from .test_boards_not_played import _not_played

    night = build_night(director, method="matchpoints")
    Event.objects.filter(pk=night.event.pk).update(not_played_scoring="own-average")
    night.event.refresh_from_db()
    pair = _not_played(night).ns_pair.number
    row = standing_rows(night.event)[pair]
    assert row["not_played"] == 1 and row["top"] == 24
    card = selectors.scorecard(night.event, pair)
    html = page(client, night, f"pairs/{pair}/")
    assert total_cell(html) == (f"{presenters.exact(row['matchpoints'])} of 24 "
                                f"({row['score']:.2f}%)")
    assert presenters.fraction(card["total"]) * 6 / 5 == presenters.fraction(row["matchpoints"])
    note = re.search(r'data-testid="total-note">(.*?)</p>', html, re.S).group(1)
    assert note == (f"On the board it did not play, the pair is credited with its own "
                    f"average on the 5 it played ({presenters.exact(card['total'])} of 20), "
                    f"as the standings do: the total covers all 6 boards.")
