"""A small duplicate night built through the services, for the report and public tests.

A 3-table Mitchell, 2 boards a round: pairs 1-3 sit North-South, pairs 4-6
East-West, boards 1-6 over three rounds. Boards 1-5 have hand records (from
../shared/examples/night-mitchell.json); board 6 has none. Every board is played
at every table, except that the director rules board 6 "average" at one table.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Event, Meeting, Result
from tournaments.services import Actor

DEALS = {
    1: "N:T82.AQJ84.Q.QT97 AQ.K962.KJ76.J82 J9754.5.5432.K53 K63.T73.AT98.A64",
    2: "N:AT6.542.A65.JT93 KQ7532.Q76.432.5 J8.AK83.KJ987.KQ 94.JT9.QT.A87642",
    3: "N:Q62.AT62.A743.97 JT83.J87.5.QT432 K95.94.QJT62.J85 A74.KQ53.K98.AK6",
    4: "N:Q.K976.J8.AKQ987 A97.AJ853.93.653 J42.Q2.KT7652.J2 KT8653.T4.AQ4.T4",
    5: "N:K52.J43.A642.Q83 A74.62.T3.K97642 QT963.7.KQJ85.A5 J8.AKQT985.97.JT",
}
PLAYERS = {
    1: ("Ann Lee", "Bob Ray"), 2: ("Cy Dow", "Di Eck"), 3: ("Ed Fox", "Flo Gay"),
    4: ("Gus Hay", "Hal Ing"), 5: ("Ida Joy", "Jo King"), 6: ("Kit Lamb", "Lou Moss"),
}
DENOMINATIONS = ["H", "S", "NT", "D", "C", "RS"]


def make_director(username: str = "director"):
    return get_user_model().objects.create_user(username, password="pass-word-123",
                                                is_staff=True)


def play_for(board: int, table: int, *, whist: bool = False) -> dict:
    """A varied but fixed result: contracts made, over- and under-made across the tables."""
    if whist:
        return {"tricks_ns": 5 + (board + 2 * table) % 5}
    level = 1 + (board + table) % 3
    denomination = DENOMINATIONS[board % 6]
    result = {
        "contract": {"level": level, "denomination": denomination,
                     "declarer": "NESW"[(board + table) % 4],
                     "doubled": "X" if (board, table) == (2, 3) else ""},
        "tricks": 6 + level + (table % 3) - 1,
    }
    if board not in DEALS:  # no hand record: the table gives every honour (Law 3)
        result["honours"] = ({"N": 1, "E": 1, "S": 1, "W": 1} if denomination == "NT"
                             else {"N": 2, "E": 1, "S": 1, "W": 1})
    return result


@dataclass
class Night:
    event: Event
    director: object

    @property
    def actor(self) -> Actor:
        return Actor.director(self.director)

    def meetings(self) -> list[Meeting]:
        return list(Meeting.objects.filter(section__event=self.event)
                    .select_related("ns_pair", "ew_pair", "section").order_by("round", "table"))

    def enter(self, meeting: Meeting, board: int) -> None:
        if board == 6 and meeting.table == 3:
            services.ruling_award(event=self.event, board=6, ns=meeting.ns_pair.number,
                                  ew=meeting.ew_pair.number, kind="average", actor=self.actor,
                                  reason="board fouled in the shuffle", meeting=meeting)
            return
        services.result_record(
            event=self.event, board=board, ns=meeting.ns_pair.number, ew=meeting.ew_pair.number,
            data=play_for(board, meeting.table, whist=self.event.is_whist), meeting=meeting,
            actor=Actor.at_table(meeting.section, meeting.table))

    def play(self, *, rounds: int | None = None, confirm: bool = False) -> None:
        """The tables play round by round (a table enters only the round it is at:
        docs/decisions.md); the last round played stays open. The director agrees each
        round the tables leave; with `confirm`, the opponents confirm every board and the
        tables agree their rounds themselves."""
        meetings = [m for m in self.meetings() if rounds is None or m.round <= rounds]
        for n, meeting in enumerate(meetings):
            table = Actor.at_table(meeting.section, meeting.table)
            for board in meeting.boards:
                self.enter(meeting, board)
                result = meeting.results.filter(board__number=board, voided=False).first()
                if confirm and result.status == Result.Status.ENTERED:
                    services.result_confirm(result=result, actor=table)
            if n + 1 < len(meetings) and meetings[n + 1].round != meeting.round:
                for left in meetings[:n + 1]:
                    if left.round == meeting.round:
                        services.round_agree(
                            section=left.section, round_number=left.round, tables=[left.table],
                            actor=Actor.at_table(left.section, left.table) if confirm
                            else self.actor)

    def publish(self, level: str) -> None:
        self.event = services.event_publish(event=self.event, level=level, actor=self.actor)


def build_night(director, *, name: str = "Tuesday duplicate", method: str = "plus-minus",
                rules: str = "american-1913", tables: int = 3, play: bool = True,
                published: str = "provisional", movement: str = "mitchell",
                boards_per_round: int = 2) -> Night:
    from boards.movements import generate

    actor = Actor.director(director)
    event = services.event_create(name=name, date=datetime.date(2026, 11, 17), rules=rules,
                                  method=method, actor=actor)
    movement = generate(movement, tables=tables, boards_per_round=boards_per_round)
    for number in range(1, movement.pairs + 1):
        players = PLAYERS.get(number, (f"North {number}", f"South {number}"))
        services.pair_set(event=event, number=number, players=players, actor=actor)
    deals = {n: d for n, d in DEALS.items() if n <= movement.boards}
    if rules == "duplicate-whist":
        deals = {}
    services.boards_set(event=event, count=movement.boards, deals=deals, actor=actor)
    services.movement_meetings_set(section=event.sections.get(), movement=movement, actor=actor)
    event = services.event_set_status(event=event, status=Event.Status.RUNNING, actor=actor)
    night = Night(event=event, director=director)
    if play:
        night.play()
    if published != "none":
        night.publish(published)
    night.event.refresh_from_db()
    return night


def movement_event(director, movement, *, name: str = "Friday duplicate") -> Event:
    """An event set up with this generated movement (pairs named, boards without hands)."""
    actor = Actor.director(director)
    event = services.event_create(name=name, date=datetime.date(2026, 11, 20),
                                  rules="american-1913", method="plus-minus", actor=actor)
    for number in range(1, movement.pairs + 1):
        players = PLAYERS.get(number, (f"North {number}", f"South {number}"))
        services.pair_set(event=event, number=number, players=players, actor=actor)
    services.movement_and_boards_set(section=event.sections.get(), movement=movement, actor=actor)
    return event
