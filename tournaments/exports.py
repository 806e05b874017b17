"""Results sent out: an event's results in the standard exchange formats.

- **USEBIO 1.2** (XML, the results exchange other scoring programs and club web sites
  read): the club, the event, the pairs with their players' member numbers, every board's
  traveller lines and the final ranking.
- **PBN 2.1** with results: one game per traveller line (the deal when known, the
  contract, declarer, tricks and score), with the event's tags.

Both were made for contract bridge; docs/exports.md says how the laws' scores (trick and
honour totals, plus/minus against the average, royal spades, Duplicate Whist's tricks) are
written into their fields. Nothing here writes to the database: ``gather`` reads through
the selectors and the standings, and the writers are pure functions of what it read.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from fractions import Fraction
from xml.etree import ElementTree as ET

from django.conf import settings

from boards.pbn import write_games
from scoring.engine import dealer_for_board

from . import presenters, selectors, standings
from .models import Event, Result

FORMATS = ("usebio", "pbn")
PROGRAM_NAME = "Duplicate Auction & Whist tournament manager"
PROGRAM_VERSION = "1"
USEBIO_VERSION = "1.2"
# PBN strains; royal spades are written as spades (docs/exports.md).
_STRAIN = {"S": "S", "H": "H", "D": "D", "C": "C", "NT": "NT", "RS": "S"}


class ExportError(ValueError):
    """An event that cannot be written in the format asked; the message says why."""


@dataclass(frozen=True)
class ExportFile:
    content: bytes
    content_type: str
    filename: str


@dataclass(frozen=True)
class ExportData:
    """What the writers need, read once."""

    event_id: int
    name: str
    date: datetime.date
    club: str
    kind: str
    method: str
    rules: str
    is_whist: bool
    players: dict[int, list[dict]]
    rankings: list[dict]
    travellers: list[dict]


def gather(event: Event) -> ExportData:
    """Read the event's results for the writers (through selectors and standings)."""
    return ExportData(
        event_id=event.pk, name=event.name, date=event.date,
        club=getattr(settings, "CLUB_NAME", "") or "The club",
        kind=event.kind, method=event.method, rules=event.rules, is_whist=event.is_whist,
        players=selectors.pair_players(event),
        rankings=standings.standings(event)["rankings"] if event.kind == "pairs" else [],
        travellers=selectors.travellers(event),
    )


def refusals(event: Event) -> dict[str, str]:
    """Format -> why `event` cannot be written in it now, in the writer's own words ("" when
    it can): asked of the event's own fields and two small queries, not of its results, so
    the print room says it beside the link before the click. Gathering the results to
    ask the writer took 76 ms for a club night and some 16 s for a big event.

    The writers ask ``_refused`` the same questions of what they were given: one set of
    reasons, in one set of words."""
    played = Result.objects.filter(event=event, voided=False).exists()
    sections: list[str] = []
    if event.compare_by_section:  # each section ranked on its own (standings.pair_standings)
        names = set(event.pairs.exclude(section=None).values_list("section__name", flat=True))
        sections = sorted(names) if len(names) > 1 else []
    return {fmt: _refused(fmt, kind=event.kind, played=played, sections_apart=sections)
            for fmt in FORMATS}


def _refused(fmt: str, *, kind: str, played: bool, sections_apart: list[str]) -> str:
    """Why a file in `fmt` cannot say the event truly, or "".

    USEBIO: not a teams event; not a night without a result (its file would rank nobody);
    not sections ranked each on its own (the file's places belong to one ranking of the
    field, or one per direction, and a pair carries no section). PBN: not a night without
    a result (its file would hold no game: the boards' hand record is its own file, from
    the Boards page). A board is played once it has a line on its traveller (a ruling
    counts)."""
    if fmt == "usebio":
        if kind != "pairs":
            return "USEBIO export is for pairs events; a teams event can be sent as PBN"
        if not played:
            return "USEBIO export needs results: no board of this event has a result yet"
        if sections_apart:
            return (f"USEBIO export cannot show sections ranked apart: this event ranks each "
                    f"section ({', '.join(sections_apart)}) on its own, and a USEBIO file has "
                    f"one ranking of the whole field (or one for N–S and one for E–W) with no "
                    f"section for a pair; the event can be sent as PBN")
    elif not played:
        return ("PBN results need results: no board of this event has a result yet (the "
                "hand record is on the Boards page)")
    return ""


def export_results(event: Event, fmt: str) -> ExportFile:
    """The event's results as a file in `fmt` ("usebio" or "pbn"); ``ExportError`` if
    the format is unknown or does not fit the event."""
    if fmt not in FORMATS:
        raise ExportError(f"the format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    refused = refusals(event)[fmt]
    if refused:  # said before the results are gathered
        raise ExportError(refused)
    data = gather(event)
    stem = f"event-{event.pk}-results"
    if fmt == "usebio":
        return ExportFile(usebio_xml(data).encode("utf-8"), "application/xml; charset=utf-8",
                          f"{stem}.xml")
    return ExportFile(results_pbn(data).encode("utf-8"), "application/x-pbn; charset=utf-8",
                      f"{stem}.pbn")


# --- shared -----------------------------------------------------------------------------------


def _played_any(data: ExportData) -> bool:
    """Has a board a line on its traveller (a ruling counts)?"""
    return any(traveller["rows"] for traveller in data.travellers)


def _decimal(value: str | None) -> str:
    """An exact value ("-121/3", "190") as a decimal with at most two places."""
    if value is None:
        return "0"
    exact = Fraction(value)
    if exact.denominator == 1:
        return str(exact.numerator)
    return f"{float(exact):.2f}"


def _contract(row: dict) -> str:
    """"4S", "3NTX", "Pass" ("" when there is none: a ruling, or Duplicate Whist)."""
    if row["passed_out"]:
        return "Pass"
    if not row["level"]:
        return ""
    return f"{row['level']}{_STRAIN[row['denomination']]}{row['doubled'] or ''}"


def _played(row: dict) -> bool:
    """A line with a deal result (played, or an assigned score): not a ruling."""
    return row["ruling"] in ("", "assigned") and row["ns_score"] is not None


def net_score(row: dict, is_whist: bool) -> int:
    """N-S's signed board score (E-W's is its negative): at Auction the net of the two
    sides' trick + honour totals (the board score the laws compare); at Duplicate Whist
    N-S's trick score less E-W's."""
    if is_whist:
        return row["ns_score"] - row["ew_score"]
    return row["ns_score"]


def _side_total(row: dict, side: str) -> str:
    """A side's column as the laws keep it: trick + honour points (Duplicate Whist: the
    trick score)."""
    trick, honour = row[f"{side}_trick"], row[f"{side}_honour"]
    return "" if trick is None else str(trick + (honour or 0))


# --- USEBIO 1.2 -------------------------------------------------------------------------------


def _sub(parent: ET.Element, tag: str, text: object | None = None) -> ET.Element:
    element = ET.SubElement(parent, tag)
    if text is not None:
        element.text = str(text)
    return element


def usebio_xml(data: ExportData) -> str:
    """The event as a USEBIO 1.2 document (the elements docs/usebio/README.md lists).

    ``ExportError`` for what the file cannot say truly (``_refused``).
    """
    refused = _refused("usebio", kind=data.kind, played=_played_any(data),
                       sections_apart=sorted({r["section"] for r in data.rankings
                                              if "section" in r}))
    if refused:
        raise ExportError(refused)
    played = [traveller for traveller in data.travellers if traveller["rows"]]
    root = ET.Element("USEBIO", Version=USEBIO_VERSION)
    club = _sub(root, "CLUB")
    _sub(club, "CLUB_NAME", data.club)
    event = _sub(root, "EVENT")
    event.set("EVENT_TYPE", "PAIRS")
    _sub(event, "PROGRAM_NAME", PROGRAM_NAME)
    _sub(event, "PROGRAM_VERSION", PROGRAM_VERSION)
    _sub(event, "EVENT_DESCRIPTION", data.name)
    _sub(event, "EVENT_IDENTIFIER", data.event_id)
    _sub(event, "DATE", data.date.strftime("%d/%m/%Y"))
    _sub(event, "BOARD_SCORING_METHOD",
         "MATCH_POINTS" if data.method == "matchpoints" else "AGGREGATE")
    _sub(event, "BOARDS_PLAYED", len(played))
    # 1: one ranking of all the pairs (a Howell); 2: N-S and E-W ranked apart.
    directions = [ranking["direction"] for ranking in data.rankings]
    _sub(event, "WINNER_TYPE", 1 if directions == ["ALL"] else 2)
    participants = _sub(event, "PARTICIPANTS")
    for ranking in data.rankings:
        for row in ranking["rows"]:
            pair = _sub(participants, "PAIR")
            _sub(pair, "PAIR_NUMBER", row["pair"])
            if ranking["direction"] != "ALL":
                _sub(pair, "DIRECTION", ranking["direction"])
            # The standings' place as they give it: "2", or "2=" for a tie.
            _sub(pair, "PLACE", row["place"])
            if data.method == "matchpoints":
                _sub(pair, "TOTAL_SCORE", _decimal(row.get("matchpoints")))
                _sub(pair, "PERCENTAGE", f"{row['score']:.2f}")
            else:
                _sub(pair, "TOTAL_SCORE", _decimal(row["exact"]))
            _sub(pair, "BOARDS_PLAYED", row["boards"])
            for player in data.players.get(row["pair"], []):
                element = _sub(pair, "PLAYER")
                _sub(element, "PLAYER_NAME", player["name"])
                if player["number"]:
                    _sub(element, "CLUB_ID_NUMBER", player["number"])
    for traveller in played:
        board = _sub(event, "BOARD")
        _sub(board, "BOARD_NUMBER", traveller["board"])
        for row in traveller["rows"]:
            _usebio_line(board, row, data.is_whist)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


def _usebio_line(board: ET.Element, row: dict, is_whist: bool) -> None:
    line = _sub(board, "TRAVELLER_LINE")
    _sub(line, "NS_PAIR_NUMBER", row["ns"])
    _sub(line, "EW_PAIR_NUMBER", row["ew"])
    if _played(row):
        contract = _contract(row)
        if contract:
            _sub(line, "CONTRACT", contract)
        if row["declarer"] and not row["passed_out"]:
            _sub(line, "PLAYED_BY", row["declarer"])
        if row["tricks"] is not None and not row["passed_out"]:
            _sub(line, "TRICKS", row["tricks"])
        _sub(line, "SCORE", net_score(row, is_whist))
    if row["ns_plus_minus"] is not None:
        _sub(line, "NS_MATCH_POINTS", _decimal(row["ns_plus_minus"]))
        _sub(line, "EW_MATCH_POINTS", _decimal(row["ew_plus_minus"]))


# --- PBN 2.1 ----------------------------------------------------------------------------------


def results_pbn(data: ExportData) -> str:
    """One PBN game per traveller line, boards in order, lines in N-S pair order;
    ``ExportError`` for a night without a result (``_refused``)."""
    refused = _refused("pbn", kind=data.kind, played=_played_any(data), sections_apart=[])
    if refused:
        raise ExportError(refused)
    games = []
    site = data.club
    for traveller in data.travellers:
        for row in traveller["rows"]:
            games.append(_pbn_game(data, traveller, row, site))
    return write_games(games, note="RESULTS")


def _names(data: ExportData, pair: int) -> tuple[str, str]:
    players = data.players.get(pair, [])
    names = [p["name"] for p in players] + ["", ""]
    return names[0], names[1]


def _pbn_game(data: ExportData, traveller: dict, row: dict, site: str) -> list[tuple[str, str]]:
    number = traveller["board"]
    north, south = _names(data, row["ns"])
    east, west = _names(data, row["ew"])
    game = [
        ("Event", data.name),
        ("Site", site),
        ("Date", data.date.strftime("%Y.%m.%d")),
        ("Board", str(number)),
        ("West", west), ("North", north), ("East", east), ("South", south),
        ("Dealer", dealer_for_board(number)),
        ("Vulnerable", "None"),  # the laws have no vulnerability
        ("Deal", traveller["deal"] or ""),
        # PBN's Scoring names modern methods ("MP", "IMP"...); none scores by the 1913
        # laws, so the rule set's name says which laws the scores follow (docs/exports.md).
        ("Scoring", data.rules),
    ]
    if _played(row):
        if data.is_whist:
            # No contract and no declarer at whist: Result is N-S's tricks.
            game += [("Declarer", ""), ("Contract", ""), ("Result", str(row["tricks"]))]
        elif row["passed_out"]:
            game += [("Declarer", ""), ("Contract", "Pass"), ("Result", "")]
        else:
            game += [("Declarer", row["declarer"]), ("Contract", _contract(row)),
                     ("Result", str(row["tricks"]))]
            if row["denomination"] == "RS" or (
                    row["denomination"] == "S" and data.rules == "english"):
                # Under the English rule every spade is a royal (rules.md §2).
                game.append(("RoyalSpades", "Yes"))
        game.append(("Score", f"NS {net_score(row, data.is_whist)}"))
        game += [("ScoreNS", _side_total(row, "ns")), ("ScoreEW", _side_total(row, "ew"))]
    else:
        game += [("Declarer", ""), ("Contract", ""), ("Result", ""), ("Score", "")]
        # As the traveller words it: why it was not played, the award.
        game.append(("Note", presenters.ruling_words(row)))
    game += [("NSPair", str(row["ns"])), ("EWPair", str(row["ew"]))]
    if row["ns_plus_minus"] is not None:
        label = "Matchpoints" if data.method == "matchpoints" else "PlusMinus"
        game.append((f"{label}NS", _decimal(row["ns_plus_minus"])))
        game.append((f"{label}EW", _decimal(row["ew_plus_minus"])))
    return game
