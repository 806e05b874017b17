"""Idempotent submissions: a retried POST gets the first answer back.

A phone on club wifi often loses the answer to a score it sent, and sends again.
Each write carries an ``Idempotency-Key`` header (a table must send one; the
director may). The request *claims* the key by inserting an IdempotencyRecord, does
its write, and stores its answer on the record: all in one database transaction,
one commit. Then, for the same caller and key:

- the same request again gets the stored answer (same status, same body);
- a different request gets 422: the key was used for something else;
- while the first is still running, the second waits for it, then gets its answer.

One answer is not kept: the 422 that asks a table to look again at an unusual result
(``keep_key_free`` on the response). It writes nothing, and the table's next step is the
same submission with ``as_entered``: under the same key, that is a new request. Nor is a
5xx, which is a failure to answer at all: the whole transaction, claim and all, rolls
back, so a retry runs the request again (like pretix).

The table's result entry (the night's hot path) stores its answer itself, in the very
statement that stores the result (``services.Answer``, ``answer_for``), and its view runs
in one transaction from the table code's lookup on (``ApiView.atomic_methods``), so the
claim there takes no savepoint: one commit a POST.

Modelled on pretix's IdempotencyMiddleware, as a decorator on the write handlers
(after authentication, so the key is scoped to the authenticated caller).

Races: the claim is ``INSERT ... ON CONFLICT DO NOTHING`` on the unique constraint
(scope, key), the first statement of the request's transaction. Two requests with
the same key race on the constraint's index: the second INSERT waits until the
first transaction ends. If the first committed, the second inserts nothing and
reads the committed record (read committed: its next statement sees it) and
replays it; if the first rolled back, the second's INSERT goes through and it does
the work. Nothing is read-then-written, so there is no window in which both could
believe they own the key. A request whose process dies (a worker killed
mid-request) never commits: PostgreSQL rolls its transaction back as soon as it finds
the connection gone, and the key is free again, with no "still running" state for a
retry to wait out. Lock order: the key is claimed before the service takes the
event row (``services/base.py``), and a request claims only its own key, so the claim
adds no cycle.
"""

import functools
import hashlib
import json
from collections.abc import Callable
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone
from rest_framework import status
from rest_framework.exceptions import ParseError
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from .. import services
from ..models import IdempotencyRecord
from .auth import idempotency_scope, table_of

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 64
# A phone retries within minutes; keep answers well beyond that, then let them go.
KEEP_FOR = timedelta(days=2)
# Answers worth replaying. A 5xx is a failure to answer at all: nothing is kept, so
# that a retry runs the request again (like pretix).
_REPLAYED = range(200, 500)

REUSED = "This key was used for a different request"

# The claim: one statement, no savepoint (PostgreSQL; SQLite 3.35+ for RETURNING). It
# waits while another transaction holds the same key, then inserts nothing if that one
# committed. Columns as in IdempotencyRecord (its table is tournaments_idempotencyrecord).
_CLAIM_SQL = ("INSERT INTO tournaments_idempotencyrecord (scope, key, request_hash, created_at) "
              "VALUES (%s, %s, %s, %s) ON CONFLICT (scope, key) DO NOTHING RETURNING id")


def request_hash(request) -> str:
    """What makes two requests "the same": method, path and the JSON body (key order ignored)."""
    return digest_of(request.method, request.path, request.data)


def digest_of(method: str, path: str, data) -> str:
    """request_hash of a request with this method, path and parsed body (the table's hot
    path reads the body itself: tournaments/api/hot.py)."""
    body = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{method} {path}\n{body}".encode()).hexdigest()


def _error(message: str, code: int, field: str | None = None) -> Response:
    return Response({"error": message, "field": field}, status=code)


def _claim(scope: str, key: str, digest: str) -> tuple[int | None, Response | None]:
    """Claim the key in the current transaction: (record id, None) when this request owns
    it, else (None, the answer stored for it). Waits while another transaction holds it."""
    with connection.cursor() as cursor:
        cursor.execute(_CLAIM_SQL, [scope, key, digest, timezone.now()])
        row = cursor.fetchone()
    if row is not None:
        return row[0], None
    # Another request committed this key first (the INSERT waited for it to end).
    record = IdempotencyRecord.objects.filter(scope=scope, key=key).first()
    if record is None or record.status_code is None:
        # Only a purge between the two statements, or a claim committed without an
        # answer by an earlier release, can get here; neither is a request in progress.
        raise RuntimeError(f"the Idempotency-Key {key!r} has no stored answer; send it again")
    if record.request_hash != digest:
        return None, _error(REUSED, status.HTTP_422_UNPROCESSABLE_ENTITY, HEADER)
    replay = Response(record.response, status=record.status_code)
    replay["Idempotent-Replayed"] = "true"
    return None, replay


def answer_for(request, render) -> "services.Answer | None":
    """Where the handler's service may store the answer itself, in its own write (the
    table's result entry does): the claimed record and how to render the answer's body;
    None without a key. The handler marks a response so stored ``answer_stored``."""
    record_id = getattr(request, "idempotency_record", None)
    if record_id is None:
        return None
    return services.Answer(
        record_id=record_id,
        render=lambda result: json.loads(JSONRenderer().render(render(result)) or b"null"))


def _kept(response: Response) -> bool:
    return (response.status_code in _REPLAYED
            and not getattr(response, "keep_key_free", False))


def _store(record_id: int, response: Response) -> None:
    # Stored as it was rendered, so a replay is byte-for-byte the same JSON.
    body = json.loads(JSONRenderer().render(response.data) or b"null")
    IdempotencyRecord.objects.filter(pk=record_id).update(
        status_code=response.status_code, response=body)


class _NotKept(Exception):
    """Carries an answer that is not kept out of the claim's transaction, rolling it back
    (the claim with it: the key stays free)."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status_code)
        self.response = response


def scope_of(view, request) -> str:
    """Whose keys these are: the view's own scope when it names one (the score pad's
    ``idempotency_scope``: "pad:<code>"), else the caller's ("table:<id>", "user:<id>")."""
    own = getattr(view, "idempotency_scope", None)
    return own(request) if callable(own) else idempotency_scope(request)


def idempotent(handler: Callable) -> Callable:
    """Make a write handler (``post``/``put``/``patch``) of an APIView idempotent."""

    @functools.wraps(handler)
    def wrapper(view, request, *args, **kwargs):
        key = request.headers.get(HEADER, "").strip()
        if not key:
            if table_of(request) is not None:
                return _error(
                    "Send an Idempotency-Key header with each submission, so a resend after "
                    "a lost connection is not counted twice",
                    status.HTTP_400_BAD_REQUEST,
                    HEADER,
                )
            return handler(view, request, *args, **kwargs)
        if len(key) > MAX_KEY_LENGTH:
            return _error(f"The Idempotency-Key may be at most {MAX_KEY_LENGTH} characters",
                          status.HTTP_400_BAD_REQUEST, HEADER)
        try:
            digest = request_hash(request)
        except ParseError as exc:
            return view.handle_exception(exc)
        try:
            # One transaction: the claim, the service's write (its own atomic is a
            # savepoint inside this one, so a refused write leaves the claim standing to
            # store the refusal), and the answer. Anything raised rolls it all back.
            # Inside a request already made one transaction (ApiView.atomic_methods), the
            # claim takes no savepoint: an answer not kept rolls that transaction back.
            with transaction.atomic(savepoint=not getattr(request, "atomic_request", False)):
                record_id, answer = _claim(scope_of(view, request), key, digest)
                if answer is not None:
                    return answer
                request.idempotency_record = record_id
                try:
                    response = handler(view, request, *args, **kwargs)
                except Exception as exc:  # turn service errors into their response, to store it
                    response = view.handle_exception(exc)  # re-raises what it cannot answer
                if not _kept(response):
                    raise _NotKept(response)
                if not getattr(response, "answer_stored", False):  # stored with the write
                    _store(record_id, response)
                return response
        except _NotKept as not_kept:
            return not_kept.response

    wrapper.idempotent = True
    return wrapper


def purge(*, older_than: timedelta = KEEP_FOR) -> int:
    """Forget keys older than `older_than` (housekeeping for a periodic job); returns how many."""
    cutoff = timezone.now() - older_than
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    return deleted
