"""Director log-in is throttled (django-axes, counted in the database): after
LOGIN_FAILURE_LIMIT wrong passwords for one user name, or from one address, that user
name or that address is locked out of the console and the admin for
LOGIN_LOCKOUT_MINUTES; even the right password is then refused, without being checked."""

import importlib
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.backends import ModelBackend
from django.test import Client
from django.urls import clear_url_caches
from django.utils import timezone

from tests.factories import DirectorFactory
from tournaments import presenters

pytestmark = pytest.mark.django_db
RIGHT = "right-password-1"
LOGIN = "/accounts/login/"


@pytest.fixture
def ann():
    return DirectorFactory(username="ann", password=RIGHT)


@pytest.fixture
def bob():
    return DirectorFactory(username="bob", password=RIGHT)


def log_in(address: str, username: str, password: str, url: str = LOGIN):
    client = Client(REMOTE_ADDR=address)
    response = client.post(url, {"username": username, "password": password})
    return client, response


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def guess(address: str, username: str, times: int = 5, url: str = LOGIN) -> list[int]:
    return [log_in(address, username, f"guess-{n}", url)[1].status_code for n in range(times)]


def test_five_wrong_passwords_lock_out_that_user_and_that_address(ann, bob):
    assert guess("198.51.100.1", "ann") == [200, 200, 200, 200, 429]
    client, response = log_in("198.51.100.1", "ann", RIGHT)
    assert response.status_code == 429 and not logged_in(client)
    text = response.content.decode()
    assert "Too many wrong passwords: log-in" in text and "Try again then." in text
    assert 0 < int(response["Retry-After"]) <= 15 * 60
    # The user name is locked from any address, and the address for any user name.
    assert log_in("203.0.113.9", "ann", RIGHT)[1].status_code == 429
    assert log_in("198.51.100.1", "bob", RIGHT)[1].status_code == 429
    # Another user from another address is not affected.
    client, response = log_in("203.0.113.9", "bob", RIGHT)
    assert response.status_code == 302 and logged_in(client)


def test_the_address_is_locked_whatever_user_names_are_guessed(ann):
    for n in range(5):
        log_in("198.51.100.2", f"someone{n}", "guess")
    client, response = log_in("198.51.100.2", "ann", RIGHT)
    assert response.status_code == 429 and not logged_in(client)
    assert log_in("198.51.100.3", "ann", RIGHT)[1].status_code == 302


def test_four_wrong_passwords_do_not_lock(ann):
    assert guess("198.51.100.4", "ann", times=4) == [200] * 4
    client, response = log_in("198.51.100.4", "ann", RIGHT)
    assert response.status_code == 302 and logged_in(client)


def test_a_locked_out_try_checks_no_password(ann, monkeypatch):
    """A flood of guesses must not burn the server's CPU on password hashing."""
    guess("198.51.100.5", "ann")
    checked = []
    real = ModelBackend.authenticate

    def counting(self, request, *args, **kwargs):
        checked.append(kwargs.get("username"))
        return real(self, request, *args, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", counting)
    for password in ("guess-9", RIGHT):
        assert log_in("198.51.100.5", "ann", password)[1].status_code == 429
    assert checked == []
    assert log_in("203.0.113.10", "someone-else", "guess")[1].status_code == 200
    assert checked == ["someone-else"]  # the spy does see a try that is not locked out


def test_the_page_says_when_to_try_again_and_the_lock_ends_then(ann):
    guess("198.51.100.6", "ann")
    last = AccessAttempt.objects.get(username="ann").attempt_time
    response = log_in("198.51.100.6", "ann", RIGHT)[1]
    assert f"paused until {presenters.clock(last + timedelta(minutes=15))}" in \
        response.content.decode()
    # Tries while locked out do not make the wait longer.
    assert AccessAttempt.objects.get(username="ann").attempt_time == last
    # Fifteen minutes after the last wrong password the right one works again.
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=15, seconds=1))
    client, response = log_in("198.51.100.6", "ann", RIGHT)
    assert response.status_code == 302 and logged_in(client)


def test_the_admin_log_in_is_locked_out_too(ann):
    url = "/admin/login/"
    assert guess("198.51.100.7", "ann", url=url) == [200, 200, 200, 200, 429]
    client, response = log_in("198.51.100.7", "ann", RIGHT, url=url)
    assert response.status_code == 429 and not logged_in(client)
    assert "Too many wrong passwords" in response.content.decode()
    # ...and the console's log-in, since they count together.
    assert log_in("198.51.100.7", "ann", RIGHT)[1].status_code == 429


# --- ADMIN_URL -------------------------------------------------------------------------------


@pytest.fixture
def admin_url(settings):
    """Set ADMIN_URL and rebuild the URLs as start-up would; restored afterwards."""
    import config.urls

    def set_to(value: str) -> None:
        settings.ADMIN_URL = value
        importlib.reload(config.urls)
        clear_url_caches()

    yield set_to
    settings.ADMIN_URL = "admin/"
    importlib.reload(config.urls)
    clear_url_caches()


def test_admin_url_moves_the_admin(admin_url, client):
    admin_url("back-office/")
    assert client.get("/back-office/login/").status_code == 200
    assert client.get("/admin/login/").status_code == 404


def test_an_empty_admin_url_turns_the_admin_off(admin_url, client):
    admin_url("")
    assert client.get("/admin/login/").status_code == 404
    assert client.get(LOGIN).status_code == 200  # the console's log-in stays
