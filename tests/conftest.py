"""Shared fixtures, and the rule for tests that need a real service.

Tests marked ``postgres``, ``redis``, ``celery_worker`` or ``browser`` skip with a
reason when the service is absent, and fail instead when ``REQUIRE_SERVICES=1``
(CI sets it), so a missing service can never pass CI silently.
"""

import os
import shutil
import socket
from urllib.parse import urlparse

import pytest
from django.conf import settings

# gunicorn on the test database, for the concurrency test and the API fuzz run.
from tests.live_server import (  # noqa: F401
    gunicorn_args,
    gunicorn_server,
    pytest_runtest_makereport,
)

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES", "") == "1"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def _port_open(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or default_port),
                                      timeout=1):
            return True
    except OSError:
        return False


def _missing(marker: str) -> str | None:
    """Why the service behind `marker` cannot be used here, or None when it can."""
    if marker == "postgres":
        if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
            return "needs PostgreSQL: set DATABASE_URL=postgres://..."
        return None
    if marker in ("redis", "celery_worker"):
        url = os.environ.get("REDIS_URL", "")
        if not url:
            return "needs Redis: set REDIS_URL=redis://..."
        if not _port_open(url, 6379):
            return f"Redis at {url} does not answer"
        return None
    if marker == "browser":
        if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
            return "needs Debian's chromium package (apt-get install chromium)"
        return None
    return None


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Throttle counters, submission tokens and the like live in the cache (under
    REDIS_URL, this suite's Redis database): every test starts and ends with it empty."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def throttle_clock(monkeypatch):
    """The table-code throttle counts in fixed windows of a minute: hold its clock in the
    middle of one, so that a test running across a minute's end cannot split its count."""
    from types import SimpleNamespace

    from tournaments import throttle

    now = (throttle.time.time() // 60) * 60 + 30
    monkeypatch.setattr(throttle, "time", SimpleNamespace(time=lambda: now))


@pytest.fixture
def redis_queue():
    """This suite's Redis db (REDIS_URL), emptied before and after: no stale messages or
    results from an earlier test. For tests marked redis or celery_worker."""
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    client.flushdb()
    yield client
    client.flushdb()


def pytest_collection_modifyitems(config, items):
    for item in items:
        for marker in ("postgres", "redis", "celery_worker", "browser"):
            if item.get_closest_marker(marker) is None:
                continue
            reason = _missing(marker)
            if reason is None:
                continue
            if REQUIRE_SERVICES:
                item.user_properties.append(("missing_service", reason))
            else:
                item.add_marker(pytest.mark.skip(reason=reason))


def pytest_runtest_setup(item):
    for name, reason in item.user_properties:
        if name == "missing_service":
            pytest.fail(f"REQUIRE_SERVICES=1 but the service is missing: {reason}", pytrace=False)
