"""Live entry (a table or the director typing a result) is held to stricter rules than an
import: every honour accounted for when the hand record does not give them (Law 3), and a
second look at an unusual result before it is saved."""

import pytest

from tournaments import services
from tournaments.models import AuditEntry, Result
from tournaments.services import Actor, ServiceError, UnusualResult

FOUR_HEARTS = {"contract": {"level": 4, "denomination": "H", "declarer": "S"}, "tricks": 10}
NINE_REVOKES = {**FOUR_HEARTS, "contract": {**FOUR_HEARTS["contract"], "doubled": "X"},
                "honours": {"N": 3, "S": 2},
                "revokes": {"declaring": 0, "defending": 9, "first_penalty": "points"}}
DEAL = "N:AKQJ.AKQ2.432.32 T987.843.AKQ.AKQ 6543.JT9.JT9.JT9 2.765.8765.87654"


def record(event, actor, data, board=1, **kw):
    return services.result_record(event=event, board=board, ns=1, ew=5, data=data,
                                  actor=actor, **kw)


@pytest.mark.parametrize("who", ["director", "table"])
def test_honours_left_out_are_refused_for_live_entry(event, director, who):
    actor = (Actor.director(director) if who == "director"
             else Actor.at_table(event.sections.get(), 1))
    with pytest.raises(ServiceError) as exc:
        record(event, actor, FOUR_HEARTS)
    assert exc.value.field == "result.honours"
    assert exc.value.message.startswith("Say who held the honours")
    assert not Result.objects.exists()


def test_honours_zero_all_round_are_refused(event, as_director):
    with pytest.raises(ServiceError) as exc:
        record(event, as_director, {**FOUR_HEARTS,
                                    "honours": {"N": 0, "E": 0, "S": 0, "W": 0}})
    assert exc.value.field == "result.honours"
    assert "Honours add up to 0" in exc.value.message and "the other 5" in exc.value.message


def test_the_importer_keeps_the_interfaces_rule(event, importer):
    result, _ = record(event, importer, FOUR_HEARTS)
    assert result.ns_honour == 125  # the premium only: a seat left out holds none


def test_with_a_hand_record_the_honours_come_from_it(event, as_director):
    board = event.boards.get(number=2)
    board.deal = DEAL
    board.save()
    result, _ = record(event, as_director, FOUR_HEARTS, board=2)
    assert result.ns_honour == 40 + 125  # N 3 + S 2: 5 divided (Law 3), and the premium


def test_a_correction_is_held_to_the_same_rule(event, as_director):
    result, _ = record(event, as_director, {**FOUR_HEARTS, "honours": {"N": 3, "S": 2}})
    with pytest.raises(ServiceError) as exc:
        services.result_correct(result=result, actor=as_director, data=FOUR_HEARTS,
                                reason="tricks")
    assert exc.value.field == "result.honours"


def test_an_unusual_result_waits_for_a_second_look(event, as_director):
    before = AuditEntry.objects.count()
    with pytest.raises(UnusualResult) as exc:
        record(event, as_director, NINE_REVOKES)
    assert exc.value.field == "as_entered"
    assert [w.code for w in exc.value.warnings] == ["revokes", "points"]
    assert "The defenders revoked 9 times" in exc.value.message
    assert not Result.objects.exists() and AuditEntry.objects.count() == before
    result, created = record(event, as_director, NINE_REVOKES, as_entered=True)
    assert created and result.ns_honour > 1000
    # The same result sent again is the stored one: no second look needed.
    again, created = record(event, as_director, NINE_REVOKES)
    assert again.pk == result.pk and not created


def test_an_unusual_correction_waits_for_a_second_look(event, as_director):
    result, _ = record(event, as_director, {**FOUR_HEARTS, "honours": {"N": 3, "S": 2}})
    with pytest.raises(UnusualResult):
        services.result_correct(result=result, actor=as_director, data=NINE_REVOKES,
                                reason="revokes")
    result.refresh_from_db()
    assert result.details.get("revokes") is None
    services.result_correct(result=result, actor=as_director, data=NINE_REVOKES,
                            reason="revokes", as_entered=True)
    result.refresh_from_db()
    assert result.details["revokes"]["defending"] == 9


def test_the_importer_is_never_asked(event, importer):
    result, created = record(event, importer, NINE_REVOKES)
    assert created


def test_whist_both_sides_revoking_the_tricks_stand(as_director):
    """Whist Law 85 (rules.md §8, re-pinned): 1 revoke by N-S and 2 by E-W cancel."""
    from tests.factories import make_pairs_event

    whist = make_pairs_event(pairs=8, boards=2, rules="duplicate-whist")
    result, _ = services.result_record(
        event=whist, board=1, ns=1, ew=5, actor=as_director,
        data={"tricks_ns": 8, "revokes": {"NS": 1, "EW": 2}})
    assert (result.ns_score, result.ew_score) == (8, 5)
