"""Leaderboards and refits."""

from __future__ import annotations

from rest_framework import serializers

# --- leaderboards ---------------------------------------------------------------------------


class LeaderboardEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    bot = serializers.CharField()
    bot_id = serializers.IntegerField()
    owner = serializers.CharField()
    anchor = serializers.BooleanField(
        help_text="a reference bot (owned by the arena, loaded from bots/reference/): a fixed"
        " yardstick on the game's ladder"
    )
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
    provisional = serializers.BooleanField(
        help_text="the skill may still move a long way: not fitted yet, fewer than 20 games in"
        " the fit, or a 95% interval wider than 400 Elo points"
    )
    contribution = serializers.FloatField(
        required=False,
        allow_null=True,
        help_text="cooperative games only: team-score points the bot adds over the mean bot",
    )
    contribution_low = serializers.FloatField(required=False, allow_null=True)
    contribution_high = serializers.FloatField(required=False, allow_null=True)


class LeaderboardQuerySerializer(serializers.Serializer):
    order = serializers.ChoiceField(
        choices=["skill", "elo", "rating"],
        required=False,
        default="skill",
        help_text="skill: the whole-history fit (default; by Elo before the game's first fit);"
        " elo: the live Elo (rating: the same, its older name)",
    )


class RefitSerializer(serializers.Serializer):
    game = serializers.CharField()
    queued = serializers.BooleanField()


class LeaderboardGameSerializer(serializers.Serializer):
    game = serializers.CharField()
    cooperative = serializers.BooleanField()
    bots = serializers.IntegerField()
    url = serializers.CharField()
