"""A table agreeing its round on the hot path (tournaments/api/hot.py): with every board in
and confirmed, a device that has opened its table is answered in two statements, before
DRF's dispatch, with the very answer the DRF view gives and the very rows it writes;
anything else goes the full road and is answered as before, nothing written on the way."""

import datetime
import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tournaments import polls
from tournaments.models import AuditEntry, Event, IdempotencyRecord, Meeting, Result, TableCode

from .helpers import TWO_HEARTS, key, post, url

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WRITE = "SELECT tournaments_table_agree("
# Headers every answer has its own of.
OWN = {"Date", "Content-Length"}
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")
# The full road of the common case: the table's code, the key's claim, the table's rounds,
# the write (which locks the event's row itself and stores the answer).
FULL = 4


def opened(client):
    """The table's phone has opened its page: its code is one this device holds (the
    throttle's memory), so its agree takes the hot path."""
    assert client.get("/api/table/").status_code == 200
    return client


def elsewhere(table_client, table: int):
    """The table's code on a device that has not opened it: the throttle's full road."""
    client = table_client(table)
    client.defaults["REMOTE_ADDR"] = "10.0.0.9"
    return client


def agree_url(night, table: int, round_number: int = 1, section: str = "A") -> str:
    return url(night.event, f"sections/{section}/tables/{table}/rounds/{round_number}/agree/")


def send(client, night, table: int, idem=None, **where) -> tuple:
    """The answer and the statements it took (copied at once: the next request of the
    test client empties the connection's log)."""
    with CaptureQueriesContext(connection) as queries:
        response = post(client, agree_url(night, table, **where), {},
                        idem=key() if idem is None else idem)
    return response, [q["sql"] for q in queries.captured_queries]


def road(sqls: list[str]) -> str:
    """"hot" for the hot path's two statements and nothing more, else "full": the DRF
    view answered (after the hot path gave up, if it had a go)."""
    hot = len(sqls) == 2 and "FROM tournaments_tablecode" in sqls[0] and sqls[1].startswith(
        WRITE)
    return "hot" if hot else "full"


def seq(night) -> int:
    return Event.objects.get(pk=night.event.pk).seq


def agreed_at(night, table: int, round_number: int = 1):
    return Meeting.objects.get(section__event=night.event, table=table,
                               round=round_number).agreed_at


def test_the_hot_agree_is_two_statements_and_its_own_transaction(night, table_client):
    night.play_round(2, 1)
    client, before = opened(table_client(2)), seq(night)
    idem = key()
    response, sqls = send(client, night, 2, idem)
    assert response.status_code == 200, response.json()
    assert response.json() == {"agreed": 1}
    # One read (the code's table, its section and event, the round's meeting), then ONE
    # statement that claims the key, locks the event's row, checks, writes and stores the
    # answer: no transaction around them, so the row lock is held for that statement alone.
    assert len(sqls) == 2, "\n".join(sqls)
    assert "FROM tournaments_tablecode" in sqls[0] and sqls[1].startswith(WRITE)
    assert not any(s.startswith(CONTROL) for s in sqls)
    # All of it stored as round_agree stores it: the agreement, the audit, the change
    # number, the answer.
    assert agreed_at(night, 2) is not None and agreed_at(night, 1) is None
    assert seq(night) == before + 1
    audit = AuditEntry.objects.get(action="agree round")
    assert (audit.event_id, audit.result_id, audit.actor_id, audit.actor_label) == (
        night.event.pk, None, None, "table 2")
    assert audit.after == {"section": "A", "round": 1, "tables": [2]}
    assert (audit.before, audit.reason, audit.party_id) == (None, "", None)
    assert audit.at == agreed_at(night, 2)
    record = IdempotencyRecord.objects.get(key=idem)
    assert (record.status_code, record.response) == (200, {"agreed": 1})
    assert record.scope == f"table:{TableCode.objects.get(code=night.codes[2]).pk}"
    # The resend is replayed on the hot path too, and writes nothing.
    again, queries = send(client, night, 2, idem)
    assert road(queries) == "hot"
    assert (again.status_code, again.json()) == (200, {"agreed": 1})
    assert again["Idempotent-Replayed"] == "true"
    assert seq(night) == before + 1 and AuditEntry.objects.filter(action="agree round").count() == 1


def test_the_hot_answer_and_rows_are_the_full_roads(night, table_client):
    """Table 2 agrees from a device that has not opened its table (the full road), table 3
    from one that has (the hot path): the same status, headers, body and rows."""
    night.play_round(2, 1)
    night.play_round(3, 1)
    before = seq(night)
    full_idem, hot_idem = key(), key()
    full, sqls = send(elsewhere(table_client, 2), night, 2, full_idem)
    hot, hot_sqls = send(opened(table_client(3)), night, 3, hot_idem)
    assert (road(sqls), road(hot_sqls)) == ("full", "hot")
    assert full.status_code == hot.status_code == 200
    assert {k: v for k, v in full.items() if k not in OWN} == {
        k: v for k, v in hot.items() if k not in OWN}
    assert full.content == hot.content == b'{"agreed":1}'
    # The full road's common case is one write statement too, in its one transaction.
    work = [s for s in sqls if not s.startswith(CONTROL)]
    assert len(work) <= FULL, "\n".join(sqls)
    assert sum(s.startswith(WRITE) for s in work) == 1
    assert [s for s in sqls if s.startswith(CONTROL)] == ["BEGIN", "COMMIT"]
    # The rows: each road's meeting agreed, its audit alike, one change number each.
    assert seq(night) == before + 2
    audits = {a.after["tables"][0]: a for a in AuditEntry.objects.filter(action="agree round")}
    for table in (2, 3):
        audit = audits[table]
        assert (audit.actor_label, audit.actor_id, audit.result_id, audit.before) == (
            f"table {table}", None, None, None)
        assert audit.after == {"section": "A", "round": 1, "tables": [table]}
        assert agreed_at(night, table) is not None
    records = {r.key: r for r in IdempotencyRecord.objects.all()}
    for idem, table in ((full_idem, 2), (hot_idem, 3)):
        record = records[idem]
        assert (record.status_code, record.response) == (200, {"agreed": 1})
        assert record.scope == f"table:{TableCode.objects.get(code=night.codes[table]).pk}"


def test_a_request_first_sent_on_one_road_is_replayed_on_the_other(night, table_client):
    night.play_round(2, 1)
    night.play_round(3, 1)
    # First on the full road; the resend, from the device now holding the code, hot.
    client, idem = elsewhere(table_client, 2), key()
    first, queries = send(client, night, 2, idem)
    again, again_queries = send(client, night, 2, idem)
    assert (road(queries), road(again_queries)) == ("full", "hot")
    assert (again.status_code, again.content) == (first.status_code, first.content)
    assert again["Idempotent-Replayed"] == "true"
    # First hot; the resend from a device that has not opened the table, on the full road.
    idem = key()
    first, queries = send(opened(table_client(3)), night, 3, idem)
    other = table_client(3)
    other.defaults["REMOTE_ADDR"] = "10.0.0.8"
    again, again_queries = send(other, night, 3, idem)
    assert (road(queries), road(again_queries)) == ("hot", "full")
    assert (again.status_code, again.content) == (first.status_code, first.content)
    assert again["Idempotent-Replayed"] == "true"
    assert AuditEntry.objects.filter(action="agree round").count() == 2


def test_another_request_under_a_used_key_is_refused_as_before(night, table_client):
    client, meeting = opened(table_client(2)), night.meeting(2, 1)
    idem = key()
    response = post(client, url(night.event, "results/"),
                    {"board": meeting.boards[0], "round": 1, "result": TWO_HEARTS}, idem=idem)
    assert response.status_code == 201
    before = seq(night)
    response, queries = send(client, night, 2, idem)
    assert road(queries) == "full"
    assert response.status_code == 422 and response.json()["field"] == "Idempotency-Key"
    assert seq(night) == before and agreed_at(night, 2) is None


def _close(night, status: str) -> None:
    Event.objects.filter(pk=night.event.pk).update(
        status=status, final_after=timezone.now() + datetime.timedelta(hours=1)
        if status == Event.Status.CLOSED else None)


# Each case: how the night is set, then what the full road answers (status, body or the
# start of its error), and whether that answer changes the event's change number.
CASES = {
    "a board missing": (400, "Enter all 2 boards before agreeing the round (1 entered)"),
    "a board unconfirmed": (400, "The opponents must confirm every board first"),
    "a board voided": (400, "Enter all 2 boards before agreeing the round (1 entered)"),
    "agreed already": (200, {"agreed": 0}),
    "another table's url": (403, "This is table 2 of section A"),
    "another section's url": (403, "This is table 2 of section A"),
    "no such round": (404, "Table 2 does not play a round 9"),
    "event closed": (403, "The event is closed"),
    "event agreed": (403, "The director has agreed the event's scores"),
    "no key": (400, "Send an Idempotency-Key header"),
    "a body": (200, {"agreed": 1}),
    "the director": (200, {"agreed": 1}),
}


@pytest.mark.parametrize("case", list(CASES))
def test_what_is_not_the_common_case_is_answered_by_the_full_road(
        night, table_client, director_client, case):
    """A device that has opened its table, sending what the hot path does not answer: its
    write statement, if it runs at all, writes nothing, and the DRF view answers as it
    always has."""
    client = opened(table_client(2))
    night.play_round(2, 1)
    meeting = night.meeting(2, 1)
    where, idem, body = {}, key(), {}
    if case == "a board missing":
        Result.objects.filter(meeting=meeting, board__number=meeting.boards[1]).delete()
    elif case == "a board unconfirmed":
        Result.objects.filter(meeting=meeting, board__number=meeting.boards[1]).update(
            status=Result.Status.ENTERED, confirmed_by="")
    elif case == "a board voided":
        Result.objects.filter(meeting=meeting, board__number=meeting.boards[1]).update(
            voided=True)
    elif case == "agreed already":
        assert send(client, night, 2)[0].json() == {"agreed": 1}
    elif case == "another table's url":
        where = {"table": 3}
    elif case == "another section's url":
        where = {"section": "B"}
    elif case == "no such round":
        where = {"round_number": 9}
    elif case in ("event closed", "event agreed"):
        _close(night, Event.Status.CLOSED if case == "event closed" else Event.Status.AGREED)
    elif case == "no key":
        idem = None
    elif case == "a body":
        body = {"note": "all in"}
    elif case == "the director":
        client = director_client
    before, audits = seq(night), AuditEntry.objects.filter(action="agree round").count()
    agreed = {t: agreed_at(night, t) for t in (1, 2, 3)}
    with CaptureQueriesContext(connection) as captured:
        response = post(client, agree_url(night, where.pop("table", 2), **where), body,
                        idem=idem)
    queries = [q["sql"] for q in captured.captured_queries]
    assert road(queries) == "full", queries
    expected_status, expected = CASES[case]
    assert response.status_code == expected_status, response.json()
    if isinstance(expected, dict):
        assert response.json() == expected
    else:
        assert response.json()["error"].startswith(expected), response.json()
    # Nothing written on the way: the full road's own write alone (an agreement and its
    # change number where it agrees; where it refuses, or finds the round agreed already,
    # nothing, not even the change number its lock took).
    # The write statement is tried once at most, on one road or the other.
    writes = [sql for sql in queries if sql.startswith(WRITE)]
    assert len(writes) <= 1
    if expected_status == 200 and expected["agreed"] == 1:
        assert seq(night) == before + 1 and agreed_at(night, 2) is not None
        assert AuditEntry.objects.filter(action="agree round").count() == audits + 1
    else:
        assert seq(night) == before
        assert AuditEntry.objects.filter(action="agree round").count() == audits
        assert {t: agreed_at(night, t) for t in (1, 2, 3)} == agreed
    assert not IdempotencyRecord.objects.filter(status_code__isnull=True).exists()


def test_another_events_code_is_refused_as_before(night, table_client, other_night):
    night.play_round(1, 1)
    client = opened(table_client(1, code=other_night.codes[1]))
    response, queries = send(client, night, 1)
    assert road(queries) == "full"
    # The event is not published: to another event's table it does not exist.
    assert response.status_code == 404
    assert agreed_at(night, 1) is None


@pytest.mark.redis
def test_the_live_pages_hear_of_a_hot_agree_at_once(night, table_client):
    night.play_round(2, 1)
    client = opened(table_client(2))
    event = Event.objects.get(pk=night.event.pk)
    polls.remember(event)
    polls.forget()
    response, queries = send(client, night, 2)
    assert road(queries) == "hot" and response.status_code == 200
    polls.forget()
    assert polls.current(event.pk).seq == event.seq + 1


def test_the_same_agree_sent_twice_at_once_agrees_once(night, table_client):
    """Two sends of one request at the same moment (a phone's retry): the second claim waits
    for the first statement and replays its answer; one agreement, one audit, one change."""
    night.play_round(2, 1)
    opened(table_client(2))
    before, idem = seq(night), key()
    start, answers = threading.Barrier(2), []

    def send_one() -> None:
        try:
            start.wait()
            response = post(table_client(2), agree_url(night, 2), {}, idem=idem)
            answers.append((response.status_code, response.content,
                            response.get("Idempotent-Replayed")))
        finally:
            connection.close()

    threads = [threading.Thread(target=send_one) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers, key=lambda a: a[2] or "") == [
        (200, b'{"agreed":1}', None), (200, b'{"agreed":1}', "true")]
    assert seq(night) == before + 1
    assert AuditEntry.objects.filter(action="agree round").count() == 1
