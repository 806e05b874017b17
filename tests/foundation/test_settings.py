"""Bad settings stop start-up with a message naming the variable."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STARTED = "print('started')"


def start(env: dict, *, code: str = STARTED) -> subprocess.CompletedProcess:
    """Start Django in a new process with only `env` of the settings, then run `code`."""
    clean = {k: v for k, v in os.environ.items()
             if k not in {"DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL"}
             and not k.startswith("SECURE_")}
    clean["ENV_FILE"] = ""  # a .env that make wrote in this checkout must not change the result
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE',"
         f" 'config.settings'); django.setup(); {code}"],
        cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60,
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "SECRET_KEY is not set"),
        ({"DEBUG": "ture"}, "DEBUG='ture' is not a yes/no value"),
        ({"DEBUG": "1", "DATABASE_URL": "mysql://x/y"}, "DATABASE_URL has the scheme 'mysql'"),
        ({"DEBUG": "1", "REDIS_URL": "localhost:6379"}, "REDIS_URL='localhost:6379' must start"),
        ({"DEBUG": "1", "SECURE_SSL_REDIRECT": "maybe"},
         "SECURE_SSL_REDIRECT='maybe' is not a yes/no value"),
        ({"DEBUG": "1", "SECURE_HSTS_SECONDS": "a year"},
         "SECURE_HSTS_SECONDS='a year' is not a whole number of seconds"),
        ({"DEBUG": "1", "SECURE_HSTS_SECONDS": "-1"},
         "SECURE_HSTS_SECONDS='-1' is not a whole number of seconds"),
        ({"DEBUG": "1", "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1"},
         "do nothing while SECURE_HSTS_SECONDS is 0"),
        ({"DEBUG": "1", "SECURE_HSTS_SECONDS": "3600", "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
          "SECURE_HSTS_PRELOAD": "1"}, "SECURE_HSTS_PRELOAD=1 is for the browsers' preload list"),
        ({"DEBUG": "1", "SECURE_SSL_REDIRECT": "1", "SECURE_COOKIES": "0"},
         "SECURE_COOKIES=0 with SECURE_SSL_REDIRECT=1"),
        ({"DEBUG": "1", "SECURE_PROXY_SSL_HEADER": "X Forwarded Proto"},
         "SECURE_PROXY_SSL_HEADER='X Forwarded Proto' must be a header name"),
        ({"DEBUG": "1", "REPORTS_HEARTBEAT": "0"}, "REPORTS_HEARTBEAT='0' must be a number"),
        ({"DEBUG": "1", "REPORTS_HEARTBEAT": "5s"}, "REPORTS_HEARTBEAT='5s' must be a number"),
        ({"DEBUG": "1", "LOGIN_FAILURE_LIMIT": "0"}, "LOGIN_FAILURE_LIMIT='0' must be a whole"),
        ({"DEBUG": "1", "LOGIN_LOCKOUT_MINUTES": "a while"},
         "LOGIN_LOCKOUT_MINUTES='a while' must be a whole"),
        ({"DEBUG": "1", "ADMIN_URL": "back office"}, "ADMIN_URL='back office' must be a path"),
    ],
)
def test_bad_environment_is_refused_with_a_clear_message(env, message):
    proc = start(env)
    assert proc.returncode != 0
    assert message in proc.stderr
    assert "started" not in proc.stdout


def test_good_environment_starts():
    proc = start({"SECRET_KEY": "x" * 50, "DEBUG": "0", "ALLOWED_HOSTS": "club.example"})
    assert proc.returncode == 0, proc.stderr
    assert "started" in proc.stdout


def test_debug_has_a_development_key_only():
    proc = start({"DEBUG": "yes"})
    assert proc.returncode == 0, proc.stderr
