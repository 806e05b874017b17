"""The score-card PDF says what a board's line does not but its score counts ("a revoke by
N–S"), as the traveller and the web card do: a whist card's 7 tricks won in play scoring 10
is otherwise unexplained."""

import pytest

from tests.reports.night import build_night
from tournaments import services
from tournaments.models import Result
from tournaments.reports.documents import ScorecardsRenderer
from tournaments.reports.services import report_data
from tournaments.services import Actor

from .pdf import score_cards
from .test_renderers import render

pytestmark = pytest.mark.django_db


def test_score_cards_say_a_revoke(director):
    night = build_night(director, name="Whist night", rules="duplicate-whist")
    result = Result.objects.filter(event=night.event, board__number=2, ruling="").first()
    services.result_correct(result=result, actor=Actor.director(director),
                            data={"tricks_ns": 3, "revokes": {"NS": 1, "EW": 0}},
                            reason="a revoke found after the round")
    cards = score_cards(render(ScorecardsRenderer, report_data(night.event, "scorecards"))[1])
    for pair in (result.ns_pair.number, result.ew_pair.number):
        card = cards[pair - 1]
        assert card.startswith(f"Pair {pair}: ") and "a revoke by N–S" in card
    others = [c for i, c in enumerate(cards, 1)
              if i not in (result.ns_pair.number, result.ew_pair.number)]
    assert not any("revoke" in c for c in others)
