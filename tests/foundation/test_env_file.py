"""The `.env` file that make writes once: read by the settings, never over the environment.

The README's commands (`python manage.py ...` in the venv) must work as written after the
first `make run`, without exporting anything.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVICE_VARIABLES = {"DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS",
                     "ENV_FILE"}
SHOW = ("import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings');"
        " django.setup(); from django.conf import settings;"
        " print(settings.SECRET_KEY, settings.DEBUG, ','.join(settings.ALLOWED_HOSTS))")


def bare_environment(**extra) -> dict:
    """The environment of a newcomer's shell: none of the project's variables set."""
    env = {k: v for k, v in os.environ.items() if k not in SERVICE_VARIABLES}
    env.update(extra)
    return env


def show_settings(env: dict, cwd: Path = ROOT) -> list[str]:
    proc = subprocess.run([sys.executable, "-c", SHOW], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


@pytest.fixture
def env_file(tmp_path):
    path = tmp_path / "club.env"
    path.write_text("# a comment\nSECRET_KEY=key-from-the-file\nDEBUG=0\n"
                    "ALLOWED_HOSTS=club.example\n")
    return path


def test_a_value_in_the_env_file_is_read(env_file):
    assert show_settings(bare_environment(ENV_FILE=str(env_file))) == [
        "key-from-the-file", "False", "club.example"]


def test_the_environment_wins_over_the_env_file(env_file):
    env = bare_environment(ENV_FILE=str(env_file), SECRET_KEY="key-from-the-environment",
                           DEBUG="1")
    assert show_settings(env) == ["key-from-the-environment", "True", "club.example"]


def test_an_empty_env_file_setting_reads_no_file(env_file):
    proc = subprocess.run([sys.executable, "-c", SHOW], cwd=ROOT,
                          env=bare_environment(ENV_FILE=""), capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode != 0
    assert "SECRET_KEY is not set" in proc.stderr


@pytest.fixture
def checkout(tmp_path):
    """A copy of the project as a fresh clone has it: no .env, no var/ (the sources linked)."""
    root = tmp_path / "clone"
    root.mkdir()
    for name in ("config", "manage.py", "Makefile"):  # settings find the project by config/
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, root / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, root / name)
    for name in ("boards", "scoring", "tournaments", "templates", "static"):
        (root / name).symlink_to(ROOT / name)
    return root


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_writes_the_env_file_once_and_manage_py_then_works(checkout):
    make = subprocess.run(["make", ".env", f"PYTHON={sys.executable}"], cwd=checkout,
                          env=bare_environment(), capture_output=True, text=True, timeout=60)
    assert make.returncode == 0, make.stderr
    written = (checkout / ".env").read_text()
    assert "DEBUG=1" in written.splitlines()
    key = next(line.split("=", 1)[1] for line in written.splitlines()
               if line.startswith("SECRET_KEY="))
    assert len(key) >= 50
    assert (checkout / ".env").stat().st_mode & 0o077 == 0  # the key is for this user only

    # As the README says: in the venv, with nothing exported, manage.py works.
    check = subprocess.run([sys.executable, "manage.py", "check"], cwd=checkout,
                           env=bare_environment(), capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stderr
    assert "System check identified no issues" in check.stdout
    assert show_settings(bare_environment(), cwd=checkout)[:2] == [key, "True"]

    # make never writes over an existing .env (the key stays, sessions stay valid).
    (checkout / ".env").write_text("SECRET_KEY=the-directors-own\nDEBUG=1\n")
    again = subprocess.run(["make", ".env", f"PYTHON={sys.executable}"], cwd=checkout,
                           env=bare_environment(), capture_output=True, text=True, timeout=60)
    assert again.returncode == 0, again.stderr
    assert (checkout / ".env").read_text() == "SECRET_KEY=the-directors-own\nDEBUG=1\n"


def test_the_env_file_is_kept_out_of_git():
    assert ".env" in (ROOT / ".gitignore").read_text().splitlines()
