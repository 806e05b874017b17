"""The director's print room: start a PDF job, watch it, fetch the file.

POST starts a job and answers 202 with a status URL (JSON for API callers, who
ask with ``Accept: application/json``; a page with a progress bar for a browser).
GET on the status URL reports progress, then the file's URL. Looking at a job
also re-sends it if it has been waiting for a broker that is back now.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.files.storage import default_storage
from django.http import (
    FileResponse,
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from .. import access, exports
from ..models import Event, ReportJob, Season
from ..services import Actor, Forbidden, ServiceError
from . import services


def _wants_json(request: HttpRequest) -> bool:
    accept = request.headers.get("Accept", "")
    return "application/json" in accept and "text/html" not in accept


def director_only(view: Callable) -> Callable:
    """Staff users only: a browser is sent to log in, an API caller gets a JSON 403."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        user = request.user
        if access.may_print(access.web_caller(request)):
            return view(request, *args, **kwargs)
        if _wants_json(request) or request.path.endswith("/status/"):
            return JsonResponse({"error": access.ONLY_DIRECTOR_PRINTS}, status=403)
        if user.is_authenticated:
            return HttpResponse(access.ONLY_DIRECTOR_PRINTS, status=403,
                                content_type="text/plain; charset=utf-8")
        return redirect_to_login(request.get_full_path(), settings.LOGIN_URL)

    return wrapper


# What each document is for, in a line of the print room (the hand records have their own
# line there, with how many boards have their hands).
ABOUT = {
    "travellers": "Each board's results, table by table: to post up after play.",
    "standings": "The places and scores: to post up after play.",
    "scorecards": "A card per pair with its score on every board: to hand out after play.",
    "guidecards": "A card per table and per pair, to put out before play: where to sit "
                  "and where to go each round.",
    "overall": "Every session's score and the total over all the sessions{carried}.",
}


def _about(kind: str, event: Event) -> str:
    """The print room's line for `kind`: the overall standings say the carry-over (kept on
    the first session) when it is not every session alike."""
    if kind != "overall":
        return ABOUT.get(kind, "")
    carry = event.carry_over if event.session_of_id is None else event.session_of.carry_over
    return ABOUT[kind].format(
        carried="" if carry == 100 else f", each earlier session counted at {carry}%")


def _kind_or_404(kind: str) -> str:
    if kind not in services.KINDS:
        raise Http404("no such report")
    return kind


def _status(request: HttpRequest, job: ReportJob) -> dict:
    data = services.report_status(job)
    urls = {
        "status_url": reverse("report-status", kwargs={"pk": job.event_id, "kind": job.kind}),
        "page_url": reverse("report-job", kwargs={"pk": job.event_id, "kind": job.kind}),
        "file_url": None,
    }
    if job.status == ReportJob.Status.DONE and job.file:
        version = int(job.updated_at.timestamp())
        urls["file_url"] = (reverse("report-file", kwargs={"pk": job.event_id, "kind": job.kind})
                            + f"?v={version}")
    data.update({k: request.build_absolute_uri(v) if v else v for k, v in urls.items()})
    return data


@require_GET
@never_cache
@director_only
def reports_index(request: HttpRequest, pk: int) -> HttpResponse:
    """The event's documents (the overall standings too when it has several sessions), each
    with its job's state and a print button."""
    event = get_object_or_404(Event, pk=pk)
    services.report_requeue(event=event)
    jobs = {job.kind: job for job in ReportJob.objects.filter(event=event)}
    for job in jobs.values():
        job.event = event  # each job's staleness reads it
    # The overall standings are for an event of several sessions only.
    several = event.has_sessions()
    rows = [{"kind": kind, "title": title, "job": jobs.get(kind), "about": _about(kind, event),
             "status": _status(request, jobs[kind]) if kind in jobs else None}
            for kind, title in services.KINDS.items() if kind != "overall" or several]
    waiting = any(row["status"] and row["status"]["waiting_for_worker"] for row in rows)
    dealt, boards = services.hands_known(event)
    # Each results file's link, or why it cannot be made now: said here, before the click.
    refused = exports.refusals(event)
    files = [{"fmt": fmt, "label": label, "refused": refused[fmt]}
             for fmt, label in (("usebio", "Download USEBIO (XML)"), ("pbn", "Download PBN"))]
    return render(request, "tournaments/reports/index.html",
                  {"event": event, "rows": rows, "waiting": waiting,
                   "waiting_text": services.WAITING, "club_name": settings.CLUB_NAME,
                   "dealt": dealt, "boards": boards, "files": files})


@require_http_methods(["GET", "POST"])
@never_cache
@director_only
def report_job(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    """GET: the job's page (progress bar). POST: print it (again) → 202 and its status URL
    (JSON); a browser's form is sent on to the job's page (303), which a reload reads again
    rather than printing again."""
    event = get_object_or_404(Event, pk=pk)
    kind = _kind_or_404(kind)
    if request.method == "POST":
        try:
            job = services.report_request(event=event, kind=kind,
                                          actor=Actor.director(request.user))
        except Forbidden as exc:
            return _refuse(request, event, kind, exc, 403)
        except ServiceError as exc:
            return _refuse(request, event, kind, exc, 400)
        if not _wants_json(request):
            return _see_page(request)
        job.refresh_from_db()  # queued, or already running: its status says which
        status = _status(request, job)
        response = JsonResponse(status, status=202)
        response["Location"] = status["status_url"]
        return response
    job = ReportJob.objects.filter(event=event, kind=kind).first()
    if job is not None:
        services.report_requeue(job=job)
        job.refresh_from_db()
    return render(request, "tournaments/reports/job.html",
                  {"event": event, "kind": kind, "title": services.KINDS[kind], "job": job,
                   "status": _status(request, job) if job else None})


def _see_page(request: HttpRequest) -> HttpResponse:
    """A browser's print sent on to the job's own page (POST, redirect, GET): the page shows
    the progress, and reloading it asks nothing again."""
    response = HttpResponseRedirect(request.path)
    response.status_code = 303
    return response


def _refuse(request: HttpRequest, event: Event, kind: str, exc: ServiceError,
            code: int) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"error": exc.message, "field": exc.field}, status=code)
    job = ReportJob.objects.filter(event=event, kind=kind).first()
    return render(request, "tournaments/reports/job.html",
                  {"event": event, "kind": kind, "title": services.KINDS[kind], "job": job,
                   "status": _status(request, job) if job else None, "error": exc.message},
                  status=code)


@require_GET
@never_cache
@director_only
def report_status(request: HttpRequest, pk: int, kind: str) -> JsonResponse:
    """The job's progress as JSON; re-sends a job left waiting for the broker."""
    kind = _kind_or_404(kind)
    job = ReportJob.objects.filter(event_id=pk, kind=kind).first()
    if job is None:
        get_object_or_404(Event, pk=pk)
        return JsonResponse({"error": "This report has not been printed yet",
                             "status": None}, status=404)
    if services.report_requeue(job=job):
        job.refresh_from_db()
    return JsonResponse(_status(request, job))


@require_GET
@never_cache
@director_only
def report_file(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    """The finished PDF, shown in the browser (ready to print)."""
    kind = _kind_or_404(kind)
    job = get_object_or_404(ReportJob, event_id=pk, kind=kind)
    if job.status != ReportJob.Status.DONE or not job.file or not default_storage.exists(
            job.file.name):
        raise Http404("the file is not ready")
    download = job.file.name.rsplit("/", 1)[-1]
    return FileResponse(default_storage.open(job.file.name, "rb"), as_attachment=False,
                        filename=download, content_type="application/pdf")


# --- a season's table (one job per season) ---------------------------------------------------


def _season_status(request: HttpRequest, job: ReportJob) -> dict:
    data = services.report_status(job)
    data["status_url"] = request.build_absolute_uri(
        reverse("season-report-status", kwargs={"pk": job.season_id}))
    data["page_url"] = request.build_absolute_uri(
        reverse("season-report", kwargs={"pk": job.season_id}))
    data["file_url"] = None
    if job.status == ReportJob.Status.DONE and job.file:
        data["file_url"] = request.build_absolute_uri(
            reverse("season-report-file", kwargs={"pk": job.season_id})
            + f"?v={int(job.updated_at.timestamp())}")
    return data


def _season_page(request: HttpRequest, season: Season, job: ReportJob | None, *,
                 status_code: int = 200, error: str = "") -> HttpResponse:
    return render(request, "tournaments/reports/season.html", {
        "season": season, "kind": "season", "title": services.TITLES["season"], "job": job,
        "status": _season_status(request, job) if job else None, "error": error,
        "post_url": reverse("season-report", kwargs={"pk": season.pk})}, status=status_code)


@require_http_methods(["GET", "POST"])
@never_cache
@director_only
def season_report(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the season table's print page. POST: print it (again) → 202 and its status
    (JSON); a browser's form is sent on to the page (303)."""
    season = get_object_or_404(Season, pk=pk)
    if request.method == "POST":
        try:
            job = services.season_report_request(season=season,
                                                 actor=Actor.director(request.user))
        except ServiceError as exc:
            if _wants_json(request):
                return JsonResponse({"error": exc.message, "field": exc.field}, status=403)
            return _season_page(request, season, ReportJob.objects.filter(
                season=season).first(), status_code=403, error=exc.message)
        if not _wants_json(request):
            return _see_page(request)
        job.refresh_from_db()
        status = _season_status(request, job)
        response = JsonResponse(status, status=202)
        response["Location"] = status["status_url"]
        return response
    job = ReportJob.objects.filter(season=season).first()
    if job is not None:
        services.report_requeue(job=job)
        job.refresh_from_db()
    return _season_page(request, season, job)


@require_GET
@never_cache
@director_only
def season_report_status(request: HttpRequest, pk: int) -> JsonResponse:
    job = ReportJob.objects.filter(season_id=pk).first()
    if job is None:
        get_object_or_404(Season, pk=pk)
        return JsonResponse({"error": "This report has not been printed yet",
                             "status": None}, status=404)
    if services.report_requeue(job=job):
        job.refresh_from_db()
    return JsonResponse(_season_status(request, job))


@require_GET
@never_cache
@director_only
def season_report_file(request: HttpRequest, pk: int) -> HttpResponse:
    job = get_object_or_404(ReportJob, season_id=pk)
    if job.status != ReportJob.Status.DONE or not job.file or not default_storage.exists(
            job.file.name):
        raise Http404("the file is not ready")
    return FileResponse(default_storage.open(job.file.name, "rb"), as_attachment=False,
                        filename=job.file.name.rsplit("/", 1)[-1],
                        content_type="application/pdf")
