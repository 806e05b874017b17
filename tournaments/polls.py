"""What the live pages poll, answered from the cache: has the event changed since?

Every phone polls its round's state and every public page the event's ``live`` JSON,
every few seconds (static/js/live.js, static/js/table.js). Most polls find nothing new.
Each answer carries an ETag naming the event's change number (``Event.seq``) it was
made from; the next poll sends it back (If-None-Match), and while the event's current
change number is still the same the answer is a bare 304, made from the cache alone:
no session, no database.

Terms:

- The *mark* of an event is its change number, with the moment its correction period
  ends (``Event.final_after``) if one is running, and what the live JSON says of it
  (published, status): ``Mark``. It lives in the cache (Redis) under
  ``poll:<event id>``, written after each change commits (``changed``, called where the
  change number is taken, ``services.base._lock_event``) and by each poll that had to
  read the event (``remember``).
- A *tag* is ``"<event>.<seq>.<mac>"``: the mac (an HMAC of the site's SECRET_KEY over
  the poll's path, the event and the seq) is given out only with a full answer, after
  the view checked who may see it. So a 304 goes only to whoever already saw that very
  state of that very URL: a made-up tag cannot tell an unpublished event from a missing
  one, nor open a table whose code the caller does not hold. A tag tells nothing new to
  its holder, so a director who has since logged out, or a phone whose session moved to
  another table, may still hear "nothing changed" about what it was shown.

After a change, a public page's poll is answered from the cache too while the event is
published (``live_answer``): published, its live JSON is everyone's to see. A phone's
round state depends on its table's meetings, so its poll after a change reads them.

Races: changes commit in seq order (the event's row lock), but their after-commit
writes may reach the cache in any order, and a poll may read the event just before a
change commits and write what it read just after. So the cache keeps the highest seq
it has been told, never a lower one (one Lua script, atomic in Redis): a late or
stale write changes nothing. What is in the cache may only lag the database, never
run ahead of it for long, and a lag only makes a poll read the event (a full answer).
The marks of one process's writes that meet are sent as one (``remember_mark``): under
a room's load many writes then make no round trip to Redis.

Each process keeps the mark it last read for ``RECENT`` seconds (one read of Redis a
second per event and process, rather than one per poll): a change made in another
process reaches a poll at most that much later, on top of the page's own 5 s.

Outages: when the cache is down (tournaments.outages) a poll reads the event as it
always did. A change that commits while Redis does not answer cannot move the mark;
if Redis comes back with its data, the mark would lag until the next change. Each mark
therefore lives ``TTL`` seconds only: a missing mark also means "read the event". With
the local-memory cache (no REDIS_URL) each process would have its own marks, which the
other processes' changes never move: the marks are kept only in Redis, and without it
every poll reads the event, as before.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime
from typing import NamedTuple

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import transaction
from django.utils.crypto import constant_time_compare, salted_hmac

from .models import Event
from .outages import cache_tolerant

TTL = 15  # seconds a mark is trusted without a change or a full answer renewing it
RECENT = 1.0  # seconds a process keeps the mark it last read from Redis
# event id -> (time.monotonic() when read, mark): this process's copies of the marks.
# Threads share it: a dict's get and set are atomic, and a lost update only costs a read.
_recent: dict[int, tuple[float, Mark]] = {}
SALT = "tournaments.polls"

# Keep the highest seq: KEYS[1] the mark, ARGV seq, the mark (Mark.encode), TTL. An equal
# seq is written again (it renews the TTL; it is the same committed state).
_KEEP_HIGHEST = """
local current = redis.call('GET', KEYS[1])
if current then
  local seq = tonumber(string.match(current, '^(%d+)'))
  if seq and seq > tonumber(ARGV[1]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 1
"""


def _redis(key: str):
    """(the redis-py client, the full key) for a mark, or None without Redis."""
    cache = caches["default"]
    if not isinstance(cache, RedisCache):
        return None
    full = cache.make_and_validate_key(f"poll:{key}")
    return cache._cache.get_client(full, write=True), full


class Mark(NamedTuple):
    """An event as a poll needs it: its change number, the end of its correction period
    (a Unix time, 0 if none is running), and what its live JSON says."""

    seq: int
    deadline: int
    published: str
    status: str

    @classmethod
    def of(cls, event: Event) -> Mark:
        return cls.of_values(event.seq, event.final_after, event.published, event.status)

    @classmethod
    def of_values(cls, seq: int, final_after: datetime | None, published: str,
                  status: str) -> Mark:
        deadline = int(final_after.timestamp()) if final_after is not None else 0
        return cls(seq, deadline, published, status)

    def encode(self) -> str:
        return f"{self.seq}:{self.deadline}:{self.published}:{self.status}"

    @classmethod
    def decode(cls, value: bytes) -> Mark:
        seq, deadline, published, status = value.decode("ascii").split(":")
        return cls(int(seq), int(deadline), published, status)

    def due(self) -> bool:
        """Has the correction period ended (the next full answer publishes it final)?"""
        return bool(self.deadline) and time.time() >= self.deadline

    def live(self) -> dict:
        """The event's live JSON (public.live), as of this mark."""
        return {"seq": self.seq, "published": self.published, "status": self.status}


def remember(event: Event) -> None:
    """Tell the cache the event is as `event` says (a lower seq than it knows changes
    nothing); this process reads the mark again at its next poll."""
    remember_mark(event.pk, Mark.of(event))


def remember_mark(event_id: int, mark: Mark) -> None:
    """Send `mark` to the cache, or leave it to the thread of this process sending marks
    now, which sends it before it stops (``_sending``). Uncontended, the mark is sent at
    once, by this thread; under a room's load, the writes of a process that meet while
    one mark is on its way are sent as one, the highest, and those writes wait for no
    round trip at all (about a third of them under the bench's result load). A mark lost
    to a failure (the process dying between a commit and the send, like an outage) makes
    the polls lag until the next change or the mark's TTL.
    """
    _recent.pop(event_id, None)
    with _sending.lock:
        held = _sending.pending.get(event_id)
        if held is None or mark.seq >= held.seq:
            _sending.pending[event_id] = mark
        if _sending.busy:
            return  # the sending thread takes it with its next batch
        _sending.busy = True
    try:
        while True:
            with _sending.lock:
                batch, _sending.pending = _sending.pending, {}
                if not batch:
                    _sending.busy = False
                    return
            for pending_id, pending in batch.items():
                _keep_highest(pending_id, pending)
    except BaseException:
        with _sending.lock:
            _sending.busy = False
        raise


class _Sending:
    """The marks this process's threads have left to send, and whether one is sending."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pending: dict[int, Mark] = {}
        self.busy = False


_sending = _Sending()


@cache_tolerant(default=None)
def _keep_highest(event_id: int, mark: Mark) -> None:
    found = _redis(str(event_id))
    if found is None:
        return
    client, key = found
    _keep_highest_script(client)(keys=[key], args=[mark.seq, mark.encode(), TTL], client=client)


_script: list = []  # _KEEP_HIGHEST as a redis-py Script, once made


def _keep_highest_script(client):
    """_KEEP_HIGHEST as a redis-py Script: sent by its SHA1 (EVALSHA), the text only when
    Redis does not know it yet, not with every write. One for the process: each call
    names the client that runs it."""
    if not _script:
        _script.append(client.register_script(_KEEP_HIGHEST))
    return _script[0]


def current(event_id: int) -> Mark | None:
    """The event's mark as the cache has it; None when it has none (or is down).

    A process asks Redis at most once every RECENT seconds per event: under load a round
    trip to Redis costs more than the rest of a 304 (the kernel hands the CPU to Redis
    and back). A change made in this process is seen at once (``remember``).
    """
    now = time.monotonic()
    recent = _recent.get(event_id)
    if recent is not None and now - recent[0] < RECENT:
        return recent[1]
    mark = _read(event_id)
    if mark is not None:
        _recent[event_id] = (now, mark)
    return mark


@cache_tolerant(default=None)
def _read(event_id: int) -> Mark | None:
    found = _redis(str(event_id))
    if found is None:
        return None
    client, key = found
    value = client.get(key)
    return None if value is None else Mark.decode(value)


def forget() -> None:
    """Drop this process's copies of the marks (tests)."""
    _recent.clear()


def changed(event: Event) -> None:
    """The event's change number has moved in this transaction: after it commits, move
    the mark (read then, so a status or publication set later in the transaction, on the
    same row object, is in). A rolled-back change never moves it."""
    transaction.on_commit(lambda: remember(event))


# --- tags ------------------------------------------------------------------------------------


class Tag(NamedTuple):
    """What a tag names: the event, its seq, and for a table's round state the fingerprint
    of what that answer is made of (``table_fingerprint``; "" for the live JSON)."""

    event: int
    seq: int
    fingerprint: str = ""

    def text(self, path: str) -> str:
        body = f"{self.event}.{self.seq}" + (f".{self.fingerprint}" if self.fingerprint else "")
        return f'"{body}.{_mac(path, self)}"'


def _mac(path: str, tag: Tag) -> str:
    message = f"{path}|{tag.event}|{tag.seq}|{tag.fingerprint}"
    return salted_hmac(SALT, message, algorithm="sha256").hexdigest()[:24]


def etag(path: str, event: Event, fingerprint: str = "") -> str:
    """The ETag of a full answer to the poll at `path` (with its query), made from `event`."""
    return Tag(event.pk, event.seq, fingerprint).text(path)


def table_fingerprint(status: str, rounds: list[tuple[int, bool]]) -> str:
    """What a table's round state (web/table.state, without ?board) is made of: the
    event's status and, round by round, whether the table's meeting is agreed (which says
    the round it is seated at). The same fingerprint, the same answer."""
    text = status + "|" + ",".join(f"{number}:{int(agreed)}" for number, agreed in rounds)
    return salted_hmac(SALT + ".table", text, algorithm="sha256").hexdigest()[:16]


def parse(path: str, if_none_match: str) -> Tag | None:
    """The tag this site gave for this path; None for any other."""
    text = if_none_match.strip()
    if text.startswith("W/"):
        text = text[2:]
    parts = text.strip('"').split(".")
    if len(parts) not in (3, 4) or not (parts[0].isdigit() and parts[1].isdigit()):
        return None
    tag = Tag(int(parts[0]), int(parts[1]), parts[2] if len(parts) == 4 else "")
    return tag if constant_time_compare(parts[-1], _mac(path, tag)) else None


def unchanged(tag: Tag) -> bool:
    """May this poll be answered 304 from the cache: is the event still at the tag's seq
    (and its correction period not over)?"""
    mark = current(tag.event)
    return mark is not None and mark.seq == tag.seq and not mark.due()


def live_answer(path: str, tag: Tag) -> tuple[dict, str] | None:
    """The live JSON after a change, and its tag, from the cache alone: for a caller that
    was shown the event (its tag), while the event is published. Published, it is
    everyone's to see (access.may_see_event), whoever the caller is now; unpublished, or
    its correction period over, the view decides (None)."""
    mark = current(tag.event)
    if mark is None or mark.due() or mark.published == Event.Published.NONE:
        return None
    return {"event": tag.event, **mark.live()}, Tag(tag.event, mark.seq).text(path)
