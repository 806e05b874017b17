"""A small night for the exports: the API tests' 3-table Mitchell (boards 1-6, board 1
with a hand record), every board played, one member number and a visitor, a royal-spades
contract and a ruling."""

import pytest

from tests.api.helpers import HONOURS, Night, build_night
from tests.factories import DirectorFactory
from tournaments import services
from tournaments.models import Meeting, Pair

ROYAL = {"contract": {"level": 2, "denomination": "RS", "declarer": "N", "doubled": "X"},
         "tricks": 9, "honours": HONOURS}


@pytest.fixture
def director(db):
    return DirectorFactory(username="alice")


@pytest.fixture
def night(director) -> Night:
    night = build_night(director, name="Tuesday duplicate")
    pair_1 = Pair.objects.select_related("player_1").get(event=night.event, number=1)
    pair_1.player_1.number = "1001"  # a member; everyone else a visitor
    pair_1.player_1.save()
    meetings = list(Meeting.objects.filter(section__event=night.event)
                    .select_related("section", "ns_pair", "ew_pair").order_by("round", "table"))
    for n, m in enumerate(meetings):
        for board in m.boards:
            if (m.table, m.round, board) == (2, 1, m.boards[1]):
                services.ruling_award(event=night.event, board=board, ns=m.ns_pair.number,
                                      ew=m.ew_pair.number, kind="average", actor=night.actor,
                                      reason="Duplicate Law B(3): a fouled deal", meeting=m)
            else:
                royal = (m.table, m.round, board) == (2, 1, m.boards[0])
                night.enter(m.table, m.round, board, data=ROYAL if royal else None)
        if n + 1 < len(meetings) and meetings[n + 1].round != m.round:
            services.round_agree(section=m.section, round_number=m.round, actor=night.actor)
    return night
