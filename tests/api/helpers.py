"""Helpers for the API tests: a running night built through the services.

The night is a 3-table Mitchell, 2 boards a round: pairs 1-3 sit N-S, pairs 4-6
E-W, boards 1-6, three rounds. Board 1 has a hand record; the others do not.
"""

import datetime
import uuid
from dataclasses import dataclass, field

from rest_framework.test import APIClient

from tournaments import services
from tournaments.models import Event, Meeting, Result, TableCode
from tournaments.services import Actor

# Board 1's hand record: N holds A K Q of hearts, S holds J 10 (all five heart honours N-S).
DEAL_1 = "N:AKQJ.AKQ2.432.32 T987.843.AKQ.AKQ 6543.JT9.JT9.JT9 2.765.8765.87654"
# Live entry gives every honour when the board has no hand record (Law 3); this split is
# also board 1's, so the same result fits every board.
HONOURS = {"N": 3, "E": 0, "S": 2, "W": 0}
TWO_HEARTS = {"contract": {"level": 2, "denomination": "H", "declarer": "S", "doubled": ""},
              "tricks": 8, "honours": HONOURS}
# For board 1 only: the honours come from its hand record.
TWO_HEARTS_BOARD_1 = {k: v for k, v in TWO_HEARTS.items() if k != "honours"}
THREE_HEARTS = {"contract": {"level": 3, "denomination": "H", "declarer": "S", "doubled": ""},
                "tricks": 9, "honours": HONOURS}


@dataclass
class Night:
    event: Event
    director: object
    codes: dict[int, str] = field(default_factory=dict)  # table -> code

    def meeting(self, table: int, round_number: int) -> Meeting:
        return Meeting.objects.select_related("ns_pair", "ew_pair").get(
            section__event=self.event, table=table, round=round_number)

    @property
    def actor(self) -> Actor:
        return Actor.director(self.director)

    def enter(self, table: int, round_number: int, board: int | None = None,
              data: dict | None = None) -> Result:
        """Store a result through the service, as table `table` would."""
        meeting = self.meeting(table, round_number)
        section = meeting.section
        result, _ = services.result_record(
            event=self.event, board=board or meeting.boards[0], ns=meeting.ns_pair.number,
            ew=meeting.ew_pair.number, data=data or TWO_HEARTS,
            actor=Actor.at_table(section, table), meeting=meeting)
        return result

    def play_round(self, table: int, round_number: int, *, agree: bool = False) -> None:
        meeting = self.meeting(table, round_number)
        for board in meeting.boards:
            result = self.enter(table, round_number, board)
            services.result_confirm(result=result, actor=Actor.at_table(meeting.section, table))
        if agree:
            services.round_agree(section=meeting.section, round_number=round_number,
                                 actor=Actor.at_table(meeting.section, table))

    def play_all(self) -> None:
        """The tables play round by round; the director agrees each round the tables leave
        (a table enters only the round it is at); the last round stays open."""
        meetings = list(Meeting.objects.filter(section__event=self.event)
                        .select_related("section").order_by("round", "table"))
        for n, meeting in enumerate(meetings):
            for board in meeting.boards:
                self.enter(meeting.table, meeting.round, board)
            if n + 1 < len(meetings) and meetings[n + 1].round != meeting.round:
                services.round_agree(section=meeting.section, round_number=meeting.round,
                                     actor=self.actor)


def build_night(director, *, name: str = "Tuesday duplicate", tables: int = 3,
                boards_per_round: int = 2, deal_1: bool = True) -> Night:
    from boards.movements import generate

    actor = Actor.director(director)
    event = services.event_create(name=name, date=datetime.date(2026, 11, 17), actor=actor)
    movement = generate("mitchell", tables=tables, boards_per_round=boards_per_round)
    for number in range(1, movement.pairs + 1):
        services.pair_set(event=event, number=number,
                          players=[f"North {number}", f"South {number}"], actor=actor)
    services.boards_set(event=event, count=movement.boards,
                        deals={1: DEAL_1} if deal_1 else None, actor=actor)
    services.movement_meetings_set(section=event.sections.get(), movement=movement, actor=actor)
    event = services.event_set_status(event=event, status=Event.Status.RUNNING, actor=actor)
    codes = dict(TableCode.objects.filter(section__event=event).values_list("table", "code"))
    return Night(event=event, director=director, codes=codes)


def key() -> str:
    return uuid.uuid4().hex


def post(client: APIClient, url: str, body: dict | None = None, *, idem: str | None = "new"):
    """POST JSON with an Idempotency-Key (a fresh one unless given; None sends none)."""
    headers = {}
    if idem is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key() if idem == "new" else idem
    return client.post(url, body or {}, format="json", **headers)


def url(event: Event, tail: str = "") -> str:
    return f"/api/events/{event.pk}/{tail}"
