"""Bots: everyone sees them; authors upload; only the owner changes one or reads its source."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Count, OuterRef, Prefetch, Subquery
from django.http import HttpResponse
from django.utils.http import content_disposition_header
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

import engine
from arena.api import serializers as s
from arena.api.parsers import JSONParser
from arena.api.throttling import UploadThrottle
from arena.api.views.common import query_filters
from arena.errors import (
    Conflict,
    InvalidInput,
    InvalidUpload,
    NotAllowed,
    NotFound,
    QuotaExceeded,
    Unavailable,
)
from arena.models import (
    Bot,
    BotVersion,
)
from arena.services import anchors as anchor_service
from arena.services import bots as bot_service
from arena.services import ladder as ladder_service
from arena.services import skills as skill_service

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
        if self.action in {
            "list",
            "retrieve",
            "versions",
            "ratings",
            "anchors",
        } and self.request.method in {
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
        summary="Which reference bots (the ladder's anchors) the bot beats with confidence",
        responses=s.AgainstAnchorsSerializer,
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def anchors(self, request, pk=None):
        bot = self.get_object()
        return Response(s.AgainstAnchorsSerializer(anchor_service.against_anchors(bot)).data)

    @extend_schema(
        summary="Put a bot paused for a crash loop back on its ladder (owner; organisers for a reference bot)",
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
