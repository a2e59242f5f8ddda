"""Challenges (sequential tests between two versions)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from arena.api.serializers.common import CheckedCharField, JSONField, registered_games
from arena.models import (
    BotVersion,
    Challenge,
)

# --- challenges -----------------------------------------------------------------------------


class ChallengeCreateSerializer(serializers.Serializer):
    game = CheckedCharField(max_length=64, rule=registered_games)
    candidate = serializers.IntegerField(min_value=1, help_text="bot version id")
    baseline = serializers.IntegerField(min_value=1, help_text="bot version id")
    players = serializers.IntegerField(
        required=False,
        default=2,
        min_value=2,
        max_value=16,
        help_text="seats a game; in a cooperative game, the size of each version's team",
    )
    opponents = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        default=list,
        max_length=16,
        help_text="version ids for the other seats when players > 2 (the same in both games); "
        "none in a cooperative game",
    )
    elo0 = serializers.FloatField(required=False, default=0.0)
    elo1 = serializers.FloatField(required=False, default=5.0)
    alpha = serializers.FloatField(required=False, default=0.05)
    beta = serializers.FloatField(required=False, default=0.05)
    max_games = serializers.IntegerField(required=False, default=2000)
    batch_pairs = serializers.IntegerField(required=False, default=8)
    batches_in_flight = serializers.IntegerField(
        required=False, default=2, help_text="batches queued at a time (workers kept busy)"
    )
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
            "batches_in_flight",
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
