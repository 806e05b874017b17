"""The write path: every change validated, locked, audited; bad input writes nothing."""

import pytest
from django.db import IntegrityError, transaction

from tests.factories import make_pairs_event
from tournaments import services
from tournaments.models import AuditEntry, Event, Meeting, Result
from tournaments.services import Actor, Forbidden, ResultConflict, ServiceError

# Live entry (a table, the director) gives every honour when there is no hand record:
# N-S 3 (simple honours), E-W 2 (nothing).
THREE_HEARTS = {"contract": {"level": 3, "denomination": "H", "declarer": "S"}, "tricks": 9,
                "honours": {"N": 2, "E": 1, "S": 1, "W": 1}}
FOUR_HEARTS = {"contract": {"level": 4, "denomination": "H", "declarer": "S"}, "tricks": 9,
               "honours": {"N": 2, "E": 1, "S": 1, "W": 1}}


def record(event, actor, data=THREE_HEARTS, board=1, ns=1, ew=5, **kw):
    return services.result_record(event=event, board=board, ns=ns, ew=ew, data=data,
                                  actor=actor, **kw)


def test_record_scores_and_audits(event, importer):
    result, created = record(event, importer)
    assert created
    # Law 47: 3 odd tricks at hearts (8) = 24; Law 3: simple honours 16; Duplicate Law A: no
    # premium below 30.
    assert (result.ns_trick, result.ns_honour, result.ew_trick, result.ew_honour) == (24, 16, 0, 0)
    assert (result.ns_score, result.ew_score) == (40, -40)
    entry = AuditEntry.objects.get(result=result)
    assert entry.action == "enter" and entry.before is None and entry.after["tricks"] == 9


def test_identical_resend_is_a_no_op(event, importer):
    first, _ = record(event, importer)
    again, created = record(event, importer)
    assert again.pk == first.pk and not created
    assert Result.objects.count() == 1


def test_different_result_is_a_conflict_carrying_the_stored_one(event, importer):
    first, _ = record(event, importer)
    with pytest.raises(ResultConflict) as caught:
        record(event, importer, data=FOUR_HEARTS)
    assert caught.value.existing.pk == first.pk
    assert Result.objects.count() == 1


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"board": 9}, "board", "Board 9 is not in this event"),
        ({"ns": 99}, "ns", "Pair 99 is not in this event"),
        ({"ew": 1}, "ew", "A pair cannot play against itself"),
        ({"data": {**THREE_HEARTS, "tricks": 14}}, "result.tricks",
         "Tricks must be between 0 and 13"),
    ],
)
def test_bad_input_writes_nothing(event, importer, kwargs, field, message):
    seq = Event.objects.get(pk=event.pk).seq
    with pytest.raises(ServiceError) as caught:
        record(event, importer, **kwargs)
    assert caught.value.field == field
    assert message in caught.value.message
    assert Result.objects.count() == 0 and AuditEntry.objects.count() == 0
    assert Event.objects.get(pk=event.pk).seq == seq


@pytest.fixture
def mitchell(db, importer):
    from boards.movements import generate

    event = make_pairs_event(pairs=14, boards=0)
    services.boards_set(event=event, count=21, actor=importer)
    section = event.sections.get()
    services.movement_meetings_set(section=section, movement=generate(
        "mitchell", tables=7, boards_per_round=3), actor=importer)
    return event, section


def test_table_enters_only_its_own_boards(mitchell):
    event, section = mitchell
    meeting = Meeting.objects.get(section=section, round=2, table=3)
    other = next(b for b in range(1, 22) if b not in meeting.boards)
    table = Actor.at_table(section, 3)
    with pytest.raises(ServiceError) as caught:
        record(event, table, board=other, ns=meeting.ns_pair.number, ew=meeting.ew_pair.number,
               meeting=meeting)
    assert caught.value.message == f"Board {other} is not played at table 3 in round 2"
    wrong_table = Actor.at_table(section, 4)
    with pytest.raises(Forbidden):
        record(event, wrong_table, board=meeting.boards[0], ns=meeting.ns_pair.number,
               ew=meeting.ew_pair.number, meeting=meeting)


def test_agreed_round_is_the_directors_alone(mitchell, as_director):
    """Duplicate Law E: once a round is agreed, only the director changes its scores."""
    event, section = mitchell
    meeting = Meeting.objects.get(section=section, round=1, table=1)
    table = Actor.at_table(section, 1)
    ns, ew = meeting.ns_pair.number, meeting.ew_pair.number
    results = [record(event, table, board=b, ns=ns, ew=ew, meeting=meeting)[0]
               for b in meeting.boards]
    with pytest.raises(ServiceError, match="opponents must confirm"):
        services.round_agree(section=section, round_number=1, actor=table)
    for result in results:
        services.result_confirm(result=result, actor=table, by="East-West")
    assert services.round_agree(section=section, round_number=1, actor=table) == 1
    with pytest.raises(Forbidden, match="agreed"):
        services.result_correct(result=results[0], actor=table, data=FOUR_HEARTS)
    with pytest.raises(ServiceError, match="reason"):
        services.result_correct(result=results[0], actor=as_director, data=FOUR_HEARTS)
    fixed = services.result_correct(result=results[0], actor=as_director, data=FOUR_HEARTS,
                                    reason="declarer bid four, not three")
    assert fixed.status == Result.Status.DIRECTOR and fixed.version == 2
    # Law 47a: one undertrick at 50 to the defenders.
    assert (fixed.ns_trick, fixed.ew_honour) == (0, 50)


def test_undo_restores_a_correction_and_removes_a_creation(event, importer, as_director):
    result, _ = record(event, importer)
    services.result_correct(result=result, actor=as_director, data=FOUR_HEARTS, reason="typo")
    correction = AuditEntry.objects.get(action="correct")
    restored = services.audit_undo(entry=correction, actor=as_director)
    assert (restored.level, restored.ns_trick) == (3, 24)
    with pytest.raises(ServiceError, match="undone already"):
        services.audit_undo(entry=correction, actor=as_director)
    creation = AuditEntry.objects.get(action="enter")
    services.audit_undo(entry=creation, actor=as_director)
    assert Result.objects.get(pk=result.pk).voided


def test_undo_refuses_when_changed_again_since(event, importer, as_director):
    result, _ = record(event, importer)
    services.result_correct(result=result, actor=as_director, data=FOUR_HEARTS, reason="a")
    services.result_correct(result=result, actor=as_director, data=THREE_HEARTS, reason="b")
    first = AuditEntry.objects.filter(action="correct").order_by("pk").first()
    with pytest.raises(ServiceError, match="changed again"):
        services.audit_undo(entry=first, actor=as_director)


def test_void_and_re_enter(event, importer, as_director):
    result, _ = record(event, importer)
    services.result_void(result=result, actor=as_director, reason="wrong pairs")
    again, created = record(event, importer)
    assert created and again.pk != result.pk
    void = AuditEntry.objects.get(action="void")
    with pytest.raises(ServiceError, match="Another result now stands"):
        services.audit_undo(entry=void, actor=as_director)


def test_rulings(event, importer, as_director):
    with pytest.raises(ServiceError, match="whose player was short"):
        services.ruling_award(event=event, board=1, ns=1, ew=5, kind="fouled",
                              actor=as_director, reason="14 cards")
    with pytest.raises(Forbidden):
        services.ruling_award(event=event, board=1, ns=1, ew=5, kind="average",
                              actor=Actor(label="table 1", section_id=1, table=1))
    ruled = services.ruling_award(event=event, board=1, ns=1, ew=5, kind="fouled",
                                  offending="ew", actor=as_director, reason="E had 14 cards")
    assert ruled.ruling == "fouled" and ruled.ns_score is None


def test_closed_event_refuses_changes(event, importer, as_director):
    result, _ = record(event, importer)
    services.event_close(event=event, actor=as_director)
    with pytest.raises(Forbidden, match="closed"):
        record(event, importer, board=2)
    with pytest.raises(Forbidden, match="closed"):
        services.result_correct(result=result, actor=as_director, data=FOUR_HEARTS,
                                reason="late")
    with pytest.raises(ServiceError):
        services.event_set_status(event=event, status="running", actor=as_director)


def test_status_steps(db, as_director):
    event = make_pairs_event(status=Event.Status.SETTING_UP)
    with pytest.raises(ServiceError, match="cannot become closed"):
        services.event_set_status(event=event, status="closed", actor=as_director)
    services.event_set_status(event=event, status="running", actor=as_director)
    assert services.event_close(event=event, actor=as_director).status == "closed"


def test_publish_is_for_the_director(event, as_director):
    with pytest.raises(Forbidden):
        services.event_publish(event=event, level="final",
                               actor=Actor(label="table 1", section_id=1, table=1))
    with pytest.raises(ServiceError):
        services.event_publish(event=event, level="loud", actor=as_director)
    published = services.event_publish(event=event, level="final", actor=as_director)
    assert published.published == "final"


def test_movement_needs_its_pairs(db, importer):
    from boards.movements import generate

    event = make_pairs_event(pairs=10, boards=0)
    with pytest.raises(ServiceError, match="missing: 11, 12, 13, 14"):
        services.movement_meetings_set(section=event.sections.get(), actor=importer,
                              movement=generate("mitchell", tables=7, boards_per_round=3))


# --- the database's own guarantees, provoked directly -------------------------------------


def _raw(event, **fields):
    board = event.boards.get(number=fields.pop("board", 1))
    pairs = {p.number: p for p in event.pairs.all()}
    base = {"event": event, "board": board, "ns_pair": pairs[fields.pop("ns", 1)],
            "ew_pair": pairs[fields.pop("ew", 5)]}
    return Result.objects.create(**base, **fields)


@pytest.mark.parametrize(
    "fields",
    [
        {"tricks": 14},
        {"level": 8},
        {"level": 0},
        {"ruling": "fouled"},
        {"ruling": "average", "offending": "ns"},
        {"ruling": "lucky"},
        {"ew": 1},
    ],
)
def test_check_constraints(event, fields):
    with pytest.raises(IntegrityError), transaction.atomic():
        _raw(event, **fields)


def test_one_result_per_board_per_meeting(event):
    _raw(event)
    with pytest.raises(IntegrityError), transaction.atomic():
        _raw(event)
    _raw(event, voided=True)  # a removed result does not count


def test_pairs_set_stores_the_list_and_removes_unplayed_pairs(db, importer):
    from types import SimpleNamespace as Line

    event = make_pairs_event(pairs=0, boards=1, kind="teams", method="total-points")
    lines = [Line(number=n, players=[f"A{n}", f"B{n}"], team="Gramercy" if n < 3 else "Murray")
             for n in range(1, 5)]
    services.pairs_set(event=event, lines=lines, actor=importer)
    assert sorted(event.teams.values_list("name", flat=True)) == ["Gramercy", "Murray"]
    assert event.pairs.get(number=3).team.name == "Murray"
    services.pairs_set(event=event, lines=lines[:3], actor=importer)
    assert list(event.pairs.values_list("number", flat=True)) == [1, 2, 3]
    services.result_record(event=event, board=1, ns=1, ew=3, actor=importer, data={
        "contract": {"level": 1, "denomination": "C", "declarer": "N"}, "tricks": 7})
    with pytest.raises(ServiceError, match="Pair 3 is in the movement or has played"):
        services.pairs_set(event=event, lines=lines[:2], actor=importer)
    assert event.pairs.count() == 3
    bad = [*lines[:2], Line(number=5, players=["Only one", ""], team=None)]
    with pytest.raises(ServiceError, match="two players"):
        services.pairs_set(event=event, lines=bad, actor=importer)
    assert not event.pairs.filter(number=5).exists()


def test_pairs_set_takes_the_event_lock_once_for_the_whole_list(db, importer):
    from types import SimpleNamespace as Line

    event = make_pairs_event(pairs=0, boards=1, kind="teams", method="total-points")
    before = Event.objects.get(pk=event.pk).seq
    lines = [Line(number=n, players=[f"A{n}", f"B{n}"], team="Gramercy" if n < 3 else "Murray")
             for n in range(1, 5)]
    services.pairs_set(event=event, lines=lines, actor=importer)
    after = Event.objects.get(pk=event.pk)
    assert after.seq == before + 1  # one lock, one change number
    assert after.roster_seq == after.seq


def test_board_cancel_at_both_tables_of_a_two_table_night(db, importer, as_director):
    """Duplicate Law B(3): in two-table duplicate the board is a new deal at both tables."""
    from boards.movements import generate

    event = make_pairs_event(pairs=4, boards=0)
    services.movement_and_boards_set(section=event.sections.get(), actor=importer,
                           movement=generate("howell", tables=2, boards_per_round=2))
    cancelled = services.board_cancel(event=event, board=1, actor=as_director,
                                      reason="a hand of 14 cards found in the overplay")
    assert len(cancelled) == 2 and {r.ruling for r in cancelled} == {"cancelled"}
    with pytest.raises(ServiceError, match="not played at any table"):
        services.board_cancel(event=event, board=99, actor=as_director, reason="x")


def test_a_table_cannot_overrule_the_director(mitchell, as_director):
    event, section = mitchell
    meeting = Meeting.objects.get(section=section, round=1, table=2)
    ns, ew, board = meeting.ns_pair.number, meeting.ew_pair.number, meeting.boards[0]
    table = Actor.at_table(section, 2)
    result, _ = record(event, as_director, board=board, ns=ns, ew=ew, meeting=meeting)
    assert services.result_confirm(result=result, actor=table).status == Result.Status.DIRECTOR
    with pytest.raises(Forbidden, match="The director has set this result"):
        services.result_correct(result=result, actor=table, data=FOUR_HEARTS)


def test_back_to_setting_up_with_results_in_says_why(director):
    """Any caller (the console, the API): going back to setting up removes no score, and
    with results in the audit says why the night was said not to have started."""
    from tests.reports.night import build_night

    event = build_night(director).event
    actor = Actor.director(director)
    with pytest.raises(ServiceError) as refused:
        services.event_set_status(event=event, status="setting-up", actor=actor)
    assert refused.value.field == "reason" and "results are in already" in refused.value.message
    event.refresh_from_db()
    assert event.status == "running"
    results = Result.objects.filter(event=event, voided=False).count()
    event = services.event_set_status(event=event, status="setting-up", actor=actor,
                                      reason="the late pairs are not seated yet")
    assert event.status == "setting-up"
    assert Result.objects.filter(event=event, voided=False).count() == results
    entry = AuditEntry.objects.filter(event=event).order_by("-pk").first()
    assert entry.reason == "the late pairs are not seated yet"


def test_a_missing_reason_is_asked_for_in_the_words_of_the_step(director):
    """The API's ruling, like the console's, is asked its reason as a ruling, not as a
    correction; removing a result likewise."""
    from tests.reports.night import build_night

    event = build_night(director, play=False, published="none").event
    actor = Actor.director(director)
    with pytest.raises(ServiceError, match="Say why: a ruling needs a reason"):
        services.ruling_award(event=event, board=1, ns=1, ew=2, kind="average", actor=actor)
    result, _ = services.result_record(
        event=event, board=1, ns=1, ew=2, actor=actor,
        data={"contract": {"level": 1, "denomination": "NT", "declarer": "N"}, "tricks": 7})
    with pytest.raises(ServiceError, match="Say why: removing a result needs a reason"):
        services.result_void(result=result, actor=actor, reason=" ")
