"""Hand records in PBN (Portable Bridge Notation 2.1): read what dealing programs
write, and write hand records back.

Pure Python (no Django).

Terms
-----
game
    One block of tags, ended by an empty line; in a hand record, one board.
tag
    ``[Name "value"]``. The value ``"#"`` means "the same as in the previous game".
deal
    The ``Deal`` tag: ``"N:hand hand hand hand"``, the hands clockwise from the seat
    before the colon; a hand is ``spades.hearts.diamonds.clubs`` with the cards in
    ``AKQJT98765432`` order, or ``-`` when unknown. Deals returned here always start
    from North.
section
    The auction, play and other data after some tags; a hand record needs none of
    it, so it is skipped. ``%`` lines, ``;`` comments and ``{...}`` comments too.

The board's dealer follows rules.md §1 (N deals board 1, E board 2, S board 3,
W board 4, ...). Auction has no vulnerability, so ``write_pbn`` writes "None".
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import BinaryIO

from scoring.engine import SEATS, deal_from_north, dealer_for_board, parse_deal
from scoring.engine import DealError as EngineDealError

_SEAT_NAMES = {"N": "north", "E": "east", "S": "south", "W": "west"}
_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine",
               "8": "eight", "7": "seven", "6": "six", "5": "five", "4": "four",
               "3": "three", "2": "two"}
_VULNERABLE = {"none": "None", "love": "None", "-": "None", "ns": "NS", "ew": "EW",
               "all": "All", "both": "All"}
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_SPECIAL = re.compile(r'[;{\[]')
_KNOWN_TAGS = {name.lower(): name for name in (
    "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
    "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result", "Score",
)}
# A game that repeats one of these without an empty line before it starts a new game.
_GAME_OPENERS = ("Event", "Board")
UNKNOWN_DEAL = "N:- - - -"


class PbnError(ValueError):
    """A hand record that cannot be read; the message names the line."""


@dataclass(frozen=True)
class PbnBoard:
    number: int
    dealer: str | None = None
    deal: str | None = None  # "N:..." from North, or None when no hand is known
    vulnerable: str | None = None
    tags: dict[str, str] = field(default_factory=dict)


# --------------------------------------------------------------------------- deals


class DealError(ValueError):
    """A malformed deal; the message continues "the deal ..." (e.g. "has 14 cards ...")."""


def normalize_deal(deal: str) -> str | None:
    """The deal from North with cards in order; None when all four hands are unknown.

    The engine reads the deal (``scoring.engine.parse_deal``: 13 cards a hand unless
    '-', 52 different cards; unknown hands stay unknown). Raises
    ``DealError`` with the rest of a sentence ("has 14 cards in the north hand").
    """
    try:
        hands = parse_deal(deal, as_given=True)
    except EngineDealError as exc:
        raise DealError(_deal_problem(exc.problem)) from None
    return deal_from_north(hands) if hands else None


def _deal_problem(problem: tuple) -> str:
    """The engine's ``DealError.problem`` as the rest of "the deal of board 7 ..."."""
    match problem:
        case ("hands", found):
            return f"has {found} hands, not 4"
        case ("suits", seat, found):
            return (f"has {found} suits in the {_SEAT_NAMES[seat]} hand, not 4 "
                    "(spades.hearts.diamonds.clubs)")
        case ("card", seat, _suit, rank):
            return f"has {rank!r} in the {_SEAT_NAMES[seat]} hand, which is not a card"
        case ("repeat", seat, suit):
            return f"has a card twice in the {_SEAT_NAMES[seat]} hand's {_SUIT_NAMES[suit]}"
        case ("count", seat, cards):
            return f"has {cards} cards in the {_SEAT_NAMES[seat]} hand"
        case ("twice", suit, rank, first, second):
            return (f"gives the {_RANK_NAMES[rank]} of {_SUIT_NAMES[suit]} to both the "
                    f"{_SEAT_NAMES[first]} and the {_SEAT_NAMES[second]} hand")
    return "must start with the first hand's seat and a colon, like 'N:'"


# --------------------------------------------------------------------------- reading


@dataclass
class _Tag:
    line: int
    name: str
    value: str


def parse_pbn(text: str) -> list[PbnBoard]:
    """The boards of a hand record, in file order. ``PbnError`` names the line."""
    boards: list[PbnBoard] = []
    first_line: dict[int, int] = {}
    for board, line in _boards_with_lines(text):
        if board.number in first_line:
            raise PbnError(f"line {line}: board {board.number} appears twice (first at line "
                           f"{first_line[board.number]})")
        first_line[board.number] = line
        boards.append(board)
    return boards


def parse_games(text: str) -> list[PbnBoard]:
    """Every game with a board, in file order, a board any number of times: a results
    file (one game per table that played the board, with its ``Contract``, ``Declarer``,
    ``Result`` and ``Score`` in ``tags``). ``PbnError`` names the line."""
    return [board for board, _ in _boards_with_lines(text)]


def _boards_with_lines(text: str) -> list[tuple[PbnBoard, int]]:
    found: list[tuple[PbnBoard, int]] = []
    previous: dict[str, str] = {}
    for game in _games(text):
        values = _resolve_copies(game, previous)
        previous = {name: tag.value for name, tag in values.items()}
        board = _board(values)
        if board is not None:
            found.append((board, values["Board"].line))
    return found


MAX_HAND_RECORD_BYTES = 2_000_000


def read_hand_record(file: BinaryIO) -> dict[int, str]:
    """The deals of an uploaded hand record, by board number (boards without a deal are
    left out). Reads at most ``MAX_HAND_RECORD_BYTES``; UTF-8 (with or without a byte
    order mark) or, failing that, Latin-1, which older dealing programs write. Raises
    ``ValueError`` (``PbnError`` or ``DealError``) when the file cannot be read."""
    raw = file.read(MAX_HAND_RECORD_BYTES)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return {board.number: board.deal for board in parse_pbn(text) if board.deal}


def _games(text: str) -> list[list[_Tag]]:
    """Split into games (lists of tags), skipping comments and section data."""
    games: list[list[_Tag]] = []
    current: list[_Tag] = []
    in_comment = False
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        if not in_comment and not line.strip():
            if current:
                games.append(current)
            current = []
            continue
        if not in_comment and line.startswith("%"):
            continue
        tags, in_comment = _scan_line(line, number, in_comment)
        for tag in tags:
            if tag.name in _GAME_OPENERS and any(t.name == tag.name for t in current):
                games.append(current)
                current = []
            current.append(tag)
    if current:
        games.append(current)
    return games


def _scan_line(line: str, number: int, in_comment: bool) -> tuple[list[_Tag], bool]:
    tags = []
    i = 0
    while i < len(line):
        if in_comment:
            end = line.find("}", i)
            if end < 0:
                break
            in_comment, i = False, end + 1
            continue
        found = _SPECIAL.search(line, i)
        if found is None or found.group() == ";":
            break
        if found.group() == "{":
            in_comment, i = True, found.end()
            continue
        match = _TAG.match(line, found.start())
        if match is None:
            raise PbnError(f'line {number}: a tag must look like [Name "value"]')
        name = _KNOWN_TAGS.get(match.group(1).lower(), match.group(1))
        value = re.sub(r"\\(.)", r"\1", match.group(2))
        tags.append(_Tag(number, name, value))
        i = match.end()
    return tags, in_comment


def _resolve_copies(game: list[_Tag], previous: dict[str, str]) -> dict[str, _Tag]:
    """Apply PBN's "#" (same as the previous game); later tags of a name win."""
    values: dict[str, _Tag] = {}
    for tag in game:
        if tag.value == "#":
            if tag.name not in previous:
                raise PbnError(f'line {tag.line}: [{tag.name} "#"] copies the previous '
                               f"game's {tag.name}, but there is none")
            tag = _Tag(tag.line, tag.name, previous[tag.name])
        values[tag.name] = tag
    return values


def _board(values: dict[str, _Tag]) -> PbnBoard | None:
    if "Board" not in values:
        if "Deal" in values:
            raise PbnError(f"line {values['Deal'].line}: a deal without a Board tag")
        return None  # a header game (e.g. only [Event]): nothing to import
    board_tag = values["Board"]
    try:
        number = int(board_tag.value.strip())
    except ValueError:
        number = 0
    if number < 1:
        raise PbnError(f"line {board_tag.line}: the Board tag must be a board number, not "
                       f"{board_tag.value!r}")
    return PbnBoard(
        number=number,
        dealer=_dealer(values.get("Dealer")),
        deal=_deal(values.get("Deal"), number),
        vulnerable=_vulnerable(values.get("Vulnerable")),
        tags={name: tag.value for name, tag in values.items()},
    )


def _dealer(tag: _Tag | None) -> str | None:
    if tag is None or tag.value.strip() in ("", "?"):
        return None
    seat = tag.value.strip().upper()
    if seat not in SEATS:
        raise PbnError(f"line {tag.line}: the dealer must be N, E, S or W, not {tag.value!r}")
    return seat


def _vulnerable(tag: _Tag | None) -> str | None:
    if tag is None or tag.value.strip() in ("", "?"):
        return None
    try:
        return _VULNERABLE[tag.value.strip().lower()]
    except KeyError:
        raise PbnError(f"line {tag.line}: Vulnerable must be None, NS, EW or All, not "
                       f"{tag.value!r}") from None


def _deal(tag: _Tag | None, board: int) -> str | None:
    if tag is None or tag.value.strip() in ("", "?"):
        return None
    try:
        return normalize_deal(tag.value)
    except DealError as exc:
        raise PbnError(f"line {tag.line}: the deal of board {board} {exc}") from None


# --------------------------------------------------------------------------- writing


def write_pbn(
    boards: Iterable[PbnBoard | tuple[int, str | None]],
    *,
    event: str = "",
    date: datetime.date | str | None = None,
    site: str = "",
) -> str:
    """A PBN 2.1 hand record: Event, Site, Date, Board, Dealer, Vulnerable "None", Deal.

    ``boards`` are ``PbnBoard``s or (number, deal) pairs; a deal of None is written
    as four unknown hands. ``PbnError`` for a bad deal or a board given twice.
    """
    lines = ["% PBN 2.1", "% EXPORT"]
    seen: set[int] = set()
    for item in boards:
        number, deal = (item.number, item.deal) if isinstance(item, PbnBoard) else item
        if number in seen:
            raise PbnError(f"board {number} is given twice")
        seen.add(number)
        lines += [
            _tag("Event", event),
            _tag("Site", site),
            _tag("Date", _pbn_date(date)),
            _tag("Board", str(number)),
            _tag("Dealer", dealer_for_board(number)),
            _tag("Vulnerable", "None"),  # Auction has no vulnerability
            _tag("Deal", _deal_for_writing(deal, number)),
            "",
        ]
    return "\n".join(lines) + ("\n" if not seen else "")


def write_games(games: Iterable[list[tuple[str, str]]], *, note: str = "EXPORT") -> str:
    """PBN 2.1 games, each a list of (tag, value) written in that order, an empty line
    after each. The caller chooses the tags (a results file repeats a board once per
    table); a ``Deal`` value is checked and written from North."""
    lines = ["% PBN 2.1", f"% {note}"]
    for game in games:
        board = next((value for name, value in game if name == "Board"), "0")
        for name, value in game:
            if name == "Deal":
                value = _deal_for_writing(value or None, int(board) if board.isdigit() else 0)
            lines.append(_tag(name, value))
        lines.append("")
    return "\n".join(lines) + "\n"


def _deal_for_writing(deal: str | None, number: int) -> str:
    if deal is None:
        return UNKNOWN_DEAL
    try:
        return normalize_deal(deal) or UNKNOWN_DEAL
    except DealError as exc:
        raise PbnError(f"board {number}: the deal {exc}") from None


def _pbn_date(date: datetime.date | str | None) -> str:
    if date is None:
        return "????.??.??"
    if isinstance(date, datetime.date):
        return date.strftime("%Y.%m.%d")
    return date.strip().replace("-", ".")


def _tag(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'
