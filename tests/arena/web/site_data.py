"""Real data for the page tests: bots uploaded through the service, matches played by the
referee with the bots in real processes (workers.tasks.execute_match, no stand-in), a
knockout that advances through the real result path, and a skill refit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import Group, User

import engine
from arena.models import Match, Tournament
from arena.services import skills as skill_service
from arena.services.bots import Upload, create_bot
from arena.services.tournaments import create_tournament
from bots.reference import builtin_names, builtin_path
from workers.tasks import execute_match

PASSWORD = "page-tests-pass-1"
# The engine's games (the arena tests also register fake ones for their own use).
GAMES = ["moon_adventure", "moon_bots", "moonrakers", "moonrollers"]


@dataclass
class Site:
    owner: User
    bots: dict[str, list[int]] = field(default_factory=dict)
    matches: dict[str, int] = field(default_factory=dict)
    tournaments: dict[str, int] = field(default_factory=dict)
    knockout: int | None = None


def play_queued() -> None:
    """Play every queued match (and those that recording results opens) in this process.

    Read from the table rather than the queue: inside a test's transaction the enqueue
    waits for a commit that never comes.
    """
    while match_id := Match.objects.filter(status=Match.Status.QUEUED).order_by("id").first():
        outcome = execute_match(match_id.pk)
        assert outcome == "recorded", (match_id, outcome, Match.objects.get(pk=match_id.pk).error)


def _bot(owner: User, game: str, name: str, builtin: str) -> int:
    path = builtin_path(builtin, game)
    assert path is not None
    upload = Upload("bot.py", path.read_bytes())
    return create_bot(owner, f"{game}-{name}", game, upload, smoke=False).pk


def build_site(games: list[str] | None = None, knockout: bool = True) -> Site:
    owner = User.objects.create_user("pat", password=PASSWORD)
    organiser = User.objects.create_user("olga-org", password=PASSWORD)
    organiser.groups.add(Group.objects.get_or_create(name="organisers")[0])
    site = Site(owner=owner)
    for game in games or GAMES:
        spec = engine.get_game(game)
        strong = "heuristic" if "heuristic" in builtin_names(game) else "first"
        ids = [_bot(owner, game, name, name) for name in (strong, "random")]
        site.bots[game] = ids
        players = max(2, spec.min_players)
        tournament = create_tournament(
            organiser,
            name=f"{spec.title or game} cup",
            game=game,
            bots=ids,
            players_per_match=players,
            limits={"match_seconds": 120},
        )
        site.tournaments[game] = tournament.pk
        play_queued()
        site.matches[game] = (
            Match.objects.filter(tournament=tournament, status=Match.Status.FINISHED)
            .order_by("id")
            .values_list("pk", flat=True)
            .first()
        )
        skill_service.refit(game, force=True)
    if knockout:
        game = "moon_bots"
        ids = site.bots.get(game, [])
        ids = ids + [_bot(owner, game, f"extra{i}", "first") for i in range(4 - len(ids))]
        tournament = create_tournament(
            organiser,
            name="Moon-Bots knockout",
            game=game,
            bots=ids,
            players_per_match=2,
            format=Tournament.Format.KNOCKOUT,
        )
        play_queued()
        site.knockout = tournament.pk
    return site
