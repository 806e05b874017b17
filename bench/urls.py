"""The project's URLs plus the bench's bare endpoints (see bench/settings.py)."""

from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from config.urls import urlpatterns as project_urls

BARE_TABLE = "bench_bare_insert"
BARE_PATH = "bench/bare/"
BARE_304_PATH = "bench/bare-304/"
BARE_TAG = '"bench"'


@csrf_exempt
def bare_insert(request: HttpRequest) -> HttpResponse:
    """The floor: store the posted body as one row, with one raw INSERT, and answer its id.

    GET answers at once without touching the database: the bench polls it to know
    the server is up.
    """
    if request.method != "POST":
        return HttpResponse("ready", content_type="text/plain")
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {BARE_TABLE} (body) VALUES (%s) RETURNING id",  # noqa: S608
                       [request.body.decode("utf-8", "replace")])
        (row_id,) = cursor.fetchone()
    # The id, as the API's answer has one: the client reads it alike.
    return JsonResponse({"stored": True, "id": row_id}, status=201)


def bare_not_modified(request: HttpRequest) -> HttpResponse:
    """The polls' floor: a 304 for the one tag it gives, decided from the header alone
    (no cache, no database), through the same server and middleware as the polls."""
    if request.headers.get("If-None-Match") == BARE_TAG:
        response = HttpResponseNotModified()
    else:
        response = JsonResponse({"seq": 0})
    response["ETag"] = BARE_TAG
    return response


urlpatterns = [path(BARE_PATH, bare_insert, name="bench-bare"),
               path(BARE_304_PATH, bare_not_modified, name="bench-bare-304"), *project_urls]
