"""The travellers and score cards PDFs carry an irregular board's note (Duplicate Law B)."""

import datetime

from tests.factories import DirectorFactory
from tests.irregular_nights import THREE_HEARTS, agree_round, meeting, play, three_tables
from tournaments import services
from tournaments.reports.documents import ScorecardsRenderer, TravellersRenderer
from tournaments.reports.services import report_data
from tournaments.services import Actor

from .pdf import pdf_text

NOW = datetime.datetime(2026, 11, 17, 23, 5)


def test_the_pdfs_show_the_law_b_notes(db):
    director = DirectorFactory()
    event = three_tables(director, deals=False)
    actor = Actor.director(director)
    play(event, 1, 2, 1, data=THREE_HEARTS)
    agree_round(event, 1)
    irr = services.irregularity_report(event=event, board=1, stage="overplay", actor=actor,
                                       meeting=meeting(event, 2, 1), short_seat="N",
                                       surplus_seat="E")
    services.irregularity_rule(irregularity=irr, actor=actor, reason="East had 14")
    _, _, travellers = TravellersRenderer(now=NOW).render(report_data(event, "travellers"))
    text = " ".join(pdf_text(travellers).split())
    assert "Note: Board 1 (found at table 1, round 2): North short, East with the surplus: " \
           "average for both pairs, Duplicate Law B(3)." in text
    _, _, cards = ScorecardsRenderer(now=NOW).render(report_data(event, "scorecards"))
    assert "average for both pairs, Duplicate Law B(3)" in " ".join(pdf_text(cards).split())
