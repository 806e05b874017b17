"""Late pairs, pairs that leave, substitutes (services.pair_changes)."""

import pytest

from boards.movements import MovementError, generate
from tests.factories import make_pairs_event
from tournaments import services
from tournaments.models import AuditEntry, Event, Meeting, Pair, Result, Substitute
from tournaments.services import ServiceError
from tournaments.standings import standings

THREE_HEARTS = {"contract": {"level": 3, "denomination": "H", "declarer": "S"}, "tricks": 9,
                "honours": {"N": 0, "E": 0, "S": 0, "W": 0}}


def _night(pairs: int, kind: str = "mitchell", tables: int = 4, variant: str | None = "skip",
           per_round: int = 2):
    event = make_pairs_event(pairs=pairs, boards=0)
    section = event.sections.get()
    movement = generate(kind, tables=tables, boards_per_round=per_round, variant=variant,
                        pairs=pairs)
    services.movement_and_boards_set(section=section, movement=movement,
                                     actor=services.Actor.system("setup"))
    section.refresh_from_db()
    return event, section


def _keys(section, **filters):
    return sorted(services.meeting_key(m) for m in Meeting.objects.filter(
        section=section, **filters).select_related("ns_pair", "ew_pair"))


def _enter(event, meeting, board):
    return services.result_record(event=event, board=board, ns=meeting.ns_pair.number,
                                  ew=meeting.ew_pair.number, data=THREE_HEARTS,
                                  actor=services.Actor.system("t"), meeting=meeting)


@pytest.fixture
def seven(db):
    """Seven pairs in a 4-table skip Mitchell: pair 8 is the phantom, an N–S pair sits out."""
    return _night(7)


# --- a late pair -------------------------------------------------------------------------------


def test_a_late_pair_takes_the_phantoms_meetings_from_the_next_round(seven, as_director):
    event, section = seven
    meeting = Meeting.objects.filter(section=section, round=1).first()
    _enter(event, meeting, meeting.boards[0])
    before = _keys(section)
    plan = services.late_pair_plan(event=event, from_round=2)
    assert plan.number == 8 and plan.missed_rounds == (1,)
    pair = services.pair_join_late(event=event, players=["Nan Kirk", "Obed Hale"],
                                   from_round=2, actor=as_director, reason="came at nine")
    assert (pair.number, pair.joined_round, pair.names) == (8, 2, ["Nan Kirk", "Obed Hale"])
    full = generate("mitchell", tables=4, boards_per_round=2, variant="skip")
    phantom = sorted((r.number, t.table, t.ns, t.ew, t.boards) for r in full.rounds
                     for t in r.tables if 8 in (t.ns, t.ew) and r.number >= 2)
    assert _keys(section) == sorted(before + phantom)
    assert len(phantom) == 2  # rounds 2 and 3 of a 3-round skip Mitchell
    entry = AuditEntry.objects.get(event=event, action="late pair")
    assert entry.reason == "came at nine" and entry.after["from_round"] == 2
    assert Event.objects.get(pk=event.pk).roster_seq == Event.objects.get(pk=event.pk).seq


def test_a_late_pair_in_a_howell_gets_the_phantom_table(db, as_director):
    event, section = _night(7, kind="howell", variant=None)
    codes = set(section.table_codes.values_list("table", flat=True))
    services.pair_join_late(event=event, players=["A B", "C D"], from_round=1,
                            actor=as_director, reason="on time after all")
    assert Meeting.objects.filter(section=section, round=1).count() == 4
    assert set(section.table_codes.values_list("table", flat=True)) >= codes | {4}
    assert Meeting.objects.filter(section=section).count() == 4 * 7  # a full Howell


def test_a_late_pair_is_refused_when_nobody_sits_out(db, as_director):
    event, _ = _night(8)
    with pytest.raises(ServiceError, match="(?i)no sit-out"):
        services.pair_join_late(event=event, players=["A B", "C D"], from_round=2,
                                actor=as_director, reason="x")
    with pytest.raises(ServiceError, match="(?i)no sit-out"):
        services.late_pair_plan(event=event, from_round=2)


def test_a_late_pair_is_refused_once_its_round_has_begun(seven, as_director):
    event, section = seven
    meeting = Meeting.objects.filter(section=section, round=2).first()
    _enter(event, meeting, meeting.boards[0])
    with pytest.raises(ServiceError, match="(?i)round 2 has already begun"):
        services.pair_join_late(event=event, players=["A B", "C D"], from_round=2,
                                actor=as_director, reason="x")
    assert not Pair.objects.filter(event=event, number=8).exists()


def test_a_late_pair_twice_is_refused(seven, as_director):
    event, _ = seven
    services.pair_join_late(event=event, players=["A B", "C D"], from_round=2,
                            actor=as_director, reason="x")
    with pytest.raises(ServiceError, match="(?i)the movement has no place for a late pair: "
                       r"its \d+ tables were made for all \d+ pairs.*add it on the Pairs "
                       r"page, then change the movement from the next round.*: it seats the "
                       r"9 pairs then playing at 5 tables, the new pair with them"):
        services.pair_join_late(event=event, players=["E F", "G H"], from_round=3,
                                actor=as_director, reason="x")


def test_a_late_pair_needs_a_round_of_the_movement_and_a_reason(seven, as_director):
    event, _ = seven
    with pytest.raises(ServiceError, match="(?i)rounds 1 to 3"):
        services.late_pair_plan(event=event, from_round=4)
    with pytest.raises(ServiceError, match="reason"):
        services.pair_join_late(event=event, players=["A B", "C D"], from_round=2,
                                actor=as_director)
    with pytest.raises(ServiceError, match="two players"):
        services.pair_join_late(event=event, players=["A B"], from_round=2,
                                actor=as_director, reason="x")


def test_movement_regenerate_adds_only_the_phantoms_meetings(seven):
    _, section = seven
    full = services.movement_regenerate(section)
    stored = _keys(section)
    regenerated = sorted((r.number, t.table, t.ns, t.ew, t.boards)
                         for r in full.rounds for t in r.tables if 8 not in (t.ns, t.ew))
    assert stored == regenerated and full.pairs == 8


# --- a pair that leaves ----------------------------------------------------------------------


@pytest.fixture
def eight(db):
    return _night(8)


def test_a_pair_that_leaves_loses_its_later_meetings(eight, as_director):
    event, section = eight
    later = list(Meeting.objects.filter(section=section, round__gt=1, ew_pair__number=5)
                 .select_related("ns_pair", "ew_pair"))
    plan = services.pair_leave_plan(event=event, number=5, after_round=1)
    assert plan.opponents == [(m.round, m.ns_pair.number) for m in later]
    pair = services.pair_leave(event=event, number=5, after_round=1, actor=as_director,
                               reason="a train to catch")
    assert pair.left_after_round == 1
    assert not Meeting.objects.filter(section=section, round__gt=1, ew_pair=pair).exists()
    not_played = Result.objects.filter(event=event, ruling="not-played")
    assert not_played.count() == plan.boards == 4
    assert {(r.ns_pair.number, r.ew_pair.number) for r in not_played} == {
        (m.ns_pair.number, 5) for m in later}
    entry = AuditEntry.objects.get(event=event, action="pair leaves")
    assert len(entry.before["meetings"]) == 2 and entry.reason == "a train to catch"
    # No comparison, no credit: the standings count only boards played.
    rows = {row["pair"]: row for r in standings(event)["rankings"] for row in r["rows"]}
    assert all(row["boards"] == 0 for row in rows.values())


def test_a_late_pair_after_a_pair_left_is_told_why_its_seats_are_not_a_sit_out(
        eight, as_director):
    """Every seat was taken; a pair left, so its opponents sit out from then on. Those
    seats are not the movement's sit-out: the refusal says so, and counts the pairs
    playing on (not the movement's), with the way to seat one more."""
    event, section = eight
    services.pair_leave(event=event, number=5, after_round=1, actor=as_director,
                        reason="a train to catch")
    with pytest.raises(ServiceError) as refused:
        services.late_pair_plan(event=event, from_round=2)
    message = refused.value.message
    assert "(pair 5 left after round 1: its opponents sit out, but the movement keeps its " \
           "place)" in message
    assert "it seats the 8 pairs then playing at 4 tables, the new pair with them" in message


def test_a_pair_cannot_leave_before_a_round_it_has_results_in(eight, as_director):
    event, section = eight
    meeting = Meeting.objects.get(section=section, round=2, ew_pair__number=5)
    _enter(event, meeting, meeting.boards[0])
    with pytest.raises(ServiceError, match="(?i)results in round 2"):
        services.pair_leave(event=event, number=5, after_round=1, actor=as_director,
                            reason="x")
    services.pair_leave(event=event, number=5, after_round=2, actor=as_director, reason="x")
    with pytest.raises(ServiceError, match="(?i)already left"):
        services.pair_leave(event=event, number=5, after_round=2, actor=as_director,
                            reason="x")


def test_leaving_after_the_last_round_changes_nothing(eight, as_director):
    event, _ = eight
    with pytest.raises(ServiceError, match="(?i)plays no round after round 3"):
        services.pair_leave_plan(event=event, number=5, after_round=3)
    with pytest.raises(ServiceError, match="(?i)pair 99 is not in this event"):
        services.pair_leave_plan(event=event, number=99, after_round=1)


def test_a_late_pair_skips_an_opponent_that_has_left(seven, as_director):
    event, section = seven
    plan = services.late_pair_plan(event=event, from_round=2)
    gone = plan.meetings[0]
    opponent = gone[2] if gone[3] == 8 else gone[3]
    services.pair_leave(event=event, number=opponent, after_round=gone[0] - 1,
                        actor=as_director, reason="x")
    after = services.late_pair_plan(event=event, from_round=2)
    assert gone not in after.meetings and len(after.meetings) == len(plan.meetings) - 1


# --- substitutes --------------------------------------------------------------------------------


def test_a_substitute_shows_in_the_standings_and_the_score_card(eight, as_director):
    from tournaments import selectors

    event, section = eight
    meeting = Meeting.objects.get(section=section, round=1, table=1)
    _enter(event, meeting, meeting.boards[0])
    other = Meeting.objects.get(section=section, round=2, boards=meeting.boards)
    _enter(event, other, meeting.boards[0])
    standings(event)  # the names are cached now
    pair = Pair.objects.get(event=event, number=1)
    services.substitute_set(event=event, number=1, seat=2, player="Carl Day", from_round=2,
                            actor=as_director, reason="Bob's back")
    assert Substitute.objects.get(pair=pair).from_round == 2
    row = next(row for r in standings(event)["rankings"] for row in r["rows"]
               if row["pair"] == 1)
    assert row["names"] == pair.names
    assert row["substitutes"] == [{"name": "Carl Day", "for": pair.names[1], "from_round": 2}]
    others = [row for r in standings(event)["rankings"] for row in r["rows"] if row["pair"] != 1]
    assert all("substitutes" not in row for row in others)
    card = selectors.scorecard(event, 1)
    assert card["substitutes"] == row["substitutes"]
    assert card["names_text"] == f"{pair.names[0]} & {pair.names[1]} (Carl Day for " \
                                 f"{pair.names[1]} from round 2)"


def test_a_substitute_is_checked(eight, as_director):
    event, _ = eight
    for kwargs, match in (({"seat": 3}, "1 or 2"), ({"player": " "}, "name"),
                          ({"from_round": 0}, "start at 1"), ({"number": 42}, "(?i)pair 42"),
                          ({"reason": ""}, "reason")):
        args = {"event": event, "number": 1, "seat": 1, "player": "Carl Day",
                "from_round": 2, "actor": as_director, "reason": "x", **kwargs}
        with pytest.raises(ServiceError, match=match):
            services.substitute_set(**args)
    assert not Substitute.objects.exists()


def test_a_substitute_again_for_the_same_seat_and_round_renames(eight, as_director):
    event, _ = eight
    for name in ("Carl Day", "Carla Day"):
        services.substitute_set(event=event, number=1, seat=1, player=name, from_round=2,
                                actor=as_director, reason="x")
    assert Substitute.objects.get().player.name == "Carla Day"
    assert AuditEntry.objects.filter(event=event, action="substitute").order_by("pk").last().before[
        "player"] == "Carl Day"


# --- the guide cards follow the stored meetings -----------------------------------------------


def test_the_guide_cards_show_the_late_pair_and_the_sit_outs_of_a_leaving_pair(
        seven, as_director):
    from tournaments import selectors

    event, _ = seven
    services.pair_join_late(event=event, players=["Nan Kirk", "Obed Hale"], from_round=2,
                            actor=as_director, reason="late")
    cards = selectors.guide_cards(event)
    late = next(c for c in cards["pairs"] if c["pair"] == 8)
    assert late["names"] == "Nan Kirk & Obed Hale"
    # It was not there in round 1 (decision 102): its card starts at round 2, not with a
    # round sat out.
    assert [r["round"] for r in late["rounds"]] == [2, 3] and late["joined_from"] == 2
    assert all(r["table"] is not None for r in late["rounds"])
    services.pair_leave(event=event, number=5, after_round=1, actor=as_director,
                        reason="train")
    cards = selectors.guide_cards(event)
    gone = next(c for c in cards["pairs"] if c["pair"] == 5)
    # Its night ends after round 1 (decision 103), as its phone says: no "sit out".
    assert [r["next"] for r in gone["rounds"]] == ["end of play"]
    assert gone["left_after"] == 1
    sitting = sum(1 for t in cards["tables"] for r in t["rounds"] if not r["in_play"])
    # Round 1's sit-out (before pair 8 came), and the leaving pair's two meetings.
    assert sitting == 3


def test_a_result_entered_without_its_meeting_still_keeps_a_pair(eight, as_director):
    event, section = eight
    meeting = Meeting.objects.get(section=section, round=3, ew_pair__number=5)
    services.result_record(event=event, board=meeting.boards[0], ns=meeting.ns_pair.number,
                           ew=5, data=THREE_HEARTS, actor=services.Actor.system("t"))
    with pytest.raises(ServiceError, match="(?i)results in round 3"):
        services.pair_leave_plan(event=event, number=5, after_round=1)


def test_a_late_pair_refused_counts_the_pairs_playing_on(seven, as_director):
    """Two pairs have left: the refusal counts the pairs playing on, not every pair ever
    seated, in the tables it says the change needs."""
    event, _ = seven
    services.pair_join_late(event=event, players=["A B", "C D"], from_round=2,
                            actor=as_director, reason="x")
    for number in (3, 5):
        services.pair_leave(event=event, number=number, after_round=2, actor=as_director,
                            reason="went home")
    with pytest.raises(ServiceError, match="it seats the 7 pairs then playing at 4 tables"):
        services.pair_join_late(event=event, players=["E F", "G H"], from_round=3,
                                actor=as_director, reason="x")


@pytest.mark.django_db
def test_a_night_set_up_before_the_shared_set_rule_still_takes_its_changes(monkeypatch):
    """A relay of one board a round is refused now (sharing_too_few); a night stored with
    one before that rule is still made again as it was stored when a pair leaves."""
    from tournaments.services import setup

    with pytest.raises(MovementError, match="needs at least 2 boards a round"):
        generate("mitchell", tables=4, boards_per_round=1, variant="relay")
    old = generate("mitchell", tables=4, boards_per_round=1, variant="relay", as_stored=True)
    event = make_pairs_event(pairs=8, boards=0)
    section = event.sections.get()
    monkeypatch.setattr(setup, "check", lambda movement: [])  # (as set up before the rule)
    services.movement_and_boards_set(section=section, movement=old,
                                     actor=services.Actor.system("setup"))
    monkeypatch.undo()
    section.refresh_from_db()
    assert services.movement_regenerate(section).to_dict() == old.to_dict()
    services.pair_leave(event=event, number=8, after_round=1,
                        actor=services.Actor.system("t"), reason="went home")
    eights = Meeting.objects.filter(section=section, ew_pair__number=8)
    assert list(eights.values_list("round", flat=True)) == [1]
