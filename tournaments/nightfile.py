"""The night file (interfaces.md §2): a whole event as one JSON document.

Terms:
    night file  {"format": "duplicate-night/1", "event", "boards", "teams", "pairs",
                "results"}: the names, the boards, every result and ruling of an event.
                Results name the pairs directly, so a night from any movement can be
                imported; an imported event has no movement (section movement "none").
    place       where a value sits in the file, as a reader would point at it:
                ``results[17].result.tricks``, ``pairs[3].players``, ``format``.

Import is check-then-write: the whole file is checked and every result scored
(pure, no database) before the first row is written, and the writes are one
transaction, so a bad file leaves nothing behind. Set-up goes through the
services (event_create, teams_set, pair_set, boards_set); results and rulings,
which can run to tens of thousands, are stored with bulk_create under the
event's row lock, with one audit entry for the lot.
"""

from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from boards.models import Board
from scoring.engine import ResultError, parse_deal

from . import seam
from .models import MAX_CORRECTION_MINUTES, AuditEntry, Event, Pair, Result
from .services import (
    Actor,
    _lock_event,
    boards_set,
    correction_period_set,
    event_create,
    event_set_status,
    pair_set,
    teams_set,
)

FORMAT = "duplicate-night/1"
RULES = ("american-1913", "english", "duplicate-whist")
KINDS = ("pairs", "teams")
PAIR_METHODS = ("plus-minus", "matchpoints")
TEAM_METHOD = "total-points"
RULING_KINDS = ("average", "fouled", "cancelled")
# The database stores board and pair numbers as small integers.
MAX_NUMBER = 32767
BATCH = 1000

_TOP_KEYS = ("format", "event", "boards", "teams", "pairs", "results")
# correction_minutes: optional, the correction period after closing (written when not 30).
_EVENT_KEYS = ("name", "date", "rules", "kind", "method", "correction_minutes")
_BOARD_KEYS = ("number", "deal")
_TEAM_KEYS = ("name",)
_PAIR_KEYS = ("number", "players", "team")
_RESULT_KEYS = ("board", "ns", "ew", "result", "ruling")
_RULING_KEYS = ("kind", "offending")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class NightFileError(ValueError):
    """A night file that cannot be imported; ``place`` says where, ``message`` what."""

    def __init__(self, place: str, message: str) -> None:
        super().__init__(f"{place}: {message}" if place else message)
        self.place = place
        self.message = message


# --- reading ---------------------------------------------------------------------------


def loads(text: str | bytes) -> dict:
    """Parse a night file's text; malformed JSON is reported by line and column."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise NightFileError(
                "", f"the file is not UTF-8 text (byte {exc.start + 1} cannot be read)"
            ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NightFileError(f"line {exc.lineno} column {exc.colno}", exc.msg) from None
    except RecursionError:
        raise NightFileError("", "the file is nested too deeply to be a night file") from None
    return data


# --- checking (pure: no database) ------------------------------------------------------


@dataclass
class NightPlan:
    """A checked night file: everything needed to write the event, results scored."""

    name: str
    date: datetime.date
    rules: str
    kind: str
    method: str
    board_count: int
    deals: dict[int, str]
    teams: list[str]
    pairs: list[tuple[int, list[str], str | None]]  # number, players, team name
    # (board, ns, ew, Result fields), in file order
    results: list[tuple[int, int, int, dict]] = field(default_factory=list)
    rulings: list[tuple[int, int, int, dict]] = field(default_factory=list)
    correction_minutes: int | None = None  # None: the default period


def _describe(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _object(value: object, place: str, what: str, keys: tuple[str, ...]) -> dict:
    if not isinstance(value, dict):
        raise NightFileError(place, f"{what} must be an object, not {_describe(value)}")
    for key in value:
        if key not in keys:
            where = f"{place}.{key}" if place else str(key)
            raise NightFileError(
                where, f"{key!r} is not a field of {what}; the fields are {', '.join(keys)}"
            )
    return value


def _list(data: dict, key: str, *, required: bool = True) -> list:
    if key not in data:
        if required:
            raise NightFileError(key, f"the {key} list is missing")
        return []
    value = data[key]
    if not isinstance(value, list):
        raise NightFileError(key, f"{key} must be a list, not {_describe(value)}")
    return value


def _whole(value: object, place: str, what: str, lo: int = 1, hi: int = MAX_NUMBER) -> int:
    if type(value) is int and lo <= value <= hi:
        return value
    if type(value) is int:
        raise NightFileError(place, f"{what} must be between {lo} and {hi}")
    raise NightFileError(place, f"{what} must be a whole number, not {_describe(value)}")


def _text(value: object, place: str, what: str, longest: int) -> str:
    if not isinstance(value, str):
        raise NightFileError(place, f"{what} must be text, not {_describe(value)}")
    text = value.strip()
    if not text:
        raise NightFileError(place, f"{what} is empty")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise NightFileError(place, f"{what} has a control character in it")
    if len(text) > longest:
        raise NightFileError(place, f"{what} is too long (at most {longest} characters)")
    return text


def _choice(data: dict, key: str, place: str, what: str, choices: tuple[str, ...],
            default: str) -> str:
    value = data.get(key, default)
    if isinstance(value, str) and value in choices:
        return value
    shown = repr(value) if isinstance(value, str) and len(value) <= 30 else _describe(value)
    raise NightFileError(place, f"{what} must be one of {', '.join(choices)}, not {shown}")


def _check_event(data: dict) -> tuple[str, datetime.date, str, str, str]:
    if "event" not in data:
        raise NightFileError("event", "the event (name, date, rules, kind, method) is missing")
    event = _object(data["event"], "event", "the event", _EVENT_KEYS)
    if "name" not in event:
        raise NightFileError("event.name", "the event's name is missing")
    name = _text(event["name"], "event.name", "the event's name", 120)
    if "date" not in event:
        raise NightFileError("event.date", "the event's date is missing")
    raw = event["date"]
    if not (isinstance(raw, str) and _DATE.fullmatch(raw)):
        raise NightFileError("event.date", "the date must be written YYYY-MM-DD, like 2026-11-17")
    try:
        date = datetime.date.fromisoformat(raw)
    except ValueError:
        raise NightFileError("event.date", f"{raw} is not a date in the calendar") from None
    rules = _choice(event, "rules", "event.rules", "the rules", RULES, "american-1913")
    kind = _choice(event, "kind", "event.kind", "the kind of event", KINDS, "pairs")
    if kind == "teams":
        method = event.get("method", TEAM_METHOD)
        if method != TEAM_METHOD:
            raise NightFileError(
                "event.method", 'a team match is scored by total points (Duplicate Law G): '
                                'use "total-points"')
    else:
        method = event.get("method", "plus-minus")
        if method == TEAM_METHOD:
            raise NightFileError("event.method",
                                 "total points are for a team match; a pairs event is scored "
                                 "by plus-minus or matchpoints")
        method = _choice(event, "method", "event.method", "the method", PAIR_METHODS,
                         "plus-minus")
    return name, date, rules, kind, method


def _listed_number(item: dict, place: str, noun: str, seen: set[int]) -> int:
    """The `number` of a board or pair in its list: present, whole, and not seen before."""
    if "number" not in item:
        raise NightFileError(f"{place}.number", f"the {noun} number is missing")
    number = _whole(item["number"], f"{place}.number", f"the {noun} number")
    if number in seen:
        raise NightFileError(f"{place}.number", f"{noun} {number} is listed twice")
    seen.add(number)
    return number


def _check_boards(data: dict) -> tuple[int, dict[int, str]]:
    deals: dict[int, str] = {}
    numbers: set[int] = set()
    for i, item in enumerate(_list(data, "boards")):
        place = f"boards[{i}]"
        board = _object(item, place, "a board", _BOARD_KEYS)
        number = _listed_number(board, place, "board", numbers)
        deal = board.get("deal")
        if deal is None:
            continue
        if not isinstance(deal, str):
            raise NightFileError(f"{place}.deal",
                                 f"the deal must be PBN text like \"N:AKQJ.T98.765.432 ...\", "
                                 f"not {_describe(deal)}")
        if deal.strip():
            try:
                parse_deal(deal)
            except ValueError as exc:
                raise NightFileError(f"{place}.deal", str(exc)) from None
            deals[number] = deal.strip()
    count = max(numbers, default=0)
    missing = sorted(set(range(1, count + 1)) - numbers)
    if missing:
        raise NightFileError(
            "boards", f"boards are numbered from 1 without gaps; board {missing[0]} is missing")
    return count, deals


def _check_teams(data: dict, kind: str) -> list[str]:
    teams = _list(data, "teams", required=False)
    if teams and kind != "teams":
        raise NightFileError("teams", "only a teams event has teams (event.kind is \"pairs\")")
    names: list[str] = []
    for i, item in enumerate(teams):
        place = f"teams[{i}]"
        team = _object(item, place, "a team", _TEAM_KEYS)
        if "name" not in team:
            raise NightFileError(f"{place}.name", "the team's name is missing")
        name = _text(team["name"], f"{place}.name", "the team's name", 80)
        if name in names:
            raise NightFileError(f"{place}.name", f"team {name!r} is listed twice")
        names.append(name)
    return names


def _check_pairs(data: dict, kind: str, teams: list[str]
                 ) -> list[tuple[int, list[str], str | None]]:
    pairs: list[tuple[int, list[str], str | None]] = []
    numbers: set[int] = set()
    for i, item in enumerate(_list(data, "pairs")):
        place = f"pairs[{i}]"
        pair = _object(item, place, "a pair", _PAIR_KEYS)
        number = _listed_number(pair, place, "pair", numbers)
        players = pair.get("players")
        if not isinstance(players, list) or len(players) != 2:
            raise NightFileError(f"{place}.players", "a pair has two players")
        names = [_text(name, f"{place}.players[{j}]", "a player's name", 80)
                 for j, name in enumerate(players)]
        team = None
        if kind == "teams" and pair.get("team") is not None:
            team = _text(pair["team"], f"{place}.team", "the team's name", 80)
            if team not in teams:
                raise NightFileError(f"{place}.team", f"team {team!r} is not in the teams list")
        elif kind != "teams" and "team" in pair:
            raise NightFileError(f"{place}.team",
                                 "only pairs in a teams event have a team (event.kind is "
                                 "\"pairs\")")
        pairs.append((number, names, team))
    return pairs


def _check_ruling(value: object, place: str) -> dict:
    ruling = _object(value, place, "a ruling", _RULING_KEYS)
    if "kind" not in ruling:
        raise NightFileError(f"{place}.kind", "the kind of ruling (average, fouled or "
                                              "cancelled) is missing")
    kind = _choice(ruling, "kind", f"{place}.kind", "the ruling", RULING_KINDS, "")
    offending = ruling.get("offending", "")
    if kind == "fouled":
        if offending not in ("ns", "ew"):
            raise NightFileError(f"{place}.offending",
                                 "a fouled board names the side whose player was short: "
                                 '"ns" or "ew"')
    elif "offending" in ruling:
        raise NightFileError(f"{place}.offending",
                             "only a fouled board names an offending side")
    return seam.ruling_fields(kind=kind, offending=offending)


def _check_results(data: dict, plan: NightPlan) -> None:
    pair_numbers = {number for number, _, _ in plan.pairs}
    # One result per board per meeting of two pairs, as the database holds it. A pair
    # may meet a board twice against different opponents (an even-table Mitchell
    # without a skip does that), so that is not refused here.
    seen: dict[tuple[int, int, int], int] = {}  # (board, ns, ew) -> index
    for i, item in enumerate(_list(data, "results")):
        place = f"results[{i}]"
        entry = _object(item, place, "a result", _RESULT_KEYS)
        numbers = {}
        for key, what in (("board", "the board number"), ("ns", "the N-S pair number"),
                          ("ew", "the E-W pair number")):
            if key not in entry:
                raise NightFileError(f"{place}.{key}", f"{what} is missing")
            numbers[key] = _whole(entry[key], f"{place}.{key}", what)
        board, ns, ew = numbers["board"], numbers["ns"], numbers["ew"]
        if board > plan.board_count:
            raise NightFileError(f"{place}.board", f"board {board} is not in the boards list")
        for key in ("ns", "ew"):
            if numbers[key] not in pair_numbers:
                raise NightFileError(f"{place}.{key}",
                                     f"pair {numbers[key]} is not in the pairs list")
        if ns == ew:
            raise NightFileError(f"{place}.ew", f"pair {ns} cannot play against itself")
        if (board, ns, ew) in seen:
            raise NightFileError(place, f"board {board} between pairs {ns} (N-S) and {ew} "
                                        f"(E-W) is already in results[{seen[(board, ns, ew)]}]")
        seen[(board, ns, ew)] = i
        if ("result" in entry) == ("ruling" in entry):
            raise NightFileError(place, 'a result has either "result" (the play) or "ruling" '
                                        "(the director's ruling), not both or neither")
        if "ruling" in entry:
            plan.rulings.append((board, ns, ew, _check_ruling(entry["ruling"],
                                                                f"{place}.ruling")))
            continue
        plan.results.append((board, ns, ew, _score(entry["result"], board, plan,
                                                   f"{place}.result")))


def _score(value: object, board: int, plan: NightPlan, place: str) -> dict:
    if isinstance(value, dict) and "board" in value and value["board"] != board:
        raise NightFileError(f"{place}.board", f"the result says board {value['board']!r} but "
                                               f"it is listed for board {board}")
    try:
        return seam.result_fields(rules_name=plan.rules, board_number=board,
                                  deal=plan.deals.get(board, ""), data=value)
    except ResultError as exc:
        raise NightFileError(f"{place}.{exc.field}" if exc.field else place,
                             exc.message) from None


def night_check(data: object) -> NightPlan:
    """Check a night file (parsed JSON) and score every result; NightFileError if bad.

    Pure: reads nothing from the database and writes nothing.
    """
    if not isinstance(data, dict):
        raise NightFileError("", f"a night file is a JSON object, not {_describe(data)}")
    if data.get("format") != FORMAT:
        raise NightFileError("format", f'expected "{FORMAT}"')
    _object(data, "", "a night file", _TOP_KEYS)
    name, date, rules, kind, method = _check_event(data)
    board_count, deals = _check_boards(data)
    teams = _check_teams(data, kind)
    pairs = _check_pairs(data, kind, teams)
    plan = NightPlan(name=name, date=date, rules=rules, kind=kind, method=method,
                     board_count=board_count, deals=deals, teams=teams, pairs=pairs)
    _check_results(data, plan)
    if "correction_minutes" in data["event"]:
        plan.correction_minutes = _whole(data["event"]["correction_minutes"],
                                         "event.correction_minutes",
                                         "the correction period (minutes)", 0,
                                         MAX_CORRECTION_MINUTES)
    return plan


# --- writing ----------------------------------------------------------------------------


@transaction.atomic
def night_import(*, data: dict, actor: Actor) -> Event:
    """Create an event from a night file: one transaction, nothing written if it is bad.

    The imported event is "agreed": every result in the file is taken as recorded
    and agreed (Duplicate Law E), stored with status "director" (entered by the
    import, not by a table). It has no movement: results name the pairs directly.
    `actor` is Actor.system("import") or a director (both may set the event's state).
    Raises NightFileError, naming the place, for a bad file.
    """
    plan = night_check(data)
    event = event_create(name=plan.name, date=plan.date, rules=plan.rules, kind=plan.kind,
                         method=plan.method, actor=actor)
    if plan.correction_minutes is not None:
        event = correction_period_set(event=event, minutes=plan.correction_minutes, actor=actor)
    teams = {team.name: team for team in teams_set(event=event, names=plan.teams, actor=actor)}
    for number, players, team in plan.pairs:
        pair_set(event=event, number=number, players=players,
                 team=teams[team] if team else None, actor=actor)
    boards_set(event=event, count=plan.board_count, deals=plan.deals, actor=actor)
    _store_results(event, plan, actor)
    event = event_set_status(event=event, status=Event.Status.RUNNING, actor=actor)
    return event_set_status(event=event, status=Event.Status.AGREED, actor=actor)


def _store_results(event: Event, plan: NightPlan, actor: Actor) -> None:
    """Bulk-store the checked results and rulings under the event lock, one audit entry."""
    locked = _lock_event(event.pk)
    boards = dict(Board.objects.filter(event=locked).values_list("number", "pk"))
    pairs = dict(Pair.objects.filter(event=locked).values_list("number", "pk"))

    def rows():
        for board, ns, ew, fields in [*plan.results, *plan.rulings]:
            yield Result(event=locked, board_id=boards[board], ns_pair_id=pairs[ns],
                         ew_pair_id=pairs[ew], entered_by=actor.label[:80],
                         status=Result.Status.DIRECTOR, seq=locked.seq, **fields)

    batch: list[Result] = []
    for row in rows():
        batch.append(row)
        if len(batch) >= BATCH:
            Result.objects.bulk_create(batch)
            batch = []
    if batch:
        Result.objects.bulk_create(batch)
    AuditEntry.objects.create(
        event=locked, action="import", actor_label=actor.label[:80],
        actor=actor.user if actor.user is not None and actor.user.pk else None,
        after={"results": len(plan.results), "rulings": len(plan.rulings)},
    )


# --- export -------------------------------------------------------------------------------


def night_export(event: Event) -> dict:
    """The event as a night file: names, boards, every live result and ruling."""
    teams = event.kind == "teams"
    pairs = []
    for pair in Pair.objects.filter(event=event).select_related(
            "player_1", "player_2", "team").order_by("number"):
        item: dict[str, Any] = {"number": pair.number, "players": pair.names}
        if teams and pair.team is not None:
            item["team"] = pair.team.name
        pairs.append(item)
    boards = []
    for board in Board.objects.filter(event=event).order_by("number"):
        item = {"number": board.number}
        if board.deal:
            item["deal"] = board.deal
        boards.append(item)
    results = []
    rows = (Result.objects.filter(event=event, voided=False)
            .select_related("board", "ns_pair", "ew_pair")
            .order_by("board__number", "ns_pair__number", "ew_pair__number"))
    for row in rows:
        item = {"board": row.board.number, "ns": row.ns_pair.number, "ew": row.ew_pair.number}
        if row.ruling:
            item["ruling"] = seam.ruling_dict(row)
        else:
            item["result"] = seam.engine_input(row, is_whist=event.is_whist)
        results.append(item)
    night: dict[str, Any] = {
        "format": FORMAT,
        "event": {
            "name": event.name,
            "date": event.date.isoformat(),
            "rules": event.rules,
            "kind": event.kind,
            "method": event.method,
        },
        "boards": boards,
    }
    if event.correction_minutes != Event._meta.get_field("correction_minutes").default:
        night["event"]["correction_minutes"] = event.correction_minutes
    if teams:
        night["teams"] = [{"name": name} for name in
                          event.teams.order_by("id").values_list("name", flat=True)]
    night["pairs"] = pairs
    night["results"] = results
    return night


def dumps(night: dict) -> str:
    """A night file's text: readable, stable, UTF-8 names kept as written."""
    return json.dumps(night, indent=1, ensure_ascii=False) + "\n"
