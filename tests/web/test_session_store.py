"""The project's session store (tournaments/sessions.py): Django's database sessions, read
in one prepared statement, with Django's answers for a live, an expired and an unknown
session."""

import datetime

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tournaments.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_the_site_uses_it():
    assert settings.SESSION_ENGINE == "tournaments.sessions"


def test_a_session_django_saved_reads_the_same_in_one_statement():
    saved = DjangoStore()
    saved.update({"table_code": "ABCD-EFGH", "seen": [1, 2, 3]})
    saved.save()
    store = SessionStore(saved.session_key)
    with CaptureQueriesContext(connection) as queries:
        assert store.get("table_code") == "ABCD-EFGH"
        assert store["seen"] == [1, 2, 3]
    assert len(queries) == 1
    assert "django_session" in queries[0]["sql"]
    assert store.session_key == saved.session_key
    # what it read is Django's own row
    assert dict(store.items()) == DjangoStore(saved.session_key).load()


def test_a_session_saved_here_reads_in_django_s_store():
    store = SessionStore()
    store["table_code"] = "WXYZ-1234"
    store.save()
    assert DjangoStore(store.session_key)["table_code"] == "WXYZ-1234"
    again = SessionStore(store.session_key)
    again["round"] = 3
    again.save()
    assert again.session_key == store.session_key
    assert SessionStore(store.session_key).load() == {"table_code": "WXYZ-1234", "round": 3}


def test_an_expired_session_is_empty_and_saves_under_a_new_key():
    saved = DjangoStore()
    saved["table_code"] = "ABCD-EFGH"
    saved.save()
    Session.objects.filter(session_key=saved.session_key).update(
        expire_date=timezone.now() - datetime.timedelta(seconds=1))
    store = SessionStore(saved.session_key)
    assert store.load() == {}
    assert store.session_key is None  # as Django's store: the old key is not reused
    store["table_code"] = "WXYZ-1234"
    store.save()
    assert store.session_key != saved.session_key
    assert Session.objects.filter(session_key=saved.session_key).count() == 1  # untouched


def test_an_unknown_session_is_empty_like_django_s():
    key = "x" * 32
    ours, django = SessionStore(key), DjangoStore(key)
    assert ours.load() == django.load() == {}
    assert ours.session_key is None and django.session_key is None


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared on PostgreSQL only")
def test_the_read_is_prepared_on_the_connection():
    saved = DjangoStore()
    saved["n"] = 1
    saved.save()
    for _ in range(2):
        SessionStore(saved.session_key).load()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements "
                       "WHERE statement LIKE '%%FROM \"django_session\"%%'")
        assert cursor.fetchone()[0] == 1
