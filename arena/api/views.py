"""HTTP glue: who may call what, which rows a request sees, and which service does the work.

Workflows and checks live in arena/services/; domain errors they raise become 4xx answers in
arena/api/errors.py.
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Count, OuterRef, Prefetch, Q, Subquery, TextField
from django.db.models.functions import Cast
from django.http import HttpResponse
from django.utils.http import content_disposition_header, http_date, parse_http_date_safe
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import generics, mixins, permissions, status, viewsets
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.pagination import CursorPagination, PageNumberPagination
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.reverse import reverse

import engine
from arena.api import serializers as s
from arena.api.parsers import JSONParser
from arena.api.permissions import IsOrganiser
from arena.api.throttling import UploadThrottle
from arena.errors import (
    Conflict,
    InvalidInput,
    InvalidUpload,
    NotAllowed,
    NotFound,
    QuotaExceeded,
    Unavailable,
    VersionNotReady,
)
from arena.models import (
    Bot,
    BotVersion,
    Challenge,
    Ladder,
    Match,
    MatchSeat,
    Rating,
    Tournament,
)
from arena.services import bots as bot_service
from arena.services import challenges as challenge_service
from arena.services import control
from arena.services import frames as frames_service
from arena.services import ladder as ladder_service
from arena.services import leaderboards as leaderboard_service
from arena.services import skills as skill_service
from arena.services import tournaments as tournament_service


def query_filters(request, serializer_class) -> dict:
    """The list filters in the query string, checked (a bad one is a 400 naming it)."""
    filters = serializer_class(data=request.query_params)
    filters.is_valid(raise_exception=True)
    return filters.validated_data


# --- accounts -------------------------------------------------------------------------------


@extend_schema(tags=["accounts"], summary="Register a bot author")
class RegisterView(generics.CreateAPIView):
    serializer_class = s.UserCreateSerializer
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []


@extend_schema(tags=["accounts"], summary="The authenticated user")
class MeView(generics.RetrieveAPIView):
    serializer_class = s.UserSerializer
    permission_classes = [permissions.IsAuthenticated]

    def get_object(self):
        return self.request.user


@extend_schema(
    tags=["accounts"],
    summary="Get the API token of a user (send it as `Authorization: Token <key>`)",
    request=AuthTokenSerializer,
    responses=s.TokenSerializer,
)
class TokenView(ObtainAuthToken):
    # DRF's view lists its parsers itself; ours turns too deeply nested JSON into a 400.
    parser_classes = [JSONParser, FormParser, MultiPartParser]
    # Anyone may ask (with a username and password): the schema says so, and a stale token
    # sent along is not refused.
    authentication_classes: list = []


# --- games ----------------------------------------------------------------------------------


@extend_schema(tags=["games"])
class GameViewSet(viewsets.ViewSet):
    """The registered games. A newly registered engine game appears here with no change."""

    permission_classes = [permissions.AllowAny]
    lookup_field = "name"
    lookup_value_regex = "[^/]+"

    @extend_schema(responses=s.GameSerializer(many=True))
    def list(self, request):
        games = [engine.get_game(name).describe() for name in engine.game_names()]
        return Response(s.GameSerializer(games, many=True).data)

    @extend_schema(responses=s.GameSerializer)
    def retrieve(self, request, name=None):
        try:
            game = engine.get_game(name)
        except engine.UnknownGame as exc:
            raise NotFound(str(exc)) from None
        return Response(s.GameSerializer(game.describe()).data)


# --- bots -----------------------------------------------------------------------------------


def _read_upload(file) -> bot_service.Upload:
    limit = settings.MAX_BOT_BYTES
    if file.size is not None and file.size > limit:
        raise InvalidUpload(
            f"the file is {file.size} bytes; the limit is {limit} bytes", field="file"
        )
    return bot_service.Upload(filename=file.name or "bot.py", data=file.read(limit + 1))


@extend_schema(tags=["bots"])
class BotViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Bots: everyone sees them; authors upload; only the owner changes one or reads its source."""

    lookup_value_regex = r"\d+"  # a malformed id is a 404 at routing, not a 500

    http_method_names = ["get", "post", "patch", "head", "options"]
    # For the schema (arena/api/schema.py): errors the services raise beyond the usual ones.
    domain_errors = {
        # The name is taken; the validation queue is missing; a quota is reached.
        "create": (Conflict, Unavailable, QuotaExceeded),
        "partial_update": (Conflict,),
        "versions POST": (Unavailable, QuotaExceeded),
        "source": (NotAllowed,),  # a GET, yet only the owner may read the source
    }
    parser_classes = [MultiPartParser, FormParser, JSONParser]

    def get_queryset(self):
        if self.action in {"versions", "source"}:
            return Bot.objects.all()  # these answer with versions, read on their own
        versions = BotVersion.objects.filter(bot=OuterRef("pk")).order_by().values("bot")
        queryset = (
            Bot.objects.select_related("owner", "ladder_entry")
            # A subquery, evaluated for the page's rows only (a join and GROUP BY made the
            # page count group every bot of the game too).
            .annotate(version_count=Subquery(versions.annotate(n=Count("id")).values("n")))
            .prefetch_related(
                Prefetch(
                    "versions", queryset=BotVersion.objects.defer("source").order_by("-number")
                ),
                "ratings",
            )
            .order_by("game", "name")
        )
        if self.action != "list":
            return queryset
        wanted = query_filters(self.request, s.BotFilterSerializer)
        if wanted.get("game"):
            queryset = queryset.filter(game=wanted["game"])
        if wanted.get("owner"):
            queryset = queryset.filter(owner__username=wanted["owner"])
        if wanted.get("mine") and self.request.user.is_authenticated:
            queryset = queryset.filter(owner=self.request.user)
        return queryset

    @extend_schema(parameters=[s.BotFilterSerializer])
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    def get_permissions(self):
        if self.action in {"list", "retrieve", "versions", "ratings"} and self.request.method in {
            "GET",
            "HEAD",
            "OPTIONS",
        }:
            return [permissions.AllowAny()]
        return [permissions.IsAuthenticated()]

    def get_throttles(self):
        throttles = super().get_throttles()
        if self.action in {"create", "versions"}:
            throttles.append(UploadThrottle())
        return throttles

    def get_serializer_class(self):
        return {
            "create": s.BotCreateSerializer,
            "partial_update": s.BotUpdateSerializer,
        }.get(self.action, s.BotSerializer)

    def _show(self, bot: Bot, code: int = status.HTTP_200_OK) -> Response:
        fresh = self.get_queryset().get(pk=bot.pk)
        return Response(s.BotSerializer(fresh, context=self.get_serializer_context()).data, code)

    @extend_schema(
        summary="Upload a new bot (multipart: name, game, file)",
        request={"multipart/form-data": s.BotCreateSerializer},
        responses={201: s.BotSerializer},
    )
    def create(self, request, *args, **kwargs):
        form = s.BotCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        bot = bot_service.create_bot(
            request.user,
            form.validated_data["name"],
            form.validated_data["game"],
            _read_upload(form.validated_data["file"]),
        )
        return self._show(bot, status.HTTP_201_CREATED)

    @extend_schema(
        summary="Rename, deactivate or reactivate a bot (owner only)",
        request=s.BotUpdateSerializer,
        responses=s.BotSerializer,
    )
    def partial_update(self, request, *args, **kwargs):
        bot = self.get_object()
        form = s.BotUpdateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        bot_service.require_owner(bot, request.user, "change")
        if "name" in form.validated_data:
            bot_service.rename(bot, request.user, form.validated_data["name"])
        if "is_active" in form.validated_data:
            bot_service.set_active(bot, request.user, form.validated_data["is_active"])
        return self._show(bot)

    @extend_schema(exclude=True)
    def update(self, request, *args, **kwargs):  # PUT is not offered; PATCH is
        return self.partial_update(request, *args, **kwargs)

    @extend_schema(
        methods=["GET"], summary="A bot's versions", responses=s.BotVersionSerializer(many=True)
    )
    @extend_schema(
        methods=["POST"],
        summary="Upload a new version (owner only, multipart: file)",
        request={"multipart/form-data": s.VersionUploadSerializer},
        responses={201: s.BotVersionSerializer},
    )
    # Not paginated (a bot has few versions); saying so keeps the schema honest.
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def versions(self, request, pk=None):
        bot = self.get_object()
        if request.method == "GET":
            versions = bot.versions.defer("source").order_by("number")
            context = self.get_serializer_context()
            return Response(s.BotVersionSerializer(versions, many=True, context=context).data)
        bot_service.require_owner(bot, request.user, "add a version to")
        form = s.VersionUploadSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        version = bot_service.add_version(
            bot, request.user, _read_upload(form.validated_data["file"])
        )
        return Response(
            s.BotVersionSerializer(version, context=self.get_serializer_context()).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        summary="A bot's rating history in a game: Elo after each match, skill at each refit",
        parameters=[s.RatingHistoryQuerySerializer],
        responses=s.RatingHistorySerializer,
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def ratings(self, request, pk=None):
        bot = self.get_object()
        query = s.RatingHistoryQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        game = query.validated_data.get("game") or bot.game
        try:
            game = engine.get_game(game).name
        except engine.UnknownGame as exc:
            raise InvalidInput(str(exc), field="game") from None
        data = {"bot_id": bot.pk, "game": game, **skill_service.history(bot.pk, game)}
        return Response(s.RatingHistorySerializer(data).data)

    @extend_schema(
        summary="Put a bot paused for a crash loop back on its ladder (owner only)",
        request=None,
        responses=s.BotSerializer,
    )
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        bot = self.get_object()
        ladder_service.resume(bot, request.user)
        return self._show(bot)

    @extend_schema(
        summary="Download a version's file (owner only; latest unless ?version=N)",
        parameters=[s.SourceQuerySerializer],
        responses={(200, "application/octet-stream"): OpenApiTypes.BINARY},
    )
    @action(detail=True, methods=["get"])
    def source(self, request, pk=None):
        bot = self.get_object()
        bot_service.require_owner(bot, request.user, "download the source of")
        query = s.SourceQuerySerializer(data=request.query_params)
        if not query.is_valid():
            # str.isdigit() let '²' through to int(): a 500. The serializer parses strictly.
            raise InvalidInput("version must be a version number", field="version")
        number = query.validated_data.get("version")
        versions = bot.versions.all()
        if number is None:
            version = versions.order_by("-number").first()
        else:
            version = versions.filter(number=number).first()
        if version is None:
            raise NotFound(f"bot {bot.name!r} has no version {number}")
        response = HttpResponse(bytes(version.source), content_type="application/octet-stream")
        # Quotes and non-ASCII names need escaping / RFC 6266 filename*, or the header breaks.
        response["Content-Disposition"] = content_disposition_header(True, version.filename)
        response["X-Content-SHA256"] = version.sha256
        return response


# --- tournaments ----------------------------------------------------------------------------


@extend_schema(tags=["tournaments"])
class TournamentViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Tournaments: everyone may browse; organisers create and start them."""

    lookup_value_regex = r"\d+"  # a malformed id is a 404 at routing, not a 500
    # For the schema (arena/api/schema.py): starting needs the match queue, and a tournament
    # starts once, with playable bots.
    domain_errors = {
        "create": (Unavailable,),
        "start": (InvalidInput, Conflict, Unavailable),
        "pause": (Conflict,),
        "resume": (Conflict,),
        "cancel": (Conflict,),
    }

    def get_queryset(self):
        queryset = Tournament.objects.select_related("created_by").prefetch_related("bots")
        if self.action == "list":
            wanted = query_filters(self.request, s.TournamentFilterSerializer)
            if wanted.get("game"):
                queryset = queryset.filter(game=wanted["game"])
            if wanted.get("status"):
                queryset = queryset.filter(status=wanted["status"])
        return queryset.order_by("-id")

    @extend_schema(parameters=[s.TournamentFilterSerializer])
    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        # Every tournament's progress in one query, not two per tournament.
        progress = tournament_service.progress_of(page)
        for tournament in page:
            tournament._progress_cache = progress[tournament.pk]
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    def get_permissions(self):
        if self.action in {"create", "start", "pause", "resume", "cancel"}:
            return [IsOrganiser()]
        return [permissions.AllowAny()]

    def get_serializer_class(self):
        if self.action == "create":
            return s.TournamentCreateSerializer
        if self.action == "retrieve":
            return s.TournamentDetailSerializer
        return s.TournamentSerializer

    @extend_schema(
        summary="Create a tournament (organisers); it starts now unless start_at is later",
        request=s.TournamentCreateSerializer,
        responses={201: s.TournamentDetailSerializer},
    )
    def create(self, request, *args, **kwargs):
        form = s.TournamentCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        tournament = tournament_service.create_tournament(request.user, **form.validated_data)
        tournament = self.get_queryset().get(pk=tournament.pk)
        data = s.TournamentDetailSerializer(tournament, context=self.get_serializer_context()).data
        return Response(data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Start a scheduled tournament now (organisers)",
        request=None,
        responses=s.TournamentDetailSerializer,
    )
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        tournament = self.get_object()
        tournament_service.start_now(tournament, request.user)
        tournament = self.get_queryset().get(pk=tournament.pk)
        return Response(
            s.TournamentDetailSerializer(tournament, context=self.get_serializer_context()).data
        )

    def _control(self, request, change):
        tournament = change(self.get_object(), request.user)
        tournament = self.get_queryset().get(pk=tournament.pk)
        return Response(
            s.TournamentDetailSerializer(tournament, context=self.get_serializer_context()).data
        )

    @extend_schema(
        summary="Pause a running tournament: nothing new starts, running matches finish",
        request=None,
        responses=s.TournamentDetailSerializer,
    )
    @action(detail=True, methods=["post"])
    def pause(self, request, pk=None):
        return self._control(request, control.pause)

    @extend_schema(
        summary="Resume a paused tournament", request=None, responses=s.TournamentDetailSerializer
    )
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        return self._control(request, control.resume)

    @extend_schema(
        summary="Cancel a tournament: it ends with the standings so far",
        request=None,
        responses=s.TournamentDetailSerializer,
    )
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        return self._control(request, control.cancel)


# --- matches --------------------------------------------------------------------------------


class StrictPageSize:
    """`page_size` must be a whole number from 1 to max_page_size: anything else is a 400.

    DRF's paginators fall back to the default page size for a value they cannot read, so a
    client's mistake (`page_size=null`, `page_size=0`) went unnoticed.
    """

    page_size_query_param = "page_size"
    max_page_size = 500

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= self.max_page_size:
            raise InvalidInput(
                f"page_size must be a whole number from 1 to {self.max_page_size}",
                field="page_size",
            )
        return int(raw)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"] = {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": self.max_page_size,
                }
        return parameters


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

    @extend_schema(parameters=[s.MatchFilterSerializer])
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

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
        view = query_filters(request, s.FramesQuerySerializer)["view"]
        # Cached JSON text, handed out as is: re-rendering megabytes per request is the cost
        # the cache exists to avoid.
        body = frames_service.frames_json(int(pk), view)
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


# --- leaderboards ---------------------------------------------------------------------------


class LeaderboardPagination(StrictPageSize, PageNumberPagination):
    pass


@extend_schema(tags=["leaderboards"])
class LeaderboardViewSet(viewsets.GenericViewSet):
    lookup_field = "game"
    lookup_value_regex = "[^/]+"
    queryset = Rating.objects.none()
    serializer_class = s.LeaderboardEntrySerializer

    @property
    def pagination_class(self):
        # Only a game's board is paginated. The schema generator reads this per action too:
        # a class attribute documented the short list of games as a page (the fuzz found it).
        return LeaderboardPagination if self.action == "retrieve" else None

    def get_permissions(self):
        if self.action == "refit":
            return [IsOrganiser()]
        return [permissions.AllowAny()]

    @extend_schema(
        summary="Every game's leaderboard link", responses=s.LeaderboardGameSerializer(many=True)
    )
    def list(self, request):
        counts = dict(
            Rating.objects.filter(bot__is_active=True)
            .values_list("game")
            .annotate(n=Count("id"))
            .values_list("game", "n")
        )
        rows = [
            {
                "game": name,
                "cooperative": engine.get_game(name).cooperative,
                "bots": counts.get(name, 0),
                "url": reverse("leaderboard-detail", args=[name], request=request),
            }
            for name in engine.game_names()
        ]
        return Response(s.LeaderboardGameSerializer(rows, many=True).data)

    @extend_schema(
        summary="A game's leaderboard, best first (paginated; ?order=rating|skill)",
        operation_id="leaderboards_retrieve",
        parameters=[s.LeaderboardQuerySerializer],
        responses=s.LeaderboardEntrySerializer(many=True),
    )
    def retrieve(self, request, game=None):
        spec = leaderboard_service.leaderboard_game(game)
        order = query_filters(request, s.LeaderboardQuerySerializer)["order"]
        queryset, fit = leaderboard_service.leaderboard(spec.name, order)
        page = self.paginate_queryset(queryset)
        first = self.paginator.page.start_index() if page else 1
        rows = [
            leaderboard_service.entry(rating, first + i, spec.cooperative, fit)
            for i, rating in enumerate(page or [])
        ]
        return self.get_paginated_response(rows)

    @extend_schema(
        summary="Refit the game's whole-history skill now (organisers; runs on a worker)",
        request=None,
        responses={202: s.RefitSerializer},
    )
    @action(detail=True, methods=["post"])
    def refit(self, request, game=None):
        spec = leaderboard_service.leaderboard_game(game)
        skill_service.request_refit(spec.name)
        return Response({"game": spec.name, "queued": True}, status=status.HTTP_202_ACCEPTED)


# --- challenges -----------------------------------------------------------------------------


@extend_schema(tags=["challenges"])
class ChallengeViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Sequential tests of a candidate version against a baseline (pentanomial GSPRT)."""

    lookup_value_regex = r"\d+"
    serializer_class = s.ChallengeSerializer
    domain_errors = {"create": (VersionNotReady, Unavailable), "cancel": (Conflict,)}

    def get_queryset(self):
        versions = BotVersion.objects.defer("source").select_related("bot")
        return (
            Challenge.objects.select_related(
                "candidate", "candidate__bot", "baseline", "baseline__bot", "created_by"
            )
            .prefetch_related(Prefetch("opponents", queryset=versions))
            .order_by("-id")
        )

    def get_permissions(self):
        if self.action in {"create", "cancel"}:
            return [permissions.IsAuthenticated()]
        return [permissions.AllowAny()]

    def get_serializer_class(self):
        return s.ChallengeCreateSerializer if self.action == "create" else s.ChallengeSerializer

    @extend_schema(
        summary="Start a challenge (an owner of either version, or an organiser)",
        request=s.ChallengeCreateSerializer,
        responses={201: s.ChallengeSerializer},
    )
    def create(self, request, *args, **kwargs):
        form = s.ChallengeCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        challenge = challenge_service.create_challenge(request.user, **form.validated_data)
        shown = self.get_queryset().get(pk=challenge.pk)
        return Response(s.ChallengeSerializer(shown).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Cancel a running challenge", request=None, responses=s.ChallengeSerializer
    )
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        challenge = self.get_object()
        challenge_service.cancel_challenge(challenge, request.user)
        return Response(s.ChallengeSerializer(self.get_queryset().get(pk=challenge.pk)).data)


# --- ladders --------------------------------------------------------------------------------


@extend_schema(tags=["ladders"])
class LadderViewSet(viewsets.GenericViewSet):
    """Each game's ladder: anyone sees it; organisers pause it or change its settings."""

    lookup_field = "game"
    lookup_value_regex = "[^/]+"
    queryset = Ladder.objects.none()
    serializer_class = s.LadderSerializer
    pagination_class = None
    http_method_names = ["get", "patch", "head", "options"]

    def get_permissions(self):
        if self.action == "partial_update":
            return [IsOrganiser()]
        return [permissions.AllowAny()]

    @extend_schema(summary="Every game's ladder", responses=s.LadderSerializer(many=True))
    def list(self, request):
        rows = [
            ladder_service.summary(ladder_service.ladder_for(name), _capacity(), bots=True)
            for name in engine.game_names()
        ]
        return Response(s.LadderSerializer(rows, many=True).data)

    @extend_schema(summary="A game's ladder, with its bots", responses=s.LadderSerializer)
    def retrieve(self, request, game=None):
        ladder = ladder_service.ladder_for(game)
        return Response(
            s.LadderSerializer(ladder_service.summary(ladder, _capacity(), bots=True)).data
        )

    @extend_schema(
        summary="Pause or resume a ladder, change its settings (organisers)",
        request=s.LadderUpdateSerializer,
        responses=s.LadderSerializer,
    )
    def partial_update(self, request, game=None):
        ladder_service.game_spec(game)  # an unknown game is a 404 before the body is read
        form = s.LadderUpdateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        ladder = ladder_service.update_ladder(game, request.user, dict(form.validated_data))
        return Response(
            s.LadderSerializer(ladder_service.summary(ladder, _capacity(), bots=True)).data
        )


def _capacity() -> int | None:
    # The API shows the configured capacity only; asking the workers is the scheduler's job.
    return settings.ARENA_LADDER_CAPACITY or None
