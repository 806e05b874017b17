"""A night of changes, for the score card and standings tests (web and PDF).

Seven pairs in a 4-table Howell, a board a round (boards 1-7 over seven rounds): pair 8
joins late from round 3 (so it plays 5 of the 7 boards), pair 2 leaves after round 5 (its
later boards are not played, by it or its opponents), the director marks one board of
round 4 not played, and rules an average in round 3 and a fouled board (N–S at fault) in
round 4. Every other board is played; the standings are published.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from boards.movements import generate
from tournaments import services
from tournaments.models import Event, Meeting, Result
from tournaments.services import Actor

from .night import DEALS, PLAYERS, play_for

LATE, LEFT, LEFT_AFTER, JOINED = 8, 2, 5, 3


@dataclass
class ChangesNight:
    event: Event
    average: Result  # the average ruling (round 3)
    fouled: Result  # the fouled board, N–S at fault (round 4)
    not_played: Result  # the board the director marked not played (round 4)


def _meetings(event: Event, rnd: int) -> list[Meeting]:
    return list(Meeting.objects.filter(section__event=event, round=rnd)
                .select_related("ns_pair", "ew_pair").order_by("table"))


def _play(event: Event, rnd: int) -> None:
    for m in _meetings(event, rnd):
        for board in m.boards:
            if Result.objects.filter(event=event, board__number=board, ns_pair=m.ns_pair,
                                     ew_pair=m.ew_pair, voided=False).exists():
                continue
            services.result_record(event=event, board=board, ns=m.ns_pair.number,
                                   ew=m.ew_pair.number, data=play_for(board, m.table),
                                   actor=Actor.system("import"), meeting=m)


def _rule(event: Event, m: Meeting, kind: str, actor: Actor, offending: str = "") -> Result:
    return services.ruling_award(event=event, board=m.boards[0], ns=m.ns_pair.number,
                                 ew=m.ew_pair.number, kind=kind, offending=offending,
                                 actor=actor, reason="Duplicate Law B", meeting=m)


def build_changes_night(director, *, method: str = "plus-minus") -> ChangesNight:
    actor = Actor.director(director)
    event = services.event_create(name="A night of changes", date=datetime.date(2026, 11, 24),
                                  method=method, actor=actor)
    for number in range(1, 8):
        services.pair_set(event=event, number=number, players=PLAYERS.get(
            number, (f"North {number}", f"South {number}")), actor=actor)
    movement = generate("howell", tables=4, boards_per_round=1, pairs=7)
    services.boards_set(event=event, count=movement.boards,
                        deals={n: d for n, d in DEALS.items() if n <= movement.boards},
                        actor=actor)
    services.movement_meetings_set(section=event.sections.get(), movement=movement,
                                   actor=actor)
    event = services.event_set_status(event=event, status=Event.Status.RUNNING, actor=actor)
    _play(event, 1)
    _play(event, 2)
    services.pair_join_late(event=event, players=["Late Lou", "Tardy Ted"], from_round=JOINED,
                            actor=actor, reason="came at nine")
    # Rulings at tables that pair 2 (who leaves later) does not sit at.
    third = next(m for m in _meetings(event, 3) if LEFT not in (m.ns_pair.number,
                                                                m.ew_pair.number))
    average = _rule(event, third, "average", actor)
    fourth = [m for m in _meetings(event, 4) if LEFT not in (m.ns_pair.number,
                                                              m.ew_pair.number)]
    fouled = _rule(event, fourth[0], "fouled", actor, offending="ns")
    not_played = services.boards_not_played(meeting=fourth[1], boards=fourth[1].boards,
                                            actor=actor, reason="the time ran out")[0]
    for rnd in range(3, LEFT_AFTER + 1):
        _play(event, rnd)
    services.pair_leave(event=event, number=LEFT, after_round=LEFT_AFTER, actor=actor,
                        reason="a train to catch")
    for rnd in range(LEFT_AFTER + 1, 8):
        _play(event, rnd)
    event = services.event_publish(event=event, level="provisional", actor=actor)
    return ChangesNight(event=event, average=average, fouled=fouled, not_played=not_played)
