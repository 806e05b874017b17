"""The prepared reads (tournaments/prepared.py) after the database server dropped the
connection (a restart, an administrator's terminate): the read reopens the connection and is
sent again, where Django's health check would have found it broken before the request's first
query. Before, the table's first request after a restart failed with a server error."""

import psycopg
import pytest
from django.db import connection

from tournaments import selectors
from tournaments.sessions import SessionStore

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def drop_connection() -> None:
    """The server ends this process's connection, as a restart would."""
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    settings = connection.get_connection_params()
    with psycopg.connect(**{k: v for k, v in settings.items() if k != "cursor_factory"},
                         autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    assert connection.connection is not None  # Django does not know yet


def test_a_table_s_read_after_the_server_dropped_the_connection(night):
    code, board = night.codes[1], night.meeting(1, 1).boards[0]
    table, entry = selectors.table_code_entry(code, 1, board)
    assert entry.meeting is not None
    drop_connection()
    again, entry = selectors.table_code_entry(code, 1, board)
    assert again is not None and again.pk == table.pk and entry.meeting is not None


def test_a_session_read_after_the_server_dropped_the_connection():
    store = SessionStore()
    store["table_code"] = "ABCD-EFGH"
    store.save()
    drop_connection()
    assert SessionStore(store.session_key)["table_code"] == "ABCD-EFGH"
