"""The printed score cards of a matchpoint night: each board's matchpoints exactly and
unsigned ("½", never "+1" with "(½)" beneath), the running total likewise, and the total as
the standings give it, "Total: 12½ of 24 (52.08%)". Plus/minus cards keep their signs.

Pair 1 of the reports' night scores 4, 0, 4, 0, 4 and, on board 6 (ruled average at one
table, its other two results factored up by Neuberg's formula), ½."""

from tournaments import presenters, selectors, services, standings
from tournaments.models import Event, Result
from tournaments.reports.documents import ScorecardsRenderer
from tournaments.reports.services import report_data
from tournaments.services import Actor

from .night import build_night
from .pdf import cells_of, score_cards
from .test_renderers import render


def printed_cards(event) -> list[str]:
    """Each pair's printed card (several to a page), one cell or line a line."""
    _, content, _ = render(ScorecardsRenderer, report_data(event, "scorecards"))
    return [cells_of(card) for card in score_cards(content)]


def standing_rows(event) -> dict[int, dict]:
    return {row["pair"]: row for ranking in standings.standings(event)["rankings"]
            for row in ranking["rows"]}


def test_pair_ones_card_prints_its_matchpoints_as_the_standings_total_them(director):
    night = build_night(director, method="matchpoints")
    page = printed_cards(night.event)[0]
    assert "Pair 1: Ann Lee & Bob Ray" in page
    # Board 6: the net score 0, then ½ and the running total 12½, unsigned and exact.
    assert "\n6 N–S 5 2♥ W 8 0 ½ 12½\n" in page
    assert "\n1 N–S 4 3♠ S 9 +2 4 4\n" in page
    assert "Total: 12½ of 24 (52.08%)" in page
    assert "Total: +" not in page and "(½)" not in page and "13/2" not in page
    assert standing_rows(night.event)[1]["score"] == 52.08


def test_every_card_prints_the_standings_total(director):
    night = build_night(director, method="matchpoints")
    ranked = standing_rows(night.event)
    for pair, page in enumerate(printed_cards(night.event), start=1):
        row = ranked[pair]
        assert (f"Total: {presenters.exact(row['matchpoints'])} of {row['top']} "
                f"({row['score']:.2f}%)") in page, pair
        for r in selectors.scorecard(night.event, pair)["rows"]:
            if r["plus_minus"] is not None and not r["ruling"]:
                line = next(line for line in page.splitlines()
                            if line.startswith(f"{r['board']} {presenters.side(r['direction'])} "))
                assert line.endswith(f" {presenters.signed(r['score'])} "
                                     f"{presenters.exact(r['plus_minus'])} "
                                     f"{presenters.exact(r['running'])}"), (pair, line)


def test_under_own_average_the_card_says_why_its_total_is_more(director):
    night = build_night(director, method="matchpoints")
    Event.objects.filter(pk=night.event.pk).update(not_played_scoring="own-average")
    night.event.refresh_from_db()
    first = Result.objects.filter(event=night.event).select_related(
        "board", "ns_pair", "ew_pair").order_by("pk").first()
    services.ruling_award(event=night.event, board=first.board.number,
                          ns=first.ns_pair.number, ew=first.ew_pair.number, kind="not-played",
                          actor=Actor.director(night.director), reason="no time left")
    night.event.refresh_from_db()
    pair = first.ns_pair.number
    row = standing_rows(night.event)[pair]
    page = " ".join(printed_cards(night.event)[pair - 1].split())
    assert (f"Total: {presenters.exact(row['matchpoints'])} of 24 ({row['score']:.2f}%)"
            in page)
    assert "credited with its own average on the 5 it played" in page


def test_plus_minus_cards_keep_their_signs(director):
    night = build_night(director)
    page = printed_cards(night.event)[0]
    card = selectors.scorecard(night.event, 1)
    assert f"Total: {presenters.signed(card['shown'])}" in page
    assert " of " not in page.split("Total:", 1)[1].splitlines()[0]
