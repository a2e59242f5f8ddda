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
    Challenge,
    Ladder,
    LadderEntry,
    Match,
    MatchAttempt,
    MatchSeat,
    Rating,
    Tournament,
)
from arena.services.bots import NAME_RE
from arena.services.frames import VIEW_PATTERN
from arena.services.rounds import MAX_ROUNDS
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


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text='send it as the header "Authorization: Token <key>"')


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
    validation_error = serializers.SerializerMethodField(
        help_text="Why the smoke match refused the version; shown to the bot's owner only "
        "(it may quote the bot's stderr), null for others"
    )

    class Meta:
        model = BotVersion
        # id: what a challenge names as its candidate, baseline or opponents.
        fields = [
            "id",
            "number",
            "filename",
            "sha256",
            "size",
            "created_at",
            "validation",
            "validation_error",
            "validated_at",
        ]
        read_only_fields = fields

    def get_validation_error(self, version) -> str | None:
        request = self.context.get("request")
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or user.pk != version.bot.owner_id:
            return None
        return version.validation_error


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
        "a crash loop (see ladder_pause_reason); waiting: deactivated, no version, its latest "
        "version not ready (validation pending or rejected: see latest_version), or the "
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
        return BotVersionSerializer(versions[0], context=self.context).data if versions else None

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
            latest = max(versions, key=lambda v: v.number) if versions else None
            entry = getattr(bot, "ladder_entry", None)
            cached = bot._ladder_status = bot_status(
                bot,
                latest.pk if latest else None,
                entry,
                running.get(bot.game, True),
                latest_ready=latest is None or latest.is_ready(),
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
                return _RATING.to_representation(rating)
        return None


# One instance each, reused for every bot of a page: a ModelSerializer builds its fields from
# the model on each new instance, which was most of a bot list's CPU.
_VERSION = BotVersionSerializer()
_RATING = RatingSummarySerializer()


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
    game = serializers.CharField(required=False)
    owner = serializers.CharField(required=False)
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


OPTIONS_SCHEMA = {
    "type": "object",
    "additionalProperties": True,
    "description": "the game's options by name (GET /api/games/ lists each game's with defaults)",
}
LIMITS_SCHEMA = {
    "type": "object",
    "additionalProperties": {"type": "number", "minimum": 0, "exclusiveMinimum": True},
    "description": "limits by name (move_seconds, match_seconds, memory_mb, ...): positive numbers",
}


@extend_schema_field(OPTIONS_SCHEMA)
class OptionsField(JSONField):
    pass


@extend_schema_field(LIMITS_SCHEMA)
class LimitsField(JSONField):
    pass


class MatchResultSerializer(serializers.Serializer):
    """A finished match's result (schema only): ranks and scores per seat, and game extras."""

    ranks = serializers.ListField(child=serializers.IntegerField(), help_text="1 = best, per seat")
    scores = serializers.ListField(child=serializers.FloatField(), help_text="per seat")
    forfeits = serializers.DictField(
        child=serializers.CharField(), required=False, help_text="seat number: reason"
    )
    outcome = serializers.ChoiceField(
        choices=["success", "failure"], required=False, help_text="cooperative games only"
    )
    team_score = serializers.FloatField(required=False, help_text="cooperative games only")


class ReplayRecordSerializer(serializers.Serializer):
    """The engine's replay record (schema only): seed + actions reproduce the match.

    Each game's actions are its own JSON values (engine/games/<game>/README.md); `result`
    carries the game's own fields beside ranks and scores.
    """

    game = serializers.CharField()
    rules_version = serializers.CharField()
    players = serializers.IntegerField()
    seed = serializers.IntegerField()
    options = OptionsField()
    actions = serializers.ListField(child=serializers.JSONField(), help_text="in order of play")
    result = MatchResultSerializer()


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
    rounds = CheckedIntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Swiss only: how many rounds (default ⌈log2 n⌉ + 1, at most what the field "
        "can pair without a repeat)",
        rule=lambda: {"minimum": 1, "maximum": MAX_ROUNDS},
    )
    double_elimination = serializers.BooleanField(
        required=False, default=False, help_text="knockout only: double elimination"
    )
    advance = CheckedIntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="table_knockout only: how many of each table go through (default 1, "
        "less than players_per_match)",
        rule=lambda: {"minimum": 1},
    )
    options = OptionsField(required=False, default=dict)
    limits = LimitsField(required=False, default=dict)
    start_at = serializers.DateTimeField(required=False, allow_null=True, default=None)


class TournamentFilterSerializer(serializers.Serializer):
    game = serializers.CharField(required=False)
    status = serializers.ChoiceField(choices=Tournament.Status.values, required=False)


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
    game_points = serializers.FloatField(
        required=False, help_text="Swiss: points over the games (points count rounds)"
    )
    tiebreaks = serializers.DictField(
        required=False,
        help_text="Swiss: buchholz_cut1, buchholz, sonneborn_berger, direct_encounter "
        "(two players) or opponents_points, mean_rank (multiplayer)",
    )


class TournamentSerializer(serializers.ModelSerializer):
    created_by = serializers.CharField(source="created_by.username", read_only=True, default=None)
    options = OptionsField(read_only=True)
    limits = LimitsField(read_only=True)
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
            "planned_rounds",
            "double_elimination",
            "advance",
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


class TableMatchSeatSerializer(serializers.Serializer):
    bot_id = serializers.IntegerField()
    rank = serializers.IntegerField(allow_null=True)


class TableMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Match.Status.choices)
    seats = TableMatchSeatSerializer(many=True)


class RoundTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    bots = serializers.ListField(
        child=serializers.IntegerField(), help_text="seat order of the table's first game"
    )
    tie = serializers.CharField(allow_null=True, help_text="the knockout tie it plays")
    status = serializers.CharField(help_text="playing, finished or bye")
    matches = TableMatchSerializer(many=True)
    points = serializers.DictField(
        child=serializers.FloatField(), help_text="bot id: points over the table's games"
    )
    winner = serializers.IntegerField(allow_null=True, help_text="knockout: who won the set")
    advancing = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="table knockout"
    )


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField()
    tables = RoundTableSerializer(many=True)
    byes = serializers.ListField(child=serializers.IntegerField())


class TieSerializer(serializers.Serializer):
    tie = serializers.CharField(help_text="W2-1: winners' bracket round 2, tie 1; L: losers'; GF")
    stage = serializers.CharField(help_text="winners, losers, final or reset")
    stage_round = serializers.IntegerField()
    round = serializers.IntegerField(allow_null=True, help_text="the tournament round it played in")
    bots = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    seeds = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    matches = serializers.ListField(child=serializers.IntegerField(), help_text="its set")
    points = serializers.DictField(child=serializers.FloatField())
    winner = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(help_text="waiting, playing, decided, bye or not needed")


class HealthSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded"])
    reason = serializers.CharField(help_text="why it is degraded; empty when ok")
    requeued = serializers.IntegerField(help_text="matches re-queued after a fault")
    failed = serializers.IntegerField()


class TournamentDetailSerializer(TournamentSerializer):
    standings = serializers.SerializerMethodField()
    rounds = serializers.SerializerMethodField()
    bracket = serializers.SerializerMethodField()
    champion = serializers.SerializerMethodField()
    health = serializers.SerializerMethodField()

    class Meta(TournamentSerializer.Meta):
        fields = TournamentSerializer.Meta.fields + [
            "standings",
            "rounds",
            "bracket",
            "champion",
            "health",
        ]

    @extend_schema_field(HealthSerializer)
    def get_health(self, tournament):
        from arena.services.attempts import tournament_health

        return tournament_health(tournament)

    @extend_schema_field(StandingSerializer(many=True))
    def get_standings(self, tournament):
        from arena.services.tournaments import tournament_standings

        return tournament_standings(tournament)

    @extend_schema_field(RoundSerializer(many=True))
    def get_rounds(self, tournament):
        from arena.services.brackets import rounds_summary

        return rounds_summary(tournament)

    @extend_schema_field(TieSerializer(many=True, allow_null=True))
    def get_bracket(self, tournament):
        from arena.services.brackets import bracket_summary

        return bracket_summary(tournament)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_champion(self, tournament) -> int | None:
        from arena.services.brackets import champion_of

        return champion_of(tournament)


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
            "error",
            "requeues",
            "last_infra_error",
        ]
        extra_kwargs = {
            "error": {"help_text": "why a failed match failed"},
            "requeues": {"help_text": "times it was re-queued after an infrastructure fault"},
            "last_infra_error": {"help_text": "the last infrastructure fault around it"},
        }


class AttemptSerializer(serializers.ModelSerializer):
    class Meta:
        model = MatchAttempt
        fields = ["worker", "started_at", "ended_at", "outcome", "detail"]


class MatchDetailSerializer(MatchSerializer):
    seats = SeatDetailSerializer(many=True, read_only=True)
    attempts = serializers.SerializerMethodField(
        help_text="every claim of the match: the ended ones, then the one running now"
    )
    attempt_count = serializers.IntegerField(source="attempts", read_only=True)
    options = OptionsField(read_only=True)
    limits = LimitsField(read_only=True)
    result = serializers.SerializerMethodField()

    @extend_schema_field(MatchResultSerializer(allow_null=True))
    def get_result(self, match) -> Any:
        return match.result

    class Meta(MatchSerializer.Meta):
        fields = MatchSerializer.Meta.fields + [
            "options",
            "limits",
            "seed",
            "attempts",
            "attempt_count",
            "decisions",
            "duration_seconds",
            "result",
        ]

    @extend_schema_field(AttemptSerializer(many=True))
    def get_attempts(self, match):
        shown = AttemptSerializer(match.attempt_log.all(), many=True).data
        if match.status == Match.Status.RUNNING:
            shown.append(
                {
                    "worker": match.claimed_by,
                    "started_at": serializers.DateTimeField().to_representation(match.claimed_at)
                    if match.claimed_at
                    else None,
                    "ended_at": None,
                    "outcome": "running",
                    "detail": "",
                }
            )
        return shown


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
    skill = serializers.FloatField(
        allow_null=True, help_text="whole-history skill (Elo points, mean 1500) of the last fit"
    )
    skill_low = serializers.FloatField(allow_null=True, help_text="95% interval of skill")
    skill_high = serializers.FloatField(allow_null=True)
    rank_low = serializers.IntegerField(allow_null=True, help_text="95% interval of the rank")
    rank_high = serializers.IntegerField(allow_null=True)
    fitted_at = serializers.DateTimeField(allow_null=True, help_text="when the fit ran")
    contribution = serializers.FloatField(
        required=False,
        allow_null=True,
        help_text="cooperative games only: team-score points the bot adds over the mean bot",
    )
    contribution_low = serializers.FloatField(required=False, allow_null=True)
    contribution_high = serializers.FloatField(required=False, allow_null=True)


class LeaderboardQuerySerializer(serializers.Serializer):
    order = serializers.ChoiceField(
        choices=["rating", "skill"],
        required=False,
        default="rating",
        help_text="rating: live Elo (default); skill: the whole-history fit",
    )


class RefitSerializer(serializers.Serializer):
    game = serializers.CharField()
    queued = serializers.BooleanField()


class LeaderboardGameSerializer(serializers.Serializer):
    game = serializers.CharField()
    cooperative = serializers.BooleanField()
    bots = serializers.IntegerField()
    url = serializers.CharField()


# --- rating history -------------------------------------------------------------------------


class RatingHistoryQuerySerializer(serializers.Serializer):
    game = serializers.CharField(required=False, help_text="the bot's own game by default")


class EloPointSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    at = serializers.DateTimeField()
    before = serializers.FloatField()
    after = serializers.FloatField()


class SkillPointSerializer(serializers.Serializer):
    fit = serializers.IntegerField()
    fitted_at = serializers.DateTimeField()
    skill = serializers.FloatField()
    skill_low = serializers.FloatField()
    skill_high = serializers.FloatField()
    rank_low = serializers.IntegerField(allow_null=True)
    rank_high = serializers.IntegerField(allow_null=True)
    games = serializers.FloatField()


class RatingHistorySerializer(serializers.Serializer):
    bot_id = serializers.IntegerField()
    game = serializers.CharField()
    elo = EloPointSerializer(many=True, help_text="live Elo after each rated match")
    skill = SkillPointSerializer(many=True, help_text="whole-history skill at each refit")


# --- challenges -----------------------------------------------------------------------------


class ChallengeCreateSerializer(serializers.Serializer):
    game = CheckedCharField(max_length=64, rule=registered_games)
    candidate = serializers.IntegerField(min_value=1, help_text="bot version id")
    baseline = serializers.IntegerField(min_value=1, help_text="bot version id")
    players = serializers.IntegerField(required=False, default=2, min_value=2, max_value=16)
    opponents = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        default=list,
        max_length=16,
        help_text="version ids for the other seats when players > 2 (the same in both games)",
    )
    elo0 = serializers.FloatField(required=False, default=0.0)
    elo1 = serializers.FloatField(required=False, default=5.0)
    alpha = serializers.FloatField(required=False, default=0.05)
    beta = serializers.FloatField(required=False, default=0.05)
    max_games = serializers.IntegerField(required=False, default=2000)
    batch_pairs = serializers.IntegerField(required=False, default=8)
    options = JSONField(required=False, default=dict)
    limits = JSONField(required=False, default=dict)


class ChallengeVersionSerializer(serializers.ModelSerializer):
    bot_id = serializers.IntegerField(source="bot.id")
    bot = serializers.CharField(source="bot.name")

    class Meta:
        model = BotVersion
        fields = ["id", "bot_id", "bot", "number"]


class ChallengeEloSerializer(serializers.Serializer):
    elo = serializers.FloatField(allow_null=True)
    low = serializers.FloatField(allow_null=True)
    high = serializers.FloatField(allow_null=True)


class ChallengeSerializer(serializers.ModelSerializer):
    candidate = ChallengeVersionSerializer()
    baseline = ChallengeVersionSerializer()
    opponents = ChallengeVersionSerializer(many=True)
    created_by = serializers.CharField(source="created_by.username", default=None)
    pairs = serializers.SerializerMethodField()
    pair_counts = serializers.SerializerMethodField(
        help_text="finished pairs by the candidate's pair score (0, 0.25, 0.5, 0.75, 1)"
    )
    llr_lower = serializers.SerializerMethodField()
    llr_upper = serializers.SerializerMethodField()
    elo = serializers.SerializerMethodField(
        help_text="candidate over baseline, logistic Elo with a 95% interval"
    )

    class Meta:
        model = Challenge
        fields = [
            "id",
            "game",
            "candidate",
            "baseline",
            "opponents",
            "players",
            "elo0",
            "elo1",
            "alpha",
            "beta",
            "max_games",
            "batch_pairs",
            "status",
            "games",
            "pairs",
            "discarded_pairs",
            "batches",
            "pair_counts",
            "llr",
            "llr_lower",
            "llr_upper",
            "elo",
            "created_by",
            "created_at",
            "finished_at",
        ]

    def _state(self, challenge) -> dict[str, Any]:
        from arena.services.challenges import describe

        cached = getattr(challenge, "_described", None)
        if cached is None:
            cached = challenge._described = describe(challenge)
        return cached

    def get_pairs(self, challenge) -> int:
        return int(self._state(challenge)["pairs"])

    def get_pair_counts(self, challenge) -> dict[str, int]:
        return dict(self._state(challenge)["pair_counts"])

    def get_llr_lower(self, challenge) -> float:
        return float(self._state(challenge)["llr_lower"])

    def get_llr_upper(self, challenge) -> float:
        return float(self._state(challenge)["llr_upper"])

    @extend_schema_field(ChallengeEloSerializer(allow_null=True))
    def get_elo(self, challenge):
        return self._state(challenge)["elo"]


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


class FrameSerializer(serializers.Serializer):
    """One position of a replay (engine.frames) from one point of view."""

    index = serializers.IntegerField(help_text="0 is the start; frame i follows action i-1")
    actor = serializers.IntegerField(allow_null=True, help_text="the seat that acted")
    action = serializers.JSONField(allow_null=True, help_text="what it played")
    to_move = serializers.IntegerField(allow_null=True)
    view = serializers.JSONField(
        help_text="the position as the chosen view sees it: the spectator's (what every seat "
        "sees alike, hidden parts null) or that seat's own observation"
    )
    result = serializers.JSONField(allow_null=True, help_text="the result, on the last frame")


class FramesQuerySerializer(serializers.Serializer):
    view = serializers.RegexField(
        VIEW_PATTERN,
        required=False,
        default="spectator",
        help_text="whose view each frame carries: 'spectator' (default) or 'seat:N' for seat "
        "N's observation (0 <= N < players)",
    )


class FramesSerializer(serializers.Serializer):
    """GET /api/matches/{id}/frames/: decisions + 1 frames, all from one view."""

    match = serializers.IntegerField()
    game = serializers.CharField()
    rules_version = serializers.CharField()
    players = serializers.IntegerField()
    view = serializers.CharField(help_text="'spectator' or 'seat:N', as asked")
    frames = FrameSerializer(many=True)
