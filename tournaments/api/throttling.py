"""The API's side of the table-code throttle (tournaments/throttle.py holds the rules).

Only attempts with a code the caller does not already hold are counted, and a right
code gives its attempt back: a table that sends its code right is never slowed down.
"""

from rest_framework.exceptions import Throttled

from ..throttle import SCOPE, CodeGate, client_address, parse_rate

__all__ = ["SCOPE", "CodeGate", "TooManyWrongCodes", "client_address", "parse_rate"]


class TooManyWrongCodes(Throttled):
    default_detail = "Too many wrong table codes from this device."
    extra_detail_singular = "Try again in {wait} second."
    extra_detail_plural = "Try again in {wait} seconds."
