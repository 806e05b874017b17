"""Big events, built fast, for the benchmarks.

The rows are written with ``bulk_create`` rather than through the services: a
1,000-table night would take minutes one result at a time, and what is measured
is reading and comparing the rows, not writing them. Every result is still scored
by the real seam (``tournaments.seam.result_fields``), so the stored scores are
the ones the services would have stored.

The layout is a Mitchell-like one: N-S pair *t* (1..tables) stays at table *t*;
E-W pair ``tables + ((t - 1 + round) % tables) + 1`` visits it; each round plays
``boards_per_round`` boards, so every N-S pair plays every board once, against
a different opponent each round. Every bench event's name starts with
``PREFIX``; ``delete_bench_events`` removes them (and only them).
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

from boards.dealing import deal_boards
from scoring.engine import OTHER_SIDE, SEATS, SIDE_SEATS, SUITS, get_rules, parse_deal
from tournaments.api.auth import table_scope, user_scope
from tournaments.demo import HIGH_CARD_POINTS
from tournaments.models import (
    AuditEntry,
    Board,
    Event,
    IdempotencyRecord,
    Meeting,
    Pair,
    Player,
    Result,
    Section,
    TableCode,
)
from tournaments.seam import result_fields
from tournaments.tablecodes import new_code

PREFIX = "[bench] "
DIRECTOR = "bench-director"  # the staff user the bench's director actions are made by
RULES = "american-1913"
AUCTION = get_rules(RULES)


@dataclass(frozen=True)
class BuiltEvent:
    """What a builder made: the event's id and its size."""

    event_id: int
    tables: int
    boards: int
    pairs: int
    results: int

    def event(self) -> Event:
        return Event.objects.get(pk=self.event_id)


# --- contracts ------------------------------------------------------------------------


@dataclass(frozen=True)
class Par:
    """The contract most tables reach on a deal, judged from the hands."""

    side: str
    level: int
    denomination: str


def _par(deal: str) -> Par:
    """The side with more high-card points declares its longest suit (or no trump)."""
    hands = parse_deal(deal)
    points = {seat: sum(HIGH_CARD_POINTS.get(c, 0) for cards in hands[seat].values() for c in cards)
              for seat in SEATS}
    side = "ns" if points["N"] + points["S"] >= points["E"] + points["W"] else "ew"
    seats = SIDE_SEATS[side]
    combined = points[seats[0]] + points[seats[1]]
    lengths = {suit: len(hands[seats[0]][suit]) + len(hands[seats[1]][suit]) for suit in SUITS}
    # Among equal lengths the higher-valued suit (Law 3), spades as royal spades.
    suit = max(lengths, key=lambda s: (lengths[s], AUCTION.trick_value("RS" if s == "S" else s)))
    denomination = "NT" if lengths[suit] <= 7 else suit
    if denomination == "S":
        denomination = "RS"  # Auction 1913: spades are mostly bid as royals (Law 17)
    level = max(1, min(7, (combined - 17) // 3))
    return Par(side=side, level=level, denomination=denomination)


def contract_for(rng: random.Random, par: Par) -> dict:
    """One table's result on a board: usually near the par contract, sometimes not.

    A deal result of interfaces.md §1 without the board (honours come from the deal).
    """
    side, level, denomination = par.side, par.level, par.denomination
    roll = rng.random()
    if roll < 0.15:  # the other side buys it (a sacrifice or a misjudged auction)
        side = OTHER_SIDE[side]
        level = rng.randint(1, 3)
        denomination = rng.choice(("C", "D", "H", "S", "RS", "NT"))
    elif roll < 0.40:  # a level higher or lower, or another strain
        level = max(1, min(7, level + rng.choice((-1, 1))))
        if rng.random() < 0.5:
            denomination = rng.choice(("C", "D", "H", "RS", "NT"))
    made = 6 + level + rng.choice((-2, -1, -1, 0, 0, 0, 0, 1, 1, 2))
    doubled = rng.choices(("", "X", "XX"), weights=(90, 9, 1))[0]
    return {
        "contract": {"level": level, "denomination": denomination,
                     "declarer": rng.choice(SIDE_SEATS[side]), "doubled": doubled},
        "tricks": max(0, min(13, made)),
    }


# --- builders --------------------------------------------------------------------------------


def _event(name: str, tables: int, boards_per_round: int, movement: str) -> tuple[Event, Section]:
    event = Event.objects.create(
        name=PREFIX + name, date=datetime.date.today(), rules=RULES, kind="pairs",
        method="plus-minus", status=Event.Status.RUNNING,
    )
    section = Section.objects.create(event=event, name="A", movement=movement, tables=tables,
                                     boards_per_round=boards_per_round)
    return event, section


def _pairs(event: Event, section: Section, count: int) -> dict[int, Pair]:
    players = Player.objects.bulk_create(
        [Player(name=f"Player {n}{side}") for n in range(1, count + 1) for side in "ab"],
        batch_size=2000,
    )
    pairs = Pair.objects.bulk_create(
        [Pair(event=event, section=section, number=n, player_1=players[2 * n - 2],
              player_2=players[2 * n - 1]) for n in range(1, count + 1)],
        batch_size=2000,
    )
    return {p.number: p for p in pairs}


def _boards(event: Event, count: int, rng: random.Random) -> dict[int, Board]:
    deals = deal_boards(count, rng)
    boards = Board.objects.bulk_create(
        [Board(event=event, number=n, deal=deal) for n, deal in enumerate(deals, start=1)])
    return {b.number: b for b in boards}


def ew_pair(tables: int, table: int, round_index: int) -> int:
    """The E-W pair at `table` in round `round_index` (0-based): one table up each round."""
    return tables + ((table - 1 + round_index) % tables) + 1


@transaction.atomic
def build_pairs_event(*, name: str, tables: int, boards: int, boards_per_round: int = 1,
                      seed: int = 1913) -> BuiltEvent:
    """A pairs event in which every N-S pair has played every board: tables x boards results."""
    rng = random.Random(seed)
    event, section = _event(name, tables, boards_per_round, "none")
    pairs = _pairs(event, section, 2 * tables)
    board_rows = _boards(event, boards, rng)
    results = []
    for number, board in board_rows.items():
        par = _par(board.deal)
        round_index = (number - 1) // boards_per_round
        for table in range(1, tables + 1):
            fields = result_fields(rules_name=RULES, board_number=number, deal=board.deal,
                                   data=contract_for(rng, par))
            results.append(Result(
                event=event, board=board, ns_pair=pairs[table],
                ew_pair=pairs[ew_pair(tables, table, round_index)],
                status=Result.Status.ENTERED, entered_by=f"table {table}", seq=1, **fields,
            ))
    Result.objects.bulk_create(results, batch_size=5000)
    Event.objects.filter(pk=event.pk).update(seq=1)
    return BuiltEvent(event.pk, tables, boards, 2 * tables, len(results))


@dataclass(frozen=True)
class TablePlan:
    """What one table will post through the API: its event, section, table and code, one
    body per board, in the order of the rounds."""

    event_id: int
    section: str
    table: int
    code: str
    bodies: list[dict]


@transaction.atomic
def build_api_event(*, name: str, tables: int, rounds: int, boards_per_round: int,
                    seed: int = 1906) -> tuple[BuiltEvent, list[TablePlan]]:
    """A running event with a stored movement and table codes, and no results yet.

    Board set ``(table - 1 - round) % rounds`` is at `table` in round `round` (boards
    move down a table while E-W pairs move up), so each N-S pair meets each board set
    once. Returns, per table, the bodies it will POST: {"board", "round", "result"}, round
    by round (a table enters only the round it is at: the client agrees each round before
    posting the next, see bench_api).
    """
    rng = random.Random(seed)
    event, section = _event(name, tables, boards_per_round, "mitchell")
    pairs = _pairs(event, section, 2 * tables)
    board_rows = _boards(event, rounds * boards_per_round, rng)
    pars = {n: _par(b.deal) for n, b in board_rows.items()}
    meetings = []
    plans = []
    for table in range(1, tables + 1):
        bodies = []
        for r in range(rounds):
            board_set = (table - 1 - r) % rounds
            numbers = [board_set * boards_per_round + k + 1 for k in range(boards_per_round)]
            meetings.append(Meeting(section=section, round=r + 1, table=table,
                                    ns_pair=pairs[table], ew_pair=pairs[ew_pair(tables, table, r)],
                                    boards=numbers))
            bodies.extend({"board": n, "round": r + 1, "result": contract_for(rng, pars[n])}
                          for n in numbers)
        code = new_code()
        TableCode.objects.create(section=section, table=table, code=code)
        plans.append(TablePlan(event_id=event.pk, section=section.name, table=table, code=code,
                               bodies=bodies))
    Meeting.objects.bulk_create(meetings, batch_size=2000)
    built = BuiltEvent(event.pk, tables, rounds * boards_per_round, 2 * tables, 0)
    return built, plans


def settle() -> None:
    """VACUUM (ANALYZE) the bench database, as autovacuum keeps a live one: the bench makes
    and removes its events by the hundred thousand rows, and where autovacuum is off (a CI
    machine's PostgreSQL may run without it) the dead rows stay and the tables are never
    counted, so the planner chooses plans that read whole tables, and each run is slower
    than the last. Called once the data a figure measures is made (and, for the loads,
    once their warm-up has stored results, as a club's earlier nights have)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM (ANALYZE)")


def bench_director():
    """The bench's director (a staff user, made if missing; removed with the bench events)."""
    user, _created = get_user_model().objects.get_or_create(
        username=DIRECTOR, defaults={"is_staff": True})
    return user


def delete_bench_events() -> int:
    """Remove every bench event (name starting with PREFIX) and its players; how many events."""
    events = Event.objects.filter(name__startswith=PREFIX)
    player_ids = set()
    for one, two in Pair.objects.filter(event__in=events).values_list("player_1", "player_2"):
        player_ids.update((one, two))
    # The keys the bench's tables (and its director) sent, which no event's removal takes
    # with it: left, each run's were added to the last one's, so that every run claimed its
    # keys in a bigger index than a club's, which keeps two days of them (purge_idempotency).
    scopes = [table_scope(pk) for pk in TableCode.objects.filter(
        section__event__in=events).values_list("pk", flat=True)]
    scopes += [user_scope(pk) for pk in get_user_model().objects.filter(
        username=DIRECTOR).values_list("pk", flat=True)]
    IdempotencyRecord.objects.filter(scope__in=scopes).delete()
    count = 0
    for event in events:
        # Results first: Result.ns_pair/ew_pair PROTECT the pairs, so deleting the event
        # alone is refused. One event at a time keeps the delete collector's memory small.
        AuditEntry.objects.filter(event=event).delete()
        Result.objects.filter(event=event).delete()
        event.delete()
        count += 1
    get_user_model().objects.filter(username=DIRECTOR).delete()
    for start in range(0, len(ids := sorted(player_ids)), 5000):
        Player.objects.filter(pk__in=ids[start:start + 5000]).delete()
    return count
