"""The stamps that live pages poll (arena/static/arena/live.js): small JSON answers.

`{"stamp": "...", "live": true}`: the page fetches itself again when the stamp differs from
the one it was rendered with, and stops asking once `live` is false (a tournament that has
ended). Never cached: a stale stamp would hide a result.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

import engine
from arena.models import Tournament
from arena.services import live


@never_cache
@require_GET
def leaderboard_stamp(request: HttpRequest, game: str) -> JsonResponse:
    if game not in engine.game_names():
        return JsonResponse({"detail": f"no game {game!r}"}, status=404)
    return JsonResponse({"stamp": live.leaderboard_stamp(game), "live": True})


@never_cache
@require_GET
def tournament_stamp(request: HttpRequest, pk: int) -> JsonResponse:
    tournament = Tournament.objects.only("id", "status").filter(pk=pk).first()
    if tournament is None:
        return JsonResponse({"detail": f"no tournament {pk}"}, status=404)
    return JsonResponse(
        {"stamp": live.tournament_stamp(tournament), "live": live.is_live(tournament)}
    )
