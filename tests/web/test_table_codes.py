"""Table codes: wrong codes are refused in plain words and throttled per client address."""

import pytest

from tests.web.conftest import code_of

# Counted in windows of a minute: the clock is held inside one (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("throttle_clock")


def test_wrong_code_is_refused(client, event):
    response = client.post("/t/", {"code": "NOSUCH"})
    assert response.status_code == 404
    assert "No table has that code" in response.content.decode()
    assert "table_code" not in client.session


def test_empty_code_asks_for_it(client, event):
    response = client.post("/t/", {"code": ""})
    assert response.status_code == 400
    assert "Type the code on your table card" in response.content.decode()


def test_code_typed_with_spaces_and_lower_case_is_found(client, event):
    code = code_of(event, 2)
    response = client.post("/t/", {"code": f" {code[:3].lower()} {code[3:].lower()} "})
    assert response.status_code == 302 and response["Location"] == f"/t/{code}/"


def test_ten_wrong_codes_a_minute_then_wait(client, event, table1):
    for _ in range(10):
        assert client.post("/t/", {"code": "WRONG2"}).status_code == 404
    blocked = client.post("/t/", {"code": "WRONG2"})
    assert blocked.status_code == 429
    assert "Too many wrong codes from this device or network." in blocked.content.decode()
    # While throttled even the right code waits, so guessing cannot go on.
    assert client.post("/t/", {"code": table1}).status_code == 429
    assert client.get(f"/t/{table1}/").status_code == 429
    # Another address is not held up by this one's mistakes.
    other = client.post("/t/", {"code": table1}, REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 302


def test_guessing_in_the_address_counts_too(client, event):
    for _ in range(10):
        response = client.get("/t/ZZZZZZ/")
        assert response.status_code == 404
        assert "No table has that code" in response.content.decode()
    assert client.get("/t/ZZZZZZ/").status_code == 429


def test_the_window_is_a_minute(client, event, table1, settings):
    from django.core.cache import cache

    for _ in range(10):
        client.post("/t/", {"code": "WRONG2"})
    assert client.post("/t/", {"code": table1}).status_code == 429
    # The counter expires with its minute; here we let it go.
    cache.clear()
    assert client.post("/t/", {"code": table1}).status_code == 302


def test_opening_by_link_remembers_the_table(client, event):
    code = code_of(event, 2)
    assert client.get(f"/t/{code}/").status_code == 200
    assert client.session["table_code"] == code
