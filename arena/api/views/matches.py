"""Matches: cursor-paged lists, details, replays and frames, with HTTP validators when done."""

from __future__ import annotations

from django.db.models import Prefetch, Q, TextField
from django.db.models.functions import Cast
from django.http import HttpResponse
from django.utils.http import http_date, parse_http_date_safe
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, viewsets
from rest_framework.decorators import action
from rest_framework.pagination import CursorPagination
from rest_framework.response import Response

from arena.api import serializers as s
from arena.api.views.common import StrictPageSize, query_filters
from arena.errors import (
    NotFound,
)
from arena.models import (
    Match,
    MatchSeat,
)
from arena.services import frames as frames_service

# --- matches --------------------------------------------------------------------------------


class MatchPagination(StrictPageSize, CursorPagination):
    """Newest first, by id: each page is an index range scan, however deep, and no page
    counts the table (an exact COUNT(*) of a million matches took 60-225 ms a page)."""

    ordering = "-id"


# The columns each match answer shows; the replay record is never read with them.
_MATCH_LIST_COLUMNS = [
    "id",
    "tournament_id",
    "purpose",
    "match_set_id",
    "set_index",
    "game",
    "rules_version",
    "players",
    "status",
    "rated",
    "created_at",
    "finished_at",
    "error",
    "requeues",
    "last_infra_error",
]
_MATCH_DETAIL_COLUMNS = _MATCH_LIST_COLUMNS + [
    "options",
    "limits",
    "seed",
    "attempts",
    "claimed_by",
    "claimed_at",
    "decisions",
    "duration_seconds",
    "result",
]
_SEAT_COLUMNS = [
    "id",
    "match_id",
    "seat",
    "bot_id",
    "bot__name",
    "bot_version__number",
    "rank",
    "score",
    "forfeit_reason",
]
# The list's seats as rows, in the order s.match_rows reads them.
_SEAT_ROW = [
    "match_id",
    "seat",
    "bot_id",
    "bot__name",
    "bot_version__number",
    "rank",
    "score",
    "forfeit_reason",
]
_SEAT_DETAIL_COLUMNS = _SEAT_COLUMNS + [
    "bot__owner_id",
    "bot__owner__username",
    "rating_before",
    "rating_after",
    "stderr",
]


@extend_schema(tags=["matches"])
class MatchViewSet(viewsets.ReadOnlyModelViewSet):
    lookup_value_regex = r"\d+"  # a malformed id is a 404 at routing, not a 500
    permission_classes = [permissions.AllowAny]
    pagination_class = MatchPagination

    def get_queryset(self):
        detail = self.action != "list"
        related = ["bot", "bot_version", *(["bot__owner"] if detail else [])]
        seats = MatchSeat.objects.select_related(*related).only(
            *(_SEAT_DETAIL_COLUMNS if detail else _SEAT_COLUMNS)
        )
        queryset = Match.objects.only(
            *(_MATCH_DETAIL_COLUMNS if detail else _MATCH_LIST_COLUMNS)
        ).prefetch_related(Prefetch("seats", queryset=seats.order_by("seat")))
        if self.action == "retrieve":
            queryset = queryset.prefetch_related("attempt_log")
        if self.action == "list":
            wanted = query_filters(self.request, s.MatchFilterSerializer)
            if "tournament" in wanted:
                queryset = queryset.filter(tournament_id=wanted["tournament"])
            if "challenge" in wanted:
                queryset = queryset.filter(challenge_id=wanted["challenge"])
            if "bot" in wanted:
                # A join, not IN (subquery): the planner then walks the seats' (bot, match)
                # index backwards and stops after one page. A bot sits once per match.
                queryset = queryset.filter(seats__bot_id=wanted["bot"])
            if "game" in wanted:
                queryset = queryset.filter(game=wanted["game"])
            if "status" in wanted:
                queryset = queryset.filter(status=wanted["status"])
            if "ladder" in wanted:
                ladder = Q(purpose=Match.Purpose.LADDER)
                queryset = queryset.filter(ladder if wanted["ladder"] else ~ladder)
        return queryset.order_by("-id")

    def get_serializer_class(self):
        return s.MatchSerializer if self.action == "list" else s.MatchDetailSerializer

    @extend_schema(parameters=[s.MatchFilterSerializer], responses=s.MatchSerializer(many=True))
    def list(self, request, *args, **kwargs):
        # Plain rows, not model instances: a page of 50 matches made ~500 of them (matches,
        # seats, their bots and versions), most of the list's CPU. Still two queries.
        rows = self.get_queryset().prefetch_related(None).values(*_MATCH_LIST_COLUMNS)
        page = self.paginate_queryset(rows)
        seats = (
            MatchSeat.objects.filter(match_id__in=[row["id"] for row in page])
            .order_by("match_id", "seat")
            .values_list(*_SEAT_ROW)
        )
        return self.get_paginated_response(s.match_rows(page, seats))

    def retrieve(self, request, *args, **kwargs):
        match = self.get_object()
        # The answer shows a seat's stderr to its bot's owner only: the validator is per user.
        user = request.user.pk if request.user.is_authenticated else 0
        cached = not_modified(request, match.status, match.finished_at, f"{match.pk}-{user}")
        if cached is not None:
            return cached
        response = Response(self.get_serializer(match).data)
        return with_validators(response, match.status, match.finished_at, f"{match.pk}-{user}")

    @extend_schema(
        summary="The engine's replay record (seed, actions, result)",
        responses=s.ReplayRecordSerializer,
    )
    @action(detail=True, methods=["get"])
    def replay(self, request, pk=None):
        found = (
            Match.objects.filter(pk=pk)
            # The stored JSON as text: streamed as it is, never parsed and re-encoded.
            .annotate(text=Cast("record", TextField()))
            .values_list("status", "finished_at", "text")
            .first()
        )
        if found is None:
            raise NotFound(f"no match {pk}")
        status_, finished_at, text = found
        if text is None:
            raise NotFound(f"match {pk} has no replay yet (it is {status_})")
        cached = not_modified(request, status_, finished_at, f"replay-{pk}")
        if cached is not None:
            return cached
        response = HttpResponse(text.encode(), content_type="application/json")
        return with_validators(response, status_, finished_at, f"replay-{pk}", public=True)

    @extend_schema(
        summary="The match step by step: decisions + 1 frames, from one view",
        parameters=[s.FramesQuerySerializer],
        responses=s.FramesSerializer,
    )
    @action(detail=True, methods=["get"])
    def frames(self, request, pk=None):
        query = query_filters(request, s.FramesQuerySerializer)
        # Cached JSON text, handed out as is: re-rendering megabytes per request is the cost
        # the cache exists to avoid.
        body = frames_service.frames_json(int(pk), query["view"], first=query.get("first"))
        return HttpResponse(body, content_type="application/json")


def _validators(status_: str, finished_at, key: str) -> tuple[str, str] | None:
    """(ETag, Last-Modified) of a finished match's answers: they never change after."""
    if status_ != Match.Status.FINISHED or finished_at is None:
        return None
    return f'"{key}-{int(finished_at.timestamp() * 1e6)}"', http_date(finished_at.timestamp())


def not_modified(request, status_: str, finished_at, key: str) -> HttpResponse | None:
    """A 304 when the client's copy of a finished match's answer is current."""
    validators = _validators(status_, finished_at, key)
    if validators is None:
        return None
    etag, _ = validators
    match_etags = request.headers.get("If-None-Match")
    if match_etags is not None:
        fresh = etag in [tag.strip() for tag in match_etags.split(",")] or match_etags == "*"
    else:
        since = parse_http_date_safe(request.headers.get("If-Modified-Since") or "")
        fresh = since is not None and int(finished_at.timestamp()) <= since
    return with_validators(HttpResponse(status=304), status_, finished_at, key) if fresh else None


def with_validators(response, status_: str, finished_at, key: str, public: bool = False):
    validators = _validators(status_, finished_at, key)
    if validators is not None:
        response["ETag"], response["Last-Modified"] = validators
        response["Cache-Control"] = "public, max-age=3600" if public else "private, max-age=0"
    return response
