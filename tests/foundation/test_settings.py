"""Bad settings stop start-up with a message naming the variable."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def start(env: dict) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if k not in {"DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL"}}
    clean["ENV_FILE"] = ""  # a .env that make wrote in this checkout must not change the result
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE',"
         " 'config.settings'); django.setup(); print('started')"],
        cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60,
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "SECRET_KEY is not set"),
        ({"DEBUG": "ture"}, "DEBUG='ture' is not a yes/no value"),
        ({"DEBUG": "1", "DATABASE_URL": "mysql://x/y"}, "DATABASE_URL has the scheme 'mysql'"),
        ({"DEBUG": "1", "REDIS_URL": "localhost:6379"}, "REDIS_URL='localhost:6379' must start"),
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
