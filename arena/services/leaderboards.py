"""Leaderboards: a game's bots in order of whole-history skill, with the live Elo beside it.

Each entry carries the latest fit's skill, its 95% interval and 95% rank interval, the
time of that fit (null before the first), and whether the skill is still provisional
(`arena.ratings.whole_history.is_provisional`: too few games in the fit or too wide an
interval). The Elo is a column and the other order (`elo`). `anchor` marks the reference
bots (`Bot.is_anchor`): the ladder's fixed yardsticks. Cooperative games add their
columns (team score, success rate and its Wilson interval, and the fit's contribution
to team score).
"""

from __future__ import annotations

from typing import Any

from django.db.models import F, FilteredRelation, Q, QuerySet

import engine
from arena.errors import InvalidInput, NotFound
from arena.models import Rating, SkillFit
from arena.ratings.whole_history import is_provisional
from arena.services.skills import latest_fit
from arena.stats import mean, wilson_interval

ORDERS = ("skill", "elo")
DEFAULT_ORDER = "skill"
# The name the Elo order had first; still accepted.
ORDER_ALIASES = {"rating": "elo"}
_SKILL_FIELDS = ["skill", "skill_low", "skill_high", "rank_low", "rank_high"]
_CONTRIBUTION_FIELDS = ["contribution", "contribution_low", "contribution_high"]


def leaderboard_game(name: str) -> engine.Game:
    try:
        return engine.get_game(name)
    except engine.UnknownGame as exc:
        raise NotFound(str(exc)) from None


def order_named(name: str | None) -> str:
    """The order a query asks for (default: skill); an unknown name is an InvalidInput."""
    order = ORDER_ALIASES.get(name or DEFAULT_ORDER, name or DEFAULT_ORDER)
    if order not in ORDERS:
        raise InvalidInput(f"order must be one of {', '.join(ORDERS)}", field="order")
    return order


def leaderboard(game: str, order: str = DEFAULT_ORDER) -> tuple[QuerySet[Rating], SkillFit | None]:
    """Active bots' ratings in one game, best first, with the latest fit's columns.

    order "skill" (whole-history skill; bots the fit has not seen yet last, by Elo; all
    by Elo before the game's first fit) or "elo" (ties: more games, then older bot).
    """
    order = order_named(order)
    fit = latest_fit(game)
    queryset = Rating.objects.filter(game=game, bot__is_active=True).select_related(
        "bot", "bot__owner"
    )
    if fit is not None:
        queryset = queryset.annotate(
            entry=FilteredRelation("bot__skill_entries", condition=Q(bot__skill_entries__fit=fit))
        ).annotate(
            skill_games=F("entry__games"),
            **{name: F(f"entry__{name}") for name in _SKILL_FIELDS + _CONTRIBUTION_FIELDS},
        )
    if order == "skill" and fit is not None:
        queryset = queryset.order_by(F("skill").desc(nulls_last=True), "-rating", "bot_id")
    else:
        queryset = queryset.order_by("-rating", "-games", "bot_id")
    return queryset, fit


def _rounded(value: float | None) -> float | None:
    return round(value, 1) if value is not None else None


def entry(rating: Rating, rank: int, cooperative: bool, fit: SkillFit | None) -> dict[str, Any]:
    row: dict[str, Any] = {
        "rank": rank,
        "bot": rating.bot.name,
        "bot_id": rating.bot_id,
        "owner": rating.bot.owner.username,
        "anchor": rating.bot.is_anchor(),
        "rating": round(rating.rating, 1),
        "games": rating.games,
        "wins": rating.wins,
        "draws": rating.draws,
        "losses": rating.losses,
    }
    for name in _SKILL_FIELDS:
        value = getattr(rating, name, None)
        row[name] = _rounded(value) if name.startswith("skill") else value
    row["fitted_at"] = fit.fitted_at if fit is not None and row["skill"] is not None else None
    row["provisional"] = is_provisional(
        getattr(rating, "skill_games", None), row["skill_low"], row["skill_high"]
    )
    if cooperative:
        score = mean(rating.score_total, rating.games)
        interval = wilson_interval(rating.successes, rating.games)
        row["mean_team_score"] = round(score, 3) if score is not None else None
        row["successes"] = rating.successes
        row["success_rate"] = round(rating.successes / rating.games, 4) if rating.games else None
        row["success_rate_ci"] = (
            [round(interval[0], 4), round(interval[1], 4)] if interval else None
        )
        for name in _CONTRIBUTION_FIELDS:
            value = getattr(rating, name, None)
            row[name] = round(value, 3) if value is not None else None
    return row
