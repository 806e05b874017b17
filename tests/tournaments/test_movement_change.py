"""Changing the movement between rounds (services.movement_change): the rounds played
keep their meetings and results; the later rounds are the new movement's, seated so
that nobody plays a board again; every refusal says what to do."""

import dataclasses
import importlib

import pytest

from boards.movements import Round, TableRound, check_from, generate
from tests.factories import make_pairs_event
from tournaments import selectors, services
from tournaments.models import AuditEntry, Board, Event, Meeting, Pair, Result, TableCode
from tournaments.services import Actor, Forbidden, ServiceError

# The package's name movement_change is the service; the module is reached by its path.
change_module = importlib.import_module("tournaments.services.movement_change")

PLAY = {"contract": {"level": 1, "denomination": "NT", "declarer": "N"}, "tricks": 7}


def night(*, tables: int, variant: str | None = None, pairs: int | None = None,
          per_round: int = 1) -> Event:
    """A Mitchell night: pairs 1..2n (or `pairs`), its boards and meetings stored."""
    pairs = pairs or 2 * tables
    event = make_pairs_event(pairs=pairs, boards=0)
    movement = generate("mitchell", tables=tables, variant=variant,
                        boards_per_round=per_round, pairs=pairs)
    services.movement_and_boards_set(section=event.sections.get(), movement=movement,
                                     actor=Actor.system("set-up"))
    return event


def play_rounds(event: Event, last: int) -> int:
    """Every board of rounds 1..last, entered by the tables' program; how many."""
    importer = Actor.system("import")
    count = 0
    for m in Meeting.objects.filter(section__event=event, round__lte=last).select_related(
            "ns_pair", "ew_pair"):
        for board in m.boards:
            services.result_record(event=event, board=board, ns=m.ns_pair.number,
                                   ew=m.ew_pair.number, data=PLAY, actor=importer, meeting=m)
            count += 1
    return count


def history(event: Event, before: int) -> list[Round]:
    return services.section_history(event.sections.get(), before)


def later(event: Event, from_round: int):
    """The stored rounds from `from_round` as a movement-like list of Rounds."""
    rounds: dict[int, list[TableRound]] = {}
    for m in Meeting.objects.filter(section__event=event, round__gte=from_round).order_by(
            "round", "table").select_related("ns_pair", "ew_pair"):
        rounds.setdefault(m.round, []).append(
            TableRound(m.table, m.ns_pair.number, m.ew_pair.number, tuple(m.boards)))
    return [Round(n, tuple(ts)) for n, ts in sorted(rounds.items())]


def assert_sound_from(event: Event, from_round: int, *, variant: str | None) -> None:
    """What is stored from `from_round` passes check_from against what was played."""
    section = event.sections.get()
    stored = generate("mitchell", tables=section.tables, variant=variant,
                      boards_per_round=section.boards_per_round,
                      pairs=len(services.pairs_playing(section, from_round)))
    # check_from looks at the rounds it is given: put the stored ones in the movement.
    stored = dataclasses.replace(stored, rounds=tuple(later(event, from_round)))
    assert check_from(stored, from_round, history(event, from_round)) == []
    for rnd in later(event, from_round):
        seated = [p for t in rnd.tables for p in (t.ns, t.ew)]
        assert len(seated) == len(set(seated))


def snapshot(event: Event, before: int):
    meetings = list(Meeting.objects.filter(section__event=event, round__lt=before)
                    .order_by("round", "table").values_list("pk", "round", "table",
                                                            "ns_pair", "ew_pair", "boards"))
    results = list(Result.objects.filter(event=event).order_by("pk").values_list(
        "pk", "meeting", "board", "ns_pair", "ew_pair", "ns_score", "voided"))
    return meetings, results


@pytest.mark.django_db
def test_add_a_table_mid_night_keeps_the_rounds_played(as_director):
    event = night(tables=7)
    played = play_rounds(event, 3)
    before = snapshot(event, 4)
    for number in (15, 16):
        services.pair_set(event=event, number=number, players=[f"Late {number}a",
                                                               f"Late {number}b"],
                          actor=as_director)
    plan = services.movement_change(section=event.sections.get(), from_round=4,
                                    kind="mitchell", tables=8, variant="skip",
                                    boards_per_round=1, actor=as_director,
                                    reason="two more pairs came in late")
    assert snapshot(event, 4) == before  # rounds 1–3 and every result untouched
    assert Result.objects.filter(event=event, voided=False).count() == played
    section = event.sections.get()
    assert (section.movement, section.variant, section.tables) == ("mitchell", "skip", 8)
    rounds = later(event, 4)
    assert [r.number for r in rounds] == [4, 5, 6, 7]  # an 8-table skip has 7 rounds
    assert all(len(r.tables) == 8 for r in rounds)
    seated = {p for r in rounds for t in r.tables for p in (t.ns, t.ew)}
    assert {15, 16} <= seated
    assert TableCode.objects.filter(section=section, table=8).exists()
    assert_sound_from(event, 4, variant="skip")
    # The boards the new movement needs exist; none was removed.
    needed = {b for r in rounds for t in r.tables for b in t.boards}
    assert needed <= set(Board.objects.filter(event=event).values_list("number", flat=True))
    entry = AuditEntry.objects.get(event=event, action="movement change")
    assert entry.reason == "two more pairs came in late"
    assert entry.before["from_round"] == 4
    assert len(entry.before["meetings"]) == 7 * 4  # rounds 4–7 of the 7-table Mitchell
    assert len(entry.after["meetings"]) == 8 * 4
    assert entry.after["new_tables"] == [8]
    assert plan.opening == [8]
    # The pairs added on the Pairs page join from the change round, as a late pair does;
    # the pairs playing since round 1 did not "join".
    joined = dict(Pair.objects.filter(event=event).values_list("number", "joined_round"))
    assert joined.pop(15) == joined.pop(16) == 4
    assert set(joined.values()) == {None}
    assert ("Pair 15 (Late 15a & Late 15b) joined from round 4."
            in selectors.pair_changes(event))


@pytest.mark.django_db
def test_remove_a_table_closes_it_and_keeps_its_code(as_director):
    event = night(tables=8, variant="relay", per_round=2)
    play_rounds(event, 3)
    # Pairs 8 and 16 go home after round 3 (a pair leaving is its own service).
    Pair.objects.filter(event=event, number__in=(8, 16)).update(left_after_round=3)
    code = TableCode.objects.get(section__event=event, table=8).code
    plan = services.movement_change(section=event.sections.get(), from_round=4,
                                    kind="mitchell", tables=7, variant=None,
                                    boards_per_round=2, actor=as_director,
                                    reason="pairs 8 and 16 went home")
    assert plan.closing == [8]
    table = TableCode.objects.get(section__event=event, table=8)
    assert (table.code, table.closed_after_round) == (code, 3)
    rounds = later(event, 4)
    assert [r.number for r in rounds] == [4, 5, 6, 7]
    assert all(t.table <= 7 for r in rounds for t in r.tables)
    assert not {8, 16} & {p for r in rounds for t in r.tables for p in (t.ns, t.ew)}
    assert Meeting.objects.filter(section__event=event, table=8).count() == 3
    assert_sound_from(event, 4, variant=None)


@pytest.mark.django_db
@pytest.mark.parametrize(("old", "new"), [("relay", "skip"), ("skip", "relay")])
def test_switch_an_8_table_mitchell_from_round_4(as_director, old, new):
    event = night(tables=8, variant=old, per_round=2)  # (a relay shares 2 boards or more)
    played = play_rounds(event, 3)
    services.movement_change(section=event.sections.get(), from_round=4, kind="mitchell",
                             tables=8, variant=new, boards_per_round=2, actor=as_director,
                             reason=f"{new} Mitchell: the room is short of time")
    section = event.sections.get()
    assert section.variant == new
    assert Result.objects.filter(event=event).count() == played
    expected_rounds = 7 if new == "skip" else 8
    assert [r.number for r in later(event, 4)] == list(range(4, expected_rounds + 1))
    assert_sound_from(event, 4, variant=new)
    # A Mitchell keeps each pair in its direction (the two rankings stay whole).
    directions: dict[int, set[str]] = {}
    for m in Meeting.objects.filter(section=section).select_related("ns_pair", "ew_pair"):
        directions.setdefault(m.ns_pair.number, set()).add("NS")
        directions.setdefault(m.ew_pair.number, set()).add("EW")
    assert all(len(d) == 1 for d in directions.values())


@pytest.mark.django_db
def test_a_round_with_scores_refuses_and_says_which_round(as_director):
    event = night(tables=7)
    play_rounds(event, 3)
    before = list(Meeting.objects.filter(section__event=event).values_list("pk", flat=True))
    with pytest.raises(ServiceError) as refused:
        services.movement_change(section=event.sections.get(), from_round=3,
                                 kind="mitchell", tables=7, variant=None, boards_per_round=1,
                                 actor=as_director, reason="late change")
    assert "round 3 has scores already: change the movement from round 4" in refused.value.message
    assert list(Meeting.objects.filter(section__event=event).values_list(
        "pk", flat=True)) == before
    assert not AuditEntry.objects.filter(event=event, action="movement change").exists()


@pytest.mark.django_db
def test_an_agreed_round_refuses(as_director):
    event = night(tables=7)
    services.round_agree(section=event.sections.get(), round_number=2, actor=as_director)
    with pytest.raises(ServiceError) as refused:
        services.movement_change(section=event.sections.get(), from_round=2,
                                 kind="mitchell", tables=7, variant=None, boards_per_round=1,
                                 actor=as_director, reason="change")
    assert "round 2 is agreed (Duplicate Law E): change the movement from round 3" in (
        refused.value.message)


@pytest.mark.django_db
def test_a_table_the_pairs_cannot_fill_refuses(as_director):
    event = night(tables=7)
    with pytest.raises(ServiceError) as refused:
        services.movement_change(section=event.sections.get(), from_round=4,
                                 kind="mitchell", tables=8, variant="skip",
                                 boards_per_round=1, actor=as_director, reason="add a table")
    assert "14 pairs need 7 tables" in refused.value.message


@pytest.mark.django_db
def test_every_problem_of_the_check_is_reported_and_nothing_changes(as_director, monkeypatch):
    event = night(tables=7)
    play_rounds(event, 3)
    for number in (15, 16):
        services.pair_set(event=event, number=number, players=["A B", "C D"],
                          actor=as_director)

    def unfitted(movement, from_round, history, pairs, **_):
        """The movement as generated, its positions taken for the pairs' numbers."""
        return dataclasses.replace(movement, rounds=tuple(
            r for r in movement.rounds if r.number >= from_round))

    monkeypatch.setattr(change_module, "fit", unfitted)
    meetings = list(Meeting.objects.filter(section__event=event).values_list("pk", flat=True))
    boards = Board.objects.filter(event=event).count()
    with pytest.raises(ServiceError) as refused:
        services.movement_change(section=event.sections.get(), from_round=4,
                                 kind="mitchell", tables=8, variant="skip",
                                 boards_per_round=1, actor=as_director, reason="add a table")
    message = refused.value.message
    assert "played board" in message and "already, in round" in message
    assert message.count(";") >= 2  # every problem, not the first alone
    assert list(Meeting.objects.filter(section__event=event).values_list(
        "pk", flat=True)) == meetings
    assert Board.objects.filter(event=event).count() == boards
    assert not TableCode.objects.filter(section__event=event, table=8).exists()


@pytest.mark.django_db
def test_the_plan_previews_without_storing(as_director):
    event = night(tables=7)
    play_rounds(event, 2)
    services.pair_set(event=event, number=15, players=["A B", "C D"], actor=as_director)
    services.pair_set(event=event, number=16, players=["E F", "G H"], actor=as_director)
    count = Meeting.objects.filter(section__event=event).count()
    plan = services.movement_plan(section=event.sections.get(), from_round=3,
                                  kind="mitchell", tables=8, variant="relay",
                                  boards_per_round=2)
    assert plan.sound, plan.problems
    assert "table 8 is new: it gets a table code" in plan.notes
    assert Meeting.objects.filter(section__event=event).count() == count


@pytest.mark.django_db
def test_a_relay_of_one_board_a_round_is_refused_in_the_preview_and_the_change(as_director):
    """Tables 1 and 8 would share one board every round: one of them waits for it."""
    event = night(tables=7)
    play_rounds(event, 2)
    for number in (15, 16):
        services.pair_set(event=event, number=number, players=["A B", "C D"],
                          actor=as_director)
    options = {"section": event.sections.get(), "from_round": 3, "kind": "mitchell",
               "tables": 8, "variant": "relay", "boards_per_round": 1}
    before = snapshot(event, 99)
    plan = services.movement_plan(**options)
    assert not plan.sound
    assert plan.problems == [
        "A relay Mitchell needs at least 2 boards a round: tables 1 and 8 share a set every "
        "round, passing its boards between them, so with fewer one table waits for a board"]
    with pytest.raises(ServiceError, match="needs at least 2 boards a round"):
        services.movement_change(**options, actor=as_director, reason="two more pairs")
    assert snapshot(event, 99) == before


@pytest.mark.django_db
def test_a_reason_the_director_and_an_open_event_are_needed(as_director):
    event = night(tables=7)
    section = event.sections.get()
    options = {"section": section, "from_round": 4, "kind": "mitchell", "tables": 7,
               "variant": None, "boards_per_round": 1}
    with pytest.raises(ServiceError, match="reason"):
        services.movement_change(**options, actor=as_director, reason=" ")
    with pytest.raises(Forbidden):
        services.movement_change(**options, actor=Actor.at_table(section, 1), reason="x")
    Event.objects.filter(pk=event.pk).update(status=Event.Status.CLOSED)
    with pytest.raises(Forbidden):
        services.movement_change(**options, actor=as_director, reason="x")


@pytest.mark.django_db
def test_more_boards_a_round_keeps_the_stationary_pairs_at_their_tables(as_director):
    event = night(tables=7, per_round=2)
    play_rounds(event, 3)
    section = event.sections.get()
    seated = {t.table: t.ns for t in history(event, 4)[-1].tables}
    plan = services.movement_change(section=section, from_round=4, kind="mitchell",
                                    tables=7, variant=None, boards_per_round=3,
                                    reason="slow room", actor=as_director)
    assert plan.sound, plan.problems
    assert not [n for n in plan.notes if "stationary" in n]
    for rnd in later(event, 4):
        assert {t.table: t.ns for t in rnd.tables} == seated
    assert_sound_from(event, 4, variant=None)


def test_the_preview_names_a_stationary_pair_the_change_moves():
    played = [Round(1, (TableRound(1, 1, 4, (1,)), TableRound(2, 2, 5, (2,)),
                        TableRound(3, 3, 6, (3,))))]
    new = dataclasses.replace(generate("mitchell", tables=3, boards_per_round=1), rounds=(
        Round(2, (TableRound(1, 1, 5, (2,)), TableRound(2, 3, 6, (3,)),
                  TableRound(3, 4, 2, (1,)))),))
    assert change_module.stationary_moves(played, new, [1, 2, 3, 4, 5, 6]) == [
        "pair 2, stationary N–S so far, moves from table 2 to E–W at table 3: tell them",
        "pair 3, stationary N–S so far, moves from table 3 to table 2: tell them"]
    # A pair that has left is not told.
    assert change_module.stationary_moves(played, new, [1, 2, 4, 5, 6]) == [
        "pair 2, stationary N–S so far, moves from table 2 to E–W at table 3: tell them"]
    # A pair the new round leaves out is told it has no game, not that it moves.
    sits = dataclasses.replace(new, rounds=(
        Round(2, (TableRound(1, 1, 5, (2,)), TableRound(2, 2, 6, (3,)))),))
    assert change_module.stationary_moves(played, sits, [1, 2, 3, 5, 6]) == [
        "pair 3, stationary N–S so far, has no game in round 2 (it sits out) and leaves "
        "table 3: tell them"]


def _boards_twice(event: Event) -> list[tuple[int, int]]:
    """(pair, board) where a pair would have a board twice: a live result (a ruling
    included) and a meeting that gives it the board again, or two live results."""
    held: dict[tuple[int, int], int] = {}
    for ns, ew, board in Result.objects.filter(event=event, voided=False).values_list(
            "ns_pair__number", "ew_pair__number", "board__number"):
        for pair in (ns, ew):
            held[(pair, board)] = held.get((pair, board), 0) + 1
    twice = [key for key, n in held.items() if n > 1]
    for m in Meeting.objects.filter(section__event=event).select_related("ns_pair", "ew_pair"):
        for board in m.boards:
            played = Result.objects.filter(event=event, voided=False, board__number=board,
                                           ns_pair=m.ns_pair, ew_pair=m.ew_pair).exists()
            for pair in (m.ns_pair.number, m.ew_pair.number):
                if not played and (pair, board) in held:
                    twice.append((pair, board))
    return twice


@pytest.mark.django_db
@pytest.mark.parametrize("left_after", [4, 2])
def test_a_change_after_pairs_left_never_gives_a_pair_a_board_twice(as_director, left_after):
    """Pairs 10 and 11 leave: their opponents' later boards stand "not played". A change
    from round 5 withdraws those of rounds 5 on (the opponents play the new rounds) and
    keeps those before, whose boards no pair is given again. (It had kept every ruling
    and seated pair 1 at board 13 a second time.)"""
    event = night(tables=7, per_round=3)
    play_rounds(event, left_after)
    for number in (10, 11):
        services.pair_leave(event=event, number=number, after_round=left_after,
                            actor=as_director, reason="went home")
    rulings = Result.objects.filter(event=event, ruling="not-played", voided=False)
    kept = set(rulings.filter(pk__in=[r.pk for r in rulings]).exclude(
        pk__in=change_module.removed_meetings(event.sections.get(), 5)[1])
        .values_list("pk", flat=True))
    plan = services.movement_change(section=event.sections.get(), from_round=5,
                                    kind="mitchell", tables=6, variant="skip",
                                    boards_per_round=3, reason="two pairs went home",
                                    actor=as_director)
    assert plan.withdrawn and any("withdrawn" in n for n in plan.notes)
    assert set(rulings.values_list("pk", flat=True)) == kept
    assert kept or left_after == 4
    assert Result.objects.filter(pk__in=plan.withdrawn, voided=True).count() == len(
        plan.withdrawn)
    assert AuditEntry.objects.filter(result_id__in=plan.withdrawn, action="void").count() \
        == len(plan.withdrawn)
    assert _boards_twice(event) == []


@pytest.mark.django_db
def test_the_preview_says_when_the_night_ends_and_which_boards_go_out_of_play(as_director):
    event = night(tables=7, per_round=3)
    play_rounds(event, 3)
    plan = services.movement_plan(section=event.sections.get(), from_round=4,
                                  kind="mitchell", tables=7, variant=None,
                                  boards_per_round=2)
    assert plan.sound, plan.problems
    gone = sorted({b for m in plan.before for b in m["boards"]}
                  - {b for m in plan.after for b in m["boards"]})
    assert len(gone) == 7  # 21 boards, now 14 from round 4: one of each set of 3 goes
    assert [n for n in plan.notes if "out of play" in n] == [
        f"boards {', '.join(map(str, gone))} are not played from round 4 on: "
        "take them out of play"]
    assert not [n for n in plan.notes if "the night now ends" in n]  # 7 rounds still
    plan = services.movement_plan(section=event.sections.get(), from_round=4,
                                  kind="howell", tables=7, variant=None, boards_per_round=1)
    assert "the night now ends after round 13 (it was to end after round 7)" in plan.notes
