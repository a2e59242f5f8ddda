"""Does the cooperative rating tell a good team-mate from a bad one? A measurement.

The two bots measured, the game's reference heuristic and the random bot (read from
their files, as the ladder simulation does: the arena imports no bots), join a pool with
`partners` more copies of the heuristic, the team-mates a ladder deals them (as in
tests/arena/ratings/test_cooperative_moon_adventure.py). The pool is dealt to `games`
tables of a cooperative game: each table's size drawn uniformly from `sizes` (by default
the ladder's table sizes for the game, arena/ladder/tables.py: 2 and 3 for Moon
Adventure), its seats a random sample of the pool in random order, a fresh seed each.
The engine plays every table in this process (no sandbox: the measurement is about the
ratings, not about the bots' isolation), each seat with its own instance of its bot, as
a worker's runner makes one per match.

Every result is rated with the arena's own code, as arena/services/results.py and
arena/services/skills.py do for the ladder:

- the live Elo: `rate_cooperative` on `team_outcome` (the game's graded outcome) against
  the game's own rating per player count, in the order the tables were played;
- the whole-history skill: `fit_cooperative` over every table, with its 95% interval;
- for comparison, the same fit on success alone (what the arena rated before the graded
  outcome): with few successes, its intervals overlap;

and each bot's success rate gets its 95% Wilson interval (arena/stats.py). `separated`
says whether the heuristic's skill interval lies wholly above the random bot's.
Used by `python manage.py cooperative_separation` and its test.
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import engine
from arena.ladder.tables import default_table_sizes
from arena.ratings import INITIAL_RATING, rate_cooperative, team_outcome
from arena.ratings.cooperative_fit import CooperativeFit, fit_cooperative
from arena.stats import wilson_interval

KINDS = {"heuristic": "{game}_heuristic.py", "random": "random_bot.py"}


def load_reference(directory: Path, kind: str, game: str) -> ModuleType:
    """A reference bot's module, read from its file."""
    path = directory / KINDS[kind].format(game=game)
    spec = importlib.util.spec_from_file_location(f"cooperative_separation_{kind}", path)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _seat_player(module: ModuleType, seat: int, seed: int, players: int) -> Any:
    """A fresh player for one seat of one match: the file's `Bot`, or its module `act`."""
    bot_class = getattr(module, "Bot", None)
    player = bot_class() if bot_class is not None else module
    setup = getattr(player, "setup", None)
    if setup is not None:
        setup({"seat": seat, "seed": seed, "players": players})
    return player


@dataclass
class BotRow:
    name: str
    kind: str
    games: int = 0
    successes: int = 0
    progress_total: float = 0.0
    elo: float = INITIAL_RATING

    def report(self, fit: CooperativeFit, success_fit: CooperativeFit, i: int) -> dict[str, Any]:
        low, high = wilson_interval(self.successes, self.games) or (0.0, 1.0)
        return {
            "bot": self.name,
            "kind": self.kind,
            "games": self.games,
            "elo": round(self.elo, 1),
            "skill": round(float(fit.skill[i]), 1),
            "skill_low": round(float(fit.low[i]), 1),
            "skill_high": round(float(fit.high[i]), 1),
            "success_only_skill": round(float(success_fit.skill[i]), 1),
            "success_only_low": round(float(success_fit.low[i]), 1),
            "success_only_high": round(float(success_fit.high[i]), 1),
            "successes": self.successes,
            "success_rate": round(self.successes / self.games, 4) if self.games else None,
            "success_low": round(low, 4),
            "success_high": round(high, 4),
            "mean_progress": round(self.progress_total / self.games, 4) if self.games else None,
        }


@dataclass
class Tables:
    """Every played table as the fit reads it: one row per seat, one entry per table."""

    seat_table: list[int] = field(default_factory=list)
    seat_item: list[int] = field(default_factory=list)
    outcome: list[float] = field(default_factory=list)
    success: list[bool] = field(default_factory=list)
    score: list[float] = field(default_factory=list)
    players: list[int] = field(default_factory=list)


def measure(
    directory: Path,
    game_name: str = "moon_adventure",
    games: int = 200,
    partners: int = 3,
    seed: int = 1,
    sizes: Sequence[int] | None = None,
) -> dict[str, Any]:
    """Play `games` tables, rate them, and report every bot (see the module docstring)."""
    game = engine.get_game(game_name)
    if not game.cooperative:
        raise ValueError(f"{game_name} is not a cooperative game")
    if games < 1 or partners < 0:
        raise ValueError("games must be positive and partners not negative")
    modules = {kind: load_reference(directory, kind, game_name) for kind in KINDS}
    bots = [BotRow("heuristic", "heuristic"), BotRow("random", "random")]
    bots += [BotRow(f"partner-{n}", "heuristic") for n in range(1, partners + 1)]
    if sizes is None:
        sizes = default_table_sizes(game.name, game.min_players, game.max_players)
    sizes = sorted(set(sizes))
    largest = min(game.max_players, len(bots))
    if not sizes or any(not game.min_players <= n <= largest for n in sizes):
        raise ValueError(f"table sizes must lie in {game.min_players}..{largest}")
    deal = random.Random(seed)
    game_rating: dict[int, float] = {}
    tables = Tables()
    for table in range(games):
        size = deal.choice(sizes)
        seating = deal.sample(range(len(bots)), size)
        match_seed = seed * 1_000_003 + table
        result = _play(game, [modules[bots[b].kind] for b in seating], match_seed)
        graded = team_outcome(result)
        success = result.get("outcome") == "success"
        update = rate_cooperative(
            [bots[b].elo for b in seating], game_rating.get(size, INITIAL_RATING), [graded] * size
        )
        game_rating[size] = update.game
        for b, new in zip(seating, update.seats, strict=True):
            bots[b].elo, bots[b].games = new, bots[b].games + 1
            bots[b].successes += success
            bots[b].progress_total += graded
            tables.seat_table.append(table)
            tables.seat_item.append(b)
        tables.outcome.append(graded)
        tables.success.append(success)
        tables.score.append(float(result.get("team_score", 0)))
        tables.players.append(size)
    fit = _fit(len(bots), tables, tables.outcome)
    success_fit = _fit(len(bots), tables, tables.success)
    rows = [bot.report(fit, success_fit, i) for i, bot in enumerate(bots)]
    heuristic, random_bot = rows[0], rows[1]
    return {
        "game": game.rules_version,
        "games": games,
        "seed": seed,
        "sizes": sizes,
        "bots": rows,
        "separated": heuristic["skill_low"] > random_bot["skill_high"],
        "separated_on_success_only": heuristic["success_only_low"]
        > random_bot["success_only_high"],
    }


def _fit(bots: int, tables: Tables, outcome: list[float] | list[bool]) -> CooperativeFit:
    return fit_cooperative(
        bots, tables.seat_table, tables.seat_item, outcome, tables.score, tables.players
    )


def _play(game: engine.Game, modules: list[ModuleType], seed: int) -> dict[str, Any]:
    players = [_seat_player(m, seat, seed, len(modules)) for seat, m in enumerate(modules)]
    state = game.new_state(len(players), seed, {})
    while not state.is_terminal():
        seat = state.to_move()
        state.apply(players[seat].act(state.observation(seat), state.legal_actions()))
    return dict(state.result())
