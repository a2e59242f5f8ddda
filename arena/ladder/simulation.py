"""A simulated ladder: bots of known strength, real games, real ratings, no workers.

Bot i of n plays the game's reference heuristic with probability p_i = i / (n − 1) at each
decision and a uniformly random legal action otherwise, so the true order is the order
of p. Matches are played by the engine in this process; ratings move through
arena.ratings (the Elo the arena uses: ranked tables decomposed pairwise, cooperative
tables against the game's own rating), summed per bot as arena/services/results.py does.

Ways to choose tables of one size (`MODES`):
- "ladder": arena/ladder/selection.py's plan (newcomers, information, exploration) fed
  by a whole-history fit of every result so far (arena/ratings/whole_history.py, refit
  every `refit_every` matches, warm-started, as the service reads the last SkillFit),
  each table played as a duplicate set (one seed, every seat rotation);
- "ladder-single": the same selection, each table played once (one rotation);
- "ladder-elo": the selection fed by Elo ratings and game counts only (the service's
  fallback before a game's first fit), duplicate sets;
- "random": uniformly random tables in random seat order, a fresh seed each match;
- "oracle": the ceiling, not a product: knows the true strengths (`truth`, a fit of a large
  sample of random tables, `true_strengths`) and plays, one match at a time, the table
  whose expected information most cuts the expected number of mis-ordered pairs under
  the fit's covariance (arena/ladder/design.py, all at the true strengths). Its choices
  do not depend on the outcomes.
Cooperative games have no competitive fit: every ladder mode selects by Elo there.

With `model=True` the outcomes are not played by the engine but drawn from the
Plackett–Luce model at `truth` (for quick experiments; no dice, no duplicate-set luck
cancelling).

After every `every` matches two leaderboards are compared with the true order by
Spearman's rank correlation: the live Elo's, and the whole-history fit's (the product's
`?order=skill`, same code); the figure reported is the number of matches from which it
stays at or above the threshold up to the end of the run (None if it never does). Used
by `python manage.py ladder_bench`.
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import engine
from arena.ladder import design
from arena.ladder.selection import Entrant, History, Policy, plan_tables
from arena.ladder.tables import duplicate_seatings
from arena.ratings import INITIAL_RATING, rate_cooperative, rate_ranked, team_outcome
from arena.ratings.plackett_luce import from_seat_arrays
from arena.ratings.whole_history import DEFAULT_PRIOR_SD_ELO, SkillFit, fit_skills, prior_precision

MODES = ("ladder", "ladder-single", "ladder-elo", "random", "oracle")

Act = Callable[[Any, list[Any]], Any]


def load_heuristic(directory: Path, game: str) -> Act:
    """The reference heuristic's act() for a game, read from its file (arena imports no bots)."""
    path = directory / f"{game}_heuristic.py"
    spec = importlib.util.spec_from_file_location(f"ladder_bench_{game}_heuristic", path)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.act  # type: ignore[no-any-return]


@dataclass
class MixedBot:
    """The heuristic with probability p at each decision, a random legal action otherwise."""

    strength: float
    heuristic: Act
    rng: random.Random

    def act(self, observation: Any, legal: list[Any]) -> Any:
        if self.rng.random() < self.strength:
            return self.heuristic(observation, legal)
        return self.rng.choice(legal)


def play(game: engine.Game, bots: Sequence[MixedBot], seed: int) -> dict[str, Any]:
    state = game.new_state(len(bots), seed, {})
    while not state.is_terminal():
        seat = state.to_move()
        legal = state.legal_actions()
        state.apply(bots[seat].act(state.observation(seat), legal))
    return dict(state.result())


def spearman(truth: Sequence[float], estimate: Sequence[float]) -> float:
    """Spearman's rank correlation of two score lists (no ties expected: ratings are reals)."""
    n = len(truth)
    if n < 2:
        return 1.0

    def ranks(values: Sequence[float]) -> list[int]:
        order = sorted(range(n), key=lambda i: (values[i], i))
        found = [0] * n
        for rank, index in enumerate(order):
            found[index] = rank
        return found

    a, b = ranks(truth), ranks(estimate)
    return 1.0 - 6.0 * sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) / (n * (n * n - 1))


@dataclass
class Results:
    """Every ranked result so far as seat rows, and the whole-history fit over them."""

    bots: int
    match: list[int] = field(default_factory=list)
    item: list[int] = field(default_factory=list)
    rank: list[int] = field(default_factory=list)
    tables: int = 0
    fit: SkillFit | None = None

    def add(self, seating: Sequence[int], ranks: Sequence[int]) -> None:
        for bot, rank in zip(seating, ranks, strict=True):
            self.match.append(self.tables)
            self.item.append(bot)
            self.rank.append(rank)
        self.tables += 1

    def fitted(self) -> SkillFit:
        """A fit of everything so far (warm-started from the kept one, which it leaves)."""
        data = from_seat_arrays(
            self.bots, np.array(self.match), np.array(self.item), np.array(self.rank)
        )
        start = None if self.fit is None else self.fit.theta
        return fit_skills(data, start=start, rank_draws=0)

    def refit(self) -> SkillFit:
        """The fit the selection reads, refreshed."""
        self.fit = self.fitted()
        return self.fit


@dataclass
class Run:
    game: str
    size: int
    mode: str
    seed: int
    matches: int = 0
    reached: int | None = None  # matches after which Spearman of the Elo board stayed >= threshold
    final: float = 0.0
    curve: list[tuple[int, float]] = field(default_factory=list)
    # The same for the whole-history fit of every result so far (ranked games only).
    fit_reached: int | None = None
    fit_curve: list[tuple[int, float]] = field(default_factory=list)


@dataclass
class Ratings:
    """The arena's Elo bookkeeping for one game, in memory."""

    cooperative: bool
    rating: dict[int, float] = field(default_factory=dict)
    games: dict[int, int] = field(default_factory=dict)
    game_rating: dict[int, float] = field(default_factory=dict)

    def record(self, seating: Sequence[int], result: dict[str, Any]) -> None:
        before = [self.rating[b] for b in seating]
        if self.cooperative:
            update = rate_cooperative(
                before,
                self.game_rating.get(len(seating), INITIAL_RATING),
                [team_outcome(result)] * len(seating),
            )
            self.game_rating[len(seating)] = update.game
            after = update.seats
        else:
            after = rate_ranked(before, result["ranks"], identities=list(seating))
        for bot, old, new in zip(seating, before, after, strict=True):
            self.rating[bot] += new - old
            self.games[bot] += 1


def simulate(
    game_name: str,
    heuristic: Act,
    bots: int,
    size: int,
    mode: str,
    seed: int,
    max_matches: int,
    every: int,
    threshold: float = 0.95,
    policy: Policy | None = None,
    tick: int = 8,
    duplicate: bool = True,
    refit_every: int = 8,
    truth: Sequence[float] | None = None,
    model: bool = False,
) -> Run:
    """One run of a simulated ladder; see the module docstring."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}")
    if (mode == "oracle" or model) and truth is None:
        raise ValueError("the oracle and the model outcomes need the true strengths")
    policy = policy or Policy()
    if mode == "ladder-single":
        policy = Policy(policy.newcomer_games, policy.exploration, False, policy.exploration_sd)
    game = engine.get_game(game_name)
    rng = random.Random(f"ladder-bench:{game_name}:{size}:{mode}:{seed}")
    strengths = [i / (bots - 1) for i in range(bots)]
    players = [MixedBot(p, heuristic, random.Random(rng.getrandbits(64))) for p in strengths]
    ratings = Ratings(
        game.cooperative, dict.fromkeys(range(bots), INITIAL_RATING), dict.fromkeys(range(bots), 0)
    )
    history = History()
    owners = {bot: bot for bot in range(bots)}  # one owner per bot: fair share is moot here
    run = Run(game_name, size, mode, seed)

    results = Results(bots)
    use_fit = mode in ("ladder", "ladder-single") and not game.cooperative

    true_theta = None if truth is None else np.asarray(truth, dtype=float)
    outcome_rng = np.random.default_rng(rng.getrandbits(64))
    # The true order: p, or the model's own strengths when the model draws the outcomes.
    order = list(strengths) if not model or true_theta is None else list(true_theta)

    def played(seating: Sequence[int], match_seed: int) -> None:
        if model and true_theta is not None:
            result = {"ranks": model_ranks(true_theta[list(seating)], outcome_rng)}
        else:
            result = play(game, [players[b] for b in seating], match_seed)
        ratings.record(seating, result)
        history.add(seating, owners, 1)
        if not game.cooperative:
            results.add(seating, result["ranks"])
        run.matches += 1
        if use_fit and run.matches % refit_every == 0:
            results.refit()
        if run.matches % every == 0:
            board = [ratings.rating[b] for b in range(bots)]
            run.curve.append((run.matches, spearman(order, board)))
            if not game.cooperative:
                # The judge's own fit: the selection keeps its refit cadence.
                fit = results.fitted()
                run.fit_curve.append((run.matches, spearman(order, list(fit.skill))))

    oracle = None if mode != "oracle" or true_theta is None else Oracle(true_theta, size)
    while run.matches < max_matches:
        if oracle is not None:
            table = list(oracle.next_table())
            shift = rng.randrange(size)
            played(table[shift:] + table[:shift], rng.getrandbits(62))
        elif mode != "random":
            fit = results.fit if use_fit else None
            entrants = simulated_entrants(ratings.rating, ratings.games, fit)
            budget = min(tick, max_matches - run.matches)
            games = planned_games(entrants, size, budget, rng, policy, history, duplicate)
            if not games:
                break
            for seating, match_seed in games:
                played(seating, match_seed)
        else:
            seating = rng.sample(range(bots), size)
            played(seating, rng.getrandbits(62))
    run.final = run.curve[-1][1] if run.curve else 0.0
    run.reached = stays_from(run.curve, threshold)
    run.fit_reached = stays_from(run.fit_curve, threshold)
    return run


def simulated_entrants(
    rating: Sequence[float] | dict[int, float], games: dict[int, int], fit: SkillFit | None
) -> list[Entrant]:
    """The simulated bots as the selection sees them: one owner and one version each."""
    return [
        Entrant(
            bot_id=b,
            owner_id=b,
            version_id=b,
            rating=rating[b],
            games=games[b],
            ladder_games=games[b],
            skill=None if fit is None else float(fit.skill[b]),
            skill_sd=None if fit is None else float(fit.sd[b]),
        )
        for b in range(len(games))
    ]


def planned_games(
    entrants: Sequence[Entrant],
    size: int,
    budget: int,
    rng: random.Random,
    policy: Policy,
    history: History,
    duplicate: bool = True,
) -> list[tuple[list[int], int]]:
    """The selection's next tables as (seating, seed) games, a table's seat rotations sharing
    one seed (without duplicates, for comparison only, each rotation gets its own)."""
    games = []
    for table in plan_tables(entrants, [size], budget, rng, policy, history):
        match_seed = rng.getrandbits(62)
        for seating in duplicate_seatings(table.bots)[: table.matches]:
            games.append((list(seating), match_seed if duplicate else rng.getrandbits(62)))
    return games


def stays_from(curve: Sequence[tuple[int, float]], threshold: float) -> int | None:
    """The first checkpoint from which every later one is at or above the threshold."""
    reached = None
    for matches, rho in reversed(curve):
        if rho < threshold:
            break
        reached = matches
    return reached


def model_ranks(theta: np.ndarray, rng: np.random.Generator) -> list[int]:
    """A Plackett–Luce finishing order at these strengths (Gumbel-max): ranks, 1 = best."""
    order = np.argsort(-(theta + rng.gumbel(size=len(theta))))
    ranks = np.empty(len(theta), dtype=np.int64)
    ranks[order] = np.arange(1, len(theta) + 1)
    return [int(r) for r in ranks]


class Oracle:
    """The benchmark's ceiling: tables chosen knowing the true strengths (design.py)."""

    def __init__(self, theta: np.ndarray, size: int, prior_sd_elo: float = DEFAULT_PRIOR_SD_ELO):
        self.theta = theta
        self.gaps = np.subtract.outer(theta, theta)
        self.candidates = design.all_tables(len(theta), size)
        self.information = design.table_information(theta[self.candidates])
        self.hessian = prior_precision(prior_sd_elo) * np.eye(len(theta))
        rank = np.argsort(np.argsort(theta))
        distance = np.abs(np.subtract.outer(rank, rank)).astype(float)
        # Mis-ordering two bots r places apart moves each by ~r/2: weight r^2, as
        # Spearman's sum of squared rank differences does (r^2 did better than 1 or r).
        self.weights = distance**2

    def next_table(self) -> tuple[int, ...]:
        cov = np.linalg.inv(self.hessian)
        table = design.best_table(
            self.candidates, self.theta, self.gaps, cov, None, self.weights, self.information
        )
        index = np.array(table)
        chosen = int(np.flatnonzero((self.candidates == index).all(axis=1))[0])
        self.hessian[np.ix_(index, index)] += self.information[chosen]
        return table


def true_strengths(
    game_name: str, heuristic: Act, bots: int, size: int, matches: int, seed: int = 7
) -> list[float]:
    """The oracle's truth: log-strengths fitted to `matches` uniformly random tables."""
    game = engine.get_game(game_name)
    rng = random.Random(seed)
    strengths = [i / (bots - 1) for i in range(bots)]
    players = [MixedBot(p, heuristic, random.Random(rng.getrandbits(64))) for p in strengths]
    results = Results(bots)
    for _ in range(matches):
        seating = rng.sample(range(bots), size)
        results.add(
            seating, play(game, [players[b] for b in seating], rng.getrandbits(62))["ranks"]
        )
    return [float(t) for t in results.fitted().theta]
