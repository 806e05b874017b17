"""The table's result POST, the hot path of a club night: its statements are counted, so
a later change cannot add one silently (decisions: the result POST in one transaction)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments import polls
from tournaments.models import AuditEntry, Event, IdempotencyRecord, Result, TableCode

from .helpers import TWO_HEARTS, key, post, url

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# The full road (the DRF view): the table's code, the key's claim, the meeting and board,
# the write (which locks the event's row itself).
STATEMENTS = 4
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")
WRITE = "SELECT tournaments_table_enter("


def statements(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries]


def work(sqls: list[str]) -> list[str]:
    return [sql for sql in sqls if not sql.startswith(CONTROL)]


def opened(client, night):
    """The table's phone has opened its page: its code is one this device holds (the
    throttle's memory), so its entries take the hot path (tournaments/api/hot.py)."""
    assert client.get("/api/table/").status_code == 200
    return client


def test_a_table_result_post_is_two_statements_and_its_own_transaction(night, table_client):
    client, meeting = opened(table_client(2), night), night.meeting(2, 1)
    body = {"board": meeting.boards[0], "round": 1, "result": TWO_HEARTS}
    seq = Event.objects.get(pk=night.event.pk).seq
    idem = key()
    with CaptureQueriesContext(connection) as queries:
        response = post(client, url(night.event, "results/"), body, idem=idem)
    assert response.status_code == 201, response.json()
    sqls = statements(queries)
    # One read (the code's table, its round's meeting, the board), then ONE statement that
    # claims the key, locks the event's row, checks, writes and stores the answer: no
    # transaction around them, so the row lock is held for that statement alone.
    assert len(sqls) == 2, "\n".join(sqls)
    assert "FROM tournaments_tablecode" in sqls[0] and sqls[1].startswith(WRITE)
    # Nothing written is read back: no SELECT of a result after the write.
    # And all of it stored, as before: the result, its audit, the change number, the answer.
    stored = Result.objects.get()
    assert (stored.pk, stored.seq, stored.version) == (response.json()["id"], seq + 1, 1)
    assert Event.objects.get(pk=night.event.pk).seq == seq + 1
    audit = AuditEntry.objects.get(action="enter")
    assert audit.result_id == stored.pk and audit.actor_label == "table 2"
    assert audit.after["tricks"] == 8 and audit.before is None
    record = IdempotencyRecord.objects.get(key=idem)
    assert (record.status_code, record.response) == (201, response.json())
    assert record.scope == f"table:{TableCode.objects.get(code=night.codes[2]).pk}"
    # The answer, made from what was in hand, is the one a read of the stored row gives,
    # to the microsecond.
    assert response.json() == client.get(
        url(night.event, f"results/{stored.pk}/")).json()
    assert stored.created_at == stored.updated_at == audit.at


def test_the_full_road_is_four_statements_in_one_transaction(night, table_client):
    """A code this device has not opened yet goes through the DRF view (the throttle's
    road): one transaction, one commit, the same write statement."""
    client, meeting = table_client(2), night.meeting(2, 1)
    body = {"board": meeting.boards[0], "round": 1, "result": TWO_HEARTS}
    with CaptureQueriesContext(connection) as queries:
        response = post(client, url(night.event, "results/"), body, idem=key())
    assert response.status_code == 201, response.json()
    sqls = statements(queries)
    assert len(work(sqls)) <= STATEMENTS, "\n".join(sqls)
    assert sqls[0] == "BEGIN" and sqls[-1] == "COMMIT"
    assert [s for s in sqls if s.startswith(CONTROL)] == ["BEGIN", "COMMIT"]
    assert sqls[-2].startswith(WRITE) and not any("FOR UPDATE" in s for s in sqls)
    assert Result.objects.get().pk == response.json()["id"]


def test_the_replay_is_answered_by_the_write_statement(night, table_client):
    client, meeting = opened(table_client(2), night), night.meeting(2, 1)
    body = {"board": meeting.boards[0], "round": 1, "result": TWO_HEARTS}
    idem = key()
    first = post(client, url(night.event, "results/"), body, idem=idem)
    with CaptureQueriesContext(connection) as queries:
        again = post(client, url(night.event, "results/"), body, idem=idem)
    assert again.status_code == 201 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    sqls = statements(queries)
    assert len(sqls) == 2 and sqls[1].startswith(WRITE), "\n".join(sqls)
    assert Result.objects.count() == 1


def test_the_replay_on_the_full_road_is_one_transaction(night, table_client):
    client, meeting = table_client(2), night.meeting(2, 1)
    body = {"board": meeting.boards[0], "round": 1, "result": TWO_HEARTS}
    idem = key()
    first = post(client, url(night.event, "results/"), body, idem=idem)
    # Sent from another address (whose throttle memory does not hold the code yet).
    other = table_client(2)
    other.defaults["REMOTE_ADDR"] = "10.0.0.2"
    with CaptureQueriesContext(connection) as queries:
        again = post(other, url(night.event, "results/"), body, idem=idem)
    assert again.status_code == 201 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    sqls = statements(queries)
    assert len(work(sqls)) <= 3, "\n".join(sqls)  # the code, the claim, the stored answer
    assert [s for s in sqls if s.startswith(CONTROL)] == ["BEGIN", "COMMIT"]


def test_a_refusal_takes_the_full_path_and_is_kept(night, table_client):
    """A board of a later round: result_record's refusal, stored for the key as before,
    and nothing else written (not even a change number)."""
    client, meeting = table_client(2), night.meeting(2, 2)
    seq = Event.objects.get(pk=night.event.pk).seq
    body = {"board": meeting.boards[0], "round": 2, "result": TWO_HEARTS}
    idem = key()
    response = post(client, url(night.event, "results/"), body, idem=idem)
    assert response.status_code == 403, response.json()
    assert response.json()["field"] == "round"
    assert not Result.objects.exists()
    assert Event.objects.get(pk=night.event.pk).seq == seq
    assert IdempotencyRecord.objects.get(key=idem).status_code == 403


def test_the_entry_read_gives_the_rows_the_orm_gives(night):
    from tournaments import selectors
    from tournaments.models import Board, Meeting

    orm = Meeting.objects.select_related("section", "ns_pair", "ew_pair").get(
        section__event=night.event, table=2, round=1)
    orm.late_boards = [orm.boards[0]]
    orm.save(update_fields=["late_boards"])
    entry = selectors.table_entry(orm.section, 2, 1, orm.boards[0])
    got = entry.meeting
    for model, a, b in ((Meeting, got, orm), (type(orm.section), got.section, orm.section),
                        (type(orm.ns_pair), got.ns_pair, orm.ns_pair),
                        (type(orm.ew_pair), got.ew_pair, orm.ew_pair)):
        for f in model._meta.concrete_fields:
            assert getattr(a, f.attname) == getattr(b, f.attname), f.name
    board = Board.objects.get(event=night.event, number=orm.boards[0])
    assert (entry.board.pk, entry.board.number, entry.board.deal) == (
        board.pk, board.number, board.deal)
    assert selectors.table_entry(orm.section, 2, 1, 99).board is None
    assert selectors.table_entry(orm.section, 2, 9, 1) == selectors.TableEntry(None, None)


def test_a_board_with_leave_to_play_late_goes_the_full_road(night, table_client):
    """The director's leave (a board of a later round here) opens the board; the full road
    (result_record) uses it up and asks, under the lock, whether the board is one of the
    round the table is at (then it is no late play: decision 199). A leave is a few boards
    a night: the one-statement write is kept for the common case."""
    from tournaments import services
    from tournaments.models import Meeting

    meeting = night.meeting(2, 3)
    board = meeting.boards[0]
    services.late_play_allow(meeting=meeting, boards=[board], actor=night.actor,
                             reason="the board was at the wrong table")
    body = {"board": board, "round": 3, "result": TWO_HEARTS}
    client, idem = opened(table_client(2), night), key()
    with CaptureQueriesContext(connection) as queries:
        response = post(client, url(night.event, "results/"), body, idem=idem)
    assert response.status_code == 201, response.json()
    assert response.json()["late_play"] is True
    assert len(statements(queries)) > 2  # not the common case's one read and one write
    assert Result.objects.get().late_play
    assert board not in Meeting.objects.get(pk=meeting.pk).late_boards
    assert AuditEntry.objects.get(action="enter").after["late_play"] is True
    # The leave is used up: the board of a later round is closed to the table again.
    again = post(client, url(night.event, "results/"), body, idem=key())
    assert again.status_code == 403 and again.json()["field"] == "round"



@pytest.mark.redis
def test_the_live_pages_hear_of_a_table_result_at_once(night, table_client):
    """The table's one-statement write moves the live polls' mark as every other change
    does (tournaments/polls.py): a page polling with the tag it had is told of the new
    result at once, not "unchanged" until the mark expires."""
    event = Event.objects.get(pk=night.event.pk)
    polls.remember(event)
    polls.forget()
    assert polls.current(event.pk).seq == event.seq
    table, meeting = table_client(2), night.meeting(2, 1)
    response = post(table, url(night.event, "results/"),
                    {"board": meeting.boards[0], "round": 1, "result": TWO_HEARTS}, idem=key())
    assert response.status_code == 201
    polls.forget()
    assert polls.current(event.pk).seq == event.seq + 1 == Event.objects.get(pk=event.pk).seq
    assert not polls.unchanged(polls.Tag(event.pk, event.seq))
