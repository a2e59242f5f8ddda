"""Whole answers of anonymous API reads, kept in the "api" cache (Redis) and served from it.

A request is served from the cache only when it is a GET from an anonymous client (no
Authorization header, no session cookie: an owner sees more than a stranger, e.g. the stderr
of their bot's seats, so nothing a signed-in viewer got is ever stored or served) asking for
JSON, without a conditional header (the views answer those with a cheap 304). The key is the
full path with its query and the generations of the scopes the route depends on
(arena/services/response_cache.py): the result writer, uploads and edits give those scopes
new generations, so an answer is never served after a write that changed it. What no
writer announces (a queued match starting) lives at most API_CACHE_TIMEOUT seconds; answers
that can no longer change (a finished match, its replay, a finished tournament) live
API_CACHE_TIMEOUT_DONE.

The lookup runs in `process_view`, after routing and before DRF: a hit costs a URL match and
two cache round trips (and the anonymous rate limit's, when one is set), none of DRF's
authentication, the ORM or serializing. Any
successful unsafe request (an API write, an admin or web form) makes every cached answer
stale (scope `all`): such writes are rare next to reads and results.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

import engine
from arena.api.throttling import AnonThrottle
from arena.services import response_cache

log = logging.getLogger(__name__)

_SAFE = {"GET", "HEAD", "OPTIONS", "TRACE"}
_DONE_TOURNAMENT = {"finished", "cancelled"}
_UNSTORED_HEADERS = {"set-cookie"}


def _int(value: object) -> int | None:
    text = str(value or "")
    return int(text) if text.isdigit() and len(text) < 19 else None


def _game(value: object) -> str | None:
    try:
        return engine.get_game(str(value)).name
    except engine.UnknownGame:
        return None


def route_scopes(url_name: str, kwargs: dict, query) -> list[str] | None:
    """The scopes an answer of this route depends on, or None when it is not cached."""
    pk = _int(kwargs.get("pk"))
    if url_name in {"game-list", "game-detail"}:
        return [response_cache.ALL]
    if url_name in {"leaderboard-list", "tournament-list"}:
        return response_cache.scopes(lists=True, everything=True)
    if url_name == "leaderboard-detail":
        game = _game(kwargs.get("game"))
        return None if game is None else response_cache.scopes(games=[game], everything=True)
    if url_name == "bot-list":
        game = _game(query.get("game")) if query.get("game") else None
        if game is not None:
            return response_cache.scopes(games=[game], everything=True)
        return response_cache.scopes(lists=True, everything=True)
    if url_name in {"bot-detail", "bot-versions", "bot-ratings"} and pk is not None:
        return response_cache.scopes(bots=[pk], everything=True)
    if url_name == "tournament-detail" and pk is not None:
        return response_cache.scopes(tournaments=[pk], everything=True)
    if url_name in {"match-detail", "match-replay"} and pk is not None:
        return response_cache.scopes(matches=[pk], everything=True)
    if url_name == "match-list":
        tournament, bot = _int(query.get("tournament")), _int(query.get("bot"))
        game = _game(query.get("game")) if query.get("game") else None
        if tournament is None and bot is None and game is None:
            return response_cache.scopes(lists=True, everything=True)
        return response_cache.scopes(
            tournaments=[tournament] if tournament is not None else [],
            bots=[bot] if bot is not None else [],
            games=[game] if game is not None else [],
            everything=True,
        )
    return None


def _is_anonymous_json_read(request: HttpRequest) -> bool:
    if request.method != "GET" or not request.path.startswith("/api/"):
        return False
    headers = request.headers
    if "Authorization" in headers or settings.SESSION_COOKIE_NAME in request.COOKIES:
        return False
    if "If-None-Match" in headers or "If-Modified-Since" in headers:
        return False
    accept = headers.get("Accept", "*/*")
    # The browsable API (text/html) differs by viewer and is not worth keeping.
    return "html" not in accept


def _timeout(url_name: str, response: HttpResponse) -> float | None:
    """How long to keep this answer, or None not to keep it."""
    if url_name in {"match-detail", "match-replay"}:
        # The views set an ETag on a finished match's answers only: the rest still change.
        return settings.API_CACHE_TIMEOUT_DONE if response.has_header("ETag") else None
    if url_name == "tournament-detail":
        data = getattr(response, "data", None)
        if isinstance(data, dict) and data.get("status") in _DONE_TOURNAMENT:
            return settings.API_CACHE_TIMEOUT_DONE
    return settings.API_CACHE_TIMEOUT


class ResponseCacheMiddleware:
    """Serve and store anonymous API reads (last in MIDDLEWARE: see the module's docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        key = getattr(request, "_api_cache_key", None)
        if key is not None:
            self._store(request, key, response)
        elif request.method not in _SAFE and response.status_code < 400:
            response_cache.bump([response_cache.ALL])
        return response

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs):
        if not settings.API_CACHE or not _is_anonymous_json_read(request):
            return None
        match = request.resolver_match
        url_name = match.url_name if match is not None else None
        if url_name is None:
            return None
        names = route_scopes(url_name, view_kwargs, request.GET)
        if names is None:
            return None
        try:
            gens = response_cache.generations(names)
            path = hashlib.blake2b(request.get_full_path().encode(), digest_size=16).hexdigest()
            key = ":".join([response_cache.namespace(), "r", *(gens[n] for n in names), path])
            hit = response_cache.cache().get(key)
        except Exception:  # a cache outage serves uncached, never an error
            log.exception("API cache unavailable")
            return None
        if hit is None:
            request._api_cache_key = (key, url_name)  # type: ignore[attr-defined]
            return None
        # The anonymous rate limit holds for hits too; past it, the view answers the 429.
        if not AnonThrottle().allow_request(request, None):
            return None
        status, headers, body = hit
        response = HttpResponse(body, status=status)
        for name, value in headers:
            response[name] = value
        response["X-Cache"] = "hit"
        return response

    def _store(self, request: HttpRequest, key: tuple[str, str], response: HttpResponse) -> None:
        cache_key, url_name = key
        if response.status_code != 200 or response.streaming:
            return
        # JSON only: `?format=api` renders the browsable API, whose forms carry the
        # requester's CSRF token.
        if not response.get("Content-Type", "").startswith("application/json"):
            return
        timeout = _timeout(url_name, response)
        if timeout is None:
            return
        headers = [
            (name, value)
            for name, value in response.items()
            if name.lower() not in _UNSTORED_HEADERS
        ]
        try:
            response_cache.cache().set(cache_key, (200, headers, response.content), timeout=timeout)
        except Exception:
            log.exception("API cache unavailable")
        response["X-Cache"] = "miss"
