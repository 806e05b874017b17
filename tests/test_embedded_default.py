"""``make run``'s embedded default (SQLite, no Redis) serves the table's writes too.

The table's one-statement writes and their prepared reads are PostgreSQL's
(tournaments/prepared.py); on SQLite every write must go the full road. The suite runs on
PostgreSQL, so the table's page and the API's result tests are run again here, in a
process of their own on a SQLite database: a PostgreSQL-only statement reached on SQLite
(a `::` cast, a database function) fails them.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILES = ["tests/web/test_table_flow.py", "tests/api/test_results.py"]


def test_the_table_page_and_the_api_writes_work_on_sqlite(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "REQUIRE_SERVICES")}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", DEBUG="1")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-x", *FILES],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert run.stdout.count(".") >= 40, run.stdout  # the tests ran (not all skipped)
