"""The anonymous read mix of the API load benchmark (no Django: locust imports it too)."""

from __future__ import annotations

import os
import random

GAMES = ["moonrollers", "moon_bots", "moonrakers", "moon_adventure"]
# As seed_benchmark builds them: tournament 1 is the largest; bots and matches from id 1.
TOURNAMENT = int(os.environ.get("ARENA_BENCH_TOURNAMENT", "1"))
BOTS = int(os.environ.get("ARENA_BENCH_BOTS", "5000"))
MATCHES = int(os.environ.get("ARENA_BENCH_MATCHES", "1000000"))


def mix(
    rng: random.Random, bots: int = BOTS, matches: int = MATCHES, tournament: int = TOURNAMENT
) -> list[tuple[str, str]]:
    """(name, path) of one request of each kind, with fresh ids."""
    game = rng.choice(GAMES)
    bot = rng.randint(1, bots)
    match = rng.randint(1, matches)
    return [
        ("leaderboard first page", f"/api/leaderboards/{game}/"),
        ("leaderboard deep page", f"/api/leaderboards/{game}/?page={rng.randint(10, 25)}"),
        ("bots of a game", f"/api/bots/?game={game}"),
        ("bot", f"/api/bots/{bot}/"),
        ("biggest tournament", f"/api/tournaments/{tournament}/"),
        ("biggest tournament's matches", f"/api/matches/?tournament={tournament}"),
        ("matches by bot", f"/api/matches/?bot={bot}"),
        ("match", f"/api/matches/{match}/"),
        ("replay", f"/api/matches/{match}/replay/"),
    ]
