"""How long one Swiss round takes to pair, mid-event (pure maths, one core).

    .venv/bin/python -m arena.bench.pairing [n:k:rounds_before ...]

For each field: play a Swiss with random results up to round `r`, then time pairing
round r + 1 (median of 5). Prints one line per field.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from arena.tournaments.round_robin import rotations
from arena.tournaments.swiss import PlayedTable, entrants_after, pair_round


def history(n: int, k: int, rounds: int, rng: random.Random) -> list:
    played: list = []
    for number in range(1, rounds + 1):
        entrants = sorted(entrants_after(range(n), played), key=lambda e: (-e.score, e.bot))
        paired = pair_round(entrants, k, 1, number, 2)
        tables = []
        for table in paired.tables:
            order = list(table)
            rng.shuffle(order)
            points = {b: (k - 1 - i) / (k - 1) for i, b in enumerate(order)}
            tables.append(PlayedTable([rotations(table)[0]], points))
        played.append((tables, paired.byes))
    return played


def main() -> None:
    rng = random.Random(1)
    fields = [tuple(int(x) for x in arg.split(":")) for arg in sys.argv[1:]] or [
        (64, 2, 4),
        (256, 2, 6),
        (512, 2, 7),
        (48, 3, 4),
        (96, 4, 4),
    ]
    for n, k, before in fields:
        played = history(n, k, before, rng)
        entrants = sorted(entrants_after(range(n), played), key=lambda e: (-e.score, e.bot))
        times = []
        for _ in range(5):
            start = time.perf_counter()
            pair_round(entrants, k, 1, before + 1, 1)
            times.append(time.perf_counter() - start)
        print(f"n={n} k={k} round {before + 1}: median {statistics.median(times) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
