"""Small nights for the irregular-board tests (Duplicate Law B): where each board travels.

three_tables: 6 pairs, 3 tables, 3 rounds, two boards a round; pairs 1-3 sit N-S at
tables 1-3, pairs 4-6 move. Board 1 is played at table 2 in round 1, table 1 in round 2
and table 3 in round 3 (so in round 2 at table 1 it came from table 2).

two_tables: 4 pairs, 2 tables, 2 rounds; every board is played at both tables: boards 1-2
at table 1 then table 2, boards 3-4 at table 2 then table 1.
"""

import datetime
import random

from django.utils import timezone

from boards.dealing import deal_boards
from tournaments import services
from tournaments.models import Event, Meeting, Section, TableCode
from tournaments.services import Actor
from tournaments.tablecodes import new_code

NAMES = [("Ann Lee", "Bob Ray"), ("Cy Dow", "Di Eck"), ("Ed Fox", "Flo Gay"),
         ("Gus Hay", "Hal Ing"), ("Ida Jay", "Jo Kay"), ("Kit Lam", "Lou May")]

# Data as a table gives it without a hand record (every honour named, Law 3).
THREE_HEARTS = {"contract": {"level": 3, "denomination": "H", "declarer": "S"}, "tricks": 9,
                "honours": {"N": 2, "E": 1, "S": 1, "W": 1}}
# With a hand record the honours come from the deal.
THREE_HEARTS_DEALT = {"contract": {"level": 3, "denomination": "H", "declarer": "S"},
                      "tricks": 9}


def _night(director, pairs: int, boards: int, layout, *, deals: bool) -> Event:
    actor = Actor.director(director)
    event = services.event_create(name="Irregular night", date=datetime.date(2026, 11, 17),
                                  rules="american-1913", actor=actor)
    for number in range(1, pairs + 1):
        services.pair_set(event=event, number=number, players=NAMES[number - 1], actor=actor)
    dealt = deal_boards(boards, random.Random(13)) if deals else []
    services.boards_set(event=event, count=boards,
                        deals=dict(enumerate(dealt, start=1)), actor=actor)
    section = Section.objects.get(event=event)
    by_number = {p.number: p for p in event.pairs.all()}
    tables = set()
    for rnd, table, ns, ew, numbers in layout:
        tables.add(table)
        Meeting.objects.create(section=section, round=rnd, table=table, ns_pair=by_number[ns],
                               ew_pair=by_number[ew], boards=numbers)
    section.tables, section.boards_per_round, section.movement = len(tables), 2, "mitchell"
    section.save()
    for table in sorted(tables):
        TableCode.objects.create(section=section, table=table, code=new_code())
    services.event_set_status(event=event, status=Event.Status.RUNNING, actor=actor)
    return event


def three_tables(director, *, deals: bool = True) -> Event:
    sets = {0: [1, 2], 1: [3, 4], 2: [5, 6]}
    layout = [(rnd, t, t, 4 + (t + rnd - 2) % 3, sets[(t + rnd) % 3])
              for rnd in (1, 2, 3) for t in (1, 2, 3)]
    return _night(director, 6, 6, layout, deals=deals)


def two_tables(director, *, deals: bool = True) -> Event:
    layout = [(1, 1, 1, 3, [1, 2]), (1, 2, 2, 4, [3, 4]),
              (2, 1, 1, 4, [3, 4]), (2, 2, 2, 3, [1, 2])]
    return _night(director, 4, 4, layout, deals=deals)


def meeting(event: Event, rnd: int, table: int) -> Meeting:
    return Meeting.objects.select_related("section", "ns_pair", "ew_pair").get(
        section__event=event, round=rnd, table=table)


def agree_round(event: Event, rnd: int) -> None:
    """Round `rnd` over at every table (the tables move on to the next)."""
    Meeting.objects.filter(section__event=event, round=rnd).update(agreed_at=timezone.now())


def code(event: Event, table: int) -> str:
    return TableCode.objects.get(section__event=event, table=table).code


def at_table(event: Event, table: int) -> Actor:
    return Actor.at_table(Section.objects.get(event=event), table)


def play(event: Event, rnd: int, table: int, board: int, data=THREE_HEARTS_DEALT):
    m = meeting(event, rnd, table)
    result, _ = services.result_record(event=event, board=board, ns=m.ns_pair.number,
                                       ew=m.ew_pair.number, data=data,
                                       actor=Actor.system("import"), meeting=m)
    return result


def seat_of(deal: str, card: str) -> str:
    from scoring.engine import parse_deal
    for seat, hand in parse_deal(deal).items():
        if card[1] in hand[card[0]]:
            return seat
    raise AssertionError(card)
