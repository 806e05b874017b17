"""Path converters for every address of the API and the web pages.

Django's ``int`` takes any run of digits, so /pairs/40000/ reached the database (a pair
number is a small integer: a server error on insert) and /results/99999999999999999999/
overflowed a bigint. Its ``str`` takes NUL and other control characters, which
PostgreSQL refuses in a query. These converters match only values the column can hold,
so anything else matches no address: 404 (JSON under /api/, see api/urls.py).

- ``id``: a row's primary key (BigAutoField), 1 to 2⁶³−1;
- ``number``: a pair, board, table or round number (PositiveSmallIntegerField, and
  numbered from 1), 1 to 32767;
- ``name``: a section's name, a table code or a report's kind: printable text, no "/",
  at most 40 characters.
"""

from django.urls import register_converter

from .inputs import column_range
from .models import Board, Event, Meeting, Pair

ROW_ID = (1, column_range(Event, "id")[1])  # every model's key is a BigAutoField
# Pairs, boards, tables and rounds share one column type; all are numbered from 1.
NUMBER = (1, min(column_range(Pair, "number")[1], column_range(Board, "number")[1],
                 column_range(Meeting, "table")[1], column_range(Meeting, "round")[1]))
# Longer than any section name (10) or table code (12), which a link may carry with spaces
# or dashes.
NAME_LENGTH = 40


class _Bounded:
    """ASCII digits within [low, high]; anything else is no match (ValueError)."""

    low: int
    high: int

    def to_python(self, value: str) -> int:
        number = int(value)
        if not self.low <= number <= self.high:
            raise ValueError(f"{value} is outside {self.low}..{self.high}")
        return number

    def to_url(self, value: int) -> str:
        return str(value)


class RowIdConverter(_Bounded):
    regex = "[0-9]{1,19}"
    low, high = ROW_ID


class NumberConverter(_Bounded):
    regex = "[0-9]{1,5}"
    low, high = NUMBER


class NameConverter:
    # No "/", no C0 or C1 control character, no DEL.
    regex = rf"[^/\x00-\x1f\x7f-\x9f]{{1,{NAME_LENGTH}}}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(RowIdConverter, "id")
register_converter(NumberConverter, "number")
register_converter(NameConverter, "name")

# What the OpenAPI schema says of each (drf-spectacular's PATH_CONVERTER_OVERRIDES).
SCHEMA = {
    "id": {"type": "integer", "format": "int64", "minimum": ROW_ID[0], "maximum": ROW_ID[1]},
    "number": {"type": "integer", "minimum": NUMBER[0], "maximum": NUMBER[1]},
    "name": {"type": "string", "minLength": 1, "maxLength": NAME_LENGTH,
             "pattern": r"^[^/\u0000-\u001f\u007f-\u009f]+$"},
}
