"""The idempotency key's life: claimed, answered and committed with the write; dropped
when the request fails. (A request killed mid-write: tests/concurrency/test_killed_request.py.)"""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tournaments.api import idempotency
from tournaments.models import IdempotencyRecord, Result

from .helpers import TWO_HEARTS, key, post, url

pytestmark = pytest.mark.django_db


def body_for(night):
    return {"board": night.meeting(1, 1).boards[0], "round": 1, "result": TWO_HEARTS}


@pytest.mark.postgres  # Django's SQLite backend does not log BEGIN
@pytest.mark.django_db(transaction=True)
def test_the_claim_the_write_and_the_answer_commit_together(night, table_client):
    """One transaction, one commit: the key is claimed first, the answer stored last."""
    client, idem = table_client(1), key()
    with CaptureQueriesContext(connection) as queries:
        response = post(client, url(night.event, "results/"), body_for(night), idem=idem)
    assert response.status_code == 201
    statements = [q["sql"] for q in queries.captured_queries]
    begin = statements.index("BEGIN")
    record = IdempotencyRecord._meta.db_table
    assert sum(1 for sql in statements if sql == "COMMIT") == 1
    assert statements[-1] == "COMMIT"
    assert record in statements[begin + 1] and statements[begin + 1].startswith("INSERT")
    assert record in statements[-2] and statements[-2].startswith("UPDATE")
    stored = IdempotencyRecord.objects.get(key=idem)
    assert (stored.status_code, stored.response) == (201, response.json())


@pytest.mark.django_db(transaction=True)
def test_an_answer_that_cannot_be_stored_undoes_the_write(night, table_client, monkeypatch):
    client, idem = table_client(1), key()

    def broken(record_id, response):
        raise RuntimeError("the database went away before the answer was stored")

    monkeypatch.setattr(idempotency, "_store", broken)
    with pytest.raises(RuntimeError):
        post(client, url(night.event, "results/"), body_for(night), idem=idem)
    # Nothing half-done: no result, and the key is free for the retry.
    assert not Result.objects.exists() and not IdempotencyRecord.objects.exists()
    monkeypatch.undo()
    assert post(client, url(night.event, "results/"), body_for(night), idem=idem).status_code == 201


def test_a_server_error_lets_go_of_the_key(night, table_client, monkeypatch):
    from tournaments import services

    client, idem = table_client(1), key()
    real = services.result_record

    def broken(**kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(services, "result_record", broken)
    with pytest.raises(RuntimeError):
        post(client, url(night.event, "results/"), body_for(night), idem=idem)
    assert not IdempotencyRecord.objects.filter(key=idem).exists()
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
    assert "JSON parse error" in response.json()["error"]
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
