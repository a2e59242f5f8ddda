"""HTTP shapes of the API: what requests carry in and what responses show. No workflow here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import (
    MinimumLengthValidator,
    get_default_password_validators,
    validate_password,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from drf_spectacular.plumbing import build_choice_field
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import engine
from arena.models import (
    Bot,
    BotVersion,
    Ladder,
    LadderEntry,
    Match,
    MatchSeat,
    Rating,
    Tournament,
)
from arena.services.bots import NAME_RE
from arena.services.tournaments import MAX_GAMES_PER_PAIRING

# --- fields checked elsewhere --------------------------------------------------------------


class ServiceChecked:
    """A field whose rule is checked elsewhere; `rule()` states it in the OpenAPI schema.

    A service (or the serializer's validate()) checks these with the messages clients see
    today, so the field does not check them a second time: the rule only tells the schema
    (arena/api/schema.py), so that generated requests are valid. It is a callable, run at
    each schema generation, so a game registered later shows up without an edit.
    """

    def __init__(self, *, rule: Callable[[], dict[str, Any]], **kwargs: Any) -> None:
        self.rule = rule
        super().__init__(**kwargs)

    def schema_hints(self) -> dict[str, Any]:
        return self.rule()


class CheckedCharField(ServiceChecked, serializers.CharField):
    pass


class CheckedIntegerField(ServiceChecked, serializers.IntegerField):
    pass


def bot_name_rule() -> dict[str, Any]:
    return {"pattern": NAME_RE.pattern}


def registered_games() -> dict[str, Any]:
    return {"enum": engine.game_names()}


def tournament_formats() -> dict[str, Any]:
    # Built as drf-spectacular builds a choice field, so it shares the model field's FormatEnum.
    return build_choice_field(serializers.ChoiceField(choices=Tournament.Format.choices))


def player_counts() -> dict[str, Any]:
    # Per game the bounds are narrower (GET /api/games/ lists them); these hold for some game.
    games = [engine.get_game(name) for name in engine.game_names()]
    return {
        "minimum": min(game.min_players for game in games),
        "maximum": max(game.max_players for game in games),
    }


# --- accounts -------------------------------------------------------------------------------


USERNAME_MAX_LENGTH = User._meta.get_field("username").max_length
USERNAME_TAKEN = "A user with that username already exists."


def password_rule() -> dict[str, Any]:
    # validate() runs Django's configured password validators; the schema states the length.
    lengths = [
        validator.min_length
        for validator in get_default_password_validators()
        if isinstance(validator, MinimumLengthValidator)
    ]
    return {
        "minLength": max(lengths, default=1),
        "description": "checked by the site's password validators: for instance not a common "
        "password, not only digits, not close to the username",
    }


class UserCreateSerializer(serializers.ModelSerializer):
    password = CheckedCharField(
        write_only=True, style={"input_type": "password"}, rule=password_rule
    )

    class Meta:
        model = User
        fields = ["id", "username", "password"]
        read_only_fields = ["id"]

    def validate_username(self, value: str) -> str:
        # create_user stores the NFKC form ("ａｄａ" -> "ada", "ﬁ" -> "fi"), so check that
        # form: a look-alike of a taken name, or a name that grows past the column, used to
        # reach the database's constraints (a 500).
        username = User.normalize_username(value)
        if len(username) > USERNAME_MAX_LENGTH:
            raise serializers.ValidationError(
                f"Ensure this field has no more than {USERNAME_MAX_LENGTH} characters."
            )
        if User.objects.filter(username=username).exists():
            raise serializers.ValidationError(USERNAME_TAKEN)
        return username

    def validate(self, attrs):
        try:
            validate_password(attrs["password"], User(username=attrs["username"]))
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from None
        return attrs

    def create(self, validated_data):
        try:
            with transaction.atomic():
                return User.objects.create_user(**validated_data)
        except IntegrityError:
            # Two registrations of one name raced past validate_username.
            raise serializers.ValidationError({"username": [USERNAME_TAKEN]}) from None


class UserSerializer(serializers.ModelSerializer):
    is_organiser = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = ["id", "username", "is_organiser"]

    def get_is_organiser(self, user) -> bool:
        from arena.accounts import is_organiser

        return is_organiser(user)


# --- games ----------------------------------------------------------------------------------


class GameSerializer(serializers.Serializer):
    name = serializers.CharField()
    title = serializers.CharField()
    rules_version = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    cooperative = serializers.BooleanField()
    options = serializers.DictField(help_text="option name: default value")


# --- bots -----------------------------------------------------------------------------------


class BotVersionSerializer(serializers.ModelSerializer):
    class Meta:
        model = BotVersion
        fields = ["number", "filename", "sha256", "size", "created_at"]


class RatingSummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = Rating
        fields = ["rating", "games", "wins", "draws", "losses"]


class BotSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", read_only=True)
    version_count = serializers.IntegerField(read_only=True)
    latest_version = serializers.SerializerMethodField()
    rating = serializers.SerializerMethodField()
    ladder_status = serializers.SerializerMethodField(
        help_text="playing: on its game's ladder; paused: its latest version was paused for "
        "a crash loop (see ladder_pause_reason); waiting: deactivated, no version, or the "
        "game's ladder is paused"
    )
    ladder_pause_reason = serializers.SerializerMethodField()
    ladder_pause_matches = serializers.SerializerMethodField(
        help_text="ids of the ladder matches that show the crash loop"
    )

    class Meta:
        model = Bot
        fields = [
            "id",
            "name",
            "owner",
            "game",
            "is_active",
            "created_at",
            "version_count",
            "latest_version",
            "rating",
            "ladder_status",
            "ladder_pause_reason",
            "ladder_pause_matches",
        ]

    @extend_schema_field(BotVersionSerializer(allow_null=True))
    def get_latest_version(self, bot):
        versions = list(bot.versions.all())  # prefetched by the view, newest first
        return BotVersionSerializer(versions[0]).data if versions else None

    def _ladder(self, bot):
        from arena.services.ladder import bot_status, running_ladders

        cached = getattr(bot, "_ladder_status", None)
        if cached is None:
            # Read once per response, shared by every bot of a page (a list's children
            # share the root's context).
            running = self.context.get("ladders_running")
            if running is None:
                running = self.context["ladders_running"] = running_ladders()
            versions = list(bot.versions.all())  # prefetched by the view, newest first
            latest = max(versions, key=lambda v: v.number).pk if versions else None
            entry = getattr(bot, "ladder_entry", None)
            cached = bot._ladder_status = bot_status(
                bot, latest, entry, running.get(bot.game, True)
            )
        return cached

    @extend_schema_field(serializers.ChoiceField(choices=LadderEntry.Status.choices))
    def get_ladder_status(self, bot) -> str:
        return self._ladder(bot).status

    def get_ladder_pause_reason(self, bot) -> str | None:
        return self._ladder(bot).reason

    def get_ladder_pause_matches(self, bot) -> list[int]:
        return self._ladder(bot).match_ids

    @extend_schema_field(RatingSummarySerializer(allow_null=True))
    def get_rating(self, bot):
        for rating in bot.ratings.all():
            if rating.game == bot.game:
                return RatingSummarySerializer(rating).data
        return None


class BotCreateSerializer(serializers.Serializer):
    name = CheckedCharField(max_length=64, rule=bot_name_rule)
    game = CheckedCharField(max_length=64, rule=registered_games)
    file = serializers.FileField(help_text="a .py file defining act or Bot, or a .zip with bot.py")


class BotUpdateSerializer(serializers.Serializer):
    name = CheckedCharField(max_length=64, required=False, rule=bot_name_rule)
    is_active = serializers.BooleanField(required=False)


class VersionUploadSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="a .py file defining act or Bot, or a .zip with bot.py")


class BotFilterSerializer(serializers.Serializer):
    # Typed filters, so a NUL byte or an odd value is a 400 here and never reaches the
    # database (PostgreSQL refuses NUL in text: that was a 500).
    game = serializers.CharField(required=False, allow_blank=True)
    owner = serializers.CharField(required=False, allow_blank=True)
    mine = serializers.BooleanField(required=False, help_text="only the caller's own bots")


class SourceQuerySerializer(serializers.Serializer):
    version = serializers.IntegerField(required=False, min_value=1, max_value=2**31 - 1)


# --- tournaments ----------------------------------------------------------------------------


class JSONField(serializers.JSONField):
    """DRF's JSONField; a form value nested too deeply for json.loads is invalid, not a 500."""

    def to_internal_value(self, data):
        try:
            return super().to_internal_value(data)
        except RecursionError:
            self.fail("invalid")


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    game = CheckedCharField(max_length=64, rule=registered_games)
    format = CheckedCharField(default=Tournament.Format.ROUND_ROBIN, rule=tournament_formats)
    bots = serializers.ListField(child=serializers.IntegerField(min_value=1), allow_empty=True)
    players_per_match = CheckedIntegerField(rule=player_counts)
    games_per_pairing = CheckedIntegerField(
        default=1, rule=lambda: {"minimum": 1, "maximum": MAX_GAMES_PER_PAIRING}
    )
    duplicate_seats = serializers.BooleanField(
        default=False,
        help_text="play each table's games as sets: one seed under every seat rotation "
        "(games_per_pairing must then be a multiple of players_per_match)",
    )
    options = JSONField(required=False, default=dict)
    limits = JSONField(required=False, default=dict)
    start_at = serializers.DateTimeField(required=False, allow_null=True, default=None)


class TournamentFilterSerializer(serializers.Serializer):
    game = serializers.CharField(required=False, allow_blank=True)
    status = serializers.ChoiceField(
        choices=Tournament.Status.values, required=False, allow_blank=True
    )


class StandingSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    bot_id = serializers.IntegerField()
    bot = serializers.CharField(allow_null=True)
    owner = serializers.CharField(allow_null=True)
    matches = serializers.IntegerField()
    points = serializers.FloatField()
    wins = serializers.IntegerField()
    forfeits = serializers.IntegerField()
    mean_rank = serializers.FloatField(allow_null=True)
    successes = serializers.IntegerField(required=False)
    mean_team_score = serializers.FloatField(required=False, allow_null=True)


class TournamentSerializer(serializers.ModelSerializer):
    created_by = serializers.CharField(source="created_by.username", read_only=True, default=None)
    matches_total = serializers.SerializerMethodField()
    matches_done = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "game",
            "format",
            "players_per_match",
            "games_per_pairing",
            "duplicate_seats",
            "options",
            "limits",
            "start_at",
            "status",
            "created_by",
            "created_at",
            "started_at",
            "finished_at",
            "bots",
            "matches_total",
            "matches_done",
        ]

    def _progress(self, tournament) -> tuple[int, int]:
        from arena.services.tournaments import progress

        cached = getattr(tournament, "_progress_cache", None)
        if cached is None:
            cached = tournament._progress_cache = progress(tournament)
        return cached

    def get_matches_total(self, tournament) -> int:
        return self._progress(tournament)[0]

    def get_matches_done(self, tournament) -> int:
        return self._progress(tournament)[1]


class TournamentDetailSerializer(TournamentSerializer):
    standings = serializers.SerializerMethodField()

    class Meta(TournamentSerializer.Meta):
        fields = TournamentSerializer.Meta.fields + ["standings"]

    @extend_schema_field(StandingSerializer(many=True))
    def get_standings(self, tournament):
        from arena.services.tournaments import tournament_standings

        return tournament_standings(tournament)


# --- matches --------------------------------------------------------------------------------


class SeatSerializer(serializers.ModelSerializer):
    bot = serializers.CharField(source="bot.name", read_only=True)
    version = serializers.IntegerField(source="bot_version.number", read_only=True)

    class Meta:
        model = MatchSeat
        fields = ["seat", "bot_id", "bot", "version", "rank", "score", "forfeit_reason"]


class SeatDetailSerializer(SeatSerializer):
    owner = serializers.CharField(source="bot.owner.username", read_only=True)
    stderr = serializers.SerializerMethodField(
        help_text="what the bot wrote to stderr; shown to the bot's owner only, null otherwise"
    )

    class Meta(SeatSerializer.Meta):
        fields = SeatSerializer.Meta.fields + ["owner", "rating_before", "rating_after", "stderr"]

    def get_stderr(self, seat) -> str | None:
        request = self.context.get("request")
        user = getattr(request, "user", None)
        return seat.stderr if seat.bot.is_owned_by(user) else None


class MatchSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)

    class Meta:
        model = Match
        fields = [
            "id",
            "tournament",
            "purpose",
            "match_set",
            "set_index",
            "game",
            "rules_version",
            "players",
            "status",
            "rated",
            "seats",
            "created_at",
            "finished_at",
        ]


class MatchDetailSerializer(MatchSerializer):
    seats = SeatDetailSerializer(many=True, read_only=True)

    class Meta(MatchSerializer.Meta):
        fields = MatchSerializer.Meta.fields + [
            "options",
            "limits",
            "seed",
            "attempts",
            "decisions",
            "duration_seconds",
            "error",
            "result",
        ]


class MatchFilterSerializer(serializers.Serializer):
    ladder = serializers.BooleanField(
        required=False, help_text="true: only ladder matches; false: none of them"
    )
    tournament = serializers.IntegerField(required=False, min_value=1)
    bot = serializers.IntegerField(required=False, min_value=1)
    game = serializers.CharField(required=False)
    status = serializers.ChoiceField(choices=Match.Status.values, required=False)


# --- leaderboards ---------------------------------------------------------------------------


class LeaderboardEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    bot = serializers.CharField()
    bot_id = serializers.IntegerField()
    owner = serializers.CharField()
    rating = serializers.FloatField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    mean_team_score = serializers.FloatField(
        required=False, allow_null=True, help_text="cooperative games only"
    )
    successes = serializers.IntegerField(required=False, help_text="cooperative games only")
    success_rate = serializers.FloatField(
        required=False, allow_null=True, help_text="cooperative games only"
    )
    success_rate_ci = serializers.ListField(
        child=serializers.FloatField(),
        required=False,
        allow_null=True,
        help_text="cooperative games only: 95% Wilson interval [low, high] of success_rate",
    )


class LeaderboardGameSerializer(serializers.Serializer):
    game = serializers.CharField()
    cooperative = serializers.BooleanField()
    bots = serializers.IntegerField()
    url = serializers.CharField()


# --- ladders --------------------------------------------------------------------------------


class LadderBotSerializer(serializers.Serializer):
    bot_id = serializers.IntegerField()
    bot = serializers.CharField()
    owner = serializers.CharField()
    version = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=LadderEntry.Status.choices)
    ladder_games = serializers.IntegerField(help_text="finished ladder matches")


class LadderSerializer(serializers.Serializer):
    game = serializers.CharField()
    status = serializers.ChoiceField(choices=Ladder.Status.choices)
    table_sizes = serializers.ListField(child=serializers.IntegerField())
    target_depth = serializers.IntegerField(
        allow_null=True, help_text="set by an organiser; null: follows the workers' capacity"
    )
    effective_target_depth = serializers.IntegerField(allow_null=True)
    newcomer_games = serializers.IntegerField()
    queued = serializers.IntegerField()
    running = serializers.IntegerField()
    matches_last_hour = serializers.IntegerField()
    updated_at = serializers.DateTimeField()
    bots = LadderBotSerializer(many=True, required=False)


class LadderUpdateSerializer(serializers.Serializer):
    """Shapes only; the service checks ranges against the game and names the field."""

    status = CheckedCharField(
        required=False,
        rule=lambda: build_choice_field(serializers.ChoiceField(choices=Ladder.Status.choices)),
    )
    table_sizes = serializers.ListField(child=serializers.IntegerField(), required=False)
    target_depth = serializers.IntegerField(required=False, allow_null=True)
    newcomer_games = serializers.IntegerField(required=False)
