"""Settings, read from the environment.

Every value has a sensible default for a newcomer's machine (SQLite under
``var/``, jobs in-process) except ``SECRET_KEY``, which has a development default
only while ``DEBUG`` is on. A bad value stops start-up with a message that
names the variable, rather than failing later in a request.

A ``.env`` file beside ``manage.py`` (``make`` writes one, once, with a generated
``SECRET_KEY`` and ``DEBUG=1``) is read first; a variable set in the real
environment always wins over the file. ``ENV_FILE`` names another file to read,
or none at all when it is empty.
"""

import os
import re
from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()


def read_env_file() -> None:
    """Read ``.env`` (or ``ENV_FILE``) into the environment, never over a variable already set."""
    name = os.environ.get("ENV_FILE")
    path = BASE_DIR / ".env" if name is None else Path(name) if name.strip() else None
    if path is not None and path.is_file():
        environ.Env.read_env(path, overwrite=False)


read_env_file()

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_flag(name: str, default: bool) -> bool:
    """A strict boolean: unlike a plain truthiness test, ``DEBUG=ture`` is an error."""
    raw = env.str(name, default="1" if default else "0").strip().lower()
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a yes/no value: use one of 1, 0, true, false, yes, no, on, off"
    )


def env_database(default_path: Path) -> dict:
    url = env.str("DATABASE_URL", default="").strip()
    if not url:
        default_path.parent.mkdir(parents=True, exist_ok=True)
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(default_path),
            # SQLite serialises writers; wait for the lock rather than failing at once.
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    scheme = url.split(":", 1)[0]
    if scheme not in {"postgres", "postgresql", "pgsql", "sqlite"}:
        raise ImproperlyConfigured(
            f"DATABASE_URL has the scheme {scheme!r}: use postgres://... or sqlite:///path"
        )
    try:
        config = environ.Env.db_url_config(url)
    except Exception as exc:  # django-environ raises several kinds
        raise ImproperlyConfigured(f"DATABASE_URL cannot be read: {exc}") from exc
    if config["ENGINE"].endswith("postgresql"):
        config["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
        config["CONN_HEALTH_CHECKS"] = True
    return config


def env_seconds(name: str, default: int) -> int:
    raw = env.str(name, default=str(default)).strip()
    if not raw.isdigit():
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number of seconds (0 or more)")
    return int(raw)


def env_proxy_ssl_header() -> tuple[str, str] | None:
    """``X-Forwarded-Proto`` (the proxy sends ``https``) or ``Name: value`` → Django's pair."""
    raw = env.str("SECURE_PROXY_SSL_HEADER", default="").strip()
    if not raw:
        return None
    name, _, value = (part.strip() for part in raw.partition(":"))
    value = value or "https"
    if not re.fullmatch(r"[A-Za-z0-9-]+", name) or not re.fullmatch(r"[A-Za-z0-9._-]+", value):
        raise ImproperlyConfigured(
            f"SECURE_PROXY_SSL_HEADER={raw!r} must be a header name such as X-Forwarded-Proto, "
            "or a name and the value the proxy sends over https, such as 'X-Forwarded-Ssl: on'"
        )
    return "HTTP_" + name.upper().replace("-", "_"), value


def env_positive_seconds(name: str, default: float) -> float:
    """A positive number of seconds (fractions allowed)."""
    raw = env.str(name, default=str(default)).strip()
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise ImproperlyConfigured(f"{name}={raw!r} must be a number of seconds above 0")
    return value


def env_positive_int(name: str, default: int) -> int:
    """A whole number of at least 1 (a limit or a length of time)."""
    raw = env.str(name, default=str(default)).strip()
    if not raw.isdigit() or int(raw) < 1:
        raise ImproperlyConfigured(f"{name}={raw!r} must be a whole number of at least 1")
    return int(raw)


def env_admin_url() -> str:
    """Where the Django admin lives ("admin/" by default); empty turns the admin off."""
    raw = env.str("ADMIN_URL", default="admin/").strip().strip("/")
    if raw and not re.fullmatch(r"[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*", raw):
        raise ImproperlyConfigured(
            f"ADMIN_URL={raw!r} must be a path such as back-office/ (letters, digits, "
            "- . _ ~ and /), or empty to turn the admin off")
    return f"{raw}/" if raw else ""


def env_redis_url() -> str:
    url = env.str("REDIS_URL", default="").strip()
    if url and not url.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(f"REDIS_URL={url!r} must start with redis:// or rediss://")
    return url


def env_email() -> dict:
    """EMAIL_URL as Django's EMAIL_* settings (the values the URL leaves out keep Django's)."""
    raw = env.str("EMAIL_URL", default="consolemail://").strip() or "consolemail://"
    try:
        config = environ.Env.email_url_config(raw)
    except Exception as exc:  # django-environ raises several kinds
        raise ImproperlyConfigured(f"EMAIL_URL cannot be read: {exc}") from exc
    if not config.get("EMAIL_BACKEND"):
        raise ImproperlyConfigured(
            f"EMAIL_URL={raw!r}: use consolemail:// or smtp://user:password@host:port")
    return {name: value for name, value in config.items() if value not in (None, "")}


DEBUG = env_flag("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set it to a long random string, or set DEBUG=1 "
            "for a development server (which then uses a fixed development key)."
        )
    SECRET_KEY = "development-only-key-never-use-in-production"

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served from our own static files
    "tournaments.boards_history",  # the label "boards": migration history only (no models)
    "csp",
    "axes",  # failed director log-ins, per user and per address
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A table's result entry, confirm and agree with its code: answered here, before the
    # live polls, the session, CSRF, auth and messages, which they do not use; it gives its
    # answers the Content-Security-Policy itself (tournaments/api/hot.py).
    "tournaments.api.hot.TableWriteMiddleware",
    # An unchanged poll of a live page: a 304 from the cache, before the session or the
    # database is touched (tournaments/polls.py).
    "tournaments.web.polling.LivePollMiddleware",
    "csp.middleware.CSPMiddleware",
    # Pages answer GET, HEAD and POST only (the API answers its own methods).
    "tournaments.web.middleware.PageMethodsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a locked-out log-in into the lock-out page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": env_database(VAR_DIR / "db.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_redis_url()

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "tournaments.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.str("CACHE_PREFIX", default="duplicate"),
            # A dead or hung Redis must fail fast: a table's request reads the cache,
            # and carries on without it (tournaments/outages.py). redis-py would wait
            # 5 s for a hung server's answer.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# django-axes first: a locked-out user name or address is refused before any password is
# hashed, so a flood of guesses costs a couple of queries each, not a PBKDF2 run.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/director/"
LOGOUT_REDIRECT_URL = "/"

# --- Director log-in throttle (django-axes, counted in the database) ------------------
# LOGIN_FAILURE_LIMIT wrong passwords for one user name, or from one address, lock that
# user name, or that address, out of the console and the admin for LOGIN_LOCKOUT_MINUTES
# (counted from the last wrong password before the lock; tries while locked out do not
# extend it). The database keeps the count, so it works without Redis and survives a
# Redis outage; a locked-out try costs two small queries and no password hashing.
AXES_FAILURE_LIMIT = env_positive_int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env_positive_int("LOGIN_LOCKOUT_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # each on its own
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # the page can say when it ends
AXES_CLIENT_IP_CALLABLE = "tournaments.web.login.client_address"  # honours NUM_PROXIES
AXES_LOCKOUT_CALLABLE = "tournaments.web.login.locked_out"
AXES_VERBOSE = False
ADMIN_URL = env_admin_url()

LANGUAGE_CODE = "en-us"
# One way to write a date on every page: "26 Nov 2026" (config/formats/en/formats.py).
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = env.str("TIME_ZONE", default="America/New_York")
# The club's name, written into the results sent out (USEBIO's CLUB_NAME, PBN's Site).
CLUB_NAME = env.str("CLUB_NAME", default="").strip()
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise looks here at start-up
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(VAR_DIR / "media")))
MEDIA_URL = "media/"
REPORTS_PAGE_SIZE = env.str("REPORTS_PAGE_SIZE", default="letter")  # letter or a4
# A running print job touches its row this often, whatever its pages are doing; a job
# silent for four beats lost its worker and is sent again (tournaments/reports/README.md).
REPORTS_HEARTBEAT = env_positive_seconds("REPORTS_HEARTBEAT", default=5.0)

# --- HTTPS -------------------------------------------------------------------
# Off by default, so that `make run` works on plain http; a server turns them on
# (README, "Running it in production"). Behind a proxy that terminates TLS, Django
# sees plain http unless SECURE_PROXY_SSL_HEADER names the header the proxy sets:
# without it SECURE_SSL_REDIRECT would redirect every request forever.
SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", default=False)
# A load balancer's health probe often speaks plain http to the server itself.
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
SECURE_PROXY_SSL_HEADER = env_proxy_ssl_header()
SECURE_HSTS_SECONDS = env_seconds("SECURE_HSTS_SECONDS", default=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD", default=False)
if (SECURE_HSTS_INCLUDE_SUBDOMAINS or SECURE_HSTS_PRELOAD) and not SECURE_HSTS_SECONDS:
    raise ImproperlyConfigured(
        "SECURE_HSTS_INCLUDE_SUBDOMAINS and SECURE_HSTS_PRELOAD do nothing while "
        "SECURE_HSTS_SECONDS is 0: set SECURE_HSTS_SECONDS too (31536000 is a year)"
    )
if SECURE_HSTS_PRELOAD and not (SECURE_HSTS_INCLUDE_SUBDOMAINS and SECURE_HSTS_SECONDS >= 31536000):
    raise ImproperlyConfigured(
        "SECURE_HSTS_PRELOAD=1 is for the browsers' preload list, which takes a site only "
        "with SECURE_HSTS_INCLUDE_SUBDOMAINS=1 and SECURE_HSTS_SECONDS of 31536000 (a year) or more"
    )

# Cookies go over https only on a server (DEBUG off) or wherever https is enforced;
# SECURE_COOKIES=0 lets a server without TLS (a club's own laptop) keep its log-in.
SECURE_COOKIES = env_flag("SECURE_COOKIES", default=SECURE_SSL_REDIRECT or not DEBUG)
if SECURE_SSL_REDIRECT and not SECURE_COOKIES:
    raise ImproperlyConfigured(
        "SECURE_COOKIES=0 with SECURE_SSL_REDIRECT=1 would send the log-in cookie over plain "
        "http on a first visit: leave SECURE_COOKIES unset on an https site"
    )
SESSION_COOKIE_SECURE = SECURE_COOKIES
# Django's database sessions, read in a prepared statement on PostgreSQL (the table pages
# read one on every request): tournaments/sessions.py.
SESSION_ENGINE = "tournaments.sessions"
CSRF_COOKIE_SECURE = SECURE_COOKIES
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # the table page's small script reads it for fetch()

# --- Content-Security-Policy (django-csp) ------------------------------------
# Every script, style sheet, image and fetch comes from this site; no inline script
# or style at all (the templates link static files), no plugins, no framing, and
# forms post only here. The API docs add data: images (Swagger UI's icons; config/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],  # script-src, style-src, connect-src, font-src fall back here
        "img-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    },
}

# --- Celery -----------------------------------------------------------------
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A job survives a worker killed mid-job: the message is acknowledged only after
# the task returns, and a lost worker puts it back on the queue.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 24 * 3600

# --- REST framework ---------------------------------------------------------
REST_FRAMEWORK = {
    # Shared errors and path parameter bounds documented once (tournaments/api/schema.py).
    "DEFAULT_SCHEMA_CLASS": "tournaments.api.schema.ApiSchema",
    # JSON only, refused when nested too deep (before parsing) or holding a NUL character
    # (tournaments/api/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["tournaments.api.parsers.BoundedJSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_THROTTLE_RATES": {
        # Table codes are short; guessing them is throttled per client address.
        "table-code": env.str("TABLE_CODE_THROTTLE", default="10/minute"),
    },
    "EXCEPTION_HANDLER": "tournaments.api.errors.api_exception_handler",
    # Behind a reverse proxy, how many X-Forwarded-For hops to trust for client addresses
    # (the table-code throttle counts per address); 0 trusts none.
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0) or None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Duplicate Auction & Whist tournament API",
    "DESCRIPTION": (
        "Set up duplicate nights, enter scores from the tables, read standings and "
        "travellers. Scoring follows the Laws of Auction (1913) and the Laws of "
        "Duplicate Auction A-H."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # /api/docs/ loads Swagger UI from the project's static files, never from a CDN:
    # a club's laptop may have no internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One name for the grades of an adjusted score (the model's fields and the inputs).
    "ENUM_NAME_OVERRIDES": {"AdjustGradeEnum": "tournaments.models.ADJUST_GRADES"},
}

# --- E-mail (the players' score cards after publishing final) ---------------------------
# EMAIL_URL, read by django-environ: consolemail:// (the default: mail is written to the
# log, nothing is sent), smtp://user:password@host:25, smtp+tls://...:587 (STARTTLS) or
# smtp+ssl://...:465. A job has no request: links in the mail start with SITE_URL.
globals().update(env_email())  # EMAIL_BACKEND, EMAIL_HOST, EMAIL_PORT, EMAIL_USE_TLS...
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="scores@localhost").strip()
EMAIL_TIMEOUT = env_positive_int("EMAIL_TIMEOUT", default=10)
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").strip().rstrip("/")
if not re.fullmatch(r"https?://[^\s/]+(/[^\s]*)?", SITE_URL):
    raise ImproperlyConfigured(
        f"SITE_URL={SITE_URL!r} must be the site's address, such as https://club.example")

# A monitor sending "Authorization: Bearer <HEALTH_TOKEN>" gets /health/'s live check
# (directors get it from their session); empty: only directors do.
HEALTH_TOKEN = env.str("HEALTH_TOKEN", default="").strip()

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}
