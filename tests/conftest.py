"""Shared fixtures, and the rule for tests that need a real service.

Tests marked ``postgres``, ``redis``, ``celery_worker`` or ``browser`` skip with a
reason when the service is absent, and fail instead when ``REQUIRE_SERVICES=1``
(CI sets it), so a missing service can never pass CI silently.
"""

import os
import shutil
import signal
import socket
import subprocess
import time
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.test import Client

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

    from tournaments import polls, throttle

    cache.clear()
    polls.forget()  # the process's copies of the live polls' marks, kept from the cache
    throttle.forget()  # and of the codes an address holds
    yield
    cache.clear()
    polls.forget()
    throttle.forget()


@pytest.fixture
def director_client(director):
    """A client logged in as the director (each directory's own `director`), a client of
    its own: a test's `client` stays a visitor beside it."""
    client = Client()
    client.force_login(director)
    return client


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


class PrivateRedis:
    """A redis-server of the test's own, on a free port, that the test may stop and start.

    The shared Redis (REDIS_URL) is never stopped: other tests and workers use it.
    """

    def __init__(self, directory) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.directory = str(directory)
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        import redis

        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", self.directory],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError(f"redis-server on port {self.port} did not start") from None
                time.sleep(0.05)
            finally:
                client.close()

    def pause(self) -> None:
        """A hung Redis: it accepts connections and never answers (SIGSTOP)."""
        os.kill(self.process.pid, signal.SIGSTOP)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGCONT)  # a paused server cannot hear SIGTERM
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None


@pytest.fixture
def private_redis(settings, tmp_path):
    """A private Redis as the cache and the Celery broker, which the test can stop and start.

    For tests marked redis. The cache is reconfigured through Django's settings (the
    `cache` proxy follows); the Celery app is pointed at it and its connection pool
    dropped, so nothing still talks to the shared Redis. The outage watch of each service
    starts and ends clean.
    """
    from config.celery import app
    from tournaments import outages

    if shutil.which("redis-server") is None:
        reason = "needs redis-server (Debian's redis-server package) to start a private Redis"
        if REQUIRE_SERVICES:
            pytest.fail(f"REQUIRE_SERVICES=1 but the service is missing: {reason}",
                        pytrace=False)
        pytest.skip(reason)
    server = PrivateRedis(tmp_path)
    server.start()
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": server.url,
                                   "BACKEND": "django.core.cache.backends.redis.RedisCache"}}
    saved = {name: app.conf[name] for name in ("broker_url", "result_backend",
                                                 "task_always_eager")}

    def point_celery(conf: dict) -> None:
        # The app keeps its broker pool, producer pool and result backend once made:
        # drop them (as Celery does after a fork) so the next use follows the new URLs.
        app.conf.update(conf)
        app._after_fork()
        app._backend_cache = None
        app._local.__dict__.pop("backend", None)

    point_celery({"broker_url": server.url, "result_backend": server.url,
                  "task_always_eager": False})
    outages.reset()
    try:
        yield server
    finally:
        server.stop()
        point_celery(saved)
        outages.reset()


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
