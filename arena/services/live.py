"""Stamps of the pages that update by themselves: a short string that changes whenever what
the page shows may have changed.

A live page (arena/static/arena/live.js) asks for its stamp every few seconds, which costs a
query or two on indexed columns, and fetches the page again only when the stamp has moved.
A leaderboard moves with its game's ratings (every recorded result updates `updated_at` on
the rows it rates), the number of active bots, and a new skill fit; a tournament with its
state and its matches' and rounds' counts by status (a result, a new round, a finished tie).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import Count, Max, Q

from arena.models import Match, Rating, SkillFit, Tournament, TournamentRound

# Tournaments whose page still changes: a scheduled one starts by itself.
LIVE_TOURNAMENT_STATES = (
    Tournament.Status.SCHEDULED,
    Tournament.Status.RUNNING,
    Tournament.Status.PAUSED,
)


def _digest(*parts: Any) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()


def leaderboard_stamp(game: str) -> str:
    ratings = Rating.objects.filter(game=game).aggregate(
        active=Count("id", filter=Q(bot__is_active=True)), changed=Max("updated_at")
    )
    fit = SkillFit.objects.filter(game=game).order_by("-id").values_list("id", flat=True).first()
    return _digest(ratings["active"], ratings["changed"], fit)


def is_live(tournament: Tournament) -> bool:
    return tournament.status in LIVE_TOURNAMENT_STATES


def tournament_stamp(tournament: Tournament) -> str:
    matches = (
        Match.objects.filter(tournament=tournament)
        .order_by()
        .values("status")
        .annotate(count=Count("id"), newest=Max("id"))
        .values_list("status", "count", "newest")
    )
    rounds = (
        TournamentRound.objects.filter(tournament=tournament)
        .order_by()
        .values("status")
        .annotate(count=Count("id"))
        .values_list("status", "count")
    )
    return _digest(tournament.status, sorted(matches), sorted(rounds))
