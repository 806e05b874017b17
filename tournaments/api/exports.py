"""The API's results sent out (the director's): an event's results as a USEBIO 1.2 or a
PBN 2.1 file (docs/exports.md). Thin like views.py: one read, the file as it is."""

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound

from .. import exports
from ..services import ServiceError
from .permissions import CanSeeEvent, IsDirector
from .views import ERRORS, ApiView

TAGS = ["results sent out"]


def file_response(exported: exports.ExportFile) -> HttpResponse:
    """The file as a download, with its content type and name."""
    response = HttpResponse(exported.content, content_type=exported.content_type)
    response["Content-Disposition"] = f'attachment; filename="{exported.filename}"'
    return response


class ResultsExport(ApiView):
    """The event's results as a file: `usebio` (USEBIO 1.2 XML: the club, the event, the
    pairs with their member numbers, every traveller line, the ranking) or `pbn` (PBN 2.1:
    one game per traveller line with Contract, Declarer, Result and Score). A pairs event
    only for USEBIO. The director's, whatever the event's publication."""

    permission_classes = [CanSeeEvent, IsDirector]

    @extend_schema(
        parameters=[OpenApiParameter("fmt", str, OpenApiParameter.PATH, enum=list(exports.FORMATS),
                                     description="usebio or pbn")],
        responses={
            (200, "application/xml"): OpenApiResponse(OpenApiTypes.BINARY,
                                                      description="USEBIO 1.2 (fmt usebio)"),
            (200, "application/x-pbn"): OpenApiResponse(OpenApiTypes.BINARY,
                                                        description="PBN 2.1 (fmt pbn)"),
            **ERRORS,
        },
        tags=TAGS, summary="The event's results as USEBIO 1.2 or PBN 2.1",
    )
    def get(self, request, event_id: int, fmt: str):
        event = self.get_event()
        if fmt not in exports.FORMATS:
            raise NotFound(f"there is no {fmt!r} export: ask for usebio or pbn")
        try:
            exported = exports.export_results(event, fmt)
        except exports.ExportError as exc:
            raise ServiceError(str(exc), field="fmt") from None
        return file_response(exported)
