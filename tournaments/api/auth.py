"""Who is calling: the director (a staff session), a table (its code), or the public.

A table sends its code in a header: ``Authorization: Table K7P2QX``. The request's
``auth`` then carries the TableCode (with its section and event); ``user`` stays
anonymous, so nothing a table does is mistaken for the director. Codes the caller
does not already hold are throttled per client and per address (tournaments/throttle.py).
"""

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed

from .. import access, selectors
from ..models import TableCode
from ..services import Actor
from ..tablecodes import normalise
from .throttling import CodeGate, TooManyWrongCodes

KEYWORD = "Table"


class TableCodeAuthentication(BaseAuthentication):
    """``Authorization: Table <code>``: the request comes from that table."""

    def authenticate(self, request):
        header = get_authorization_header(request).decode("latin-1").split()
        if not header or header[0].lower() != KEYWORD.lower():
            return None  # not a table: let the session (director) have a go
        code = normalise(" ".join(header[1:]))
        gate = CodeGate(request)
        table_code = selectors.table_by_code(code) if code else None
        if not gate.holds(code):
            verdict = gate.decide(code, right=table_code is not None)
            if not verdict.allowed:
                raise TooManyWrongCodes(wait=verdict.wait)
        if table_code is None:
            raise AuthenticationFailed(
                "That table code is not known: check the code on the table card."
            )
        return AnonymousUser(), table_code

    def authenticate_header(self, request) -> str:
        return KEYWORD


class TableCodeScheme(OpenApiAuthenticationExtension):
    """Describes the table code to the OpenAPI schema."""

    target_class = TableCodeAuthentication
    name = "tableCode"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": 'A table\'s code on its table card, sent as "Table <code>".',
        }


def table_of(request) -> TableCode | None:
    """The table making this request, or None."""
    auth = getattr(request, "auth", None)
    return auth if isinstance(auth, TableCode) else None


def is_director(request) -> bool:
    return access.is_director(getattr(request, "user", None))


def actor_for(request) -> Actor:
    """The services' Actor for this caller (only called once a writer is established)."""
    table = table_of(request)
    if table is not None:
        return Actor.at_table(table.section, table.table)
    return Actor.director(request.user)


def idempotency_scope(request) -> str:
    """Keys are private to their caller: a table's key never collides with another's."""
    table = table_of(request)
    if table is not None:
        return table_scope(table.pk)
    return user_scope(request.user.pk)


def table_scope(table_code_id: int) -> str:
    """The Idempotency-Keys' scope of a table code's requests."""
    return f"table:{table_code_id}"


def user_scope(user_id: int) -> str:
    """The Idempotency-Keys' scope of a signed-in user's requests (the director's)."""
    return f"user:{user_id}"
