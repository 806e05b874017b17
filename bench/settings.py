"""Settings for the benchmarks: the project's own, plus one bench-only URL.

The bench serves the real application (config.settings, the real API) and, beside
it, a bare endpoint that inserts one row with raw SQL: the floor the API's POST
throughput is compared with, measured by the same gunicorn, middleware and clients.
"""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
