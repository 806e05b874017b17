"""What a caller types, read strictly: numbers in a query string or a form, and text.

Python's ``str.isdigit`` is true of "²" and "٣", and ``int`` reads "1_000", " 7 " and
Arabic-Indic digits; a number that reaches the database beyond its column's range is a
server error, not an answer. So a number typed by a caller is ASCII digits only, and
within the range of the column it is compared with (``column_range``: the portable range
of the field's type, the same on SQLite and PostgreSQL). Anything else is the caller's
mistake, answered with a ServiceError naming the field (400 in the API).

Text is refused with NUL or other control characters (PostgreSQL cannot store NUL in
text; the others have no place in a name or a reason).

A JSON object with a key given twice (``{"tricks": 9, "tricks": 10}``) is refused where
JSON is read (the API, the night file): a JSON reader keeps the last value and drops the
other without a word (``unique_keys``).
"""

import re
from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations

from .services import ServiceError

_DIGITS = re.compile(r"[0-9]{1,20}")
# C0 controls and DEL, and the C1 controls: never part of a name, a code or a reason.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_CONTROL_IN_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def column_range(model: type[models.Model], field: str) -> tuple[int, int]:
    """The values an integer column of `model` can hold, by its type (not by database)."""
    internal = model._meta.get_field(field).get_internal_type()
    return BaseDatabaseOperations.integer_field_ranges[internal]


def column_length(model: type[models.Model], field: str) -> int:
    """The max_length of a text column of `model`."""
    return model._meta.get_field(field).max_length


def whole_number(raw: str, *, field: str, low: int, high: int) -> int:
    """`raw` as a whole number in low..high, or a ServiceError naming `field`."""
    if not _DIGITS.fullmatch(raw):
        raise ServiceError(f"{field} must be a whole number (digits 0-9)", field=field)
    value = int(raw)
    if not low <= value <= high:
        raise ServiceError(f"{field} must be between {low} and {high}", field=field)
    return value


def query_number(params: Mapping[str, str], name: str, *, low: int, high: int,
                 blank_is_absent: bool = False) -> int | None:
    """The number in query parameter `name`; None when it is not there (or blank, for the
    web pages' forms, which send their empty fields)."""
    raw = params.get(name)
    if raw is None or (blank_is_absent and not raw.strip()):
        return None
    return whole_number(raw, field=name, low=low, high=high)


def no_control_characters(value: str) -> None:
    """A validator for one line of text: a name, a code, a reason."""
    if _CONTROL.search(value):
        raise ValidationError("Control characters (such as NUL) are not allowed here",
                              code="control_characters")


def no_control_characters_in_lines(value: str) -> None:
    """A validator for text of several lines: new lines and tabs are allowed."""
    if _CONTROL_IN_LINES.search(value):
        raise ValidationError("Control characters (such as NUL) are not allowed here",
                              code="control_characters")


class KeyGivenTwice(ValueError):
    """A JSON object names one key twice: which value was meant cannot be known."""

    def __init__(self, key: str):
        super().__init__(f"{key} is given twice in one object; give it once")
        self.key = key


def unique_keys(pairs: list[tuple[str, object]]) -> dict:
    """json.loads's object_pairs_hook: the object, or KeyGivenTwice for a key given twice."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise KeyGivenTwice(key)
            seen.add(key)
    return obj
