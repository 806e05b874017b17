"""The API's parser: DRF's JSON parser, refusing what no request needs before a view sees it.

The API reads JSON only (a form or multipart body is a 415): a list or an object in a
form has no single spelling, and every client of this API sends JSON.

- Depth. ``json.loads`` recurses once per level of nesting: a body of a hundred thousand
  "[" exhausts the interpreter's recursion limit (RecursionError, which DRF does not
  catch: a 500), and under gunicorn's worker threads, whose stacks are smaller, it can
  take the process down. No request of this API nests deeper than a deal result inside a
  request (four levels), so MAX_DEPTH leaves ample room; the depth is counted by one
  linear scan of the text (strings skipped) before ``json.loads`` sees it.
- NUL. PostgreSQL stores no NUL character (U+0000) in text or in jsonb, and DRF echoes a
  wrong value in its error ("\\u0000" is not a valid choice), which the idempotency
  record then stores: a body with a NUL in any string or key is refused.

- A key given twice in one object (``{"tricks": 9, "tricks": 10}``): a JSON reader keeps
  the last and drops the other without a word (inputs.unique_keys).

All are 400s naming the field (``field``: "body", or the path of the string holding the
NUL), as every parse error is (see errors.py).
"""

import codecs
import re
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser, get_encoding
from rest_framework.utils import json

from ..inputs import KeyGivenTwice, unique_keys

MAX_DEPTH = 32
# A JSON string (skipped whole: brackets inside it are text), or a bracket.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


class UnreadableBody(ParseError):
    """A body refused before any view reads it; ``field`` says where."""

    def __init__(self, message: str, *, field: str = "body"):
        super().__init__(message)
        self.field = field


def nested_deeper_than(text: str, limit: int) -> bool:
    """Does the JSON text open more than `limit` arrays or objects inside each other?"""
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                return True
        elif token in "]}":
            depth -= 1
    return False


def nul_at(data: Any, path: str = "") -> str | None:
    """The dotted path of the first string or key holding a NUL character, else None.
    (Called on parsed bodies, at most MAX_DEPTH deep.)"""
    if isinstance(data, str):
        return (path or "body") if "\x00" in data else None
    if isinstance(data, dict):
        items = ((str(key), value) for key, value in data.items())
    elif isinstance(data, list):
        items = ((str(index), value) for index, value in enumerate(data))
    else:
        return None
    for key, value in items:
        if "\x00" in key:
            return path or "body"  # the key itself cannot name the field
        found = nul_at(value, f"{path}.{key}" if path else key)
        if found is not None:
            return found
    return None


def _refuse_nul(data: Any) -> None:
    field = nul_at(data)
    if field is not None:
        raise UnreadableBody("a NUL character (\\u0000) cannot be stored: remove it",
                             field=field)


class BoundedJSONParser(JSONParser):
    """JSON bodies up to MAX_DEPTH levels deep, without NUL characters."""

    max_depth = MAX_DEPTH

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = get_encoding(parser_context or {})
        try:
            text = codecs.getreader(encoding)(stream).read()
        except ValueError as exc:  # not text in that encoding
            raise UnreadableBody(f"The body is not {encoding} text ({exc})") from None
        if nested_deeper_than(text, self.max_depth):
            raise UnreadableBody(f"the request body is nested more than {self.max_depth} "
                                 "levels deep: no request of this API needs that")
        try:
            parse_constant = json.strict_constant if self.strict else None
            data = json.loads(text, parse_constant=parse_constant, object_pairs_hook=unique_keys)
        except KeyGivenTwice as exc:
            raise UnreadableBody(str(exc), field=exc.key) from None
        except ValueError as exc:
            raise UnreadableBody(f"The body is not valid JSON ({exc})") from None
        _refuse_nul(data)
        return data
