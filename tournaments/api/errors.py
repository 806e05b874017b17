"""Every error the API gives has one shape: ``{"error": message, "field": field}``.

Services speak in ServiceError (400), Forbidden (403), ResultConflict (409, with
the stored result under "existing") and UnusualResult (422, field "as_entered", with
the warnings under "warnings": send the result again with as_entered to save it; the
answer is not kept for its Idempotency-Key); a missing row is 404; DRF's own errors
(validation, authentication, throttling) are reshaped to the same form, the
first problem in "error" and all of them under "errors"; a body that cannot be read
(not JSON, or nested too deep) names the field "body".

DRF's own words for a value of the wrong kind ("A valid integer is required.", "Ensure
this value is less than or equal to 10.") are put in plain ones naming the field, with a
label a reader knows ("Carry over must be a whole number", "Players, item 2 must be
text"); a field's own message is left as it is written.
"""

import functools
import re
from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions, fields, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from ..presenters import sentence
from ..services import Forbidden, ResultConflict, ServiceError, UnusualResult
from .serializers import ResultOut

# DRF's words, by the field class and error code that say them, and the plain words put
# in their place. Only DRF's own default text is replaced (matched whole, see _drf_words).
_PLAIN_WORDS = (
    (fields.IntegerField, "invalid", "{label} must be a whole number"),
    (fields.IntegerField, "max_value", "{label} must be at most {max_value}"),
    (fields.IntegerField, "min_value", "{label} must be {min_value} or more"),
    (fields.IntegerField, "max_string_length", "{label} is too long a number"),
    (fields.CharField, "invalid", "{label} must be text"),
    (fields.CharField, "max_length", "{label} is at most {max_length} characters"),
    (fields.CharField, "min_length", "{label} needs at least {min_length} characters"),
    (fields.BooleanField, "invalid", "{label} is true or false"),
    (fields.ChoiceField, "invalid_choice", '{label}: "{input}" is not one of its choices'),
    (fields.ListField, "not_a_list", "{label} must be a list"),
    (fields.ListField, "empty", "{label} may not be empty"),
    (fields.ListField, "min_length", "{label} needs at least {min_length} items"),
    (fields.ListField, "max_length", "{label} takes at most {max_length} items"),
    (fields.DictField, "not_a_dict", "{label} must be an object (names and their values)"),
    (fields.DateField, "invalid", "{label} must be a date written {format}"),
    (serializers.Serializer, "invalid", "{label} must be a JSON object, not {datatype}"),
)
# A serializer's body that is not an object: DRF names the Python type it got.
_KINDS = {"list": "a list", "str": "text", "int": "a number", "float": "a number",
          "bool": "true or false", "NoneType": "null"}
_SIDES = {"ns": "N–S", "ew": "E–W"}


@functools.cache
def _drf_words() -> tuple[tuple[str, re.Pattern, str], ...]:
    """(code, DRF's default text as a pattern, plain words). Built on first use: DRF's
    texts are translatable and are only read once settings are loaded."""
    words = []
    for field_class, code, plain in _PLAIN_WORDS:
        text = re.escape(str(field_class.default_error_messages[code]))
        pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.*)", text)
        words.append((code, re.compile(pattern, re.DOTALL), plain))
    return tuple(words)


def _label(parts: list[str]) -> str:
    """The field as a reader names it: "carry_over" → "carry over", "ns_result" → "N–S
    result", players' third → "players, item 3"."""
    words = (" ".join(_SIDES.get(word, word) for word in part.split("_")) for part in parts)
    return ", ".join(words)


def _first_problem(detail: Any, path: str = "", label: tuple[str, ...] = ()
                   ) -> tuple[Any, str | None, list[str]]:
    """The first message in a DRF error detail, the dotted field it belongs to, and that
    field's label's parts (a list's item counted from 1)."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else str(key)
            part = f"item {key + 1}" if isinstance(key, int) else name  # a ListField's item
            return _first_problem(value, f"{path}.{name}" if path and name else path or name,
                                  (*label, part) if part else label)
    if isinstance(detail, list):
        for index, value in enumerate(detail):
            if value in ({}, []):
                continue  # list serializers report the good items as {}
            if not isinstance(value, (dict, list)):
                return _first_problem(value, path, label)
            return _first_problem(value, f"{path}.{index}", (*label, f"item {index + 1}"))
    return detail, path or None, list(label)


def _field_message(message: Any, field: str | None, label: list[str] | None = None) -> str:
    """DRF says "This field is required."; a player wants to know which field."""
    name = _label(label) if label else (field or "")
    code = getattr(message, "code", None)
    text = str(message)
    if code == "null" and text == "No data provided":  # the whole body is null
        return "The body must be a JSON object, not null"
    for drf_code, drf_text, plain in _drf_words():
        match = drf_text.fullmatch(text) if code == drf_code else None
        if match is not None:
            values = match.groupdict()
            if "datatype" in values:
                values["datatype"] = _KINDS.get(values["datatype"], values["datatype"])
            return sentence(plain.format(label=name or "the body", **values))
    if name and text.startswith(("This field", "This list")):
        return sentence(f"{name}: {text[0].lower()}{text[1:]}")
    return sentence(text)


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
        message, field, label = _first_problem(exc.detail)
        response.data = {
            "error": _field_message(message, field, label),
            "field": field,
            "errors": exc.detail,
        }
    elif isinstance(exc, exceptions.UnsupportedMediaType):
        response.data = {"error": "Send the body as JSON (Content-Type: application/json)",
                         "field": None}
    elif isinstance(exc, exceptions.APIException):
        message, _, _ = _first_problem(exc.detail)
        # A body that cannot be read is the body's fault (parsers.py may name a field in it).
        field = getattr(exc, "field", "body") if isinstance(exc, exceptions.ParseError) else None
        response.data = {"error": sentence(message), "field": field}
    elif isinstance(exc, Http404):
        response.data = {"error": sentence(str(exc) or "Not found."), "field": None}
    return response
