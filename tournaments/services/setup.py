"""Setting an event up: the event, its teams, pairs and boards, and its movement."""


from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import F, Q

from boards.movements import Movement, check, generate
from scoring.engine import NOT_PLAYED_SCORINGS, deal_from_north, parse_deal

from ..models import (
    Board,
    Event,
    Meeting,
    Pair,
    Player,
    Result,
    Section,
    Team,
)
from ..tablecodes import new_code
from .base import (
    Actor,
    ServiceError,
    _audit,
    _lock_event,
)
from .members import player_for

# --- event set-up ----------------------------------------------------------------------


@transaction.atomic
def event_create(
    *,
    name: str,
    date,
    rules: str = "american-1913",
    kind: str = "pairs",
    method: str | None = None,
    not_played_scoring: str = "neuberg",
    club_adjustments: bool = False,
    actor: Actor,
) -> Event:
    method = method or ("total-points" if kind == "teams" else "plus-minus")
    if not_played_scoring not in NOT_PLAYED_SCORINGS:
        raise ServiceError("A board not played is scored by Neuberg or by the pair's own "
                           "average", field="not_played_scoring")
    if kind == "teams" and method != "total-points":
        raise ServiceError("a team match is scored by total points (Duplicate Law G)",
                           field="method")
    if kind == "pairs" and method not in ("plus-minus", "matchpoints"):
        raise ServiceError("a pair contest is scored by plus/minus or matchpoints",
                           field="method")
    event = Event.objects.create(name=name, date=date, rules=rules, kind=kind, method=method,
                                 not_played_scoring=not_played_scoring,
                                 club_adjustments=bool(club_adjustments))
    Section.objects.create(event=event, name="A")
    _audit(event=event, actor=actor, action="create event", after={"name": name})
    return event


@transaction.atomic
def teams_set(*, event: Event, names: Sequence[str], actor: Actor) -> list[Team]:
    return _teams_store(_lock_event(event.pk), names, actor)


def _teams_store(locked: Event, names: Sequence[str], actor: Actor) -> list[Team]:
    """teams_set once the event is locked."""
    teams = [Team.objects.get_or_create(event=locked, name=name.strip())[0] for name in names]
    _audit(event=locked, actor=actor, action="teams", after={"teams": list(names)})
    return teams


@transaction.atomic
def pair_set(
    *,
    event: Event,
    number: int,
    players: Sequence[str],
    team: Team | None = None,
    section: Section | None = None,
    numbers: Sequence[str | None] | None = None,
    actor: Actor,
) -> Pair:
    """Create pair `number`, or rename its players; returns the pair. Each player is
    written as services.members reads a pair's line ("1234", "Ann Lee #1234", "Ann Lee");
    with `numbers` (the night file's), the players are plain names and `numbers` their
    member numbers (None: a visitor)."""
    locked = _lock_event(event.pk)
    pair = _pair_store(locked, number, players, team, section, actor, numbers)
    _one_pair_each(locked)
    Event.objects.filter(pk=locked.pk).update(roster_seq=locked.seq)
    return pair


def _pair_store(event: Event, number: int, players: Sequence[str], team: Team | None,
                section: Section | None, actor: Actor,
                numbers: Sequence[str | None] | None = None) -> Pair:
    """pair_set once the event is locked (the caller marks the roster changed, and checks
    with ``_one_pair_each`` once every pair it stores is stored: in a whole list a member
    may move from one line to another)."""
    names = [p.strip() for p in players]
    if len(names) != 2 or not all(names):
        raise ServiceError(f"pair {number} needs two players' names", field="players")
    if number < 1:
        raise ServiceError("pair numbers start at 1", field="number")
    pair = Pair.objects.filter(event=event, number=number).select_related(
        "player_1", "player_2").first()
    if pair is None:
        first = player_for(names[0], **_number(numbers, 0))
        second = player_for(names[1], **_number(numbers, 1))
        if first.pk == second.pk:
            raise ServiceError(f"pair {number}: one member cannot be both players",
                               field="players")
        pair = Pair.objects.create(
            event=event,
            number=number,
            player_1=first,
            player_2=second,
            team=team,
            section=section or event.sections.first(),
        )
    else:
        first = player_for(names[0], current=pair.player_1, **_number(numbers, 0))
        second = player_for(names[1], current=pair.player_2, **_number(numbers, 1))
        if first.pk == second.pk:
            raise ServiceError(f"pair {number}: one member cannot be both players",
                               field="players")
        changed = [f for f, old, new in (("player_1", pair.player_1, first),
                                         ("player_2", pair.player_2, second))
                   if old.pk != new.pk]
        pair.player_1, pair.player_2 = first, second
        if team is not None and pair.team_id != team.pk:
            pair.team = team
            changed.append("team")
        if changed:
            pair.save(update_fields=changed)
    after = {"pair": number, "players": [first.name, second.name]}
    if first.number or second.number:
        after["numbers"] = [first.number, second.number]
    _audit(event=event, actor=actor, action="pair", after=after)
    return pair


@transaction.atomic
def pairs_set(*, event: Event, lines: Sequence[Any], actor: Actor) -> list[Pair]:
    """Store the whole list of pairs at once: each line has .number, .players and .team
    (a team name, or None). Teams named are created; pairs not in the list are removed,
    unless they have played or sit in the movement. One list, one change: a line the
    services refuse leaves nothing stored. The event is locked once, for the whole list."""
    event = _lock_event(event.pk)
    teams = {}
    names = list(dict.fromkeys(line.team for line in lines if line.team))
    if names:
        teams = {t.name: t for t in _teams_store(event, names, actor)}
    # Each line is stored, then the list is checked as a whole: a member moving from one
    # line to another (partners swapped, a pair that did not come taken out) would clash,
    # line by line, with the row not yet rewritten.
    stored = [_pair_store(event, line.number, line.players,
                          teams.get(line.team) if line.team else None, None, actor)
              for line in lines]
    if stored:
        Event.objects.filter(pk=event.pk).update(roster_seq=event.seq)
    keep = {line.number for line in lines}
    extra = Pair.objects.filter(event=event).exclude(number__in=keep)
    for pair in extra.order_by("number"):
        played = Result.objects.filter(Q(ns_pair=pair) | Q(ew_pair=pair)).exists()
        seated = Meeting.objects.filter(Q(ns_pair=pair) | Q(ew_pair=pair)).exists()
        if played or seated:
            raise ServiceError(
                f"pair {pair.number} is in the movement or has played: it cannot be removed",
                field="pairs")
        _audit(event=event, actor=actor, action="remove pair",
               before={"pair": pair.number, "players": pair.names})
        pair.delete()
        Event.objects.filter(pk=event.pk).update(roster_seq=F("seq"))
    _one_pair_each(event)
    return stored


def _one_pair_each(event: Event) -> None:
    """No member in two pairs of the event (decision 120), the first clash in words."""
    seats: dict[int, list[int]] = {}
    for number, *players in Pair.objects.filter(event=event).order_by("number").values_list(
            "number", "player_1_id", "player_2_id"):
        for pk in players:
            seats.setdefault(pk, []).append(number)
    twice = {pk: numbers for pk, numbers in seats.items() if len(numbers) > 1}
    player = (Player.objects.filter(pk__in=twice, number__isnull=False).order_by("name")
              .first() if twice else None)
    if player is not None:
        numbers = twice[player.pk]
        raise ServiceError(
            f"{player.name} (member {player.number}) is in pairs "
            f"{', '.join(map(str, numbers[:-1]))} and {numbers[-1]}: a member plays in one "
            "pair of a night", field="players")


def _number(numbers: Sequence[str | None] | None, seat: int) -> dict:
    return {} if numbers is None else {"number": numbers[seat]}


@transaction.atomic
def boards_set(*, event: Event, count: int, deals: dict[int, str] | None = None,
               actor: Actor) -> list[Board]:
    """Make sure boards 1..count exist; set the deals given (PBN Deal notation)."""
    event = _lock_event(event.pk)
    deals = deals or {}
    for number, deal in deals.items():
        if deal:
            try:
                parse_deal(deal)
            except ValueError as exc:
                raise ServiceError(f"board {number}: {exc}", field="deal") from None
    existing = {b.number: b for b in Board.objects.filter(event=event)}
    boards = []
    for number in range(1, count + 1):
        board = existing.get(number)
        deal = _normalise_deal(deals.get(number, ""))
        if board is None:
            board = Board.objects.create(event=event, number=number, deal=deal)
        elif deal and board.deal != deal:
            if board.results.filter(voided=False).exists():
                raise ServiceError(
                    f"board {number} has results already: its deal cannot change", field="deal"
                )
            board.deal = deal
            board.save(update_fields=["deal"])
        boards.append(board)
    _audit(event=event, actor=actor, action="boards", after={"boards": count,
                                                              "deals": len(deals)})
    return boards


def _normalise_deal(deal: str) -> str:
    """Store every deal from North, whichever hand the PBN text starts with."""
    if not deal:
        return ""
    return deal_from_north(parse_deal(deal))


@transaction.atomic
def movement_meetings_set(
    *,
    section: Section,
    movement: Movement,
    actor: Actor,
) -> list[Meeting]:
    """Store a generated movement as the section's meetings, with a code for each table.
    The boards are left as they are (movement_and_boards_set makes them too)."""
    problems = check(movement)
    if problems:
        raise ServiceError("the movement is not sound: " + "; ".join(problems), field="movement")
    event = _lock_event(section.event_id)
    if Result.objects.filter(meeting__section=section).exists():
        raise ServiceError("scores have been entered: the movement cannot change now",
                           field="movement")
    if Section.objects.filter(event=event).count() > 1:
        # Several sections: the movement's pairs 1, 2, … are the section's own pairs in
        # number order (section B's pairs 11 to 20 play as the movement's 1 to 10).
        own = list(Pair.objects.filter(section=section).order_by("number"))
        if len(own) < movement.pairs:
            raise ServiceError(
                f"the movement needs {movement.pairs} pairs and section {section.name} has "
                f"{len(own)}: put more pairs in the section first", field="pairs")
        pairs = dict(enumerate(own, start=1))
    else:
        pairs = {p.number: p for p in Pair.objects.filter(event=event)}
    missing = sorted(set(range(1, movement.pairs + 1)) - set(pairs))
    if missing:
        raise ServiceError(
            f"the movement needs pairs 1 to {movement.pairs}; missing: "
            + ", ".join(map(str, missing)),
            field="pairs",
        )
    Meeting.objects.filter(section=section).delete()
    meetings = [
        Meeting(section=section, round=rnd.number, table=t.table, ns_pair=pairs[t.ns],
                ew_pair=pairs[t.ew], boards=list(t.boards))
        for rnd in movement.rounds
        for t in rnd.tables
    ]
    Meeting.objects.bulk_create(meetings)
    section.movement = movement.kind
    section.variant = movement.variant or ""
    section.tables = movement.tables
    section.boards_per_round = movement.boards_per_round
    section.save()
    Pair.objects.filter(pk__in=[pairs[n].pk for n in range(1, movement.pairs + 1)]).update(
        section=section)
    Event.objects.filter(pk=event.pk).update(roster_seq=event.seq)  # the standings' sections
    # A code for each table that plays: a Howell with its last pair missing leaves that
    # pair's table out (a late pair taking the sit-out's place gets its code then).
    have = set(section.table_codes.values_list("table", flat=True))
    for table in sorted(movement.playing_tables):
        if table not in have:
            section.table_codes.create(table=table, code=new_code())
    _audit(event=event, actor=actor, action="movement",
           after={"kind": movement.kind, "tables": movement.tables, "boards": movement.boards})
    return meetings


@transaction.atomic
def movement_and_boards_set(*, section: Section, movement: Movement,
                            actor: Actor) -> list[Meeting]:
    """Store a movement with the boards it needs (boards 1..movement.boards)."""
    boards_set(event=section.event, count=movement.boards, actor=actor)
    return movement_meetings_set(section=section, movement=movement, actor=actor)


def tables_needed(kind: str, pairs: int) -> int:
    """The tables in play for `pairs` pairs: a Mitchell seats the odd pair's partner-less
    N–S pair at a table of its own (it sits out when the missing pair is due); a Howell
    leaves the missing pair's table out, so 9 pairs play at 4 tables and one sits out."""
    if kind == "mitchell":
        return max((pairs + 1) // 2, 1)
    return max(pairs // 2, 1)


def tables_words(kind: str, pairs: int, needed: int) -> str:
    """"10 pairs need 5 tables"; "9 pairs need 4 tables and one pair sits out each round"."""
    text = f"{pairs} pairs need {needed} table{'s' if needed != 1 else ''}"
    if pairs % 2:
        text += " and one pair sits out each round"
    return text


def movement_generate(
    *,
    event: Event,
    kind: str,
    boards_per_round: int,
    tables: int | None = None,
    variant: str | None = None,
    pairs_per_team: int | None = None,
    pairs: int | None = None,
    section: Section | None = None,
) -> tuple[Movement, list[str]]:
    """The movement the director asks for, fitted to the pairs (`pairs`, or else the
    pairs entered), and what is wrong with it; stores nothing. The console and the API
    both build their movements here.

    An odd number of pairs makes a sit-out movement: its last pair is missing and whoever
    is due to meet it sits out. A request the pairs cannot fill ("10 pairs need 5
    tables") raises ServiceError.
    """
    if pairs is not None:
        pair_count = pairs
    elif section is not None and event.sections.count() > 1:
        pair_count = section.pairs.count()  # several sections: the section's own pairs
    else:
        pair_count = event.pairs.count()
    if kind == "mitchell" and 2 < pair_count < 5:
        raise ServiceError(f"a Mitchell needs at least 3 tables (5 pairs): {pair_count} "
                           "pairs play a Howell (choose Howell)", field="kind")
    options: dict = {"boards_per_round": boards_per_round}
    if kind == "team-match":
        options.update({k: v for k, v in (("pairs_per_team", pairs_per_team),
                                          ("tables", tables), ("variant", variant),
                                          ("pairs", pairs)) if v is not None})
    elif tables is not None:
        needed = tables_needed(kind, pair_count)
        if pair_count % 2 and kind != "mitchell" and tables == needed + 1:
            tables = needed  # the Howell's table of the missing pair, counted in
        if pair_count >= 2 and tables != needed:
            raise ServiceError(tables_words(kind, pair_count, needed), field="tables")
        if pair_count % 2:
            # A Howell keeps the missing pair still at an extra, empty table.
            tables = tables if kind == "mitchell" else tables + 1
            options["pairs"] = pair_count
        options["tables"] = tables
    if kind != "team-match":
        if tables is None and pairs is not None:
            options["pairs"] = pairs
        if variant is not None:
            options["variant"] = variant
        if pairs_per_team is not None:
            options["pairs_per_team"] = pairs_per_team  # generate says it is for team matches
    try:
        movement = generate(kind, **options)
    except (ValueError, TypeError) as exc:  # MovementError says what is wrong
        raise ServiceError(str(exc), field="movement") from None
    problems = check(movement)
    warning = _team_warning(event, movement)
    if warning:
        problems = [*problems, warning]
    return movement, problems


def _team_warning(event: Event, movement: Movement) -> str:
    """A team match seats team A as pairs 1..k and team B as k+1..2k: do the pairs fit?"""
    if not movement.teams:
        return ""
    teams = {p.number: p.team_id for p in event.pairs.all()}
    for side, numbers in movement.teams.items():
        if len({teams.get(n) for n in numbers}) != 1 or None in {teams.get(n) for n in numbers}:
            return (f"team {side} of the movement is pairs {', '.join(map(str, numbers))}: "
                    "list one team's pairs first, then the other's, on the pairs page")
    return ""
