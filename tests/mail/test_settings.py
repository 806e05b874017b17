"""EMAIL_URL (django-environ's email_url): the console by default, SMTP when given;
DEFAULT_FROM_EMAIL and SITE_URL from the environment; a bad value stops start-up."""

from __future__ import annotations

import pytest

from ..foundation.test_settings import start

SHOW = ("from django.conf import settings as s; print(s.EMAIL_BACKEND, s.EMAIL_HOST, "
        "s.EMAIL_PORT, s.EMAIL_USE_TLS, s.EMAIL_HOST_USER, s.DEFAULT_FROM_EMAIL, s.SITE_URL, "
        "sep='|')")


def test_the_console_by_default():
    done = start({"DEBUG": "1"}, code=SHOW)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().split("|") == [
        "django.core.mail.backends.console.EmailBackend", "localhost", "25", "False", "",
        "scores@localhost", "http://127.0.0.1:8000"]


def test_smtp_from_the_url():
    done = start({"DEBUG": "1", "EMAIL_URL": "smtp+tls://club:secret@mail.club.example:587",
                  "DEFAULT_FROM_EMAIL": "Club scores <scores@club.example>",
                  "SITE_URL": "https://club.example/"}, code=SHOW)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().split("|") == [
        "django.core.mail.backends.smtp.EmailBackend", "mail.club.example", "587", "True",
        "club", "Club scores <scores@club.example>", "https://club.example"]


@pytest.mark.parametrize(("env", "message"), [
    ({"EMAIL_URL": "pigeon://loft"}, "EMAIL_URL"),
    ({"SITE_URL": "club.example"}, "SITE_URL='club.example' must be the site's address"),
    ({"EMAIL_TIMEOUT": "soon"}, "EMAIL_TIMEOUT='soon' must be a whole number"),
])
def test_a_bad_value_stops_start_up(env, message):
    done = start({"DEBUG": "1", **env})
    assert done.returncode != 0
    assert message in done.stderr
