"""The sessions, kept in the database as Django keeps them, read in a prepared statement.

Each table page request reads the phone's session (it holds the table's code). Django's
database store reads it through the ORM, which builds and compiles the query anew every
time: measured under a room's load, that was a fifth of a table page's time. On
PostgreSQL the read here is the same query, written once and prepared on the connection
(tournaments.prepared: as the request's first query, it also reopens a connection the server
dropped, where Django's health check would); the row, the expiry and what a missing or
expired session does (no data, a new key when it is saved) are Django's. On SQLite it is
Django's read.
"""

from django.contrib.sessions.backends import db
from django.utils import timezone

from . import prepared

# The ORM's query: the session of this key, if it has not expired.
_READ = ('SELECT "session_data", "expire_date" FROM "django_session" '
         'WHERE "session_key" = %s AND "expire_date" > %s')


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        if not prepared.available():
            return super()._get_session_from_db()
        row = prepared.fetchone(_READ, [self.session_key, timezone.now()])
        if row is None:
            self._session_key = None  # as Django's: saving it makes a new key
            return None
        return self.model(session_key=self.session_key, session_data=row[0],
                          expire_date=row[1])
