"""The printed guide cards say where each round's boards come from (as the table page
does), that a pair staying put stays, and that a pair that left has no more rounds."""

import pytest

from boards.movements import generate
from tournaments import services
from tournaments.reports.documents import GuidecardsRenderer
from tournaments.reports.services import report_data
from tournaments.services import Actor

from .night import movement_event
from .pdf import pdf_pages
from .test_renderers import render

pytestmark = pytest.mark.django_db


def flat(page: str) -> str:
    return " ".join(page.split())


def test_the_printed_table_card_says_where_the_boards_come_from(director):
    event = movement_event(director, generate("mitchell", tables=8, variant="relay",
                                              boards_per_round=3))
    _, content, _ = render(GuidecardsRenderer, report_data(event, "guidecards"))
    pages = [flat(page) for page in pdf_pages(content)]
    table_1 = next(p for p in pages if p.startswith("Table 1 "))
    assert "1 1 9 1–3 shared with table 8" in table_1
    assert "2 1 16 4–6 from table 2, shared with table 8" in table_1
    table_4 = next(p for p in pages if "Table 4 " in p)
    assert "2 4 11 13–15 from the bye stand between tables 4 and 5" in table_4
    # ...and a pair that stays is told to stay (pair 1, N–S at table 1 all night).
    assert "stay at table 1, N–S" in table_1


def test_the_printed_pair_card_of_a_pair_that_left_ends_there(director):
    event = movement_event(director, generate("mitchell", tables=3, boards_per_round=2))
    services.pair_leave(event=event, number=4, after_round=1, actor=Actor.director(director),
                        reason="train")
    _, content, _ = render(GuidecardsRenderer, report_data(event, "guidecards"))
    text = flat("\n".join(pdf_pages(content)))
    card = text.split("Pair 4 ", 1)[1].split("Pair 5 ", 1)[0]
    assert "Left after round 1: no further rounds" in card
    assert "Sit out" not in card and "sit out" not in card
    assert "1 1 E–W 1 1–2 end of play" in card


def test_the_printed_and_web_cards_of_a_late_pair_start_where_it_joined(director, client):
    """Decision 102: a late pair was not there before it joined, so it did not sit out;
    its card (printed, on the console, as text) listed those rounds as "Sit out"."""
    event = movement_event(director, generate("mitchell", tables=3, boards_per_round=2,
                                              pairs=5))
    late = services.pair_join_late(event=event, players=["Late Lou", "Tardy Ted"],
                                   from_round=2, actor=Actor.director(director), reason="late")
    _, content, _ = render(GuidecardsRenderer, report_data(event, "guidecards"))
    text = flat("\n".join(pdf_pages(content)))
    card = text.split(f"Pair {late.number} ", 1)[1].split(f"Pair {late.number + 1} ", 1)[0]
    assert "Joined late, from round 2" in card
    assert "Sit out" not in card and not card.split("Joined late, from round 2", 1)[1].strip(
        ).startswith("1 ")
    client.force_login(director)
    html = client.get(f"/director/events/{event.pk}/guide-cards/").content.decode()
    web = html.split(f'data-testid="guide-pair-{late.number}"', 1)[1].split("</table>", 1)[0]
    assert 'data-testid="joined-from">Joined late, from round 2</td>' in web
    assert "Sit out this round" not in web
