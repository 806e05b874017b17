"""export_results: USEBIO 1.2 and PBN 2.1 for a small night, from the command."""

from io import StringIO
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from django.core.management import CommandError, call_command
from lxml import etree

from boards.pbn import parse_games, parse_pbn
from tournaments import exports
from tournaments.models import Event

DTD = Path(__file__).resolve().parents[2] / "docs" / "usebio" / "usebio-1.2-subset.dtd"
pytestmark = pytest.mark.django_db


def dtd_errors(text: str | bytes) -> list[str]:
    """What lxml's DTD validation finds wrong with a USEBIO document ([] when valid)."""
    dtd = etree.DTD(str(DTD))
    doc = etree.fromstring(text.encode() if isinstance(text, str) else text)
    return [] if dtd.validate(doc) else [str(e) for e in dtd.error_log.filter_from_errors()]


def run(event: Event, fmt: str) -> str:
    out = StringIO()
    call_command("export_results", str(event.pk), "--format", fmt, stdout=out)
    return out.getvalue()


def test_usebio_from_the_command_is_valid_against_the_dtd(night):
    text = run(night.event, "usebio")
    root = ET.fromstring(text.encode())
    assert dtd_errors(text) == []
    assert root.get("Version") == "1.2"
    assert root.findtext("CLUB/CLUB_NAME")
    event = root.find("EVENT")
    assert event.get("EVENT_TYPE") == "PAIRS"
    assert event.findtext("EVENT_DESCRIPTION") == "Tuesday duplicate"
    assert event.findtext("DATE") == "17/11/2026"
    assert event.findtext("BOARD_SCORING_METHOD") == "AGGREGATE"
    # A Mitchell: pairs 1-3 sit N-S, 4-6 E-W, ranked apart.
    assert event.findtext("WINNER_TYPE") == "2"
    pairs = event.findall("PARTICIPANTS/PAIR")
    assert sorted(int(p.findtext("PAIR_NUMBER")) for p in pairs) == [1, 2, 3, 4, 5, 6]
    one = next(p for p in pairs if p.findtext("PAIR_NUMBER") == "1")
    assert one.findtext("DIRECTION") == "NS"
    players = one.findall("PLAYER")
    assert [p.findtext("PLAYER_NAME") for p in players] == ["North 1", "South 1"]
    # The member's number; the visitor has none.
    assert [p.findtext("CLUB_ID_NUMBER") for p in players] == ["1001", None]
    assert {p.findtext("PLACE").rstrip("=") for p in pairs} <= {"1", "2", "3"}


def test_usebio_traveller_lines(night):
    root = ET.fromstring(run(night.event, "usebio").encode())
    boards = root.findall("EVENT/BOARD")
    assert [int(b.findtext("BOARD_NUMBER")) for b in boards] == [1, 2, 3, 4, 5, 6]
    lines = [line for b in boards for line in b.findall("TRAVELLER_LINE")]
    assert len(lines) == 18  # 6 boards, each played at 3 tables
    two_hearts = next(line for line in lines if line.findtext("CONTRACT") == "2H")
    assert two_hearts.findtext("PLAYED_BY") == "S"
    assert two_hearts.findtext("TRICKS") == "8"
    assert two_hearts.findtext("SCORE") is not None
    assert two_hearts.findtext("NS_MATCH_POINTS") is not None
    royal = next(line for line in lines if line.findtext("CONTRACT") == "2SX")
    assert royal.findtext("PLAYED_BY") == "N" and royal.findtext("TRICKS") == "9"
    # The ruling's line names its pairs and has no contract or score.
    bare = [line for line in lines if line.find("CONTRACT") is None]
    assert len(bare) == 1 and bare[0].find("SCORE") is None


def test_usebio_scores_are_the_laws_net_scores(night):
    """SCORE is N-S's board score (trick + honour totals, net); E-W's is its negative."""
    event = night.event
    root = ET.fromstring(run(event, "usebio").encode())
    result = event.results.filter(ruling="", passed_out=False).first()
    board = next(b for b in root.findall("EVENT/BOARD")
                 if b.findtext("BOARD_NUMBER") == str(result.board.number))
    line = next(line for line in board.findall("TRAVELLER_LINE")
                if line.findtext("NS_PAIR_NUMBER") == str(result.ns_pair.number))
    assert int(line.findtext("SCORE")) == result.ns_total - result.ew_total


def test_the_dtd_catches_a_wrong_document():
    errors = " ".join(dtd_errors('<USEBIO><CLUB><CLUB_NAME>x</CLUB_NAME></CLUB>'
                                 '<EVENT EVENT_TYPE="X"><BOGUS/></EVENT></USEBIO>'))
    assert "Version" in errors
    assert "EVENT_TYPE" in errors
    assert "BOGUS" in errors


def test_pbn_reads_back_with_the_projects_reader(night):
    text = run(night.event, "pbn")
    assert text.startswith("% PBN 2.1\n")
    games = parse_games(text)
    assert len(games) == 18
    assert [g.number for g in games[:3]] == [1, 1, 1]
    first = games[0]
    assert first.deal == night.event.boards.get(number=1).deal
    assert first.dealer == "N" and first.vulnerable == "None"
    tags = first.tags
    assert tags["Event"] == "Tuesday duplicate" and tags["Date"] == "2026.11.17"
    assert tags["Contract"] == "2H" and tags["Declarer"] == "S" and tags["Result"] == "8"
    assert tags["Score"].startswith("NS ")
    assert tags["North"] == "North 1" and tags["South"] == "South 1"
    royal = next(g for g in games if g.tags.get("RoyalSpades") == "Yes")
    assert royal.tags["Contract"] == "2SX"
    ruled = [g for g in games if g.tags.get("Note")]
    assert len(ruled) == 1 and ruled[0].tags["Contract"] == ""
    # A board without a hand record reads back as unknown.
    assert next(g for g in games if g.number == 2).deal is None
    # The hand-record reader refuses a board twice: a results file is read game by game.
    with pytest.raises(ValueError, match="appears twice"):
        parse_pbn(text)


def test_unknown_format_and_event(night):
    with pytest.raises(CommandError):
        run(night.event, "csv")
    with pytest.raises(CommandError, match="no event"):
        call_command("export_results", "987654", "--format", "pbn", stdout=StringIO())
    with pytest.raises(exports.ExportError):
        exports.export_results(night.event, "csv")


def test_duplicate_whist_and_matchpoints(director):
    """Whist has no contract: TRICKS / Result are N-S's tricks, SCORE N-S's net."""
    from boards.movements import generate
    from tournaments import services
    from tournaments.models import Meeting
    from tournaments.services import Actor

    actor = Actor.director(director)
    event = services.event_create(name="Whist night", date=night_date(), actor=actor,
                                  rules="duplicate-whist", method="matchpoints")
    movement = generate("mitchell", tables=3, boards_per_round=1)
    for number in range(1, movement.pairs + 1):
        services.pair_set(event=event, number=number, players=[f"A{number}", f"B{number}"],
                          actor=actor)
    services.boards_set(event=event, count=movement.boards, actor=actor)
    services.movement_meetings_set(section=event.sections.get(), movement=movement, actor=actor)
    event = services.event_set_status(event=event, status=Event.Status.RUNNING, actor=actor)
    m = Meeting.objects.filter(section__event=event, round=1).select_related(
        "ns_pair", "ew_pair").order_by("table")
    for tricks, meeting in zip((8, 6, 5), m, strict=False):
        services.result_record(event=event, board=meeting.boards[0],
                               ns=meeting.ns_pair.number, ew=meeting.ew_pair.number,
                               data={"tricks_ns": tricks}, actor=actor, meeting=meeting)
    text = run(event, "usebio")
    root = ET.fromstring(text.encode())
    assert dtd_errors(text) == []
    assert root.findtext("EVENT/BOARD_SCORING_METHOD") == "MATCH_POINTS"
    assert root.find("EVENT/PARTICIPANTS/PAIR/PERCENTAGE") is not None
    lines = root.findall("EVENT/BOARD/TRAVELLER_LINE")
    assert lines and all(line.find("CONTRACT") is None for line in lines)
    eight = next(line for line in lines if line.findtext("TRICKS") == "8")
    assert int(eight.findtext("SCORE")) > 0
    games = parse_games(run(event, "pbn"))
    played = [g for g in games if g.tags.get("Result")]
    assert {g.tags["Result"] for g in played} >= {"8", "6", "5"}
    assert all(g.tags["Contract"] == "" and "MatchpointsNS" in g.tags for g in played)
    assert {g.tags["Scoring"] for g in games} == {"duplicate-whist"}


def night_date():
    import datetime

    return datetime.date(2026, 11, 19)


def _row(**changes):
    row = {"ns": 1, "ew": 2, "ruling": "", "offending": "", "adjustment": "",
           "level": None, "denomination": "", "declarer": "", "doubled": "", "tricks": None,
           "passed_out": False, "ns_trick": 0, "ns_honour": 0, "ew_trick": 0, "ew_honour": 0,
           "ns_score": 0, "ew_score": 0, "ns_plus_minus": "1/3", "ew_plus_minus": "-1/3"}
    return {**row, **changes}


def _data(rows, rules="american-1913"):
    import datetime

    players = {n: [{"name": f"P{n}a", "number": None}, {"name": f"P{n}b", "number": "7"}]
               for n in (1, 2)}
    # Places as the standings give them (compare.rank): a tie is already "1=".
    rankings = [{"direction": "ALL", "rows": [
        {"place": "1=", "pair": 1, "score": 10, "exact": "10", "boards": 1},
        {"place": "1=", "pair": 2, "score": 10, "exact": "10", "boards": 1}]}]
    return exports.ExportData(
        event_id=1, name="Night", date=datetime.date(2026, 1, 2), club="Club", kind="pairs",
        method="plus-minus", rules=rules, is_whist=False, players=players,
        rankings=rankings, travellers=[{"board": 3, "deal": "", "rows": rows}])


def test_passed_out_and_a_ruling_written_as_pure_functions():
    rows = [_row(passed_out=True),
            _row(ns=3, ew=4, ruling="fouled", offending="ns", ns_trick=None, ns_score=None,
                 ew_score=None, ns_plus_minus=None, ew_plus_minus=None)]
    text = exports.usebio_xml(_data(rows))
    root = ET.fromstring(text.encode())
    assert dtd_errors(text) == []
    passed, ruled = root.findall("EVENT/BOARD/TRAVELLER_LINE")
    assert passed.findtext("CONTRACT") == "Pass" and passed.findtext("SCORE") == "0"
    assert passed.find("TRICKS") is None and passed.findtext("NS_MATCH_POINTS") == "0.33"
    assert ruled.find("CONTRACT") is None and ruled.find("NS_MATCH_POINTS") is None
    # A tie is written "1=" in both places.
    assert [p.findtext("PLACE") for p in root.findall("EVENT/PARTICIPANTS/PAIR")] == ["1=", "1="]
    games = parse_games(exports.results_pbn(_data(rows)))
    assert games[0].tags["Contract"] == "Pass" and games[0].tags["Score"] == "NS 0"
    assert games[0].tags["PlusMinusNS"] == "0.33" and games[0].dealer == "S"
    assert games[1].tags["Note"] == "Fouled board (Duplicate Law B), N–S at fault"
    assert games[1].tags["Score"] == ""


def test_spades_under_the_english_rule_are_written_royal():
    """Under the English rule every spade is a royal (9 a trick, rules.md §2): a reader of
    the PBN file must not take "4S" at 2 a trick."""
    spades = _row(level=4, denomination="S", declarer="N", tricks=10)
    english = parse_games(exports.results_pbn(_data([spades], rules="english")))[0]
    assert english.tags["Contract"] == "4S" and english.tags["RoyalSpades"] == "Yes"
    american = parse_games(exports.results_pbn(_data([spades])))[0]
    assert american.tags["Contract"] == "4S" and "RoyalSpades" not in american.tags


def test_a_pbn_note_says_why_a_board_was_not_played_as_the_traveller_does():
    rows = [_row(ruling="not-played", meeting_id=None, left=(2, 5), ns_trick=None,
                 ns_score=None, ew_score=None, ns_plus_minus=None, ew_plus_minus=None),
            _row(ns=3, ew=4, ruling="average", award=["-35", "35"], ns_trick=None,
                 ns_score=None, ew_score=None, ns_plus_minus=None, ew_plus_minus=None)]
    games = parse_games(exports.results_pbn(_data(rows)))
    assert games[0].tags["Note"] == "Not played: pair 2 left after round 5"
    assert games[1].tags["Note"] == "Average (Duplicate Law B); awarded N–S −35, E–W +35"
