"""An event of several sessions: the next session carries the pairs over, the director sets
the carry-over, and the overall standings combine the sessions (exact fractions)."""

import datetime
import io
import json
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.db import IntegrityError

from tournaments import presenters, services
from tournaments.models import AuditEntry, Event, Pair
from tournaments.services import Actor, Forbidden, ServiceError
from tournaments.standings import clear_cache, overall_standings, standings

THREE_HEARTS = {"contract": {"level": 3, "denomination": "H", "declarer": "S"}, "tricks": 9,
                "honours": {"N": 2, "E": 1, "S": 1, "W": 1}}
ONE_SPADE = {"contract": {"level": 1, "denomination": "S", "declarer": "S"}, "tricks": 7,
             "honours": {"N": 1, "E": 2, "S": 1, "W": 1}}
ONE_SPADE_DOWN = {"contract": {"level": 1, "denomination": "S", "declarer": "S"}, "tricks": 6,
                  "honours": {"N": 1, "E": 2, "S": 1, "W": 1}}
DAY = datetime.date(2026, 11, 23)


class Line:
    def __init__(self, number):
        self.number, self.players, self.team = number, [f"N{number}", f"S{number}"], None


def first_session(actor, *, method="plus-minus", pairs=4) -> Event:
    event = services.event_create(name="Autumn pairs", date=DAY, method=method, actor=actor)
    services.pairs_set(event=event, lines=[Line(n) for n in range(1, pairs + 1)], actor=actor)
    services.boards_set(event=event, count=2, actor=actor)
    return event


def play(event, actor, *deals):
    """Each deal: (board, ns, ew, data)."""
    for board, ns, ew, data in deals:
        services.result_record(event=event, board=board, ns=ns, ew=ew, data=data, actor=actor)
    clear_cache()


def score(table: dict, pair: int) -> dict:
    return next(r for ranking in table["rankings"] for r in ranking["rows"]
                if r["pair"] == pair)


def test_the_next_session_carries_the_pairs_over_and_is_audited(db, as_director):
    first = first_session(as_director)
    b = services.section_add(event=first, actor=as_director)
    services.pairs_section_set(section=b, numbers=[3, 4], actor=as_director)
    second = services.session_add(event=first, date=DAY + datetime.timedelta(days=7),
                                  actor=as_director)
    assert (second.session_of_id, second.session_number) == (first.pk, 2)
    assert second.name == "Autumn pairs, session 2" and second.method == first.method
    carried = {p.number: (p.player_1_id, p.player_2_id, p.section.name)
               for p in Pair.objects.filter(event=second).select_related("section")}
    original = {p.number: (p.player_1_id, p.player_2_id, p.section.name)
                for p in Pair.objects.filter(event=first).select_related("section")}
    assert carried == original
    assert second.boards.count() == 0  # boards and movement: set up as for any event
    third = services.session_add(event=second, actor=as_director)  # any session names it
    assert third.session_number == 3 and third.date == second.date
    assert [s.pk for s in third.session_events()] == [first.pk, second.pk, third.pk]
    assert AuditEntry.objects.filter(event=first, action="add session").count() == 2
    assert AuditEntry.objects.get(event=second, action="create session").after["pairs"] == [
        1, 2, 3, 4]


def test_what_a_session_refuses(db, as_director):
    teams = services.event_create(name="Teams", date=DAY, kind="teams", actor=as_director)
    with pytest.raises(ServiceError, match="pairs events"):
        services.session_add(event=teams, actor=as_director)
    empty = services.event_create(name="Empty", date=DAY, actor=as_director)
    with pytest.raises(ServiceError, match="(?i)enter the pairs first"):
        services.session_add(event=empty, actor=as_director)
    first = first_session(as_director)
    with pytest.raises(ServiceError, match="cannot be before session 1"):
        services.session_add(event=first, date=DAY - datetime.timedelta(days=1),
                             actor=as_director)
    with pytest.raises(Forbidden):
        services.session_add(event=first, actor=Actor.at_table(first.sections.get(), 1))
    for wrong in (-1, 101, 50.5, True, "50"):
        with pytest.raises(ServiceError, match="whole percentage"):
            services.carry_over_set(event=first, percent=wrong, actor=as_director)
    assert not Event.objects.filter(session_of=first).exists()


def test_the_database_keeps_session_numbers_sound(db, as_director):
    first = first_session(as_director)
    services.session_add(event=first, actor=as_director)
    with pytest.raises(IntegrityError):
        Event.objects.create(name="x", date=DAY, session_of=first, session_number=2)


def test_plus_minus_overall_is_the_weighted_sum_in_exact_fractions(db, as_director):
    first = first_session(as_director)
    play(first, as_director, (1, 1, 2, THREE_HEARTS), (1, 3, 4, ONE_SPADE),
         (2, 1, 2, ONE_SPADE), (2, 3, 4, ONE_SPADE_DOWN))
    second = services.session_add(event=first, actor=as_director)
    services.boards_set(event=second, count=1, actor=as_director)
    play(second, as_director, (1, 1, 3, ONE_SPADE), (1, 2, 4, THREE_HEARTS))
    one, two = standings(first), standings(second)
    for carry in (100, 50, 0):
        services.carry_over_set(event=second, percent=carry, actor=as_director)
        first.refresh_from_db()
        table = overall_standings(first)
        assert table["carry_over"] == carry
        assert [s["counted"] for s in table["sessions"]] == [str(carry), "100"]
        for pair in range(1, 5):
            expected = (Fraction(carry, 100) * Fraction(score(one, pair)["exact"])
                        + Fraction(score(two, pair)["exact"]))
            row = score(table, pair)
            assert Fraction(row["exact"]) == expected
            assert [c["exact"] for c in row["sessions"]] == [score(one, pair)["exact"],
                                                            score(two, pair)["exact"]]
    # Half a session's odd score is a half, written "½".
    services.carry_over_set(event=first, percent=50, actor=as_director)
    first.refresh_from_db()
    odd = [p for p in range(1, 5) if Fraction(score(one, p)["exact"]).numerator % 2]
    assert odd, "session 1 has an odd score to halve"
    table = overall_standings(first)
    halves = [presenters.signed(score(table, p)["exact"]) for p in odd]
    assert all("½" in text for text in halves), halves
    # By hand: pair 1 made +47 in session 1 and −21 in session 2: ½ × 47 − 21 = 2½.
    assert (score(one, 1)["exact"], score(two, 1)["exact"]) == ("47", "-21")
    assert score(table, 1)["exact"] == "5/2" and presenters.signed("5/2") == "+2½"
    assert [r["place"] for r in table["rankings"][0]["rows"]] == ["1=", "1=", "3=", "3="]
    # 100 was already the carry-over: setting it again changes nothing and audits nothing.
    assert AuditEntry.objects.filter(event=first, action="carry over").count() == 3


def test_a_pair_absent_from_a_session_adds_nothing_from_it(db, as_director):
    first = first_session(as_director, pairs=6)
    play(first, as_director, (1, 1, 2, THREE_HEARTS), (1, 3, 4, ONE_SPADE),
         (1, 5, 6, ONE_SPADE_DOWN))
    second = services.session_add(event=first, actor=as_director)
    services.boards_set(event=second, count=1, actor=as_director)
    play(second, as_director, (1, 1, 3, ONE_SPADE), (1, 2, 4, THREE_HEARTS))  # 5, 6 absent
    one = standings(first)
    table = overall_standings(first)
    row = score(table, 5)
    assert row["sessions"][1] is None
    assert Fraction(row["exact"]) == Fraction(score(one, 5)["exact"])
    services.carry_over_set(event=first, percent=0, actor=as_director)
    first.refresh_from_db()
    ranked = {r["pair"] for r in overall_standings(first)["rankings"][0]["rows"]}
    assert ranked == {1, 2, 3, 4}  # session 1 counts for nothing: 5 and 6 played no session


def test_matchpoints_overall_is_weighted_matchpoints_over_weighted_tops(db, as_director):
    first = first_session(as_director, method="matchpoints", pairs=6)
    play(first, as_director, (1, 1, 2, THREE_HEARTS), (1, 3, 4, ONE_SPADE),
         (1, 5, 6, ONE_SPADE_DOWN))
    second = services.session_add(event=first, actor=as_director)
    services.boards_set(event=second, count=2, actor=as_director)
    play(second, as_director, (1, 1, 3, ONE_SPADE), (1, 2, 4, THREE_HEARTS),
         (2, 1, 3, ONE_SPADE), (2, 2, 4, ONE_SPADE))
    services.carry_over_set(event=first, percent=50, actor=as_director)
    first.refresh_from_db()
    table = overall_standings(first)
    # Session 1: a top of 4 on one board (three tables); session 2: a top of 2 on each of
    # two boards. Pair 1: 4 of 4 (3♥ is the best N–S result), then 0 and 1 of 2 + 2.
    row = score(table, 1)
    assert [c["matchpoints"] for c in row["sessions"]] == ["4", "1"]
    assert [c["top"] for c in row["sessions"]] == ["4", "4"]
    # Overall: (½·4 + 1) / (½·4 + 4) = 3/6 = 50 %.
    assert (row["matchpoints"], row["top"], row["exact"], row["score"]) == ("3", "6", "50",
                                                                            50.0)
    # Pair 5 played session 1 only (1♠ down, the worst N–S result): 0 of 4 at half
    # weight → 0 of 2; session 2 adds no tops for it.
    five = score(table, 5)
    assert five["sessions"][1] is None
    assert (five["matchpoints"], five["top"], five["exact"]) == ("0", "2", "0")


def test_carry_over_is_refused_once_the_last_session_is_closed(db, as_director):
    first = first_session(as_director)
    second = services.session_add(event=first, actor=as_director)
    Event.objects.filter(pk=second.pk).update(status=Event.Status.CLOSED)
    with pytest.raises(Forbidden, match="Session 2 is closed"):
        services.carry_over_set(event=first, percent=60, actor=as_director)


def test_the_overall_is_final_only_when_every_session_is(db, as_director):
    first = first_session(as_director)
    second = services.session_add(event=first, actor=as_director)
    for one, two, overall in (("none", "final", "none"), ("final", "provisional", "provisional"),
                              ("provisional", "none", "none"), ("final", "final", "final")):
        Event.objects.filter(pk=first.pk).update(published=one)
        Event.objects.filter(pk=second.pk).update(published=two)
        assert overall_standings(second)["published"] == overall, (one, two)


def test_the_standings_command_prints_the_overall(db, as_director):
    first = first_session(as_director)
    play(first, as_director, (1, 1, 2, THREE_HEARTS), (1, 3, 4, ONE_SPADE),
         (2, 1, 2, ONE_SPADE), (2, 3, 4, ONE_SPADE_DOWN))
    second = services.session_add(event=first, actor=as_director)
    services.boards_set(event=second, count=1, actor=as_director)
    play(second, as_director, (1, 1, 3, ONE_SPADE), (1, 2, 4, THREE_HEARTS))
    services.carry_over_set(event=first, percent=50, actor=as_director)
    out = io.StringIO()
    call_command("standings", str(second.pk), "--overall", stdout=out)
    text = out.getvalue()
    assert "S1 (50%)" in text and "+2½" in text  # ½ × 47 − 21
    out = io.StringIO()
    call_command("standings", str(first.pk), "--overall", "--format", "json", stdout=out)
    assert json.loads(out.getvalue())["carry_over"] == 50
