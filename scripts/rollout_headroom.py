"""How much could a search that tries each choice of one Moon Adventure decision gain?

    python scripts/rollout_headroom.py --players 3 --points 40 --worlds 100

The Moon Adventure search bot asks, at a decision, "would the team do better if I chose
otherwise here, and then all of us played on as the heuristic would?" This script measures
the most that question can be worth. It plays heuristic teams (seeds from 5000) and, at
sampled decisions of each kind (`--kinds`: the phases `replenish`, `oxygen`, `share` and
`act`), plays every legal choice (at most `--candidates` besides the heuristic's)
followed by the heuristic for every seat to the end of the mission, on the same
`--worlds` worlds sampled from the seat's observation, with the same dice (paired).

A finished mission scores its expected success: 0 if a crew member ran out of oxygen,
otherwise the chance that the chips the team brought home hold enough undamaged ones,
averaged over which chips are broken (so the broken flags' luck adds no noise). Per kind
it prints:

- `gain`: the choice that did best on half of the worlds, against the heuristic's choice
  on the other half: what a search with that many worlds gains per decision (unbiased);
- `sd`: per world, the standard deviation of the difference between a choice and the
  heuristic's (the largest over the choices, median over the decisions);
- `worlds to see 0.02`: (2 sd / 0.02)^2, the worlds a choice needs for a difference of
  0.02 in the chance of success to stand two standard errors clear;
- `ms a playout` and the worlds a 0.5 s budget affords at that speed (two choices).

The same arguments print the same table.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bots.reference import moon_adventure_heuristic as heuristic  # noqa: E402
from bots.reference.moon_adventure_search import (  # noqa: E402
    mission_score,
    play_mission,
    undamaged_chance,
)
from bots.sdk.worlds import world_from_observation  # noqa: E402
from engine.games.moon_adventure.data import RULES  # noqa: E402

GAME = "moon_adventure"
KINDS = ("replenish", "oxygen", "share", "act")
FIRST_SEED = 5000
SAMPLE_SHARE = 0.5  # of the decisions of a kind met: spreads the points over games
VISIBLE_DIFFERENCE = 0.02
BUDGET_SECONDS = 0.5


def success_chance(held: tuple[int, ...], target: int) -> float:
    """P(undamaged >= target) for `held` chips per area (in `RULES.areas` order), none of
    the chips seen."""
    return undamaged_chance(
        held,
        tuple(RULES.undamaged_per_area[area] for area in RULES.areas),
        (RULES.chips_per_area,) * len(RULES.areas),
        target,
    )


def expected_success(state) -> float:
    """A finished mission's score: 0 if someone ran out of oxygen, else the chance that the
    chips brought home hold enough undamaged ones (the plan search's own score)."""
    return mission_score(state)


def play_out(world) -> float:
    """The heuristic (its plan for the table's size) for every seat to the end of the mission."""
    play_mission(world, None)
    return expected_success(world)


def compare(observation: dict, seat: int, choices: list, worlds: int, rng: random.Random) -> dict:
    """Each choice's scores on the same sampled worlds; a world's clones share its dice."""
    scores: dict = {choice: [] for choice in choices}
    for _ in range(worlds):
        world = world_from_observation(GAME, observation, seat, rng)
        for choice in choices:
            copy = world.clone()
            copy.apply(choice)
            scores[choice].append(play_out(copy))
    return scores


def measure(kind: str, players: int, points: int, worlds: int, candidates: int) -> dict:
    rng = random.Random(f"{kind}-{players}")
    gains, spreads = [], []
    playouts, started = 0, time.process_time()
    seed = FIRST_SEED
    while len(gains) < points:
        state = engine.get_game(GAME).new_state(players, seed=seed)
        seed += 1
        team = heuristic.Bot()
        while not state.is_terminal() and len(gains) < points:
            seat, legal = state.to_move(), state.legal_actions()
            observation = state.observation(seat)
            guide = team.act(observation, legal)
            wanted = (
                observation["phase"] == kind
                and len(legal) > 1
                and not observation["returned"][seat]
                and rng.random() < SAMPLE_SHARE
            )
            if wanted:
                others = [choice for choice in legal if choice != guide][:candidates]
                scores = compare(observation, seat, [guide, *others], worlds, rng)
                playouts += worlds * (1 + len(others))
                half = worlds // 2
                best = max(scores, key=lambda choice: sum(scores[choice][:half]))
                gains.append(
                    (sum(scores[best][half:]) - sum(scores[guide][half:])) / (worlds - half)
                )
                spreads.append(
                    max(
                        statistics.stdev(
                            a - b for a, b in zip(scores[other], scores[guide], strict=True)
                        )
                        for other in others
                    )
                )
            state.apply(guide)
    playout_ms = 1000 * (time.process_time() - started) / max(1, playouts)
    sd = statistics.median(spreads)
    return {
        "kind": kind,
        "points": len(gains),
        "gain": statistics.fmean(gains),
        "gain_se": statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else 0.0,
        "sd": sd,
        "needed": (2 * sd / VISIBLE_DIFFERENCE) ** 2,
        "playout_ms": playout_ms,
        "affordable": BUDGET_SECONDS * 1000 / playout_ms / 2,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4, 5))
    parser.add_argument("--points", type=int, default=40, help="decisions per kind")
    parser.add_argument("--worlds", type=int, default=100, help="paired worlds per choice")
    parser.add_argument("--candidates", type=int, default=8, help="choices besides the heuristic's")
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    args = parser.parse_args(argv)
    if args.worlds < 4 or args.points < 1 or args.candidates < 1:
        parser.error("--worlds must be at least 4, --points and --candidates at least 1")
    print(
        "| decision | points | gain [±2 se] | sd | worlds to see 0.02 | ms a playout | worlds in 0.5 s |"
    )
    print("|---|---|---|---|---|---|---|")
    for kind in args.kinds:
        row = measure(kind, args.players, args.points, args.worlds, args.candidates)
        print(
            f"| {row['kind']} | {row['points']} | {row['gain']:+.4f} [±{2 * row['gain_se']:.4f}] "
            f"| {row['sd']:.3f} | {row['needed']:,.0f} | {row['playout_ms']:.1f} "
            f"| {row['affordable']:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
