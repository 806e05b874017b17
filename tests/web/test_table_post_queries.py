"""The table page's form submit, the same hot path as the API's: its statements are
counted, so a later change cannot add one silently."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.web.conftest import contract_post
from tournaments.models import AuditEntry, Event, Result

from .test_table_flow import board_url, token_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# The session; the table's code with the meeting and the board; the write (one database
# function that locks the event's row, checks and writes: its own transaction).
STATEMENTS = 3
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


def test_the_form_submit_is_three_statements_and_no_transaction_around_them(
        client, event, table1):
    token = token_of(client.get(board_url(table1, 1, 1)))
    seq = Event.objects.get(pk=event.pk).seq
    with CaptureQueriesContext(connection) as queries:
        saved = client.post(board_url(table1, 1, 1), contract_post(token=token))
    assert saved.status_code == 302 and saved["Location"] == board_url(table1, 1, 1)
    sqls = [q["sql"] for q in queries.captured_queries]
    assert len(sqls) == STATEMENTS, "\n".join(sqls)
    assert "django_session" in sqls[0] and "tournaments_tablecode" in sqls[1]
    assert sqls[2].startswith("SELECT tournaments_table_enter(")
    result = Result.objects.get()
    assert (result.tricks, result.status, result.entered_by) == (10, "entered", "table 1")
    assert result.seq == seq + 1 == Event.objects.get(pk=event.pk).seq
    assert AuditEntry.objects.filter(action="enter", result=result).count() == 1
    page = client.get(saved["Location"])
    assert "Board 1 saved." in page.content.decode()


def test_the_same_form_sent_twice_counts_once(client, event, table1):
    token = token_of(client.get(board_url(table1, 1, 1)))
    first = client.post(board_url(table1, 1, 1), contract_post(token=token))
    again = client.post(board_url(table1, 1, 1), contract_post(token=token))
    assert first.status_code == again.status_code == 302
    assert Result.objects.count() == 1
    assert AuditEntry.objects.filter(action="enter").count() == 1


# The page's agree, every board in and confirmed: the session, the table's code, its rounds,
# and one statement that locks the event's row, checks, agrees, audits and takes the change
# number (before it, nine: the session, the code, the rounds with the pairs, their
# substitutes, then round_agree's lock, meeting, results, agreement and audit).
AGREE = 3  # the session; the code's table with its meeting of the round; the write
AGREE_WRITE = "SELECT tournaments_table_agree("


def _both_boards_confirmed(client, table1) -> None:
    for board in (1, 2):
        token = token_of(client.get(board_url(table1, 1, board)))
        assert client.post(board_url(table1, 1, board),
                           contract_post(token=token)).status_code == 302
        assert client.post(board_url(table1, 1, board, "confirm/")).status_code == 302


def test_the_pages_agree_is_one_write_statement(client, event, table1):
    _both_boards_confirmed(client, table1)
    seq = Event.objects.get(pk=event.pk).seq
    with CaptureQueriesContext(connection) as queries:
        agreed = client.post(f"/t/{table1}/round/1/agree/")
    assert agreed.status_code == 302 and agreed["Location"] == f"/t/{table1}/"
    sqls = [q["sql"] for q in queries.captured_queries]
    work = [s for s in sqls if not s.startswith(CONTROL)]
    assert len(sqls) == AGREE, "\n".join(sqls)  # and no transaction around them
    assert sum(s.startswith(AGREE_WRITE) for s in work) == 1
    assert Event.objects.get(pk=event.pk).seq == seq + 1
    audit = AuditEntry.objects.get(action="agree round")
    assert (audit.actor_label, audit.after) == (
        "table 1", {"section": "A", "round": 1, "tables": [1]})
    assert "Round 1 agreed. Thank you." in client.get(agreed["Location"]).content.decode()
    # Agreed already: the page says so as before, and the full road takes nothing more
    # than the change number its lock takes.
    again = client.post(f"/t/{table1}/round/1/agree/")
    assert again.status_code == 302 and again["Location"] == f"/t/{table1}/"
    assert AuditEntry.objects.filter(action="agree round").count() == 1


def test_the_pages_confirm_is_three_statements(client, event, table1):
    """The phone that holds the code: the session, one read (the code's table, its meeting
    and the board's result), the write; the same message and audit as the full road."""
    token = token_of(client.get(board_url(table1, 1, 1)))
    assert client.post(board_url(table1, 1, 1), contract_post(token=token)).status_code == 302
    seq = Event.objects.get(pk=event.pk).seq
    with CaptureQueriesContext(connection) as queries:
        confirmed = client.post(board_url(table1, 1, 1, "confirm/"))
    assert confirmed.status_code == 302 and confirmed["Location"] == f"/t/{table1}/round/1/"
    sqls = [q["sql"] for q in queries.captured_queries]
    assert len(sqls) == 3, "\n".join(sqls)
    assert sqls[2].startswith("SELECT tournaments_table_confirm(")
    result = Result.objects.get()
    assert (result.status, result.confirmed_by, result.seq) == (
        "confirmed", "E–W pair " + str(result.ew_pair.number), seq + 1)
    audit = AuditEntry.objects.get(action="confirm")
    assert (audit.actor_label, audit.before["status"], audit.after["status"]) == (
        "table 1", "entered", "confirmed")
    assert "Board 1 confirmed." in client.get(confirmed["Location"]).content.decode()
