"""Statements PostgreSQL plans once per connection, for the table's hot path.

A table's result entry runs the same two statements thousands of times a night. Sent
with the parameters bound on the client (Django's default), PostgreSQL parses and plans
each anew; the entry's read joins seven tables, and planning it costs more than running
it. ``cursor()`` gives a cursor that binds on the server and prepares each statement on
the connection the first time it runs it (psycopg's prepared-statement cache), so later
runs on that connection are only executed. It is Django's own cursor wrapper around it:
query logging, execute wrappers and CaptureQueriesContext see it like any other.

Only for statements whose parameters PostgreSQL can type from the SQL alone (each cast
where it could not). On SQLite it is the ordinary cursor.
"""

import functools
from typing import Any

from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections

# Django's own cursors bind on the client and are never prepared, whatever the threshold.
NEVER = 2**31 - 1


def available() -> bool:
    """Do the table's one-statement writes (and their prepared reads) run here? PostgreSQL
    only: on SQLite (``make run``) every write goes the full road."""
    return connections[DEFAULT_DB_ALIAS].vendor == "postgresql"


def cursor():
    db = connections[DEFAULT_DB_ALIAS]  # once: each use of the proxy looks it up again
    if db.vendor != "postgresql":
        return db.cursor()
    db.ensure_connection()
    db.validate_thread_sharing()
    pg = db.connection
    if pg.prepare_threshold is None:
        # Django turns psycopg's preparing off (None), which refuses even a statement asked
        # to be prepared; a threshold never reached lets only these be.
        pg.prepare_threshold = NEVER
    raw = _prepared_class()(pg)
    return _debug_class()(raw, db) if db.queries_logged else db.make_cursor(raw)


def fetchone(sql: str, params: list) -> tuple | None:
    """The one row of a prepared read (None for none): see ``_read``."""
    return _read(sql, params, all_rows=False)


def fetchall(sql: str, params: list) -> list[tuple]:
    """Every row of a prepared read: see ``_read``."""
    return _read(sql, params, all_rows=True)


def _read(sql: str, params: list, *, all_rows: bool) -> Any:
    """A prepared read. A read begins a table's request (or a phone's poll) and goes
    straight to the connection, past Django's health check (a query of its own before each
    request's first): when the server has dropped the connection since its last use (a
    restart), the read reopens it and is sent again, which is safe for a read; inside a
    transaction, or if it fails again, the error stands."""
    db = connections[DEFAULT_DB_ALIAS]
    for attempt in (1, 2):
        try:
            with cursor() as c:
                c.execute(sql, params)
                return c.fetchall() if all_rows else c.fetchone()
        except (OperationalError, InterfaceError):
            if attempt == 2 or db.in_atomic_block:
                raise
            db.close()  # the next cursor() opens a new one
    raise AssertionError("unreachable")


@functools.cache
def _prepared_class():
    from django.db.backends.postgresql.base import ServerBindingCursor

    class Prepared(ServerBindingCursor):
        def execute(self, query, params=None, *, prepare=None, binary=None):
            return super().execute(query, params, prepare=True, binary=binary)

    return Prepared


@functools.cache
def _debug_class():
    from django.db.backends.postgresql.base import CursorDebugWrapper
    from django.db.backends.utils import CursorWrapper

    class Debug(CursorDebugWrapper):
        """Logs the statement as sent (its placeholders unfilled): psycopg keeps no text
        of a statement run by a prepared name, where Django looks for it."""

        def execute(self, sql, params=None):
            with self.debug_sql(sql, params, use_last_executed_query=False):
                return CursorWrapper.execute(self, sql, params)

    return Debug
