"""Leaderboards: a game's ratings in order, with cooperative columns for cooperative games."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

import engine
from arena.errors import NotFound
from arena.models import Rating
from arena.stats import mean, wilson_interval


def leaderboard_game(name: str) -> engine.Game:
    try:
        return engine.get_game(name)
    except engine.UnknownGame as exc:
        raise NotFound(str(exc)) from None


def leaderboard(game: str) -> QuerySet[Rating]:
    """Active bots' ratings in one game, best first (ties: more games, then older bot)."""
    return (
        Rating.objects.filter(game=game, bot__is_active=True)
        .select_related("bot", "bot__owner")
        .order_by("-rating", "-games", "bot_id")
    )


def entry(rating: Rating, rank: int, cooperative: bool) -> dict[str, Any]:
    row: dict[str, Any] = {
        "rank": rank,
        "bot": rating.bot.name,
        "bot_id": rating.bot_id,
        "owner": rating.bot.owner.username,
        "rating": round(rating.rating, 1),
        "games": rating.games,
        "wins": rating.wins,
        "draws": rating.draws,
        "losses": rating.losses,
    }
    if cooperative:
        score = mean(rating.score_total, rating.games)
        interval = wilson_interval(rating.successes, rating.games)
        row["mean_team_score"] = round(score, 3) if score is not None else None
        row["successes"] = rating.successes
        row["success_rate"] = round(rating.successes / rating.games, 4) if rating.games else None
        row["success_rate_ci"] = (
            [round(interval[0], 4), round(interval[1], 4)] if interval else None
        )
    return row
