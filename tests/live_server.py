"""A real server for the tests that need one (the concurrency test, the API fuzz run):
gunicorn, 4 worker processes with 4 threads each, on a free loopback port, against the
test's own PostgreSQL database. tests/conftest.py makes its fixture available to all.

pytest-django's live_server is one threaded process; the races worth testing are
between processes, each with its own database connections, as in production.
"""

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings

BASE_DIR = Path(__file__).resolve().parents[1]
START_TIMEOUT = 30.0


@dataclass
class LiveServer:
    host: str
    port: int
    log_path: Path
    pid: int = 0  # gunicorn's master; its children are the worker processes

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the item, so fixtures can tell whether the test failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _database_url() -> str:
    """The test database (test_<name>, created by pytest-django) as a DATABASE_URL."""
    db = settings.DATABASES["default"]
    user = quote(db.get("USER") or "", safe="")
    password = quote(db.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{db['NAME']}"


def _wait_until_up(server: LiveServer, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"gunicorn exited with {process.returncode}:\n{server.log()}")
        try:
            with urllib.request.urlopen(f"{server.url}/api/events/", timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    pytest.fail(f"gunicorn did not answer within {START_TIMEOUT:.0f} s:\n{server.log()}")


@pytest.fixture
def gunicorn_args() -> list[str]:
    """More gunicorn options for one test module (override this fixture there)."""
    return []


@pytest.fixture
def gunicorn_server(request, transactional_db, gunicorn_args) -> Iterator[LiveServer]:
    """gunicorn serving the committed test data; its output goes to a temp file, printed
    when the test fails."""
    port = _free_port()
    handle, name = tempfile.mkstemp(prefix="gunicorn-", suffix=".log")
    os.close(handle)
    server = LiveServer("127.0.0.1", port, Path(name))
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "DEBUG": os.environ.get("DEBUG", "1"),
        "PYTHONUNBUFFERED": "1",
    }
    with server.log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi:application",
             "--bind", f"127.0.0.1:{port}", "--workers", "4", "--threads", "4",
             "--timeout", "60", "--keep-alive", "30", "--graceful-timeout", "5",
             "--access-logfile", "-", "--error-logfile", "-",
             # No control socket: its fixed path in $HOME would clash between runs.
             "--no-control-socket", *gunicorn_args],
            cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        server.pid = process.pid
        try:
            _wait_until_up(server, process)
            yield server
        finally:
            # Only our own gunicorn: its master, which takes its workers down with it.
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        sys.stderr.write(f"\n--- gunicorn output ({server.log_path}) ---\n{server.log()}\n")
    else:
        server.log_path.unlink(missing_ok=True)
