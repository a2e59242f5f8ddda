"""Matches, their seats, attempts, and replay frames."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from arena.api.serializers.common import (
    LimitsField,
    MatchResultSerializer,
    OptionalBooleanField,
    OptionsField,
)
from arena.models import (
    Match,
    MatchAttempt,
    MatchSeat,
)
from arena.services.frames import VIEW_PATTERN

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


_DATE = serializers.DateTimeField()


def match_rows(matches, seats) -> list[dict[str, Any]]:
    """MatchSerializer's answer built from plain rows (the list's fast path): `matches` are
    dicts of the match columns, `seats` tuples (match_id, seat, bot_id, bot name, version
    number, rank, score, forfeit reason) ordered by match and seat. Same keys, same values
    (test_match_rows.py holds it to the serializer's output)."""
    by_match: dict[int, list[dict[str, Any]]] = {}
    for match_id, seat, bot_id, bot, version, rank, score, forfeit in seats:
        by_match.setdefault(match_id, []).append(
            {
                "seat": seat,
                "bot_id": bot_id,
                "bot": bot,
                "version": version,
                "rank": rank,
                "score": score,
                "forfeit_reason": forfeit,
            }
        )
    return [
        {
            "id": row["id"],
            "tournament": row["tournament_id"],
            "purpose": row["purpose"],
            "match_set": row["match_set_id"],
            "set_index": row["set_index"],
            "game": row["game"],
            "rules_version": row["rules_version"],
            "players": row["players"],
            "status": row["status"],
            "rated": row["rated"],
            "seats": by_match.get(row["id"], []),
            "created_at": _date(row["created_at"]),
            "finished_at": _date(row["finished_at"]),
            "error": row["error"],
            "requeues": row["requeues"],
            "last_infra_error": row["last_infra_error"],
        }
        for row in matches
    ]


def _date(value):
    return None if value is None else _DATE.to_representation(value)


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
    ladder = OptionalBooleanField(
        required=False,
        help_text="true: only ladder matches; false: none of them; absent: all matches",
    )
    tournament = serializers.IntegerField(required=False, min_value=1)
    challenge = serializers.IntegerField(required=False, min_value=1)
    bot = serializers.IntegerField(required=False, min_value=1)
    game = serializers.CharField(required=False)
    status = serializers.ChoiceField(choices=Match.Status.values, required=False)


class FrameSerializer(serializers.Serializer):
    """One position of a replay (engine.frames) from one point of view."""

    index = serializers.IntegerField(help_text="0 is the start; frame i follows action i-1")
    actor = serializers.IntegerField(allow_null=True, help_text="the seat that acted")
    action = serializers.JSONField(allow_null=True, help_text="what it played")
    legal = serializers.JSONField(
        allow_null=True,
        help_text="the actions the actor could choose from (the first 60), in the actor's own "
        "view and the revealed one; null elsewhere and at the start",
    )
    legal_count = serializers.IntegerField(
        allow_null=True, help_text="how many actions were legal (null where legal is)"
    )
    to_move = serializers.IntegerField(allow_null=True)
    view = serializers.JSONField(
        help_text="the position as the chosen view sees it: the spectator's (what every seat "
        "sees alike, hidden parts null), that seat's own observation, or the revealed one (the "
        "spectator's with every seat's observation in `seats`)"
    )
    result = serializers.JSONField(allow_null=True, help_text="the result, on the last frame")


class FramesQuerySerializer(serializers.Serializer):
    view = serializers.RegexField(
        VIEW_PATTERN,
        required=False,
        default="spectator",
        help_text="whose view each frame carries: 'spectator' (default), 'seat:N' for seat "
        "N's observation (0 <= N < players), or 'revealed' (finished matches only, else 409)",
    )
    first = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=10000,
        help_text="only the first N frames, unless the whole replay is ready at once: a long "
        "replay not yet cached answers its start quickly (`partial` says so)",
    )


class FramesSerializer(serializers.Serializer):
    """GET /api/matches/{id}/frames/: decisions + 1 frames, all from one view."""

    match = serializers.IntegerField()
    game = serializers.CharField()
    rules_version = serializers.CharField()
    players = serializers.IntegerField()
    view = serializers.CharField(help_text="'spectator', 'seat:N' or 'revealed', as asked")
    partial = serializers.BooleanField(
        required=False,
        help_text="present and true when only the first frames came (`first` was asked and "
        "the whole replay was not ready); `total` is then the number of frames in all",
    )
    total = serializers.IntegerField(required=False)
    frames = FrameSerializer(many=True)
