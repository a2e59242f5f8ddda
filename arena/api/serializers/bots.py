"""Bots, their versions, ratings and rating histories."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from arena.api.serializers.common import (
    CheckedCharField,
    OptionalBooleanField,
    bot_name_rule,
    registered_games,
)
from arena.models import (
    Bot,
    BotVersion,
    LadderEntry,
    Rating,
)

# --- bots -----------------------------------------------------------------------------------


class BotVersionSerializer(serializers.ModelSerializer):
    validation_error = serializers.SerializerMethodField(
        help_text="Why the build or the smoke match refused the version; shown to the bot's owner only "
        "(it may quote the bot's stderr), null for others"
    )

    class Meta:
        model = BotVersion
        # id: what a challenge names as its candidate, baseline or opponents.
        fields = [
            "id",
            "number",
            "filename",
            "language",
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
    anchor = serializers.BooleanField(
        source="is_anchor",
        read_only=True,
        help_text="a reference bot (owned by the arena, loaded from bots/reference/): a fixed "
        "yardstick on its game's ladder; /anchors/ says how a bot fares against each",
    )
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
            "anchor",
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
    is_active = OptionalBooleanField(required=False)


class VersionUploadSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="a .py file defining act or Bot, or a .zip with bot.py")


class BotFilterSerializer(serializers.Serializer):
    # Typed filters, so a NUL byte or an odd value is a 400 here and never reaches the
    # database (PostgreSQL refuses NUL in text: that was a 500).
    game = serializers.CharField(required=False)
    owner = serializers.CharField(required=False)
    mine = OptionalBooleanField(required=False, help_text="only the caller's own bots")


class SourceQuerySerializer(serializers.Serializer):
    version = serializers.IntegerField(required=False, min_value=1, max_value=2**31 - 1)


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


# --- against the anchors --------------------------------------------------------------------


class AnchorRecordSerializer(serializers.Serializer):
    """One reference bot; the fields of the other measure are null."""

    bot_id = serializers.IntegerField(help_text="the reference bot")
    bot = serializers.CharField()
    games = serializers.IntegerField(
        help_text="head_to_head: rated matches where both sat; success_rate: this bot's rated "
        "matches"
    )
    ahead = serializers.IntegerField(
        allow_null=True, help_text="head_to_head: matches it finished ahead of the reference"
    )
    ties = serializers.IntegerField(
        allow_null=True, help_text="head_to_head: matches where they shared a rank (half a win)"
    )
    behind = serializers.IntegerField(allow_null=True, help_text="head_to_head")
    successes = serializers.IntegerField(allow_null=True, help_text="success_rate")
    share = serializers.FloatField(
        allow_null=True,
        help_text="head_to_head: (ahead + ties / 2) / games; success_rate: this bot's success "
        "rate; null without games",
    )
    share_low = serializers.FloatField(allow_null=True, help_text="95% Wilson interval of share")
    share_high = serializers.FloatField(allow_null=True)
    reference_games = serializers.IntegerField(allow_null=True, help_text="success_rate")
    reference_successes = serializers.IntegerField(allow_null=True, help_text="success_rate")
    reference_share = serializers.FloatField(
        allow_null=True, help_text="success_rate: the reference's own success rate"
    )
    reference_low = serializers.FloatField(
        allow_null=True, help_text="success_rate: its 95% Wilson interval"
    )
    reference_high = serializers.FloatField(allow_null=True)
    verdict = serializers.ChoiceField(
        choices=["beats", "loses to", "not yet separated"],
        help_text="head_to_head: beats when share_low > 0.5, loses to when share_high < 0.5; "
        "success_rate: beats when its interval lies wholly above the reference's, loses to "
        "when wholly below",
    )


class AgainstAnchorsSerializer(serializers.Serializer):
    bot_id = serializers.IntegerField()
    game = serializers.CharField()
    anchor = serializers.BooleanField(help_text="whether this bot is itself a reference bot")
    measure = serializers.ChoiceField(
        choices=["head_to_head", "success_rate"],
        help_text="head_to_head: its score share against each reference (a draw, or a shared "
        "rank at a larger table, as half); success_rate: cooperative games, where every seat "
        "is on one team, set the success rates side by side",
    )
    beats = serializers.ListField(
        child=serializers.CharField(), help_text="the references it beats with confidence"
    )
    anchors = AnchorRecordSerializer(many=True, help_text="one per active reference bot")
