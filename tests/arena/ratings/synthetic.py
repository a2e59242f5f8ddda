"""Synthetic bots of known strength for the ratings tests (no workers, no database).

Tables are drawn from the Plackett–Luce model itself: each seat's log-strength plus
standard Gumbel noise, sorted, gives a Plackett–Luce order (the Gumbel-max trick).
"""

from __future__ import annotations

import numpy as np

from arena.ratings.whole_history import ELO_PER_UNIT


def true_thetas(rng: np.random.Generator, bots: int, spread_elo: float = 200.0) -> np.ndarray:
    return rng.normal(0.0, spread_elo / ELO_PER_UNIT, bots)


def play_tables(
    rng: np.random.Generator,
    theta: np.ndarray,
    tables: int,
    sizes: tuple[int, ...] = (2,),
    draw_chance: float = 0.0,
) -> list[list[tuple[int, int]]]:
    """Tables as (bot, rank) per seat, best first; two-seat tables draw with `draw_chance`."""
    played = []
    for _ in range(tables):
        size = int(rng.choice(sizes))
        seats = rng.choice(len(theta), size, replace=False)
        order = seats[np.argsort(-(theta[seats] + rng.gumbel(size=size)))]
        if size == 2 and rng.random() < draw_chance:
            played.append([(int(order[0]), 1), (int(order[1]), 1)])
        else:
            played.append([(int(bot), place + 1) for place, bot in enumerate(order)])
    return played


def anchored_elo(theta: np.ndarray) -> np.ndarray:
    return 1500.0 + (theta - theta.mean()) * ELO_PER_UNIT
