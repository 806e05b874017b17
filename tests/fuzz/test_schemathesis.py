"""Schemathesis over the OpenAPI schema, against the live gunicorn, for each kind of caller.

Each role (the public, a table with its code, the director with a session) gets its own
server and its own night: a published 3-table Mitchell with pairs, a movement, boards
(one with a hand record), results, a ruling and a correction. Path parameters lean
towards that night's real rows (the fuzzer still draws others), so the requests reach
real objects and not only 404s.

The run is bounded (MAX_EXAMPLES per operation and phase, MAX_SECONDS per role) and
repeatable (a fixed seed, deterministic generation, no example database). Every answer
must be below 500 and conform to the schema: its status documented, its content type and
body as described; data the schema forbids must be refused with a 4xx; methods the
schema does not list must get 405.
"""

import os
import re
import secrets
import subprocess
import sys
import time
from dataclasses import dataclass

import pytest
from django.test import Client

from tests.api.helpers import THREE_HEARTS, build_night
from tests.factories import DirectorFactory
from tournaments import services
from tournaments.models import AuditEntry, Event, Result

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

SEED = 1913
MAX_EXAMPLES = 12
MAX_SECONDS = 45  # per role: with the servers' start, three roles take about three minutes
CHECKS = ",".join([
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
    "negative_data_rejection",
    "missing_required_header",
    "unsupported_method",
    "allow_header_conformance",
])
SCHEMATHESIS = [sys.executable, "-m", "schemathesis.cli"]
# A 5xx in gunicorn's access log: '"GET /api/... HTTP/1.1" 500 145'.
SERVER_ERROR = re.compile(r'HTTP/1\.[01]" 5\d\d ')


@pytest.fixture
def gunicorn_args() -> list[str]:
    # The fuzzer's query strings run to many kilobytes: gunicorn's own limit would answer
    # them (414, in HTML) before the application sees them. Let them through to Django.
    return ["--limit-request-line", "0"]


@dataclass
class Night:
    event: Event
    codes: dict[int, str]
    session_key: str
    result_ids: list[int]
    entry_ids: list[int]


def _night() -> Night:
    """A published, running night with results, committed for the live server to see."""
    director = DirectorFactory(username="fuzz-director")
    night = build_night(director)
    night.play_round(1, 1, agree=True)
    night.play_round(2, 1)
    night.enter(3, 1)
    actor = night.actor
    first = Result.objects.filter(event=night.event).order_by("pk").first()
    services.result_correct(result=first, actor=actor, data=THREE_HEARTS, ruling="",
                            offending="", reason="wrong contract written")
    meeting = night.meeting(3, 2)
    services.ruling_award(event=night.event, board=meeting.boards[0],
                          ns=meeting.ns_pair.number, ew=meeting.ew_pair.number, kind="average",
                          offending="", reason="a hand was short", actor=actor, meeting=meeting)
    services.event_publish(event=night.event, level=Event.Published.PROVISIONAL, actor=actor)
    client = Client()
    client.force_login(director)
    return Night(
        event=night.event,
        codes=night.codes,
        session_key=client.session.session_key,
        result_ids=list(Result.objects.filter(event=night.event).values_list("pk", flat=True)),
        entry_ids=list(AuditEntry.objects.filter(event=night.event).values_list("pk", flat=True)),
    )


def _toml_list(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _config(night: Night, role: str) -> str:
    """schemathesis.toml for one role: the night's rows as likely path parameters."""
    table = 2 if role == "table" else 1
    return f"""
seed = {SEED}
max-time = {MAX_SECONDS}
workers = 1  # one: Hypothesis' reflection caches are not safe across threads
continue-on-failure = true
request-timeout = 20

[generation]
deterministic = true
database = "none"
max-examples = {MAX_EXAMPLES}
with-security-parameters = false

[dictionaries.numbers]
values = [1, 2, 3, 4, 6]
[dictionaries.results]
values = {_toml_list(night.result_ids)}
[dictionaries.entries]
values = {_toml_list(night.entry_ids)}

[parameters]
"path.event_id" = {{ dictionary = "events", probability = 0.9 }}
"path.section" = {{ dictionary = "sections", probability = 0.8 }}
"path.table" = {{ dictionary = "tables", probability = 0.8 }}
"path.round" = {{ dictionary = "numbers", probability = 0.7 }}
"path.number" = {{ dictionary = "numbers", probability = 0.7 }}
"path.result_id" = {{ dictionary = "results", probability = 0.8 }}
"path.entry_id" = {{ dictionary = "entries", probability = 0.8 }}

[dictionaries.events]
values = [{night.event.pk}]
[dictionaries.sections]
values = ["A"]
[dictionaries.tables]
values = [{table}]
"""


def _headers(night: Night, role: str) -> list[str]:
    if role == "table":
        return ["-H", f"Authorization: Table {night.codes[2]}"]
    if role == "director":
        csrf = secrets.token_hex(16)  # a 32-character secret: cookie and header agree
        return ["-H", f"Cookie: sessionid={night.session_key}; csrftoken={csrf}",
                "-H", f"X-CSRFToken: {csrf}"]
    return []


@pytest.mark.parametrize("role", ["public", "table", "director"])
def test_the_api_answers_every_input_without_a_server_error(gunicorn_server, role, tmp_path):
    night = _night()
    config = tmp_path / "schemathesis.toml"
    config.write_text(_config(night, role))
    started = time.monotonic()
    run = subprocess.run(
        [*SCHEMATHESIS, "--config-file", str(config), "--no-color", "run",
         f"{gunicorn_server.url}/api/schema/?format=json", "--url", gunicorn_server.url,
         "--checks", CHECKS, *_headers(night, role)],
        cwd=tmp_path, capture_output=True, text=True, timeout=MAX_SECONDS + 120,
        env={**os.environ, "SCHEMATHESIS_HOOKS": ""},
    )
    took = time.monotonic() - started
    output = run.stdout + run.stderr
    (tmp_path / "output.txt").write_text(output)
    assert run.returncode == 0, f"{role}: schemathesis found problems ({took:.0f} s):\n{output}"
    # Also what Schemathesis might not have been shown (a request it gave up on).
    errors = [line for line in gunicorn_server.log().splitlines() if SERVER_ERROR.search(line)]
    assert errors == [], "\n".join(errors[:20])
