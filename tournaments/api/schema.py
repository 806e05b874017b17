"""The API's OpenAPI schema: drf-spectacular's AutoSchema, plus what every operation shares.

Written once here rather than on each view:

- who may call: the table code or the director's session, and no credentials at all
  where the operation does not need a caller;
- path parameters are described by their converter (tournaments/converters.py): a
  number's range, a name's characters, so a client (or a fuzzer) knows the bounds;
- the errors any operation can give are documented: 401 everywhere (a table code that
  is not known is refused wherever it is sent; where the operation needs a caller, no
  caller at all), 403 where it needs a caller (the wrong one, see permissions.py), 404
  where the address has parameters (no such row, not visible to this caller, or out of
  range), 400 where it reads a body or query parameters, 415 where it reads a body (the
  API reads JSON only). An operation that documents its
  own answer for one of these codes keeps it.
"""

import re

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse

from ..converters import SCHEMA as CONVERTER_SCHEMA
from .serializers import ErrorOut

_ROUTE_PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>\w+)>")
_WRITES = ("POST", "PUT", "PATCH")

NO_CALLER = OpenApiResponse(ErrorOut, description=(
    "no caller, or a table code that is not known: log in as the director, or send the "
    "table's code (Authorization: Table <code>)"))
UNKNOWN_CODE = OpenApiResponse(ErrorOut, description=(
    "the table code sent is not known (send none to read as the public)"))
WRONG_CALLER = OpenApiResponse(ErrorOut, description="not allowed for this caller")
NOT_FOUND = OpenApiResponse(ErrorOut, description=(
    "no such thing (or not visible to this caller)"))
BAD_REQUEST = OpenApiResponse(ErrorOut, description=(
    "the request cannot be done, and why: `field` names what is at fault"))
NOT_JSON = OpenApiResponse(ErrorOut, description="the body is not sent as application/json")


class ApiSchema(AutoSchema):
    def needs_caller(self) -> bool:
        """Does this operation refuse the public (a permission needing a caller)?"""
        return any(permission.needs_caller(self.method)
                   for permission in self.view.get_permissions()
                   if hasattr(permission, "needs_caller"))

    def get_auth(self) -> list[dict]:
        """The table code or the director's session; and none (the public) where the
        operation does not need a caller (drf-spectacular only sees AllowAny)."""
        schemes = [scheme for scheme in super().get_auth() if scheme]
        return schemes if self.needs_caller() else [*schemes, {}]

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        parameters = operation.get("parameters", [])
        converters = {m["name"]: m["converter"] for m in _ROUTE_PARAMETER.finditer(path_regex)}
        for parameter in parameters:
            converter = converters.get(parameter["name"]) if parameter["in"] == "path" else None
            if converter in CONVERTER_SCHEMA:
                parameter["schema"] = dict(CONVERTER_SCHEMA[converter])
        shared = {"401": NO_CALLER if self.needs_caller() else UNKNOWN_CODE}
        if self.needs_caller():
            shared["403"] = WRONG_CALLER
        if any(p["in"] == "path" for p in parameters):
            shared["404"] = NOT_FOUND
        if self.method in _WRITES or any(p["in"] == "query" for p in parameters):
            shared["400"] = BAD_REQUEST
        if "requestBody" in operation:
            shared["415"] = NOT_JSON
        responses = operation["responses"]
        for code, response in shared.items():
            if code not in responses:
                responses[code] = self._get_response_for_code(response, code)
        operation["responses"] = dict(sorted(responses.items()))
        return operation
