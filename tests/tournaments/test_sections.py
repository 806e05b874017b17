"""Several sections in one event: add and remove, pairs to a section, each section's own
movement and table codes, and the standings within a section or across the field."""

import datetime

import pytest

from tournaments import services
from tournaments.models import AuditEntry, Meeting, Pair, Section, TableCode
from tournaments.services import Actor, Forbidden, ServiceError
from tournaments.standings import clear_cache, standings

THREE_HEARTS = {"contract": {"level": 3, "denomination": "H", "declarer": "S"}, "tricks": 9,
                "honours": {"N": 2, "E": 1, "S": 1, "W": 1}}
ONE_SPADE = {"contract": {"level": 1, "denomination": "S", "declarer": "S"}, "tricks": 7,
             "honours": {"N": 1, "E": 2, "S": 1, "W": 1}}


class Line:
    def __init__(self, number):
        self.number, self.players, self.team = number, [f"N{number}", f"S{number}"], None


def two_section_night(actor, *, by_section=False, tables=5, boards_per_round=3):
    """20 pairs: 1–10 in section A, 11–20 in section B, a 5-table Mitchell in each (with
    `tables`, 2 × tables pairs in each section)."""
    pairs = 2 * tables
    event = services.event_create(name="Two sections", date=datetime.date(2026, 11, 23),
                                  actor=actor)
    services.pairs_set(event=event, lines=[Line(n) for n in range(1, 2 * pairs + 1)],
                       actor=actor)
    b = services.section_add(event=event, actor=actor)
    services.pairs_section_set(section=b, numbers=range(pairs + 1, 2 * pairs + 1), actor=actor)
    if by_section:
        services.compare_by_section_set(event=event, by_section=True, actor=actor)
    for section in event.sections.all():
        movement, problems = services.movement_generate(
            event=event, kind="mitchell", boards_per_round=boards_per_round, tables=tables,
            section=section)
        assert not problems
        services.movement_and_boards_set(section=section, movement=movement, actor=actor)
    event.refresh_from_db()
    return event


def test_add_names_the_next_letter_and_is_audited(db, as_director):
    event = services.event_create(name="N", date=datetime.date(2026, 11, 23), actor=as_director)
    b = services.section_add(event=event, actor=as_director)
    c = services.section_add(event=event, actor=as_director)
    assert [b.name, c.name] == ["B", "C"]
    assert AuditEntry.objects.filter(event=event, action="add section").count() == 2
    with pytest.raises(ServiceError, match="already"):
        services.section_add(event=event, actor=as_director, name="b")


def test_only_the_director_adds_a_section(db, as_director):
    event = services.event_create(name="N", date=datetime.date(2026, 11, 23), actor=as_director)
    with pytest.raises(Forbidden):
        services.section_add(event=event, actor=Actor.at_table(event.sections.get(), 1))


def test_remove_gives_the_pairs_back_and_keeps_one_section(db, as_director):
    event = services.event_create(name="N", date=datetime.date(2026, 11, 23), actor=as_director)
    services.pairs_set(event=event, lines=[Line(n) for n in range(1, 5)], actor=as_director)
    b = services.section_add(event=event, actor=as_director)
    services.pairs_section_set(section=b, numbers=[3, 4], actor=as_director)
    services.section_remove(section=b, actor=as_director)
    assert set(Pair.objects.filter(event=event).values_list("section__name", flat=True)) == {"A"}
    with pytest.raises(ServiceError, match="at least one section"):
        services.section_remove(section=event.sections.get(), actor=as_director)


def test_each_section_has_its_own_movement_and_codes(db, as_director):
    event = two_section_night(as_director)
    a, b = event.sections.order_by("name")
    assert (a.tables, b.tables) == (5, 5)
    b_pairs = set()
    for m in Meeting.objects.filter(section=b):
        b_pairs |= {m.ns_pair.number, m.ew_pair.number}
    assert b_pairs == set(range(11, 21))  # the movement's pairs 1..10 are B's 11..20
    codes = list(TableCode.objects.filter(section__event=event).values_list("code", flat=True))
    assert len(codes) == 10 and len(set(codes)) == 10


def test_a_seated_pair_cannot_change_section(db, as_director):
    event = two_section_night(as_director)
    a = event.sections.get(name="A")
    with pytest.raises(ServiceError, match="another section"):
        services.pairs_section_set(section=a, numbers=[11], actor=as_director)


def test_a_section_movement_needs_its_pairs(db, as_director):
    event = services.event_create(name="N", date=datetime.date(2026, 11, 23), actor=as_director)
    services.pairs_set(event=event, lines=[Line(n) for n in range(1, 11)], actor=as_director)
    b = services.section_add(event=event, actor=as_director)
    services.pairs_section_set(section=b, numbers=[9, 10], actor=as_director)
    movement, _ = services.movement_generate(event=event, kind="mitchell", boards_per_round=3,
                                             tables=5, pairs=10)
    with pytest.raises(ServiceError, match="section B has 2"):
        services.movement_meetings_set(section=b, movement=movement, actor=as_director)


def _play(event, actor):
    """Board 1 in both sections: A's table 1 and B's table 1 in round 1."""
    for section, data in (("A", THREE_HEARTS), ("B", ONE_SPADE)):
        m = Meeting.objects.get(section__event=event, section__name=section, round=1, table=1)
        services.result_record(event=event, board=m.boards[0], ns=m.ns_pair.number,
                               ew=m.ew_pair.number, data=data, actor=actor)
    clear_cache()


def test_across_the_field_keeps_the_shape_and_adds_section_places(db, as_director):
    event = two_section_night(as_director)
    _play(event, as_director)
    out = standings(event)
    assert [r["direction"] for r in out["rankings"]] == ["NS", "EW"]
    assert "section" not in out["rankings"][0]
    assert [(r["section"], r["direction"]) for r in out["section_rankings"]] == [
        ("A", "NS"), ("A", "EW"), ("B", "NS"), ("B", "EW")]
    field_ns = {r["pair"] for r in out["rankings"][0]["rows"]}
    assert {1, 11} <= field_ns
    # The field's ranking names each pair's section; a section's own rows need not.
    assert {r["pair"]: r["section"] for r in out["rankings"][0]["rows"]
            if r["pair"] in (1, 11)} == {1: "A", 11: "B"}
    assert all("section" not in r for r in out["section_rankings"][0]["rows"])


def test_the_field_ranking_in_print_and_text_names_each_pairs_section(db, as_director):
    from tournaments.management.commands.standings import as_text
    from tournaments.reports.documents import StandingsRenderer

    event = two_section_night(as_director)
    _play(event, as_director)
    data = standings(event)
    table = StandingsRenderer().pair_ranking(data["rankings"][0], data["method"])[-1]
    cells = table._cellvalues
    assert cells[0][:4] == ["Place", "Pair", "Section", "Players"]
    assert {row[1]: row[2] for row in cells[1:] if row[1] in (1, 11)} == {1: "A", 11: "B"}
    own = StandingsRenderer().pair_ranking(data["section_rankings"][0], data["method"])[-1]
    assert "Section" not in own._cellvalues[0]
    lines = as_text(data).splitlines()
    assert "Section" in lines[3]
    line_11 = next(line for line in lines if line.split()[1:2] == ["11"])
    assert line_11.split()[2] == "B"


def test_within_each_section_ranks_each_section(db, as_director):
    from tournaments.management.commands.standings import as_text

    event = two_section_night(as_director, by_section=True)
    _play(event, as_director)
    out = standings(event)
    text = as_text(out).splitlines()
    assert "Section A, North–South" in text and "Section B, East–West" in text
    assert "section_rankings" not in out
    assert [(r["section"], r["direction"]) for r in out["rankings"]] == [
        ("A", "NS"), ("A", "EW"), ("B", "NS"), ("B", "EW")]
    # Alone on board 1 of its section, each N-S pair scores level (plus/minus 0).
    assert out["rankings"][2]["rows"][0]["pair"] == 11


def test_a_traveller_within_each_section_gives_each_sections_average(db, as_director):
    """The ± beside each row is against its own section's average: the traveller says
    that average, one a section, and lists each section's rows together."""
    from fractions import Fraction

    from tests.reports.pdf import pdf_text
    from tournaments import presenters, selectors
    from tournaments.presenters import exact
    from tournaments.reports.documents import TravellersRenderer
    from tournaments.reports.services import report_data

    event = two_section_night(as_director, by_section=True)
    _play(event, as_director)
    board = Meeting.objects.get(section__event=event, section__name="A", round=1,
                                table=1).boards[0]
    traveller = selectors.traveller(event, board)
    assert traveller["by_section"] and traveller["average"] is None
    assert [r["section"] for r in traveller["rows"]] == ["A", "B"]
    by_name = {a["section"]: a for a in traveller["section_averages"]}
    for row in traveller["rows"]:  # alone in its section: its own score is the average
        assert Fraction(by_name[row["section"]]["ns"]) == row["ns_score"]
        assert row["ns_plus_minus"] == "0"
    # Printed as it is shown: each section's average, each row's section.
    words = (f"Average of the tables in section A: N–S {exact(by_name['A']['ns'])}, E–W "
             f"{exact(by_name['A']['ew'])}; in section B: N–S {exact(by_name['B']['ns'])}, "
             f"E–W {exact(by_name['B']['ew'])}")
    assert presenters.traveller_average(traveller) == words
    _name, _type, pdf = TravellersRenderer().render(report_data(event, "travellers"))
    text = pdf_text(pdf)
    assert words in " ".join(text.split()) and "Section" in text
    # Across the field: one average of every table, no section column.
    services.compare_by_section_set(event=event, by_section=False, actor=as_director)
    event.refresh_from_db()
    clear_cache()
    field = selectors.traveller(event, board)
    assert not field["by_section"] and field["section_averages"] == []
    assert Fraction(field["average"]["ns"]) == Fraction(
        sum(r["ns_score"] for r in field["rows"]), 2)


def test_one_section_events_are_unchanged(db, as_director):
    event = services.event_create(name="N", date=datetime.date(2026, 11, 23), actor=as_director)
    assert list(Section.objects.filter(event=event).values_list("name", flat=True)) == ["A"]
    assert "section_rankings" not in standings(event)


def test_a_section_movement_changes_with_its_own_pairs(db, as_director):
    event = two_section_night(as_director)
    b = event.sections.get(name="B")
    services.round_agree(section=b, round_number=1, actor=as_director)
    plan = services.movement_plan(section=b, from_round=2, kind="mitchell", tables=5,
                                  variant=None, boards_per_round=3)
    assert plan.sound, plan.problems
    assert set(plan.pairs) == set(range(11, 21))


def test_the_text_standings_line_up_whatever_the_names():
    from tournaments.management.commands.standings import as_text

    rows = [{"place": "1", "pair": 1, "names": ["Margaret Schermerhorn", "Nathaniel Rhinelander"],
             "score": 12, "exact": "12", "boards": 6},
            {"place": "2", "pair": 2, "names": ["Ann Lee", "Bob Ray"], "score": -12,
             "exact": "-12", "boards": 6}]
    text = as_text({"event": "N", "kind": "pairs", "method": "plus-minus",
                    "rankings": [{"direction": "ALL", "rows": rows}]})
    first, second = text.splitlines()[-2:]
    assert first.index("+12") == second.index("−12")
