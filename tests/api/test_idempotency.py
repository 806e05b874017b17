"""The idempotency key's life: claimed, running, answered; dropped after a crash."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.api import idempotency
from tournaments.models import IdempotencyRecord, Result

from .helpers import TWO_HEARTS, key, post, url

pytestmark = pytest.mark.django_db


def body_for(night):
    return {"board": night.meeting(1, 1).boards[0], "round": 1, "result": TWO_HEARTS}


def test_while_the_first_is_running_a_retry_gets_409(night, table_client):
    client, idem = table_client(1), key()
    first = post(client, url(night.event, "results/"), body_for(night), idem=idem)
    # As if the first request were still inside the service: claimed, no answer yet.
    IdempotencyRecord.objects.filter(key=idem).update(status_code=None, response=None)
    response = post(client, url(night.event, "results/"), body_for(night), idem=idem)
    assert response.status_code == 409
    assert response.json() == {"error": idempotency.RUNNING, "field": "Idempotency-Key"}
    assert response["Retry-After"] == "1"
    assert first.status_code == 201 and Result.objects.count() == 1


def test_a_claim_left_by_a_dead_process_is_taken_over(night, table_client):
    client, idem = table_client(1), key()
    post(client, url(night.event, "results/"), body_for(night), idem=idem)
    IdempotencyRecord.objects.filter(key=idem).update(
        status_code=None, response=None,
        created_at=timezone.now() - idempotency.STALE_AFTER - timedelta(seconds=1))
    response = post(client, url(night.event, "results/"), body_for(night), idem=idem)
    # The result was stored before the process died: the service returns it again.
    assert response.status_code == 200
    assert Result.objects.count() == 1
    assert IdempotencyRecord.objects.get(key=idem).status_code == 200


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
