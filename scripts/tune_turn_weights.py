"""Do better hand-set weights make the Moon Adventure heuristic succeed more often?

    python scripts/tune_turn_weights.py --players 3 --generations 15 --population 16 \
        --missions 500 --validate 4000

The heuristic's `Planner` scores where each turn would end with hand-set weights
(`W_DEATH`, `W_HOME`, ...) and decides when to head home with hand-set thresholds
(`GOOD_ENOUGH`, `MIN_VALUE`, ...). `scripts/fitted_turn_value.py` found that a value fitted
to the positions of games does not improve on them; this script optimises the weights on
what matters instead, the missions' outcomes, with the cross-entropy method:

1. Each generation samples `--population` weight sets around the current mean (each
   weight multiplied by e^(sd × a normal draw); a share between 0 and 1 moved on the
   logit scale), plays every set on the same `--missions` missions (a new block of seeds
   each generation, so no set of seeds is learnt), and moves the mean and the spread to
   those of the `--elite` best by mean expected success (0 if someone ran out of oxygen,
   else the chance that the chips brought home hold enough undamaged ones).
2. It then plays the final mean and the heuristic's own weights on `--validate` fresh
   missions (seeds from 500000, the same for both) and prints each one's mean expected
   success, its successes with a 95% Wilson interval, and the difference on the same seeds
   with two standard errors.

`W_CHIP` stays fixed: it sets the scale the other weights are measured in.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fitted_turn_value import play, wilson  # noqa: E402

from bots.reference import moon_adventure_heuristic as heuristic  # noqa: E402

TUNE_SEED = 200000
VALIDATE_SEED = 500000
# (name, where it lives, how it varies): "scale" weights are positive and vary by a factor,
# "share" weights lie between 0 and 1 and vary on the logit scale.
WEIGHTS = (
    ("W_HOME", "module", "scale"),
    ("W_OUT", "module", "scale"),
    ("OUT_LOW", "module", "scale"),
    ("W_ROUTE", "module", "scale"),
    ("W_RESCUE", "module", "scale"),
    ("W_DEATH", "module", "scale"),
    ("OGS_PRICE", "module", "scale"),
    ("RESERVE_AP", "module", "scale"),
    ("MARGIN", "module", "scale"),
    ("AP_PER_DRAW", "module", "scale"),
    ("AP_PER_CHIP", "module", "scale"),
    ("POTENTIAL", "module", "share"),
    ("REFILL_RELIEF", "module", "share"),
    ("MIN_VALUE", "module", "share"),
    ("GOOD_ENOUGH", "module", "share"),
    ("area5_bonus", "plan", "scale"),
    ("give_up", "plan", "scale"),
    ("far_slack", "plan", "scale"),
)


def team_plan(players):
    return heuristic.BOLD if players <= heuristic.BOLD_UP_TO else heuristic.STEADY


def read_weights(players):
    plan = team_plan(players)
    return {
        name: float(getattr(heuristic if home == "module" else plan, name))
        for name, home, _ in WEIGHTS
    }


def set_weights(players, weights):
    plan = team_plan(players)
    for name, home, _ in WEIGHTS:
        value = weights[name]
        if name == "far_slack":
            value = max(0, round(value))
        setattr(heuristic if home == "module" else plan, name, value)


def to_search_space(weights):
    """Each weight as a number on a scale where a normal step is a fair move (a weight of
    0 cannot be scaled by a factor: it starts at 0.01)."""
    point = []
    for name, _, kind in WEIGHTS:
        value = weights[name]
        if kind == "share":
            value = min(max(value, 0.01), 0.99)
            point.append(math.log(value / (1 - value)))
        else:
            point.append(math.log(max(value, 0.01)))
    return point


def from_search_space(point):
    weights = {}
    for (name, _, kind), x in zip(WEIGHTS, point, strict=True):
        weights[name] = 1 / (1 + math.exp(-x)) if kind == "share" else math.exp(x)
    return weights


def missions(players, weights, seeds):
    """Each mission's expected success and whether it succeeded, with these weights."""
    original = read_weights(players)
    set_weights(players, weights)
    try:
        return [play(players, seed)[:2] for seed in seeds]
    finally:
        set_weights(players, original)


def tune(players, generations, population, elite, count, spread, say):
    start = read_weights(players)
    mean = to_search_space(start)
    sd = [spread] * len(mean)
    rng = random.Random(players)
    for generation in range(generations):
        seeds = range(TUNE_SEED + generation * count, TUNE_SEED + (generation + 1) * count)
        points = [mean] + [
            [m + s * rng.gauss(0, 1) for m, s in zip(mean, sd, strict=True)]
            for _ in range(population - 1)
        ]
        values = [
            statistics.fmean(value for value, _ in missions(players, from_search_space(p), seeds))
            for p in points
        ]
        ranked = sorted(range(population), key=lambda index: -values[index])[:elite]
        best = [points[index] for index in ranked]
        new_mean = [statistics.fmean(column) for column in zip(*best, strict=True)]
        new_sd = [statistics.pstdev(column) for column in zip(*best, strict=True)]
        mean = [0.3 * old + 0.7 * new for old, new in zip(mean, new_mean, strict=True)]
        sd = [max(0.05, 0.3 * old + 0.7 * new) for old, new in zip(sd, new_sd, strict=True)]
        say(
            f"generation {generation + 1}: mean's {values[0]:.4f}, best {values[ranked[0]]:.4f}, "
            f"elite mean {statistics.fmean(values[index] for index in ranked):.4f}, "
            f"spread {statistics.fmean(sd):.3f}"
        )
    return from_search_space(mean)


def validate(players, tuned, count):
    seeds = range(VALIDATE_SEED, VALIDATE_SEED + count)
    rows = {}
    for label, weights in (("heuristic", read_weights(players)), ("tuned", tuned)):
        started = time.perf_counter()
        rows[label] = (missions(players, weights, seeds), time.perf_counter() - started)
    base = [value for value, _ in rows["heuristic"][0]]
    print("| weights | expected success | successes [95%] | against the heuristic [±2 se] |")
    print("|---|---|---|---|")
    for label, (played, _) in rows.items():
        values = [value for value, _ in played]
        wins = sum(succeeded for _, succeeded in played)
        low, high = wilson(wins, count)
        differences = [a - b for a, b in zip(values, base, strict=True)]
        gain = statistics.fmean(differences)
        two_se = 2 * statistics.stdev(differences) / math.sqrt(count)
        against = "" if label == "heuristic" else f"{gain:+.4f} [±{two_se:.4f}]"
        print(
            f"| {label} | {statistics.fmean(values):.4f} | {wins}/{count} "
            f"[{low:.3f}, {high:.3f}] | {against} |"
        )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--generations", type=int, default=15)
    parser.add_argument("--population", type=int, default=16)
    parser.add_argument("--elite", type=int, default=4)
    parser.add_argument("--missions", type=int, default=500)
    parser.add_argument("--spread", type=float, default=0.3)
    parser.add_argument("--validate", type=int, default=4000)
    args = parser.parse_args(argv)
    if not 2 <= args.players <= 5:
        parser.error("--players is 2 to 5")
    if not 1 <= args.elite < args.population:
        parser.error("--elite is at least 1 and below --population")
    if min(args.generations, args.missions, args.validate) < 1:
        parser.error("--generations, --missions and --validate are at least 1")
    started = time.perf_counter()
    tuned = tune(
        args.players,
        args.generations,
        args.population,
        args.elite,
        args.missions,
        args.spread,
        lambda line: print(line, file=sys.stderr, flush=True),
    )
    print("tuned weights:", {name: round(value, 3) for name, value in tuned.items()})
    validate(args.players, tuned, args.validate)
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
