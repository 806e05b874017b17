"""The director's console: results sent out. The print room links each format; the view
reads the event's results (``tournaments.exports``, no writes) and returns the file.

A refusal (USEBIO of sections ranked apart, a night with no result yet) is a message on
the print room, where the director clicked: the links carry no ``download`` attribute,
since a browser told to download saves whatever comes back, the redirected print room
included, as a file (``download.html``), and the message goes with it unread. The file
itself is an attachment by its Content-Disposition, so it is saved all the same.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_GET

from .. import exports
from .director import _event, director_required


@director_required
@require_GET
def results_export(request: HttpRequest, event_id: int, fmt: str) -> HttpResponse:
    """Download the event's results as USEBIO 1.2 (XML) or PBN 2.1."""
    event = _event(event_id)
    if fmt not in exports.FORMATS:
        raise Http404("there is no such export: choose USEBIO or PBN")
    try:
        exported = exports.export_results(event, fmt)
    except exports.ExportError as exc:
        messages.error(request, f"{exc}.")
        return redirect("reports-index", pk=event.pk)
    response = HttpResponse(exported.content, content_type=exported.content_type)
    response["Content-Disposition"] = f'attachment; filename="{exported.filename}"'
    return response
