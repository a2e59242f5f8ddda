"""Fit a search bot's standing evaluation to the results of heuristic self-play.

    python scripts/fit_standing.py moon_bots --players 2 3 4 --games 3000

For each table size it plays `--games` games of the game's heuristic against itself,
records every seat's features at the start of each turn (the search bot's `FEATURES`,
`features(state, seat)` and `progress(state)`, 0 to 1), and fits a logistic model of
"seat i finishes ahead of seat j" on the difference of their features, each feature with
a weight at the start and one more that grows with the progress. It prints the `WEIGHTS`
table to paste into the bot, with the log loss and accuracy on the last fifth of the games
(held out). Games with seeds 1 to `--games`; the same arguments print the same table.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402

RIDGE = 1e-2  # keeps features that move together (energy and robots) from diverging
NEWTON_STEPS = 30


def self_play(game: str, players: int, seed: int, bot, heuristic) -> tuple[list, list[int]]:
    """One heuristic game: (progress, per-seat features) at each turn's start, and ranks."""
    state = engine.get_game(game).new_state(players, seed)
    rows = []
    turn = None
    while not state.is_terminal():
        if state.turns != turn:
            turn = state.turns
            rows.append((bot.progress(state), [bot.features(state, s) for s in range(players)]))
        legal = state.legal_actions()
        seat = state.to_move()
        state.apply(legal[0] if len(legal) == 1 else heuristic.act(state.observation(seat), legal))
    return rows, state.result()["ranks"]


def pairs(games: list[tuple[list, list[int]]]) -> tuple[np.ndarray, np.ndarray]:
    """One row per ordered pair of seats with different ranks, per recorded turn."""
    xs, ys = [], []
    for rows, ranks in games:
        for progress, features in rows:
            for i, j in itertools.permutations(range(len(ranks)), 2):
                if ranks[i] == ranks[j]:
                    continue
                diff = np.subtract(features[i], features[j], dtype=float)
                xs.append(np.concatenate([diff, diff * progress]))
                ys.append(1.0 if ranks[i] < ranks[j] else 0.0)
    return np.array(xs), np.array(ys)


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Ridge-regularised logistic regression by Newton's method (no intercept: the model
    must give i-ahead-of-j and j-ahead-of-i probabilities that sum to one)."""
    weights = np.zeros(x.shape[1])
    for _ in range(NEWTON_STEPS):
        p = 1 / (1 + np.exp(-x @ weights))
        gradient = x.T @ (p - y) + RIDGE * weights
        hessian = (x * (p * (1 - p))[:, None]).T @ x + RIDGE * np.eye(len(weights))
        weights -= np.linalg.solve(hessian, gradient)
    return weights


def score(x: np.ndarray, y: np.ndarray, weights: np.ndarray) -> tuple[float, float]:
    p = np.clip(1 / (1 + np.exp(-x @ weights)), 1e-9, 1 - 1e-9)
    loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    return float(loss), float(np.mean((p > 0.5) == (y > 0.5)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, nargs="+", default=[2])
    parser.add_argument("--games", type=int, default=3000)
    args = parser.parse_args()
    bot = importlib.import_module(f"bots.reference.{args.game}_search")
    heuristic = importlib.import_module(f"bots.reference.{args.game}_heuristic")
    names = bot.FEATURES
    print("WEIGHTS = {")
    for players in args.players:
        games = [self_play(args.game, players, s, bot, heuristic) for s in range(1, args.games + 1)]
        held_out = len(games) * 4 // 5
        weights = fit(*pairs(games[:held_out]))
        loss, accuracy = score(*pairs(games[held_out:]), weights)
        print(f"    # held-out log loss {loss:.3f}, accuracy {accuracy:.3f}")
        print(f"    {players}: {{")
        # Rounded, and + 0.0 so a weight that rounds to nothing prints 0.000, not -0.000.
        shown = [round(float(w), 3) + 0.0 for w in weights]
        for i, name in enumerate(names):
            print(f'        "{name}": ({shown[i]:.3f}, {shown[i + len(names)]:.3f}),')
        print("    },")
    print("}")


if __name__ == "__main__":
    main()
