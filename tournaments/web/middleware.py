"""Pages answer GET, HEAD and POST; any other method (TRACE, PUT, DELETE...) is a 405.

The page views branch on ``request.method == "POST"`` and render the page for anything
else, so a TRACE or a PUT used to get the page (200). One rule here covers every page,
the ones added later too. The API (under /api/, the schema and its docs included)
answers its methods through DRF, with JSON 405s naming the allowed ones.
"""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed

PAGE_METHODS = ("GET", "HEAD", "POST")
API_PREFIX = "/api/"


class PageMethodsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method not in PAGE_METHODS and not request.path_info.startswith(API_PREFIX):
            return HttpResponseNotAllowed(PAGE_METHODS)
        return self.get_response(request)
