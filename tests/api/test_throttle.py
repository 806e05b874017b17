"""Table codes cannot be guessed: wrong codes are throttled per client address."""

import pytest
from rest_framework.test import APIClient

from tournaments.api.throttling import parse_rate

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("throttle_clock")]


@pytest.fixture
def three_a_minute(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"table-code": "3/minute"},
    }


def from_address(address: str, code: str, **extra) -> APIClient:
    client = APIClient(REMOTE_ADDR=address, **extra)
    client.credentials(HTTP_AUTHORIZATION=f"Table {code}")
    return client


def test_the_configured_rate_is_ten_a_minute(settings):
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["table-code"]
    assert parse_rate(rate) == (10, 60)


def test_a_wrong_code_is_401_with_a_clear_message(night):
    response = from_address("10.0.0.1", "ZZZZZZ").get("/api/table/")
    assert response.status_code == 401
    assert response.json()["error"] == (
        "That table code is not known: check the code on the table card.")
    assert response["WWW-Authenticate"] == "Table"


def test_a_code_is_read_as_typed(night):
    code = night.codes[1]
    typed = f"{code[:3].lower()}-{code[3:].lower()}"
    response = from_address("10.0.0.1", typed).get("/api/table/")
    assert response.status_code == 200 and response.json()["table"] == 1


def test_after_the_limit_wrong_codes_get_429(night, three_a_minute):
    client = from_address("10.0.0.2", "WRONG1")
    for _ in range(3):
        assert client.get("/api/table/").status_code == 401
    response = client.get("/api/table/")
    assert response.status_code == 429
    assert response.json()["error"].startswith("Too many wrong table codes from this device.")
    assert "Try again in" in response.json()["error"]
    assert 1 <= int(response["Retry-After"]) <= 60


def test_a_blocked_address_cannot_use_a_right_code_either(night, three_a_minute):
    """Otherwise a guesser would just keep going until the right code got through."""
    for _ in range(3):
        from_address("10.0.0.3", "WRONG1").get("/api/table/")
    response = from_address("10.0.0.3", night.codes[1]).get("/api/table/")
    assert response.status_code == 429


def test_right_codes_never_count(night, three_a_minute):
    client = from_address("10.0.0.4", night.codes[2])
    for _ in range(10):
        assert client.get("/api/table/").status_code == 200


def test_other_addresses_are_not_blocked(night, three_a_minute):
    for _ in range(4):
        from_address("10.0.0.5", "WRONG1").get("/api/table/")
    assert from_address("10.0.0.6", night.codes[1]).get("/api/table/").status_code == 200


def test_a_forged_forwarded_for_header_does_not_escape_the_limit(night, three_a_minute):
    for n in range(3):
        from_address("10.0.0.7", "WRONG1", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}").get(
            "/api/table/")
    response = from_address("10.0.0.7", "WRONG1", HTTP_X_FORWARDED_FOR="192.0.2.99").get(
        "/api/table/")
    assert response.status_code == 429


def test_an_empty_code_counts_as_wrong(night, three_a_minute):
    client = APIClient(REMOTE_ADDR="10.0.0.8")
    client.credentials(HTTP_AUTHORIZATION="Table")
    for _ in range(3):
        assert client.get("/api/table/").status_code == 401
    assert client.get("/api/table/").status_code == 429


@pytest.mark.redis
def test_the_count_is_shared_through_redis(night, three_a_minute, settings):
    """With REDIS_URL the counter lives in Redis, so every server process sees it."""
    from django.core.cache import cache

    assert "redis" in settings.CACHES["default"]["BACKEND"].lower()
    for _ in range(3):
        from_address("10.0.0.9", "WRONG1").get("/api/table/")
    keys = [k for k in cache._cache.get_client().keys("*") if b"table-code" in k]
    assert keys, "the failure count should be stored in Redis"
    assert from_address("10.0.0.9", "WRONG1").get("/api/table/").status_code == 429
