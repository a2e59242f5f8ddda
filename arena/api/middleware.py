"""Query strings with an empty value (`?status=`, `?page=`) are refused with a 400 naming it.

DRF treats an empty value of an optional field as absent, so `?status=` listed every match and
`?page=` the first page: a client with a bug in its query building never learned about it.
No parameter of the API means anything when empty, so the check is one place for all of them;
parameters the API does not read are left alone, as everywhere else.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse

# Every query parameter an API operation reads (filters, paging, DRF's format switch).
PARAMETERS = {
    "bot",
    "challenge",
    "cursor",
    "format",
    "ladder",
    "game",
    "mine",
    "order",
    "owner",
    "page",
    "page_size",
    "status",
    "tournament",
    "version",
}


def refuse_empty_query_values(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    def middleware(request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/api/") and request.GET:
            for name, values in request.GET.lists():
                if name in PARAMETERS and any(value == "" for value in values):
                    message = "must not be empty (leave the parameter out instead)"
                    return JsonResponse(
                        {name: [message], "detail": f"{name}: {message}", "code": "invalid"},
                        status=400,
                    )
        return get_response(request)

    return middleware


def count_queries(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """X-Queries: the SQL statements a request ran (API_QUERY_COUNT_HEADER, for the load
    benchmark: counts measured under load, hits of the response cache included)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        count = 0

        def counted(execute, sql, params, many, context):
            nonlocal count
            count += 1
            return execute(sql, params, many, context)

        with connection.execute_wrapper(counted):
            response = get_response(request)
        response["X-Queries"] = str(count)
        return response

    return middleware
