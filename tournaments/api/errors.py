"""Every error the API gives has one shape: ``{"error": message, "field": field}``.

Services speak in ServiceError (400), Forbidden (403), ResultConflict (409, with
the stored result under "existing") and UnusualResult (422, field "as_entered", with
the warnings under "warnings": send the result again with as_entered to save it; the
answer is not kept for its Idempotency-Key); a missing row is 404; DRF's own errors
(validation, authentication, throttling) are reshaped to the same form, the
first problem in "error" and all of them under "errors"; a body that cannot be read
(not JSON, or nested too deep) names the field "body".
"""

from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from ..presenters import sentence
from ..services import Forbidden, ResultConflict, ServiceError, UnusualResult
from .serializers import ResultOut


def _first_problem(detail: Any, path: str = "") -> tuple[str, str | None]:
    """The first message in a DRF error detail, and the dotted field it belongs to."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else str(key)
            return _first_problem(value, f"{path}.{name}" if path and name else path or name)
    if isinstance(detail, list):
        for index, value in enumerate(detail):
            if value in ({}, []):
                continue  # list serializers report the good items as {}
            inner = path if not isinstance(value, (dict, list)) else f"{path}.{index}"
            return _first_problem(value, inner)
    return str(detail), path or None


def _field_message(message: str, field: str | None) -> str:
    """DRF says "This field is required."; a player wants to know which field."""
    if field and message.startswith("This field"):
        return sentence(f"{field}: {message[0].lower()}{message[1:]}")
    return sentence(message)


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, ResultConflict):
        return Response(
            {"error": exc.message, "field": exc.field, "existing": ResultOut(exc.existing).data},
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, UnusualResult):
        response = Response(
            {"error": exc.message, "field": exc.field,
             "warnings": [w.to_dict() for w in exc.warnings]},
            status=status.HTTP_422_UNPROCESSABLE_ENTITY,
        )
        # A question, not an answer: the table sends the same submission again with
        # as_entered, and may use the same Idempotency-Key (see idempotency.py).
        response.keep_key_free = True
        return response
    if isinstance(exc, Forbidden):
        return Response({"error": exc.message, "field": exc.field},
                        status=status.HTTP_403_FORBIDDEN)
    if isinstance(exc, ServiceError):
        return Response({"error": exc.message, "field": exc.field},
                        status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RequestDataTooBig):
        # Django refuses the body before any parser sees it; say so in the API's own shape.
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1_000_000
        return Response({"error": f"The request is too large: at most {limit} MB.",
                         "field": "body"}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ObjectDoesNotExist) and not isinstance(exc, Http404):
        exc = exceptions.NotFound("Not found.")
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # a real failure: let it be a 500 and be logged
    if isinstance(exc, exceptions.ValidationError):
        message, field = _first_problem(exc.detail)
        response.data = {
            "error": _field_message(message, field),
            "field": field,
            "errors": exc.detail,
        }
    elif isinstance(exc, exceptions.APIException):
        message, _ = _first_problem(exc.detail)
        # A body that cannot be read is the body's fault (parsers.py may name a field in it).
        field = getattr(exc, "field", "body") if isinstance(exc, exceptions.ParseError) else None
        response.data = {"error": sentence(message), "field": field}
    elif isinstance(exc, Http404):
        response.data = {"error": sentence(str(exc) or "Not found."), "field": None}
    return response
