"""A newcomer joining a settled ladder: how many matches until it stands in its place.

The benchmark in arena/ladder/simulation.py asks how soon all 190 pairs of 20 new bots
are in order. What an author waits for after an upload is narrower: where does my bot
stand? Here n − 1 bots of known strength (as there: bot i plays the reference heuristic
with probability i / (n − 1)) first play `warm_matches` uniformly random tables among
themselves, the same games for every mode, so the board is settled before anything is
measured. Then bot `newcomer` arrives and the mode chooses the tables: "ladder" (the
selection, fed by the whole-history fit, duplicate sets, the newcomer guarantee first)
or "random" (uniformly random tables of all n bots, the newcomer among them).

Every `every` matches after the arrival the newcomer's place on the fit's board (how
many bots are rated above it) is compared with its true place (how many are stronger).
Reported: the matches after the arrival from which it stays within `places` of its true
place to the end of the run, for each tolerance, and the newcomer's games by then. The
matches counted are the arena's: every match played after the arrival, the newcomer's or
not, since that is the machine time the ladder spends.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import engine
from arena.ladder.selection import History, Policy
from arena.ladder.simulation import (
    Act,
    MixedBot,
    Results,
    planned_games,
    play,
    simulated_entrants,
    spearman,
    stays_from,
)

ARRIVAL_MODES = ("ladder", "random")
TOLERANCES = (0, 1, 2)


@dataclass
class ArrivalRun:
    game: str
    size: int
    mode: str
    seed: int
    newcomer: int
    matches: int = 0  # after the arrival
    newcomer_games: int = 0
    # (matches after the arrival, |board place - true place|, newcomer games, board Spearman)
    curve: list[tuple[int, int, int, float]] = field(default_factory=list)
    reached: dict[int, int | None] = field(default_factory=dict)  # tolerance -> matches
    games_when_reached: dict[int, int | None] = field(default_factory=dict)


def newcomer_for(seed: int, bots: int) -> int:
    """The bot that arrives in run `seed`: spread over the board, the same in every mode."""
    return random.Random(f"ladder-arrival:newcomer:{seed}").randrange(bots)


def place_error(skill: Sequence[float], newcomer: int) -> int:
    """How far the newcomer's place on the board is from its true one (true order: index)."""
    above = sum(1 for bot, value in enumerate(skill) if bot != newcomer and value > skill[newcomer])
    return abs(above - (len(skill) - 1 - newcomer))


def simulate_arrival(
    game_name: str,
    heuristic: Act,
    bots: int,
    size: int,
    mode: str,
    seed: int,
    warm_matches: int,
    max_matches: int,
    every: int,
    policy: Policy | None = None,
    tick: int = 8,
    refit_every: int = 8,
) -> ArrivalRun:
    if mode not in ARRIVAL_MODES:
        raise ValueError(f"unknown mode {mode!r}")
    game = engine.get_game(game_name)
    if game.cooperative:
        raise ValueError("a cooperative game has no competitive board to place a bot on")
    policy = policy or Policy()
    newcomer = newcomer_for(seed, bots)
    # The warm-up draws from its own generator, so both modes play the same warm games.
    warm = random.Random(f"ladder-arrival:{game_name}:{size}:{seed}")
    strengths = [i / (bots - 1) for i in range(bots)]
    players = [MixedBot(p, heuristic, random.Random(warm.getrandbits(64))) for p in strengths]
    results = Results(bots)
    history = History()
    owners = {bot: bot for bot in range(bots)}
    games = dict.fromkeys(range(bots), 0)
    established = [bot for bot in range(bots) if bot != newcomer]

    def played(seating: Sequence[int], match_seed: int) -> None:
        result = play(game, [players[b] for b in seating], match_seed)
        results.add(seating, result["ranks"])
        history.add(seating, owners, 1)
        for bot in seating:
            games[bot] += 1

    for _ in range(warm_matches):
        played(warm.sample(established, size), warm.getrandbits(62))
    results.refit()

    run = ArrivalRun(game_name, size, mode, seed, newcomer)
    rng = random.Random(f"ladder-arrival:{game_name}:{size}:{mode}:{seed}")

    def after_arrival(seating: Sequence[int], match_seed: int) -> None:
        played(seating, match_seed)
        run.matches += 1
        if mode == "ladder" and run.matches % refit_every == 0:
            results.refit()
        if run.matches % every == 0:
            skill = [float(s) for s in results.fitted().skill]
            run.curve.append(
                (
                    run.matches,
                    place_error(skill, newcomer),
                    games[newcomer],
                    spearman(strengths, skill),
                )
            )

    while run.matches < max_matches:
        if mode == "random":
            after_arrival(rng.sample(range(bots), size), rng.getrandbits(62))
            continue
        fit = results.fit
        assert fit is not None
        # The fit stands in for the live Elo too (the selection reads the fit when it has one).
        skills = [float(value) for value in fit.skill]
        entrants = simulated_entrants(skills, games, fit)
        budget = min(tick, max_matches - run.matches)
        planned = planned_games(entrants, size, budget, rng, policy, history)
        if not planned:
            break
        for seating, match_seed in planned:
            after_arrival(seating, match_seed)
    run.newcomer_games = games[newcomer]
    # stays_from wants "at or above": the error's negative, against the tolerance's.
    errors = [(matches, -error) for matches, error, _, _ in run.curve]
    for tolerance in TOLERANCES:
        reached = stays_from(errors, -tolerance)
        run.reached[tolerance] = reached
        run.games_when_reached[tolerance] = next(
            (g for matches, _, g, _ in run.curve if matches == reached), None
        )
    return run
