"""How often each Moon Adventure team plan, and the search that switches between them, succeeds.

    python scripts/team_plans.py --players 4 --missions 400
    python scripts/team_plans.py --players 3 --missions 100 --search-worlds 8

The heuristic plays every seat with one team plan (`heuristic.PLANS`: bold or steady),
fixed by the table's size; the search bot (`bots/reference/moon_adventure_search.py`)
chooses one at the start of each turn by playing sampled worlds to the end with each.
This script plays the same missions (seeds from `--first-seed`) with every seat on each
fixed plan, with every seat on the heuristic's own plan for the table's size, and, given
`--search-worlds N`, with every seat the search bot playing N worlds a plan at each turn
(a fixed count, so the figures repeat; the arena's bot plays as many as its move budget
allows, about 25 at 0.5 s). In-process, no sandbox: the arena's own measurement is
`python manage.py search_strength --games moon_adventure`.

Per team it prints the successes with a 95% Wilson interval, the missions where every
crew member came home, the mean team score, and for the search the share of turns it
played each plan. The same arguments print the same table but for the timings.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from arena.stats import wilson_interval  # noqa: E402
from bots.reference import moon_adventure_heuristic as heuristic  # noqa: E402
from bots.reference import moon_adventure_search as search  # noqa: E402

GAME = "moon_adventure"


def play(players: int, seed: int, seats: list) -> engine.State:
    state = engine.get_game(GAME).new_state(players, seed=seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        choice = seats[state.to_move()].act(state.observation(state.to_move()), legal)
        state.apply(choice if choice in legal else legal[0])
    return state


def searchers(players: int, seed: int, worlds: int, chosen: Counter) -> list:
    """Search bots for every seat, counting the plan each turn is played with."""

    class Counting(search.Bot):
        def act(self, observation, legal_actions):
            turn = self.turn
            action = super().act(observation, legal_actions)
            if self.turn != turn:
                chosen[self.plan] += 1
            return action

    seats = []
    for seat in range(players):
        bot = Counting()
        bot.playouts = worlds
        bot.setup({"seat": seat, "seed": seed, "match": 0})
        seats.append(bot)
    return seats


def measure(players: int, missions: int, first_seed: int, worlds: int) -> list[dict]:
    own = search.own_plan({"crew": [0] * players})
    teams: list[tuple[str, object]] = [(f"{name} plan", name) for name in heuristic.PLANS]
    teams.append((f"heuristic ({own} at {players} players)", None))
    if worlds:
        teams.append((f"search, {worlds} world{'s' if worlds > 1 else ''} a plan", "search"))
    rows = []
    for label, plan in teams:
        successes = home = score = 0
        chosen: Counter = Counter()
        started = time.process_time()
        for seed in range(first_seed, first_seed + missions):
            if plan == "search":
                seats = searchers(players, seed, worlds, chosen)
            else:
                team = heuristic.Bot(heuristic.PLANS[plan] if plan else None)
                seats = [team] * players
            state = play(players, seed, seats)
            result = state.result()
            successes += result["outcome"] == "success"
            home += all(state.observation(0)["returned"])
            score += result["team_score"]
        turns = sum(chosen.values())
        rows.append(
            {
                "team": label,
                "successes": successes,
                "interval": wilson_interval(successes, missions),
                "home": home,
                "score": score / missions,
                "plans": ", ".join(
                    f"{name} {chosen[name] / turns:.0%}" for name in heuristic.PLANS if turns
                ),
                "ms": 1000 * (time.process_time() - started) / missions,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4, 5))
    parser.add_argument("--missions", type=int, default=400)
    parser.add_argument("--first-seed", type=int, default=800000)
    parser.add_argument(
        "--search-worlds", type=int, default=0, help="also the search, N worlds a plan"
    )
    args = parser.parse_args(argv)
    if args.missions < 1 or args.search_worlds < 0:
        parser.error("--missions must be at least 1 and --search-worlds not negative")
    print(
        f"| team ({args.players} players, {args.missions} missions) | successes [95%] "
        "| all home | mean team score | turns played with | ms a mission |"
    )
    print("|---|---|---|---|---|---|")
    for row in measure(args.players, args.missions, args.first_seed, args.search_worlds):
        low, high = row["interval"]
        print(
            f"| {row['team']} | {row['successes']}/{args.missions} [{low:.3f}, {high:.3f}] "
            f"| {row['home']} | {row['score']:.2f} | {row['plans'] or '-'} | {row['ms']:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
