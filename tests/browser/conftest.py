"""Browser tests: Playwright drives Debian's Chromium against pytest-django's live server.

Never downloads a browser: Chromium is /usr/bin/chromium (or $CHROMIUM). Every test
here carries ``pytest.mark.browser`` (tests/conftest.py skips it without Chromium, and
fails it under REQUIRE_SERVICES=1).

Two things about running Playwright's sync API next to the ORM in one thread:

- Playwright runs an asyncio loop in this thread (in a greenlet), so Django's
  async-unsafe check sees a running loop and refuses ORM calls. The tests do their
  database work between page actions, never inside a callback, so the check is
  switched off (DJANGO_ALLOW_ASYNC_UNSAFE) while a module's browser is open: a test-only
  setting, set and restored by the module-scoped fixture so no other test sees it.
- The browser is module-scoped, not session-scoped: a loop left running after the
  last browser test would make every later database test in the run fail the check.

Screenshots of the important steps go to test-artifacts/browser/<test>--<nn>-<step>.png.
"""

from __future__ import annotations

import datetime
import os
import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connections

from boards.dealing import deal_boards
from tests.conftest import CHROMIUM
from tests.factories import DirectorFactory
from tournaments import presenters, services, standings
from tournaments.forms import PairLine
from tournaments.models import Event, Meeting, Result, TableCode
from tournaments.services import Actor

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
CHROMIUM_ARGS = [
    # No network on the test machines: without these Chromium keeps trying to reach
    # Google's services and floods the log with refused connections.
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True,
         "user_agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
                       "(KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36"}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PASSWORD = "pass-word-123"  # tests.factories.UserFactory's
TIMEOUT_MS = 10_000

PAIR_NAMES = [
    ("Ann Lee", "Bob Ray"), ("Cy Dow", "Di Eck"), ("Ed Fox", "Flo Gay"), ("Gus Hay", "Hal Ing"),
    ("Ida Joy", "Jo King"), ("Kit Lamb", "Lou Moss"), ("Max Ney", "Ned Orr"),
    ("Oda Pym", "Pat Quin"),
]
DENOMINATIONS = ["H", "S", "NT", "D", "C", "RS"]
# Runs before the page's own scripts (Playwright's init scripts are not subject to the CSP).
CSP_LISTENER = """document.addEventListener("securitypolicyviolation", e => console.error(
  `CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || "inline"}`
  + ` at ${e.sourceFile || e.documentURI}:${e.lineNumber}`));"""


# --- the browser -------------------------------------------------------------------------


def _chromium() -> str:
    return CHROMIUM if os.path.exists(CHROMIUM) else "/usr/bin/chromium"


@pytest.fixture(scope="module")
def chromium():
    """One Chromium per test module (see the module docstring for why not per session)."""
    from playwright.sync_api import sync_playwright

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=_chromium(),
                                                 args=CHROMIUM_ARGS)
            try:
                yield browser
            finally:
                browser.close()
    connections.close_all()


@dataclass
class Browser:
    """Opens pages in fresh browser contexts (each its own cookies: a phone, the
    director's laptop, a spectator) and records what goes wrong in them."""

    chromium: object
    base_url: str
    test_name: str
    contexts: list = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    shots: int = 0

    def page(self, *, phone: bool = False):
        context = self.chromium.new_context(base_url=self.base_url,
                                            **(PHONE if phone else DESKTOP))
        context.set_default_timeout(TIMEOUT_MS)
        self.contexts.append(context)
        page = context.new_page()
        self.watch(page)
        return page

    def watch(self, page) -> None:
        # A script error on a page is a bug even when the test's steps still pass; so is
        # anything the Content-Security-Policy blocked (a style, a script, an image).
        page.on("pageerror", lambda exc: self.errors.append(f"{page.url}: {exc}"))
        page.add_init_script(CSP_LISTENER)
        page.on("console", lambda message: self._console(page, message))

    def _console(self, page, message) -> None:
        # Chromium reports a blocked load or inline script on the console ("Refused to
        # ... because it violates the following Content Security Policy directive"), and
        # CSP_LISTENER repeats every securitypolicyviolation event there.
        if "Content Security Policy" in message.text or "CSP violation" in message.text:
            self.errors.append(f"{page.url}: {message.text}")

    def shot(self, page, step: str) -> Path:
        """Save a full-page screenshot of this step: <test>--<nn>-<step>.png."""
        self.shots += 1
        slug = re.sub(r"[^a-z0-9]+", "-", step.lower()).strip("-")
        path = ARTIFACTS / f"{self.test_name}--{self.shots:02d}-{slug}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        # A page's poll may still be inside a request, in a transaction, when its page
        # closes: let the live server finish it before the test database is flushed, or
        # the flush's TRUNCATE and that request can deadlock.
        wait_for_requests_to_end()


def wait_for_requests_to_end(timeout: float = 10.0) -> None:
    """Wait until the live server's request threads have all ended (at most `timeout`)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        busy = [t for t in threading.enumerate()
                if "process_request_thread" in t.name and t.is_alive()]
        if not busy:
            return
        busy[0].join(timeout=0.1)


@pytest.fixture
def browser(chromium, live_server, request) -> Iterator[Browser]:
    name = re.sub(r"[^A-Za-z0-9_]+", "_", request.node.name)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for old in ARTIFACTS.glob(f"{name}--*.png"):
        old.unlink()  # a re-run replaces the test's screenshots, never mixes them
    helper = Browser(chromium=chromium, base_url=live_server.url, test_name=name)
    yield helper
    helper.close()
    assert not helper.errors, "script errors on the pages:\n" + "\n".join(helper.errors)


@pytest.fixture(autouse=True)
def _clean_state(settings):
    """Each test starts with an empty cache (throttle counters, submission tokens) and
    cold standings; the live server speaks plain http, so cookies must not be Secure."""
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    cache.clear()
    standings.clear_cache()
    yield
    cache.clear()
    standings.clear_cache()
    # ORM calls made between page actions may hold their own connection: close them
    # all, or one outlives the test database (PostgreSQL refuses to drop it).
    connections.close_all()


# --- people and nights ---------------------------------------------------------------------


@pytest.fixture
def director(transactional_db):
    return DirectorFactory(username="dora")


def log_in(page, user, *, next_url: str = "/director/") -> None:
    """The director logs in through the login form."""
    page.goto(f"/accounts/login/?next={next_url}")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"**{next_url}")


def play_for(board: int, table: int) -> dict:
    """A varied but fixed deal result: made, over- and under-made across the tables."""
    level = 1 + (board + table) % 3
    return {
        "contract": {"level": level, "denomination": DENOMINATIONS[board % 6],
                     "declarer": "NESW"[(board + table) % 4], "doubled": ""},
        "tricks": 6 + level + (table % 3) - 1,
    }


@dataclass
class Night:
    """A night built through the services, as the console would build it."""

    event: Event
    director: object

    @property
    def actor(self) -> Actor:
        return Actor.director(self.director)

    def meetings(self) -> list[Meeting]:
        return list(Meeting.objects.filter(section__event=self.event)
                    .select_related("ns_pair", "ew_pair", "section").order_by("round", "table"))

    def meeting(self, round_number: int, table: int) -> Meeting:
        return next(m for m in self.meetings() if (m.round, m.table) == (round_number, table))

    def code(self, table: int) -> str:
        return TableCode.objects.get(section__event=self.event, table=table).code

    def enter(self, meeting: Meeting, board: int, data: dict | None = None, *,
              confirm: bool = True) -> Result:
        """The table records a board (and East-West confirm it), through the services."""
        actor = Actor.at_table(meeting.section, meeting.table)
        result, _ = services.result_record(
            event=self.event, board=board, ns=meeting.ns_pair.number, ew=meeting.ew_pair.number,
            data=data or play_for(board, meeting.table), actor=actor, meeting=meeting)
        if confirm:
            result = services.result_confirm(result=result, actor=actor,
                                             by=f"E-W pair {meeting.ew_pair.number}")
        return result

    def play(self, *, keep: Callable[[Meeting, int], bool] = lambda m, b: True) -> int:
        """Every table records every board it plays (those `keep` accepts); returns how many.

        A table enters only the round it is at: before it plays a later round, the director
        agrees the rounds it leaves (as the tables would once all is confirmed)."""
        count = 0
        for meeting in self.meetings():
            if any(keep(meeting, board) for board in meeting.boards):
                for earlier in range(1, meeting.round):  # agreed ones stay as they are
                    services.round_agree(section=meeting.section, round_number=earlier,
                                         actor=self.actor, tables=[meeting.table])
            for board in meeting.boards:
                if keep(meeting, board) and not Result.objects.filter(
                        meeting=meeting, board__number=board, voided=False).exists():
                    self.enter(meeting, board)
                    count += 1
        return count


def build_night(director, *, published: str = Event.Published.PROVISIONAL) -> Night:
    """Eight pairs, a 4-table skip Mitchell of 2-board rounds, dealt hands, running."""
    from boards.movements import generate

    actor = Actor.director(director)
    event = services.event_create(name="Thursday duplicate", date=datetime.date(2026, 11, 19),
                                  rules="american-1913", kind="pairs", method="plus-minus",
                                  actor=actor)
    services.pairs_set(event=event, lines=[PairLine(number=n, players=list(p), team=None)
                                           for n, p in enumerate(PAIR_NAMES, start=1)],
                       actor=actor)
    movement = generate("mitchell", tables=4, boards_per_round=2, variant="skip")
    services.movement_and_boards_set(section=event.sections.get(), movement=movement, actor=actor)
    deals = dict(enumerate(deal_boards(movement.boards, random.Random(1913)), start=1))
    services.boards_set(event=event, count=movement.boards, deals=deals, actor=actor)
    services.event_set_status(event=event, status=Event.Status.RUNNING, actor=actor)
    if published != Event.Published.NONE:
        event = services.event_publish(event=event, level=published, actor=actor)
    return Night(event=Event.objects.get(pk=event.pk), director=director)


@pytest.fixture
def night(director) -> Night:
    return build_night(director)


# --- reading the pages ---------------------------------------------------------------------


def signed(value: int) -> str:
    """A plus/minus score as the pages print it (bridge's |signed, table.js's signed)."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"


ROWS_JS = """direction => Array.from(
    document.querySelectorAll(`[data-testid=ranking-${direction}] tbody tr`))
  .filter(r => r.cells.length >= 5).map(r => ({
    place: r.cells[0].innerText.trim(), pair: r.cells[1].innerText.trim(),
    names: r.cells[2].innerText.trim(), score: r.cells[3].innerText.trim(),
    exact: r.cells[3].getAttribute('title'), boards: r.cells[4].innerText.trim()}))"""


def ranking_rows(page, direction: str) -> list[dict]:
    """The rows of a standings table on the public page, as the reader sees them."""
    return page.evaluate(f"({ROWS_JS})({direction!r})")


def expected_rows(table: dict, direction: str) -> list[dict]:
    """The same rows from tournaments.standings.standings(event)."""
    ranking = next(r for r in table["rankings"] if r["direction"] == direction)
    return [{"place": row["place"], "pair": str(row["pair"]), "names": " & ".join(row["names"]),
             "score": signed(row["score"]),
             "exact": f"exactly {presenters.signed_exact(row['exact'])}",
             "boards": presenters.boards_played(row["boards"], row.get("not_played", 0))}
            for row in ranking["rows"]]
