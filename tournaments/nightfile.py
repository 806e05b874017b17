"""The night file (interfaces.md §2, docs/night-file.md): a whole event as one JSON document.

Terms:
    night file  {"format": "duplicate-night/1", "event", "boards", "teams", "pairs",
                "results"}: the names, the boards, every result and ruling of an event.
                Results name the pairs directly, so a night from any movement can be
                imported. Optional additions (docs/night-file.md) keep the rest of an
                event: its state and publishing, its sections and their meetings, where
                and by whom each result was entered and confirmed, each result's history
                (the audit: who, what, when, why), the removed results, and the event's
                own audited decisions that gave a reason. A file without them imports
                exactly as before: one section A with no movement, the event agreed.
    place       where a value sits in the file, as a reader would point at it:
                ``results[17].result.tricks``, ``pairs[3].players``, ``format``.

Import is check-then-write: the whole file is checked and every result scored
(pure, no database) before the first row is written, and the writes are one
transaction, so a bad file leaves nothing behind. Everything is written through
the services (event_create, teams_set, pair_set, boards_set, sections_import,
results_import, event_set_status, event_publish).
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import re
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from boards.movements import MITCHELL_VARIANTS
from scoring.engine import (
    NOT_PLAYED_NEUBERG,
    NOT_PLAYED_SCORINGS,
    PAIR_METHODS,
    RULE_SET_NAMES,
    RULINGS,
    SEATS,
    SIDES,
    ResultError,
    deal_from_north,
    parse_deal,
)

from . import seam
from .inputs import KeyGivenTwice, unique_keys
from .models import KINDS as EVENT_KINDS
from .models import (
    MAX_CORRECTION_MINUTES,
    MOVEMENTS,
    AuditEntry,
    Board,
    Event,
    Irregularity,
    Meeting,
    Pair,
    Result,
    Section,
    Substitute,
)
from .services import (
    CLUB_ADJUSTMENTS_OFF,
    Actor,
    HistoryRow,
    IrregularityRow,
    MeetingRow,
    PairChangeRow,
    ResultRow,
    SectionRow,
    boards_set,
    club_adjustments_set,
    correction_period_set,
    event_create,
    event_publish,
    event_set_status,
    irregularities_import,
    pair_changes_import,
    pair_set,
    results_import,
    sections_import,
    teams_set,
)

FORMAT = "duplicate-night/1"
RULES = RULE_SET_NAMES
KINDS = tuple(value for value, _ in EVENT_KINDS)
TEAM_METHOD = "total-points"
# "not-played" (interfaces.md §2): the board was not played at that meeting. It has no
# comparison and credits neither pair; it is stored as a ruling, because it still says
# something: under "own-average" the pair is credited its own average on it, and in a
# team match the deal is left out at both tables (docs/engine.md, items 24-25).
NOT_PLAYED = "not-played"
RULING_KINDS = (*RULINGS, "assigned")  # NOT_PLAYED and "adjusted" among them
STATUSES = tuple(Event.Status.values)
PUBLISHED = tuple(Event.Published.values)
RESULT_STATUSES = tuple(Result.Status.values)
SECTION_MOVEMENTS = tuple(value for value, _ in MOVEMENTS)
VARIANTS = MITCHELL_VARIANTS
# What a file without the optional additions means (interfaces.md §2: an imported
# event is agreed, unpublished, in one section A with no movement; each result was
# entered by the import and is the director's). Export leaves out what equals these.
DEFAULT_STATUS = Event.Status.AGREED
DEFAULT_PUBLISHED = Event.Published.NONE
DEFAULT_SECTION = "A"
DEFAULT_NOT_PLAYED_SCORING = NOT_PLAYED_NEUBERG
IMPORTER = "import"
# The database stores board and pair numbers as small integers.
MAX_NUMBER = 32767

_TOP_KEYS = ("format", "event", "boards", "teams", "sections", "pairs", "results", "removed",
             "audit", "irregularities")
# The event's fields: the first five are interfaces.md's; the rest are the event's
# state, optional. A new event-level field goes here, in _check_event_state and in
# _event_state (export), and in docs/night-file.md.
_EVENT_KEYS = ("name", "date", "rules", "kind", "method", "status", "published",
               "compare_by_section", "correction_minutes", "not_played_scoring",
               "club_adjustments")
_BOARD_KEYS = ("number", "deal", "deal_history")
# Duplicate Law B: a board's earlier deals (each new deal, as the audit has it), and the
# irregular boards reported (their state; their steps are in `audit`).
_DEAL_HISTORY_KEYS = ("at", "by", "reason", "before", "after")
_IRREGULARITY_KEYS = ("board", "stage", "status", "outcome", "meeting", "short_seat",
                      "surplus_seat", "misplaced_card", "sent_to_table", "sent_to_round",
                      "reported_by", "reported_at", "resolved_at", "note")
NEW_DEAL = "new deal"
NO_RECORD = "(no hand record)"  # a new deal's "before" when the board had no hand record
IRREGULAR_OUTCOMES = ("new-deal", "rectified", "average", "fouled", "cancelled")
_TEAM_KEYS = ("name",)
_SECTION_KEYS = ("name", "movement", "variant", "tables", "boards_per_round", "meetings")
_MEETING_KEYS = ("round", "table", "ns", "ew", "boards", "agreed_at")
_PAIR_KEYS = ("number", "players", "numbers", "team", "section", "joined_round",
              "left_after_round", "substitutes")
_SUBSTITUTE_KEYS = ("seat", "name", "from_round", "number")
_SUBSTITUTE_REQUIRED = ("seat", "name", "from_round")
_RESULT_KEYS = ("board", "ns", "ew", "result", "ruling", "meeting", "status", "entered_by",
                "confirmed_by", "late_play", "history")
_RESULT_MEETING_KEYS = ("section", "round", "table")
_RULING_KEYS = ("kind", "offending", "ns", "ew", "ns_result", "ew_result")
# The club adjustments (docs/night-file.md): only in an event with club_adjustments true.
ADJUSTED, ASSIGNED = "adjusted", "assigned"
ADJUST_GRADES = ("plus", "average", "minus")
_HISTORY_KEYS = ("action", "by", "at", "reason", "before", "after", "undone_by")
_STATE_KEYS = ("result", "ruling", "status", "voided", "late_play", "confirmed_by")
_AUDIT_KEYS = ("action", "by", "at", "reason", "before", "after")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
# A club's member number (as the member list has them: services.members).
MEMBER_NUMBER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{0,19}$")


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
        data = json.loads(text, object_pairs_hook=unique_keys)
    except KeyGivenTwice as exc:
        raise NightFileError("", str(exc)) from None
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
    # Each pair's member numbers (pairs[].numbers), by pair number, when the file has them.
    member_numbers: dict[int, list[str | None]] = field(default_factory=dict)
    # The event's state (the optional event-level fields).
    status: str = DEFAULT_STATUS
    published: str = DEFAULT_PUBLISHED
    compare_by_section: bool = False
    club_adjustments: bool = False
    sections: list[SectionRow] = field(default_factory=list)
    pair_sections: dict[int, str | None] = field(default_factory=dict)
    # Late pairs, pairs that left, substitutes: only the pairs that have any.
    pair_changes: dict[int, PairChangeRow] = field(default_factory=dict)
    # Live results and rulings, then removed ones, in file order.
    rows: list[ResultRow] = field(default_factory=list)
    event_history: list[HistoryRow] = field(default_factory=list)
    played: int = 0
    rulings: int = 0
    removed: int = 0
    not_played: int = 0
    correction_minutes: int | None = None  # None: the default period
    not_played_scoring: str = DEFAULT_NOT_PLAYED_SCORING
    irregularities: list[IrregularityRow] = field(default_factory=list)  # Duplicate Law B


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


def _check_event_state(data: dict, plan: NightPlan) -> None:
    """The event-level fields beyond interfaces.md's five, all optional."""
    event = data["event"]
    plan.status = _choice(event, "status", "event.status", "the event's state", STATUSES,
                          DEFAULT_STATUS)
    plan.published = _choice(event, "published", "event.published", "the publishing level",
                             PUBLISHED, DEFAULT_PUBLISHED)
    compare = event.get("compare_by_section", False)
    if not isinstance(compare, bool):
        raise NightFileError("event.compare_by_section",
                             f"compare_by_section is true or false, not {_describe(compare)}")
    plan.compare_by_section = compare
    club = event.get("club_adjustments", False)
    if not isinstance(club, bool):
        raise NightFileError("event.club_adjustments",
                             f"club_adjustments is true or false, not {_describe(club)}")
    plan.club_adjustments = club
    # The correction period after closing (written when not the default).
    if "correction_minutes" in event:
        plan.correction_minutes = _whole(event["correction_minutes"], "event.correction_minutes",
                                         "the correction period (minutes)", 0,
                                         MAX_CORRECTION_MINUTES)
    # Matchpoints: how a board not played is scored (written when not Neuberg).
    plan.not_played_scoring = _choice(event, "not_played_scoring", "event.not_played_scoring",
                                      "the scoring of a board not played",
                                      NOT_PLAYED_SCORINGS, DEFAULT_NOT_PLAYED_SCORING)


def _moment(value: object, place: str, what: str) -> datetime.datetime:
    """A time with its offset from UTC, ISO 8601 (as export writes it)."""
    if isinstance(value, str):
        try:
            moment = datetime.datetime.fromisoformat(value)
        except ValueError:
            moment = None
        if moment is not None and moment.tzinfo is not None:
            return moment
    raise NightFileError(place, f"{what} must be a time with its offset from UTC, like "
                                f"2026-11-17T20:15:00+00:00")


def _listed_number(item: dict, place: str, noun: str, seen: set[int]) -> int:
    """The `number` of a board or pair in its list: present, whole, and not seen before."""
    if "number" not in item:
        raise NightFileError(f"{place}.number", f"the {noun} number is missing")
    number = _whole(item["number"], f"{place}.number", f"the {noun} number")
    if number in seen:
        raise NightFileError(f"{place}.number", f"{noun} {number} is listed twice")
    seen.add(number)
    return number


def _check_boards(data: dict, history: list[HistoryRow]) -> tuple[int, dict[int, str]]:
    deals: dict[int, str] = {}
    numbers: set[int] = set()
    for i, item in enumerate(_list(data, "boards")):
        place = f"boards[{i}]"
        board = _object(item, place, "a board", _BOARD_KEYS)
        number = _listed_number(board, place, "board", numbers)
        history.extend(_check_deal_history(board, place, number))
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


def _check_member_numbers(data: dict) -> dict[int, list[str | None]]:
    """pairs[].numbers: each player's member number, or null for a visitor (optional)."""
    found: dict[int, list[str | None]] = {}
    by_number: dict[str, str] = {}
    for i, item in enumerate(data["pairs"]):
        if "numbers" not in item:
            continue
        place = f"pairs[{i}].numbers"
        numbers = item["numbers"]
        if not isinstance(numbers, list) or len(numbers) != 2:
            raise NightFileError(place, "two member numbers, one for each player (null for "
                                        "a visitor)")
        checked: list[str | None] = []
        for j, value in enumerate(numbers):
            if value is None:
                checked.append(None)
                continue
            if not isinstance(value, str) or not MEMBER_NUMBER.match(value):
                raise NightFileError(f"{place}[{j}]", "a member number is a string of "
                                     "letters and digits, at most 20, or null")
            if value in by_number:
                raise NightFileError(f"{place}[{j}]", f"member {value} is also "
                                     f"{by_number[value]}")
            by_number[value] = f"{place}[{j}]"
            checked.append(value)
        found[item["number"]] = checked
    return found


def _check_pair_changes(data: dict, plan: NightPlan) -> None:
    """Each pair's optional joined_round, left_after_round and substitutes."""
    for i, item in enumerate(data["pairs"]):
        place = f"pairs[{i}]"
        joined = left = None
        if item.get("joined_round") is not None:
            joined = _whole(item["joined_round"], f"{place}.joined_round",
                            "the round the pair joined")
        if item.get("left_after_round") is not None:
            left = _whole(item["left_after_round"], f"{place}.left_after_round",
                          "the round the pair left after", 0)
        substitutes = []
        numbers: list[str | None] = []
        seen = set()
        for j, raw in enumerate(_list(item, "substitutes", required=False)):
            where = f"{place}.substitutes[{j}]"
            sub = _object(raw, where, "a substitute", _SUBSTITUTE_KEYS)
            for key in _SUBSTITUTE_REQUIRED:
                if key not in sub:
                    raise NightFileError(f"{where}.{key}", f"the substitute's {key} is missing")
            seat = _whole(sub["seat"], f"{where}.seat", "the seat (1 or 2)", 1, 2)
            name = _text(sub["name"], f"{where}.name", "a player's name", 80)
            from_round = _whole(sub["from_round"], f"{where}.from_round",
                                "the round the substitute played from")
            if (seat, from_round) in seen:
                raise NightFileError(where, f"seat {seat} has two substitutes from round "
                                            f"{from_round}")
            seen.add((seat, from_round))
            substitutes.append((seat, name, from_round))
            number = sub.get("number")
            if number is not None and (not isinstance(number, str)
                                       or not MEMBER_NUMBER.match(number)):
                raise NightFileError(f"{where}.number", "a member number is a string of "
                                     "letters and digits, at most 20, or null")
            numbers.append(number)
        if joined is not None or left is not None or substitutes:
            plan.pair_changes[item["number"]] = PairChangeRow(
                joined_round=joined, left_after_round=left, substitutes=tuple(substitutes),
                substitute_numbers=tuple(numbers))


def _check_sections(data: dict, plan: NightPlan) -> None:
    """The sections and their meetings (optional: one section A with no movement), and
    each pair's section."""
    boards = set(range(1, plan.board_count + 1))
    pair_numbers = {number for number, _, _ in plan.pairs}
    if "sections" not in data:
        plan.sections = [SectionRow(name=DEFAULT_SECTION)]
    elif data["sections"] == []:
        raise NightFileError("sections", "an event has at least one section; leave the list "
                                         "out for one section A with no movement")
    for i, item in enumerate(_list(data, "sections", required=False)):
        place = f"sections[{i}]"
        section = _object(item, place, "a section", _SECTION_KEYS)
        if "name" not in section:
            raise NightFileError(f"{place}.name", "the section's name is missing")
        name = _text(section["name"], f"{place}.name", "the section's name", 10)
        if any(row.name == name for row in plan.sections):
            raise NightFileError(f"{place}.name", f"section {name} is listed twice")
        movement = _choice(section, "movement", f"{place}.movement", "the movement",
                           SECTION_MOVEMENTS, "none")
        variant = ""
        if section.get("variant") not in (None, ""):
            variant = _choice(section, "variant", f"{place}.variant", "the variant", VARIANTS,
                              "")
        tables = _whole(section.get("tables", 0), f"{place}.tables", "the number of tables", 0)
        per_round = _whole(section.get("boards_per_round", 0), f"{place}.boards_per_round",
                           "the number of boards a round", 0)
        meetings: list[MeetingRow] = []
        seen: set[tuple[int, int]] = set()
        for j, raw in enumerate(_list(section, "meetings", required=False)):
            where = f"{place}.meetings[{j}]"
            meeting = _object(raw, where, "a meeting", _MEETING_KEYS)
            numbers = {}
            for key, what in (("round", "the round"), ("table", "the table"),
                              ("ns", "the N-S pair number"), ("ew", "the E-W pair number")):
                if key not in meeting:
                    raise NightFileError(f"{where}.{key}", f"{what} is missing")
                numbers[key] = _whole(meeting[key], f"{where}.{key}", what)
            if (numbers["round"], numbers["table"]) in seen:
                raise NightFileError(where, f"table {numbers['table']} in round "
                                            f"{numbers['round']} is listed twice")
            seen.add((numbers["round"], numbers["table"]))
            for key in ("ns", "ew"):
                if numbers[key] not in pair_numbers:
                    raise NightFileError(f"{where}.{key}",
                                         f"pair {numbers[key]} is not in the pairs list")
            if numbers["ns"] == numbers["ew"]:
                raise NightFileError(f"{where}.ew",
                                     f"pair {numbers['ns']} cannot play against itself")
            played = meeting.get("boards")
            if not isinstance(played, list) or not played:
                raise NightFileError(f"{where}.boards",
                                     "a meeting lists the boards played there, like [1, 2, 3]")
            for k, number in enumerate(played):
                if _whole(number, f"{where}.boards[{k}]", "a board number") not in boards:
                    raise NightFileError(f"{where}.boards[{k}]",
                                         f"board {number} is not in the boards list")
            agreed = None
            if meeting.get("agreed_at") is not None:
                agreed = _moment(meeting["agreed_at"], f"{where}.agreed_at",
                                 "the time the round was agreed")
            meetings.append(MeetingRow(round=numbers["round"], table=numbers["table"],
                                       ns=numbers["ns"], ew=numbers["ew"],
                                       boards=tuple(played), agreed_at=agreed))
        plan.sections.append(SectionRow(name=name, movement=movement, variant=variant,
                                        tables=tables, boards_per_round=per_round,
                                        meetings=tuple(meetings)))
    names = [row.name for row in plan.sections]
    first = min(names, default=None)
    for i, item in enumerate(data["pairs"]):
        number = item["number"]
        if "section" not in item:
            plan.pair_sections[number] = first
            continue
        name = item["section"]
        if name is not None:
            name = _text(name, f"pairs[{i}].section", "the section's name", 10)
            if name not in names:
                raise NightFileError(f"pairs[{i}].section",
                                     f"section {name} is not in the sections list")
        plan.pair_sections[number] = name


def _check_ruling(value: object, place: str, *, kinds: tuple[str, ...] = RULING_KINDS,
                  plan: NightPlan | None = None, board: int = 0) -> dict:
    ruling = _object(value, place, "a ruling", _RULING_KEYS)
    if "kind" not in ruling:
        raise NightFileError(f"{place}.kind", "the kind of ruling (average, fouled, "
                                              "cancelled or not-played) is missing")
    kind = _choice(ruling, "kind", f"{place}.kind", "the ruling", kinds, "")
    club_keys = {ADJUSTED: ("ns", "ew"), ASSIGNED: ("ns_result", "ew_result")}
    for other, keys in club_keys.items():
        for key in keys:
            if key in ruling and kind != other:
                raise NightFileError(f"{place}.{key}",
                                     f"only an {other} score has {key!r}")
    if kind in club_keys:
        return _check_club_adjustment(ruling, kind, place, plan, board)
    offending = ruling.get("offending", "")
    if kind == "fouled":
        if offending not in SIDES:
            raise NightFileError(f"{place}.offending",
                                 "a fouled board names the side whose player was short: "
                                 '"ns" or "ew"')
    elif "offending" in ruling:
        raise NightFileError(f"{place}.offending",
                             "only a fouled board names an offending side")
    return seam.ruling_fields(kind=kind, offending=offending)


def _check_late_play(item: dict, place: str, fields: dict) -> dict:
    """`late_play` (optional): true for a board played late, out of order; a played result
    only (a ruling has no play)."""
    if "late_play" not in item:
        return fields
    late = item["late_play"]
    if not isinstance(late, bool):
        raise NightFileError(f"{place}.late_play",
                             f"late_play is true or false, not {_describe(late)}")
    if late and fields["ruling"]:
        raise NightFileError(f"{place}.late_play",
                             "only a played board is played late, not a ruling")
    return {**fields, "late_play": late}


def _check_club_adjustment(ruling: dict, kind: str, place: str, plan: NightPlan | None,
                           board: int) -> dict:
    """An adjusted or assigned score (club practice): only when the event turns club
    adjustments on; an assigned score's results scored like any result."""
    if plan is None or not plan.club_adjustments:
        raise NightFileError(f"{place}.kind", CLUB_ADJUSTMENTS_OFF.replace(
            "Turn them on in the event's settings.",
            'Set "club_adjustments": true in the file\'s event to import it.'))
    if "offending" in ruling:
        raise NightFileError(f"{place}.offending",
                             "only a fouled board names an offending side")
    if kind == ADJUSTED:
        if plan.kind == "teams":
            raise NightFileError(f"{place}.kind", "adjusted scores are for a pair contest: "
                                                  "a team match adds up real totals")
        grades = {}
        for key, who in (("ns", "N-S"), ("ew", "E-W")):
            grade = _choice(ruling, key, f"{place}.{key}", f"{who}'s grade", ADJUST_GRADES, "")
            grades[key] = grade
        return seam.adjusted_fields(ns_grade=grades["ns"], ew_grade=grades["ew"])
    if "ns_result" not in ruling:
        raise NightFileError(f"{place}.ns_result", "an assigned score gives the result "
                                                   "assigned (ns_result)")
    ns_fields = _score(ruling["ns_result"], board, plan, f"{place}.ns_result")
    ew_fields = None
    if "ew_result" in ruling:
        ew_fields = _score(ruling["ew_result"], board, plan, f"{place}.ew_result")
    return seam.assigned_fields(ns_fields=ns_fields, ew_fields=ew_fields,
                                ew_data=ruling.get("ew_result"))


STORED_RULINGS = RULING_KINDS


def _check_state(value: object, place: str, plan: NightPlan, board: int, ns: int,
                 ew: int) -> dict:
    """A result as it stood before or after an audited change: the audit's snapshot."""
    state = _object(value, place, "a result as it stood", _STATE_KEYS)
    if ("result" in state) == ("ruling" in state):
        raise NightFileError(place, 'a result as it stood has either "result" or "ruling"')
    if "ruling" in state:
        fields = _check_ruling(state["ruling"], f"{place}.ruling", kinds=STORED_RULINGS,
                               plan=plan, board=board)
    else:
        fields = _score(state["result"], board, plan, f"{place}.result")
    fields = _check_late_play(state, place, fields)
    status = _choice(state, "status", f"{place}.status", "the result's state",
                     RESULT_STATUSES, Result.Status.DIRECTOR)
    voided = state.get("voided", False)
    if not isinstance(voided, bool):
        raise NightFileError(f"{place}.voided", f"voided is true or false, not "
                                                f"{_describe(voided)}")
    snapshot = {name: fields.get(name, seam.SNAPSHOT_DEFAULTS.get(name))
                for name in seam.SNAPSHOT_FIELDS
                if name in fields or name in seam.SNAPSHOT_DEFAULTS}
    confirmed_by = ""
    if "confirmed_by" in state:
        confirmed_by = _text(state["confirmed_by"], f"{place}.confirmed_by",
                             "who confirmed it", 80)
    snapshot.update(status=status, voided=voided, board=board, ns=ns, ew=ew,
                    confirmed_by=confirmed_by)
    return snapshot


def _check_entry(value: object, place: str, keys: tuple[str, ...]) -> dict:
    """What every audit entry in a file has: action, by (who), at (when), reason (why)."""
    entry = _object(value, place, "an audit entry", keys)
    for key in ("action", "by", "at"):
        if key not in entry:
            raise NightFileError(f"{place}.{key}", f"the entry's {key} is missing")
    reason = entry.get("reason", "")
    if not isinstance(reason, str):
        raise NightFileError(f"{place}.reason", f"the reason must be text, not "
                                                f"{_describe(reason)}")
    return {"action": _text(entry["action"], f"{place}.action", "the action", 24),
            "by": _text(entry["by"], f"{place}.by", "who made the change", 80),
            "at": _moment(entry["at"], f"{place}.at", "the time of the change"),
            "reason": reason.strip()}


def _check_history(value: object, place: str, plan: NightPlan, board: int, ns: int,
                   ew: int) -> tuple[HistoryRow, ...]:
    if not isinstance(value, list):
        raise NightFileError(place, f"the history must be a list, not {_describe(value)}")
    rows: list[HistoryRow] = []
    undone: set[int] = set()
    for i, item in enumerate(value):
        where = f"{place}[{i}]"
        entry = _check_entry(item, where, _HISTORY_KEYS)
        states = {key: None if item.get(key) is None else
                  _check_state(item[key], f"{where}.{key}", plan, board, ns, ew)
                  for key in ("before", "after")}
        undo = item.get("undone_by")
        if undo is not None:
            undo = _whole(undo, f"{where}.undone_by", "the undo's place in the history", 0,
                          len(value) - 1)
            if undo <= i or undo in undone:
                raise NightFileError(f"{where}.undone_by",
                                     "names a later entry of this history that undoes only "
                                     "this change")
            undone.add(undo)
        rows.append(HistoryRow(undone_by=undo, **entry, **states))
    return tuple(rows)


def _check_result(item: object, place: str, plan: NightPlan,
                  meetings: dict[tuple[str, int, int], MeetingRow],
                  pair_numbers: set[int]) -> ResultRow:
    """One entry of `results` or `removed`."""
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
    if ("result" in entry) == ("ruling" in entry):
        raise NightFileError(place, 'a result has either "result" (the play) or "ruling" '
                                    "(the director's ruling), not both or neither")
    if "ruling" in entry:
        fields = _check_ruling(entry["ruling"], f"{place}.ruling", plan=plan, board=board)
    else:
        fields = _score(entry["result"], board, plan, f"{place}.result")
    fields = _check_late_play(entry, place, fields)
    meeting = None
    if "meeting" in entry:
        where = f"{place}.meeting"
        raw = _object(entry["meeting"], where, "a meeting", _RESULT_MEETING_KEYS)
        names = [row.name for row in plan.sections]
        section = raw.get("section", names[0] if len(names) == 1 else None)
        if section is None:
            raise NightFileError(f"{where}.section", "the section is missing")
        if section not in names:
            raise NightFileError(f"{where}.section",
                                 f"section {section!r} is not in the sections list")
        for key in ("round", "table"):
            if key not in raw:
                raise NightFileError(f"{where}.{key}", f"the {key} is missing")
        key = (section, _whole(raw["round"], f"{where}.round", "the round"),
               _whole(raw["table"], f"{where}.table", "the table"))
        found = meetings.get(key)
        if found is None:
            raise NightFileError(where, f"section {key[0]} has no table {key[2]} in round "
                                        f"{key[1]}")
        if (found.ns, found.ew) != (ns, ew) or board not in found.boards:
            raise NightFileError(where, f"board {board} between pairs {ns} and {ew} is not "
                                        f"played at table {key[2]} in round {key[1]}")
        meeting = key
    status = _choice(entry, "status", f"{place}.status", "the result's state",
                     RESULT_STATUSES, Result.Status.DIRECTOR)
    entered_by = ""
    if "entered_by" in entry:
        entered_by = _text(entry["entered_by"], f"{place}.entered_by", "who entered it", 80)
    confirmed_by = ""
    if "confirmed_by" in entry:
        confirmed_by = _text(entry["confirmed_by"], f"{place}.confirmed_by",
                             "who confirmed it", 80)
    history: tuple[HistoryRow, ...] = ()
    if "history" in entry:
        history = _check_history(entry["history"], f"{place}.history", plan, board, ns, ew)
    return ResultRow(board=board, ns=ns, ew=ew, fields=fields, meeting=meeting, status=status,
                     entered_by=entered_by, confirmed_by=confirmed_by, history=history)


def _check_results(data: dict, plan: NightPlan) -> None:
    meetings = {(row.name, m.round, m.table): m for row in plan.sections for m in row.meetings}
    pair_numbers = {number for number, _, _ in plan.pairs}
    # One result per board per meeting of two pairs, as the database holds it. A pair
    # may meet a board twice against different opponents (an even-table Mitchell
    # without a skip does that), so that is not refused here.
    seen: dict[tuple[int, int, int], int] = {}  # (board, ns, ew) -> index
    for i, item in enumerate(_list(data, "results")):
        place = f"results[{i}]"
        row = _check_result(item, place, plan, meetings, pair_numbers)
        key = (item["board"], item["ns"], item["ew"])
        if key in seen:
            raise NightFileError(place, f"board {key[0]} between pairs {key[1]} (N-S) and "
                                        f"{key[2]} (E-W) is already in results[{seen[key]}]")
        seen[key] = i
        plan.rows.append(row)
        if row.fields["ruling"] == NOT_PLAYED:
            plan.not_played += 1
        elif row.fields["ruling"]:
            plan.rulings += 1
        else:
            plan.played += 1
    for i, item in enumerate(_list(data, "removed", required=False)):
        place = f"removed[{i}]"
        row = _check_result(item, place, plan, meetings, pair_numbers)
        plan.rows.append(dataclasses.replace(row, voided=True))
        plan.removed += 1


def _check_audit(data: dict, plan: NightPlan) -> None:
    """The event's own audited decisions that gave a reason (not tied to one result)."""
    for i, item in enumerate(_list(data, "audit", required=False)):
        place = f"audit[{i}]"
        entry = _check_entry(item, place, _AUDIT_KEYS)
        changes = {}
        for key in ("before", "after"):
            value = item.get(key)
            if value is not None and not isinstance(value, dict):
                raise NightFileError(f"{place}.{key}",
                                     f"{key} must be an object, not {_describe(value)}")
            changes[key] = value
        plan.event_history.append(HistoryRow(**entry, **changes))


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
    deal_history: list[HistoryRow] = []
    board_count, deals = _check_boards(data, deal_history)
    teams = _check_teams(data, kind)
    pairs = _check_pairs(data, kind, teams)
    plan = NightPlan(name=name, date=date, rules=rules, kind=kind, method=method,
                     board_count=board_count, deals=deals, teams=teams, pairs=pairs)
    plan.member_numbers = _check_member_numbers(data)
    _check_event_state(data, plan)
    _check_sections(data, plan)
    _check_pair_changes(data, plan)
    _check_results(data, plan)
    plan.event_history.extend(deal_history)
    _check_audit(data, plan)
    _check_irregularities(data, plan)
    return plan


# --- writing ----------------------------------------------------------------------------

# The way from a new event (setting up) to each state, one allowed step at a time.
_STEPS = {
    Event.Status.SETTING_UP: (),
    Event.Status.RUNNING: (Event.Status.RUNNING,),
    Event.Status.AGREED: (Event.Status.RUNNING, Event.Status.AGREED),
    Event.Status.CLOSED: (Event.Status.RUNNING, Event.Status.AGREED, Event.Status.CLOSED),
}


@transaction.atomic
def night_import(*, data: dict, actor: Actor) -> Event:
    """Create an event from a night file: one transaction, nothing written if it is bad.

    Without the optional additions the imported event is "agreed": every result in
    the file is taken as recorded and agreed (Duplicate Law E), stored with status
    "director" (entered by the import, not by a table), in one section A with no
    movement. With them, the event comes back as it was exported (docs/night-file.md).
    `actor` is Actor.system("import") or a director (both may set the event's state).
    Raises NightFileError, naming the place, for a bad file.
    """
    plan = night_check(data)
    event = event_create(name=plan.name, date=plan.date, rules=plan.rules, kind=plan.kind,
                         method=plan.method, not_played_scoring=plan.not_played_scoring,
                         actor=actor)
    if plan.correction_minutes is not None:
        event = correction_period_set(event=event, minutes=plan.correction_minutes, actor=actor)
    if plan.club_adjustments:
        event = club_adjustments_set(event=event, on=True, actor=actor)
    teams = {team.name: team for team in teams_set(event=event, names=plan.teams, actor=actor)}
    for number, players, team in plan.pairs:
        pair_set(event=event, number=number, players=players,
                 team=teams[team] if team else None, actor=actor,
                 numbers=plan.member_numbers.get(number, [None, None]))
    boards_set(event=event, count=plan.board_count, deals=plan.deals, actor=actor)
    sections_import(event=event, sections=plan.sections, pair_sections=plan.pair_sections,
                    compare_by_section=plan.compare_by_section, actor=actor)
    pair_changes_import(event=event, changes=plan.pair_changes, actor=actor)
    summary = {"results": plan.played, "rulings": plan.rulings}
    if plan.removed:
        summary["removed"] = plan.removed
    if plan.not_played:
        summary["not_played"] = plan.not_played
    results_import(event=event, rows=plan.rows, event_history=plan.event_history,
                   summary=summary, actor=actor)
    if plan.irregularities:
        irregularities_import(event=event, rows=plan.irregularities, actor=actor)
    # A night file records a night already played: importing it e-mails no score card
    # (the console's "Send the cards not sent yet" does, if the club wants them sent).
    for status in _STEPS[Event.Status(plan.status)]:
        event = event_set_status(event=event, status=status, actor=actor, send_cards=False)
    if plan.published != DEFAULT_PUBLISHED:
        event = event_publish(event=event, level=plan.published, actor=actor, send_cards=False)
    event.refresh_from_db()
    return event


# --- export -------------------------------------------------------------------------------


def _moment_text(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).isoformat()


def _event_state(event: Event) -> dict:
    """The event-level fields beyond interfaces.md's five, where they are not the default."""
    state: dict[str, Any] = {}
    if event.status != DEFAULT_STATUS:
        state["status"] = event.status
    if event.published != DEFAULT_PUBLISHED:
        state["published"] = event.published
    if event.compare_by_section:
        state["compare_by_section"] = True
    if event.correction_minutes != Event._meta.get_field("correction_minutes").default:
        state["correction_minutes"] = event.correction_minutes
    if event.not_played_scoring != DEFAULT_NOT_PLAYED_SCORING:
        state["not_played_scoring"] = event.not_played_scoring
    if event.club_adjustments:
        state["club_adjustments"] = True
    return state


def _sections(event: Event) -> list[dict] | None:
    """The sections and their meetings; None when they are the default (one section A,
    no movement, every pair in it), which a file says by leaving them out."""
    sections = list(Section.objects.filter(event=event).order_by("name"))
    meetings: dict[int, list[Meeting]] = {}
    for meeting in (Meeting.objects.filter(section__event=event)
                    .select_related("ns_pair", "ew_pair").order_by("round", "table")):
        meetings.setdefault(meeting.section_id, []).append(meeting)
    plain = (len(sections) == 1 and sections[0].name == DEFAULT_SECTION
             and sections[0].movement == "none" and not sections[0].variant
             and not sections[0].tables and not sections[0].boards_per_round
             and not meetings
             and not Pair.objects.filter(event=event).exclude(section=sections[0]).exists())
    if plain:
        return None
    out = []
    for section in sections:
        item: dict[str, Any] = {"name": section.name, "movement": section.movement}
        if section.variant:
            item["variant"] = section.variant
        item["tables"] = section.tables
        item["boards_per_round"] = section.boards_per_round
        rows = []
        for m in meetings.get(section.pk, []):
            row: dict[str, Any] = {"round": m.round, "table": m.table, "ns": m.ns_pair.number,
                                   "ew": m.ew_pair.number, "boards": list(m.boards)}
            if m.agreed_at is not None:
                row["agreed_at"] = _moment_text(m.agreed_at)
            rows.append(row)
        item["meetings"] = rows
        out.append(item)
    return out


def _state(snapshot: object, is_whist: bool) -> dict | None:
    """An audit snapshot as a file writes a result as it stood; None if it is not one."""
    if not isinstance(snapshot, dict) or not all(
            name in snapshot for name in seam.SNAPSHOT_FIELDS
            if name not in seam.SNAPSHOT_DEFAULTS):
        return None
    fields = seam.snapshot_fields(snapshot)
    row = Result(**{name: value for name, value in fields.items()
                    if name not in ("status", "voided")})
    state: dict[str, Any] = (
        {"ruling": seam.ruling_dict(row, is_whist=is_whist)} if row.ruling
        else {"result": seam.engine_input(row, is_whist=is_whist)})
    state["status"] = fields["status"]
    if fields["voided"]:
        state["voided"] = True
    if fields["late_play"]:
        state["late_play"] = True
    if fields["confirmed_by"]:
        state["confirmed_by"] = fields["confirmed_by"]
    return state


def _entry(entry: AuditEntry) -> dict[str, Any]:
    item: dict[str, Any] = {"action": entry.action, "by": entry.actor_label,
                            "at": _moment_text(entry.at)}
    if entry.reason:
        item["reason"] = entry.reason
    return item


def _histories(event: Event) -> dict[int, list[dict]]:
    """Each result's audit entries, oldest first, as a file writes them."""
    entries: dict[int, list[AuditEntry]] = {}
    for entry in (AuditEntry.objects.filter(event=event, result__isnull=False)
                  .order_by("at", "id")):
        entries.setdefault(entry.result_id, []).append(entry)
    out: dict[int, list[dict]] = {}
    for result_id, rows in entries.items():
        index = {entry.pk: i for i, entry in enumerate(rows)}
        items = []
        for entry in rows:
            item = _entry(entry)
            for key in ("before", "after"):
                state = _state(getattr(entry, key), event.is_whist)
                if state is not None:
                    item[key] = state
            if entry.undone_by_id in index:
                item["undone_by"] = index[entry.undone_by_id]
            items.append(item)
        out[result_id] = items
    return out


def _event_audit(event: Event) -> list[dict]:
    """The event's own entries that gave a reason (a director's decision explained)."""
    out = []
    for entry in (AuditEntry.objects.filter(event=event, result__isnull=True)
                  .exclude(reason="").exclude(action=NEW_DEAL).order_by("at", "id")):
        item = _entry(entry)
        for key in ("before", "after"):
            value = getattr(entry, key)
            if isinstance(value, dict):
                item[key] = value
        out.append(item)
    return out


def _result_item(row: Result, event: Event, histories: dict[int, list[dict]]) -> dict:
    item: dict[str, Any] = {"board": row.board.number, "ns": row.ns_pair.number,
                            "ew": row.ew_pair.number}
    if row.ruling:
        item["ruling"] = seam.ruling_dict(row, is_whist=event.is_whist)
    else:
        item["result"] = seam.engine_input(row, is_whist=event.is_whist)
    if row.meeting is not None:
        item["meeting"] = {"section": row.meeting.section.name, "round": row.meeting.round,
                           "table": row.meeting.table}
    if row.status != Result.Status.DIRECTOR:
        item["status"] = row.status
    if row.entered_by and row.entered_by != IMPORTER:
        item["entered_by"] = row.entered_by
    if row.confirmed_by:
        item["confirmed_by"] = row.confirmed_by
    if row.late_play:
        item["late_play"] = True
    if row.pk in histories:
        item["history"] = histories[row.pk]
    return item


def night_export(event: Event) -> dict:
    """The event as a night file: names, boards, every live result and ruling, and what
    else the event holds (docs/night-file.md), each addition only where it is not the
    default a plain duplicate-night/1 file means."""
    teams = event.kind == "teams"
    sections = _sections(event)
    pairs = []
    substitutes: dict[int, list[dict]] = {}
    for sub in Substitute.objects.filter(pair__event=event).select_related("player").order_by(
            "from_round", "seat", "id"):
        substitutes.setdefault(sub.pair_id, []).append(
            {"seat": sub.seat, "name": sub.player.name, "from_round": sub.from_round,
             **({"number": sub.player.number} if sub.player.number else {})})
    for pair in Pair.objects.filter(event=event).select_related(
            "player_1", "player_2", "team", "section").order_by("number"):
        item: dict[str, Any] = {"number": pair.number, "players": pair.names}
        if pair.player_1.number or pair.player_2.number:
            item["numbers"] = [pair.player_1.number, pair.player_2.number]
        if teams and pair.team is not None:
            item["team"] = pair.team.name
        if sections is not None:
            item["section"] = pair.section.name if pair.section else None
        if pair.joined_round is not None:
            item["joined_round"] = pair.joined_round
        if pair.left_after_round is not None:
            item["left_after_round"] = pair.left_after_round
        if substitutes.get(pair.pk):
            item["substitutes"] = substitutes[pair.pk]
        pairs.append(item)
    boards = []
    deal_history = _deal_history(event)
    for board in Board.objects.filter(event=event).order_by("number"):
        item = {"number": board.number}
        if board.deal:
            item["deal"] = board.deal
        if board.number in deal_history:
            item["deal_history"] = deal_history[board.number]
        boards.append(item)
    histories = _histories(event)
    rows = (Result.objects.filter(event=event)
            .select_related("board", "ns_pair", "ew_pair", "meeting__section")
            .order_by("board__number", "ns_pair__number", "ew_pair__number", "id"))
    results, removed = [], []
    for row in rows:
        (removed if row.voided else results).append(_result_item(row, event, histories))
    night: dict[str, Any] = {
        "format": FORMAT,
        "event": {
            "name": event.name,
            "date": event.date.isoformat(),
            "rules": event.rules,
            "kind": event.kind,
            "method": event.method,
            **_event_state(event),
        },
        "boards": boards,
    }
    if teams:
        night["teams"] = [{"name": name} for name in
                          event.teams.order_by("id").values_list("name", flat=True)]
    if sections is not None:
        night["sections"] = sections
    night["pairs"] = pairs
    night["results"] = results
    if removed:
        night["removed"] = removed
    audit = _event_audit(event)
    if audit:
        night["audit"] = audit
    irregular = _irregularities(event)
    if irregular:
        night["irregularities"] = irregular
    return night


def dumps(night: dict) -> str:
    """A night file's text: readable, stable, UTF-8 names kept as written."""
    return json.dumps(night, indent=1, ensure_ascii=False) + "\n"


# --- irregular boards (Duplicate Law B) ----------------------------------------------------


def _deal_text(value: object, place: str) -> str:
    if value is None or value == "":
        return ""
    if not isinstance(value, str):
        raise NightFileError(place, f"a deal must be PBN text, not {_describe(value)}")
    try:
        return deal_from_north(parse_deal(value.strip()))
    except ValueError as exc:
        raise NightFileError(place, str(exc)) from None


def _check_deal_history(board: dict, place: str, number: int) -> list[HistoryRow]:
    """A board's new deals, oldest first, as "new deal" audit entries of the event."""
    rows = []
    items = board.get("deal_history", [])
    if not isinstance(items, list):
        raise NightFileError(f"{place}.deal_history",
                             f"the deal history must be a list, not {_describe(items)}")
    for i, item in enumerate(items):
        where = f"{place}.deal_history[{i}]"
        entry = _check_entry(dict(item, action=NEW_DEAL) if isinstance(item, dict) else item,
                             where, ("action", *_DEAL_HISTORY_KEYS))
        before = _deal_text(item.get("before"), f"{where}.before")
        after = _deal_text(item.get("after"), f"{where}.after")
        if not after:
            raise NightFileError(f"{where}.after", "the new deal is missing")
        rows.append(HistoryRow(**entry, before={"board": number, "deal": before},
                               after={"board": number, "deal": after}))
    return rows


def _seat_of(item: dict, key: str, place: str) -> str:
    value = item.get(key, "")
    if value in ("", *SEATS):
        return value
    raise NightFileError(f"{place}.{key}", "a seat is N, E, S or W")


def _check_irregularities(data: dict, plan: NightPlan) -> None:
    meetings = {(s.name, m.round, m.table) for s in plan.sections for m in s.meetings}
    names = sorted({s.name for s in plan.sections}) or [DEFAULT_SECTION]
    for i, value in enumerate(_list(data, "irregularities", required=False)):
        place = f"irregularities[{i}]"
        item = _object(value, place, "an irregular board", _IRREGULARITY_KEYS)
        if "board" not in item:
            raise NightFileError(f"{place}.board", "the board is missing")
        board = _whole(item["board"], f"{place}.board", "the board")
        if board > plan.board_count:
            raise NightFileError(f"{place}.board", f"board {board} is not in the boards list")
        stage = _choice(item, "stage", f"{place}.stage", "the stage",
                        tuple(Irregularity.Stage.values), "")
        status = _choice(item, "status", f"{place}.status", "the status",
                         tuple(Irregularity.Status.values), Irregularity.Status.REPORTED)
        outcome = _choice(item, "outcome", f"{place}.outcome", "the outcome",
                          ("", *IRREGULAR_OUTCOMES), "")
        meeting = None
        if item.get("meeting") is not None:
            where = _object(item["meeting"], f"{place}.meeting", "a meeting",
                            _RESULT_MEETING_KEYS)
            section = where.get("section", names[0])
            meeting = (section, _whole(where.get("round"), f"{place}.meeting.round", "the round"),
                       _whole(where.get("table"), f"{place}.meeting.table", "the table"))
            if meeting not in meetings:
                raise NightFileError(f"{place}.meeting", "no such meeting in the sections")
        sent = [item.get(key) for key in ("sent_to_table", "sent_to_round")]
        sent = [None if v is None else _whole(v, f"{place}.{key}", key)
                for v, key in zip(sent, ("sent_to_table", "sent_to_round"), strict=True)]
        card = item.get("misplaced_card", "")
        if card and not (isinstance(card, str) and len(card) == 2 and card[0] in "SHDC"
                         and card[1] in "AKQJT98765432"):
            raise NightFileError(f"{place}.misplaced_card", "a card is its suit and rank, "
                                                            "like S5 or HT")
        note = item.get("note", "")
        if not isinstance(note, str) or len(note) > 500:
            raise NightFileError(f"{place}.note", "the note is text of at most 500 characters")
        resolved = item.get("resolved_at")
        plan.irregularities.append(IrregularityRow(
            board=board, stage=stage, status=status, outcome=outcome, meeting=meeting,
            short_seat=_seat_of(item, "short_seat", place),
            surplus_seat=_seat_of(item, "surplus_seat", place), misplaced_card=card,
            sent_to_table=sent[0], sent_to_round=sent[1],
            reported_by=_text(item.get("reported_by", IMPORTER), f"{place}.reported_by",
                              "who reported it", 80),
            reported_at=_moment(item["reported_at"], f"{place}.reported_at", "the time")
            if "reported_at" in item else None,
            resolved_at=_moment(resolved, f"{place}.resolved_at", "the time")
            if resolved is not None else None,
            note=note.strip()))


def _deal_history(event: Event) -> dict[int, list[dict]]:
    """Each board's new deals, oldest first (the "new deal" audit entries)."""
    out: dict[int, list[dict]] = {}
    for entry in (AuditEntry.objects.filter(event=event, action=NEW_DEAL, result__isnull=True)
                  .order_by("at", "id")):
        before, after = entry.before or {}, entry.after or {}
        if "board" not in after:
            continue
        item = _entry(entry)
        del item["action"]
        old = before.get("deal", "")
        item["before"] = "" if old == NO_RECORD else old
        item["after"] = after.get("deal", "")
        out.setdefault(after["board"], []).append(item)
    return out


def _irregularities(event: Event) -> list[dict]:
    out = []
    for irr in (Irregularity.objects.filter(event=event)
                .select_related("board", "meeting__section").order_by("reported_at", "id")):
        item: dict[str, Any] = {"board": irr.board.number, "stage": irr.stage,
                                "status": irr.status}
        if irr.outcome:
            item["outcome"] = irr.outcome
        if irr.meeting is not None:
            item["meeting"] = {"section": irr.meeting.section.name, "round": irr.meeting.round,
                               "table": irr.meeting.table}
        for key in ("short_seat", "surplus_seat", "misplaced_card", "sent_to_table",
                    "sent_to_round"):
            if getattr(irr, key) not in ("", None):
                item[key] = getattr(irr, key)
        item["reported_by"] = irr.reported_by
        item["reported_at"] = _moment_text(irr.reported_at)
        if irr.resolved_at is not None:
            item["resolved_at"] = _moment_text(irr.resolved_at)
        if irr.note:
            item["note"] = irr.note
        out.append(item)
    return out
