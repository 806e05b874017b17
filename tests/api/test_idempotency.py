"""The idempotency key's life: claimed, answered and committed with the write; dropped
when the request fails. (A request killed mid-write: tests/concurrency/test_killed_request.py.)"""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tournaments import services
from tournaments.api import idempotency
from tournaments.api import views as api_views
from tournaments.models import IdempotencyRecord, Result

from .helpers import TWO_HEARTS, key, post, url

pytestmark = pytest.mark.django_db


def body_for(night):
    return {"board": night.meeting(1, 1).boards[0], "round": 1, "result": TWO_HEARTS}


@pytest.mark.postgres  # Django's SQLite backend does not log BEGIN
@pytest.mark.django_db(transaction=True)
def test_the_claim_the_write_and_the_answer_commit_together(night, table_client):
    """One transaction, one commit, the table's code looked up in it too: the key is
    claimed by the first write, and the answer stored by the last statement, the one
    that stores the result (the full road: a code this device has not opened yet)."""
    client, idem, body = table_client(1), key(), body_for(night)
    with CaptureQueriesContext(connection) as queries:
        response = post(client, url(night.event, "results/"), body, idem=idem)
    assert response.status_code == 201
    statements = [q["sql"] for q in queries.captured_queries]
    record = IdempotencyRecord._meta.db_table
    assert statements[0] == "BEGIN" and statements[-1] == "COMMIT"
    assert sum(1 for sql in statements if sql in ("BEGIN", "COMMIT")) == 2
    writes = [sql for sql in statements if not sql.startswith(("SELECT", "BEGIN", "COMMIT"))]
    assert writes[0].startswith("INSERT") and record in writes[0]
    assert statements[-2].startswith("SELECT tournaments_table_enter(")
    stored = IdempotencyRecord.objects.get(key=idem)
    assert (stored.status_code, stored.response) == (201, response.json())


def test_on_the_hot_path_one_statement_claims_writes_and_answers(night, table_client):
    """A device that has opened its table: the claim, the write and the stored answer are
    one statement, its own transaction (tournaments/api/hot.py)."""
    client, idem, body = table_client(1), key(), body_for(night)
    assert client.get("/api/table/").status_code == 200
    with CaptureQueriesContext(connection) as queries:
        response = post(client, url(night.event, "results/"), body, idem=idem)
    assert response.status_code == 201
    statements = [q["sql"] for q in queries.captured_queries]
    assert len(statements) == 2 and statements[1].startswith("SELECT tournaments_table_enter(")
    stored = IdempotencyRecord.objects.get(key=idem)
    assert (stored.status_code, stored.response) == (201, response.json())


@pytest.mark.django_db(transaction=True)
def test_an_answer_that_cannot_be_stored_undoes_the_write(night, table_client, monkeypatch):
    client, idem = table_client(1), key()

    def broken(record_id, response):
        raise RuntimeError("the database went away before the answer was stored")

    def render_broken(request, render):
        def fail(result):
            raise RuntimeError("the answer cannot be rendered")
        return services.Answer(record_id=request.idempotency_record, render=fail)

    # The table's entry stores its answer with the write (answer_for); other writes
    # store it after (_store).
    monkeypatch.setattr(idempotency, "_store", broken)
    monkeypatch.setattr(api_views, "answer_for", render_broken)
    with pytest.raises(RuntimeError):
        post(client, url(night.event, "results/"), body_for(night), idem=idem)
    # Nothing half-done: no result, and the key is free for the retry.
    assert not Result.objects.exists() and not IdempotencyRecord.objects.exists()
    monkeypatch.undo()
    assert post(client, url(night.event, "results/"), body_for(night), idem=idem).status_code == 201


@pytest.mark.django_db(transaction=True)
def test_a_stored_answer_that_fails_undoes_the_write(night, director_client, monkeypatch):
    idem = key()
    meeting = night.meeting(1, 1)
    body = {"board": meeting.boards[0], "ns": meeting.ns_pair.number,
            "ew": meeting.ew_pair.number, "result": TWO_HEARTS}

    def broken(record_id, response):
        raise RuntimeError("the database went away before the answer was stored")

    monkeypatch.setattr(idempotency, "_store", broken)
    with pytest.raises(RuntimeError):
        post(director_client, url(night.event, "results/"), body, idem=idem)
    assert not Result.objects.exists() and not IdempotencyRecord.objects.exists()


def test_a_server_error_lets_go_of_the_key(night, table_client, monkeypatch):
    client, idem = table_client(1), key()
    real = services.result_record

    def broken(**kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(services, "result_record", broken)
    monkeypatch.setattr(services, "result_enter_at_table", broken)
    with pytest.raises(RuntimeError):
        post(client, url(night.event, "results/"), body_for(night), idem=idem)
    assert not IdempotencyRecord.objects.filter(key=idem).exists()
    monkeypatch.undo()
    monkeypatch.setattr(services, "result_record", real)
    response = post(client, url(night.event, "results/"), body_for(night), idem=idem)
    assert response.status_code == 201


def test_errors_are_answers_and_are_replayed(night, table_client):
    client, idem = table_client(1), key()
    bad = {**body_for(night), "result": {**TWO_HEARTS, "tricks": 14}}
    first = post(client, url(night.event, "results/"), bad, idem=idem)
    again = post(client, url(night.event, "results/"), bad, idem=idem)
    assert first.status_code == again.status_code == 400
    assert first.json() == again.json()


def test_the_request_hash_ignores_key_order(rf):
    from rest_framework.parsers import JSONParser
    from rest_framework.request import Request

    def hashed(text):
        request = Request(rf.post("/api/x/", text, content_type="application/json"),
                          parsers=[JSONParser()])
        return idempotency.request_hash(request)

    assert hashed('{"a": 1, "b": [1, 2]}') == hashed('{"b": [1, 2], "a": 1}')
    assert hashed('{"a": 1}') != hashed('{"a": 2}')


def test_malformed_json_is_a_400_and_claims_nothing(night, table_client):
    response = table_client(1).post(url(night.event, "results/"), "{not json",
                                    content_type="application/json",
                                    HTTP_IDEMPOTENCY_KEY=key())
    assert response.status_code == 400
    assert response.json()["error"].startswith("The body is not valid JSON")
    assert IdempotencyRecord.objects.count() == 0


def test_old_keys_are_purged(night, table_client):
    client = table_client(1)
    old, recent = key(), key()
    post(client, url(night.event, "results/"), body_for(night), idem=old)
    post(client, url(night.event, "results/"), body_for(night), idem=recent)
    IdempotencyRecord.objects.filter(key=old).update(
        created_at=timezone.now() - idempotency.KEEP_FOR - timedelta(minutes=1))
    assert idempotency.purge() == 1
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == [recent]


@pytest.mark.django_db
def test_purge_command_forgets_old_keys():
    from datetime import timedelta
    from io import StringIO

    from django.core.management import call_command
    from django.utils import timezone

    from tournaments.models import IdempotencyRecord

    old = IdempotencyRecord.objects.create(scope="table:1", key="old", request_hash="x")
    IdempotencyRecord.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(days=3))
    IdempotencyRecord.objects.create(scope="table:1", key="new", request_hash="y")
    out = StringIO()
    call_command("purge_idempotency", stdout=out)
    assert "1 old submission keys removed" in out.getvalue()
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["new"]
