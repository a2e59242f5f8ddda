"""The engine's speed: random playouts per second, one core, in this process.

    arena bench --game moonrollers [--seconds 3] [--seed 1] [--json]

For each player count of the game, random games are played for `seconds` (the engine's
`apply` and `legal_actions` included); the report gives games and decisions per second
per count and over all of them.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import engine


def playouts(game: engine.Game, players: int, seconds: float, seed: int) -> dict[str, Any]:
    """Random games at one player count for `seconds`: games and decisions per second."""
    rng = random.Random(seed)
    games = decisions = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        state = game.new_state(players, rng.randrange(1 << 30))
        choice = rng.choice
        while not state.is_terminal():
            state.apply(choice(state.legal_actions()))
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - started
    return {
        "games": games,
        "decisions": decisions,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed, 1),
    }


def measure(game: engine.Game, seconds: float, seed: int) -> dict[str, Any]:
    """Playouts at every player count of the game, and the rates over all of them."""
    counts = {}
    for players in range(game.min_players, game.max_players + 1):
        counts[str(players)] = playouts(game, players, seconds, seed)
    total_decisions = sum(c["decisions"] for c in counts.values())
    total_games = sum(c["games"] for c in counts.values())
    total_seconds = sum(c["seconds"] for c in counts.values())
    return {
        "game": game.name,
        "rules_version": game.rules_version,
        "python": sys.version.split()[0],
        "players": counts,
        "games_per_s": round(total_games / total_seconds, 1),
        "decisions_per_s": round(total_decisions / total_seconds, 1),
    }


def table(report: dict[str, Any], seconds: float) -> str:
    """The report as a table for a terminal."""
    lines = [
        f"{report['game']} random playouts, one core, {seconds:g}s per player count",
        f"{'players':>7} {'games/s':>10} {'decisions/s':>12}",
    ]
    for players, c in report["players"].items():
        lines.append(f"{players:>7} {c['games_per_s']:>10.1f} {c['decisions_per_s']:>12.0f}")
    lines.append(f"{'all':>7} {report['games_per_s']:>10.1f} {report['decisions_per_s']:>12.0f}")
    return "\n".join(lines)
