"""Tournaments: creation, lists, details with standings, rounds and brackets."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from arena.api.serializers.common import (
    CheckedCharField,
    CheckedIntegerField,
    LimitsField,
    OptionsField,
    player_counts,
    registered_games,
    tournament_formats,
)
from arena.models import (
    Match,
    Tournament,
)
from arena.services.rounds import MAX_ROUNDS
from arena.services.tournaments import MAX_GAMES_PER_PAIRING


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
