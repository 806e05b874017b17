"""Idempotent submissions: a retried POST gets the first answer back.

A phone on club wifi often loses the answer to a score it sent, and sends again.
Each write carries an ``Idempotency-Key`` header (a table must send one; the
director may). The first request with a key *claims* it by inserting an
IdempotencyRecord with no status yet; when it finishes, its status and body are
stored on the record. Then, for the same caller and key:

- the same request again gets the stored answer (same status, same body);
- a different request gets 422: the key was used for something else;
- while the first is still running, 409: try again in a moment.

One answer is not kept: the 422 that asks a table to look again at an unusual result
(``keep_key_free`` on the response). It writes nothing, and the table's next step is the
same submission with ``as_entered``: under the same key, that is a new request.

Modelled on pretix's IdempotencyMiddleware, as a decorator on the write handlers
(after authentication, so the key is scoped to the authenticated caller).

Races: the claim is an INSERT in its own short transaction, committed before the
write starts. Two requests with the same key race on the unique constraint
(scope, key): exactly one INSERT wins; the loser gets IntegrityError and reads
the winner's record. Nothing is read-then-written, so there is no window in
which both could believe they own the key.
"""

import functools
import hashlib
import json
from collections.abc import Callable
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework import status
from rest_framework.exceptions import ParseError
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from ..models import IdempotencyRecord
from .auth import idempotency_scope, table_of

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 64
# A record still "running" after this long belonged to a process that died between
# claiming the key and storing the answer; a retry may take it over.
STALE_AFTER = timedelta(minutes=2)
# A phone retries within minutes; keep answers well beyond that, then let them go.
KEEP_FOR = timedelta(days=2)
# Answers worth replaying. A 5xx is a failure to answer at all: the record is
# dropped so that a retry runs the request again (like pretix).
_REPLAYED = range(200, 500)

REUSED = "This key was used for a different request"
RUNNING = "the first request with this key is still being processed"


def request_hash(request) -> str:
    """What makes two requests "the same": method, path and the JSON body (key order ignored)."""
    body = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    text = f"{request.method} {request.path}\n{body}"
    return hashlib.sha256(text.encode()).hexdigest()


def _error(message: str, code: int, field: str | None = None) -> Response:
    return Response({"error": message, "field": field}, status=code)


def _claim(scope: str, key: str, digest: str) -> tuple[IdempotencyRecord | None, Response | None]:
    """Claim the key: (record, None) when this request owns it, else (None, the answer)."""
    for _attempt in range(3):
        try:
            # Its own transaction: committed at once, so concurrent requests see the claim.
            with transaction.atomic():
                return IdempotencyRecord.objects.create(
                    scope=scope, key=key, request_hash=digest, status_code=None
                ), None
        except IntegrityError:
            pass
        record = IdempotencyRecord.objects.filter(scope=scope, key=key).first()
        if record is None:
            continue  # the first request failed and let go of the key: claim it again
        if record.request_hash != digest:
            return None, _error(REUSED, status.HTTP_422_UNPROCESSABLE_ENTITY, HEADER)
        if record.status_code is not None:
            replay = Response(record.response, status=record.status_code)
            replay["Idempotent-Replayed"] = "true"
            return None, replay
        # Take over a claim whose owner died; the conditional UPDATE lets only one retry win.
        stale = timezone.now() - STALE_AFTER
        now = timezone.now()
        taken = IdempotencyRecord.objects.filter(
            pk=record.pk, status_code__isnull=True, created_at__lt=stale
        ).update(created_at=now)
        if taken:
            record.created_at = now
            return record, None
        response = _error(RUNNING, status.HTTP_409_CONFLICT, HEADER)
        response["Retry-After"] = "1"
        return None, response
    response = _error(RUNNING, status.HTTP_409_CONFLICT, HEADER)
    response["Retry-After"] = "1"
    return None, response


def _store(record: IdempotencyRecord, response: Response) -> None:
    if response.status_code not in _REPLAYED or getattr(response, "keep_key_free", False):
        IdempotencyRecord.objects.filter(pk=record.pk).delete()
        return
    # Stored as it was rendered, so a replay is byte-for-byte the same JSON.
    body = json.loads(JSONRenderer().render(response.data) or b"null")
    IdempotencyRecord.objects.filter(pk=record.pk).update(
        status_code=response.status_code, response=body
    )


def idempotent(handler: Callable) -> Callable:
    """Make a write handler (``post``/``put``/``patch``) of an APIView idempotent."""

    @functools.wraps(handler)
    def wrapper(view, request, *args, **kwargs):
        key = request.headers.get(HEADER, "").strip()
        if not key:
            if table_of(request) is not None:
                return _error(
                    "send an Idempotency-Key header with each submission, so a resend after "
                    "a lost connection is not counted twice",
                    status.HTTP_400_BAD_REQUEST,
                    HEADER,
                )
            return handler(view, request, *args, **kwargs)
        if len(key) > MAX_KEY_LENGTH:
            return _error(f"the Idempotency-Key may be at most {MAX_KEY_LENGTH} characters",
                          status.HTTP_400_BAD_REQUEST, HEADER)
        try:
            digest = request_hash(request)
        except ParseError as exc:
            return view.handle_exception(exc)
        record, answer = _claim(idempotency_scope(request), key, digest)
        if answer is not None:
            return answer
        try:
            try:
                response = handler(view, request, *args, **kwargs)
            except Exception as exc:  # turn service errors into their response, to store it
                response = view.handle_exception(exc)  # re-raises what it cannot answer
        except BaseException:
            IdempotencyRecord.objects.filter(pk=record.pk).delete()
            raise
        _store(record, response)
        return response

    wrapper.idempotent = True
    return wrapper


def purge(*, older_than: timedelta = KEEP_FOR) -> int:
    """Forget keys older than `older_than` (housekeeping for a periodic job); returns how many."""
    cutoff = timezone.now() - older_than
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    return deleted
