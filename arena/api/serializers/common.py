"""Fields and JSON shapes shared by several resources' serializers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.plumbing import build_choice_field
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import engine
from arena.models import (
    Tournament,
)
from arena.services.bots import NAME_RE

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


class OptionalBooleanField(serializers.BooleanField):
    """A boolean that may be absent. DRF reads an absent boolean in form data or a query
    string as false, so `?bot=3` filtered out every ladder match and a form PATCH of a
    name deactivated the bot; absent here means not given."""

    default_empty_html = serializers.empty


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
    progress = serializers.FloatField(
        required=False,
        help_text="cooperative games that grade their outcome: how far the team got, 0..1"
        " (1 = success); what the cooperative ratings score",
    )


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
