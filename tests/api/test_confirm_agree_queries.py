"""A table's confirm and agree, sent between every round of a club night under the same
event lock as the result POSTs: their statements are counted, so a later change cannot add
one silently, nor hold the event's lock for more of them (decisions: the confirm and agree
by a table)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments import polls
from tournaments.models import AuditEntry, Event, IdempotencyRecord, Meeting, Result

from .helpers import TWO_HEARTS, key, post, url

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# The table's code, the key's claim, the result; under the lock: the event's change number,
# the result with its round and any open report, the update, the audit, the stored answer.
CONFIRM = 8
CONFIRM_LOCKED = 4  # after the lock's own statement
# The full road (a device that has not opened its table): the table's code, the key's
# claim, the table's rounds, and one statement that locks the event's row, checks, agrees,
# audits, takes the change number and stores the answer; nothing after it but the commit.
# (Before it was nine, five under the lock.) The hot path is two: tests/api/
# test_agree_hot_path.py.
AGREE = 4
AGREE_HOT = 2
AGREE_WRITE = "SELECT tournaments_table_agree("
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")
LOCK = "SET seq = seq + 1"


def work(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(CONTROL)]


def after_lock(sqls: list[str]) -> list[str]:
    return sqls[next(n for n, s in enumerate(sqls) if LOCK in s) + 1:]


def entered(night, table_client, table: int = 2, round_number: int = 1) -> list[int]:
    client, meeting = table_client(table), night.meeting(table, round_number)
    ids = []
    for board in meeting.boards:
        response = post(client, url(night.event, "results/"),
                        {"board": board, "round": round_number, "result": TWO_HEARTS},
                        idem=key())
        assert response.status_code == 201, response.json()
        ids.append(response.json()["id"])
    return ids


def confirm(client, night, result_id: int, idem: str | None = None):
    return post(client, url(night.event, f"results/{result_id}/confirm/"), {"by": "E-W"},
                idem=idem or key())


def agree(client, night, table: int = 2, round_number: int = 1, idem: str | None = None):
    return post(client, url(night.event, f"sections/A/tables/{table}/rounds/{round_number}/"
                                         "agree/"), {}, idem=idem or key())


def test_a_table_confirm_is_eight_statements_four_under_the_lock(night, table_client):
    """The full road (a device whose code the throttle does not hold yet: here another
    address); the hot path is tests/api/test_hot_path.py's."""
    ids = entered(night, table_client)
    client, seq = table_client(2), Event.objects.get(pk=night.event.pk).seq
    client.defaults["REMOTE_ADDR"] = "10.0.0.7"
    idem = key()
    with CaptureQueriesContext(connection) as queries:
        response = confirm(client, night, ids[0], idem)
    assert response.status_code == 200, response.json()
    sqls = work(queries)
    assert len(sqls) <= CONFIRM, "\n".join(sqls)
    assert len(after_lock(sqls)) <= CONFIRM_LOCKED, "\n".join(sqls)
    # All of it stored, as before: the status, the change number, the audit, the answer.
    stored = Result.objects.get(pk=ids[0])
    assert (stored.status, stored.confirmed_by, stored.seq) == ("confirmed", "E-W", seq + 1)
    assert Event.objects.get(pk=night.event.pk).seq == seq + 1
    audit = AuditEntry.objects.get(action="confirm")
    assert audit.result_id == stored.pk and audit.actor_label == "table 2"
    assert audit.before["status"] == "entered" and audit.after["status"] == "confirmed"
    record = IdempotencyRecord.objects.get(key=idem)
    assert (record.status_code, record.response) == (200, response.json())
    # The answer, made from what was in hand, is the one a read of the stored row gives.
    assert response.json() == client.get(url(night.event, f"results/{stored.pk}/")).json()
    # The replay answers the same, and writes nothing.
    again = confirm(client, night, ids[0], idem)
    assert again.status_code == 200 and again.json() == response.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Event.objects.get(pk=night.event.pk).seq == seq + 1


def test_a_table_agree_is_four_statements_on_the_full_road_two_on_the_hot_path(
        night, table_client):
    client = table_client(2)
    for result_id in entered(night, table_client):
        assert confirm(client, night, result_id).status_code == 200
    seq = Event.objects.get(pk=night.event.pk).seq
    idem = key()
    elsewhere = table_client(2)
    elsewhere.defaults["REMOTE_ADDR"] = "10.0.0.9"  # a device that has not opened it
    with CaptureQueriesContext(connection) as queries:
        response = agree(elsewhere, night, idem=idem)
    assert response.status_code == 200, response.json()
    assert response.json() == {"agreed": 1}
    sqls = work(queries)
    assert len(sqls) <= AGREE, "\n".join(sqls)
    assert sqls[-1].startswith(AGREE_WRITE), "\n".join(sqls)
    assert Meeting.objects.get(pk=night.meeting(2, 1).pk).agreed_at is not None
    assert Event.objects.get(pk=night.event.pk).seq == seq + 1
    audit = AuditEntry.objects.get(action="agree round")
    assert audit.actor_label == "table 2"
    assert audit.after == {"section": "A", "round": 1, "tables": [2]}
    record = IdempotencyRecord.objects.get(key=idem)
    assert (record.status_code, record.response) == (200, {"agreed": 1})
    again = agree(client, night, idem=idem)
    assert again.status_code == 200 and again.json() == {"agreed": 1}
    assert again["Idempotent-Replayed"] == "true"
    # Once agreed, a second agree (a new key) agrees nothing.
    assert agree(client, night).json() == {"agreed": 0}
    # Another table's round, from the device that has opened it: the hot path.
    for result_id in entered(night, table_client, table=3):
        assert confirm(table_client(3), night, result_id).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        response = agree(table_client(3), night, table=3)
    assert response.json() == {"agreed": 1}
    sqls = [q["sql"] for q in queries.captured_queries]
    assert len(sqls) == AGREE_HOT and sqls[-1].startswith(AGREE_WRITE), "\n".join(sqls)


def test_the_agree_still_refuses_a_round_not_all_in(night, table_client):
    client = table_client(2)
    ids = entered(night, table_client)
    seq = Event.objects.get(pk=night.event.pk).seq
    response = agree(client, night)
    assert response.status_code == 400, response.json()
    assert response.json()["error"] == "The opponents must confirm every board first"
    confirm(client, night, ids[0])
    Result.objects.filter(pk=ids[1]).update(voided=True)
    seq = Event.objects.get(pk=night.event.pk).seq
    response = agree(client, night)
    assert response.status_code == 400, response.json()
    assert response.json()["error"] == (
        "Enter all 2 boards before agreeing the round (1 entered)")
    assert Event.objects.get(pk=night.event.pk).seq == seq
    assert Meeting.objects.get(pk=night.meeting(2, 1).pk).agreed_at is None


def test_the_agree_keeps_a_table_to_its_own_rounds(night, table_client):
    client = table_client(2)
    assert agree(client, night, table=3).status_code == 403
    response = agree(client, night, round_number=9)
    assert response.status_code == 404
    assert "does not play a round 9" in response.json()["error"]


@pytest.mark.redis
def test_the_live_pages_hear_of_a_confirm_and_an_agree_at_once(night, table_client):
    client = table_client(2)
    ids = entered(night, table_client)
    for result_id in ids:
        event = Event.objects.get(pk=night.event.pk)
        polls.remember(event)
        polls.forget()
        assert confirm(client, night, result_id).status_code == 200
        polls.forget()
        assert polls.current(event.pk).seq == event.seq + 1
    event = Event.objects.get(pk=night.event.pk)
    assert agree(client, night).status_code == 200
    polls.forget()
    assert polls.current(event.pk).seq == event.seq + 1
