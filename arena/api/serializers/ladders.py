"""Ladders and their bots."""

from __future__ import annotations

from drf_spectacular.plumbing import build_choice_field
from rest_framework import serializers

from arena.api.serializers.common import CheckedCharField
from arena.models import (
    Ladder,
    LadderEntry,
)

# --- ladders --------------------------------------------------------------------------------


class LadderBotSerializer(serializers.Serializer):
    bot_id = serializers.IntegerField()
    bot = serializers.CharField()
    owner = serializers.CharField()
    anchor = serializers.BooleanField(help_text="a reference bot: a fixed yardstick")
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
