"""HTTPS from the environment: off for `make run`, and `manage.py check --deploy` clean
(at warning level, nothing silenced) with the settings a server behind TLS uses."""

import json
import secrets
import subprocess

import pytest
from django.test import Client

from tests.foundation.test_settings import start

# A server behind a proxy that terminates TLS and sets X-Forwarded-Proto.
PRODUCTION = {
    "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "club.example",
    "SECURE_SSL_REDIRECT": "1", "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto",
    "SECURE_HSTS_SECONDS": "31536000", "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
}
NAMES = ["SECURE_SSL_REDIRECT", "SECURE_PROXY_SSL_HEADER", "SECURE_HSTS_SECONDS",
         "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "SESSION_COOKIE_SECURE",
         "CSRF_COOKIE_SECURE"]


def check_deploy(env: dict) -> subprocess.CompletedProcess:
    code = ("from django.core.management import execute_from_command_line; "
            "execute_from_command_line(['manage.py', 'check', '--deploy', '--fail-level', "
            "'WARNING'])")
    return start(env, code=code)


def settings_under(env: dict) -> dict:
    code = ("import json; from django.conf import settings; "
            f"print(json.dumps({{n: getattr(settings, n) for n in {NAMES!r}}}))")
    proc = start(env, code=code)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def test_check_deploy_passes_with_the_production_settings():
    proc = check_deploy(PRODUCTION)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "System check identified no issues (0 silenced)." in proc.stdout


def test_check_deploy_names_each_setting_left_off():
    proc = check_deploy({"DEBUG": "0", "SECRET_KEY": PRODUCTION["SECRET_KEY"]})
    assert proc.returncode != 0
    for check in ("security.W004", "security.W008"):  # HSTS, the SSL redirect
        assert check in proc.stderr, proc.stderr


def test_make_run_serves_plain_http():
    assert settings_under({"DEBUG": "1"}) == {
        "SECURE_SSL_REDIRECT": False, "SECURE_PROXY_SSL_HEADER": None, "SECURE_HSTS_SECONDS": 0,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": False, "SECURE_HSTS_PRELOAD": False,
        "SESSION_COOKIE_SECURE": False, "CSRF_COOKIE_SECURE": False}


def test_production_settings_are_read():
    assert settings_under(PRODUCTION) == {
        "SECURE_SSL_REDIRECT": True, "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        "SECURE_HSTS_SECONDS": 31536000, "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SECURE_HSTS_PRELOAD": True, "SESSION_COOKIE_SECURE": True, "CSRF_COOKIE_SECURE": True}


@pytest.mark.parametrize(("env", "secure"), [
    ({"DEBUG": "0"}, True),  # a server: cookies over https only ...
    ({"DEBUG": "0", "SECURE_COOKIES": "0"}, False),  # ... unless it has no TLS at all
    ({"DEBUG": "1", "SECURE_SSL_REDIRECT": "1"}, True),  # https enforced: always
])
def test_cookies_follow_https(env, secure):
    values = settings_under({"SECRET_KEY": PRODUCTION["SECRET_KEY"], **env})
    assert values["SESSION_COOKIE_SECURE"] is values["CSRF_COOKIE_SECURE"] is secure


def test_other_proxy_headers():
    values = settings_under({"DEBUG": "1", "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Ssl: on"})
    assert values["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_SSL", "on"]


@pytest.mark.django_db
def test_behind_the_proxy(settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = settings.SECURE_HSTS_PRELOAD = True
    client = Client()  # a new handler reads the settings above
    plain = client.get("/", HTTP_X_FORWARDED_PROTO="http")
    assert (plain.status_code, plain["Location"]) == (301, "https://testserver/")
    secure = client.get("/", HTTP_X_FORWARDED_PROTO="https")
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    # A load balancer's health probe on plain http gets an answer, not a redirect.
    assert client.get("/health/", HTTP_X_FORWARDED_PROTO="http").status_code != 301
