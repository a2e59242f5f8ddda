"""Accounts (registration, the current user, tokens) and games."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, viewsets
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

import engine
from arena.api import serializers as s
from arena.api.parsers import JSONParser
from arena.errors import (
    NotFound,
)

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


# The bot protocol the arena speaks and the oldest `arena` SDK it accepts: the SDK checks
# them before it logs in or uploads (bots/sdk/client.py keeps its own side of the pair).
PROTOCOL_VERSION = 1
OLDEST_SDK = "0.2.0"


@extend_schema(
    tags=["accounts"],
    summary="The bot protocol version and the oldest SDK this arena accepts",
    responses=s.VersionSerializer,
)
class VersionView(generics.GenericAPIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    serializer_class = s.VersionSerializer

    def get(self, request):
        return Response({"protocol": PROTOCOL_VERSION, "oldest_sdk": OLDEST_SDK})


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
