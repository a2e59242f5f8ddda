"""`python manage.py ladder_bench`: how many matches until the leaderboard is right.

A simulated ladder (arena/ladder/simulation.py): bots of known strength, games played by
the engine in this process, the arena's Elo and whole-history fit, no database and no
workers. For each game, at 2 players and at the game's default multiplayer size, it plays
the ladder's selection (`--modes`: the fit-driven ladder with duplicate sets, the same
with single tables, the Elo-driven selection) and uniformly random tables, and prints
the number of matches from which the Spearman correlation between each leaderboard (the
live Elo's and the fit's) and the true order stays at or above the threshold (to the end
of the run; "-" if it never settles), and the ratio mode / random.

`--modes oracle` adds a reference that knows the true strengths (a fit of
`--truth-matches` random tables, computed once and cached under var/ladder_bench/);
`--model` draws every outcome from the Plackett–Luce model at those strengths instead of
playing the engine: seconds instead of minutes, for many seeds (no duplicate-set luck
cancelling there: a set is k independent games of one table).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

import engine
from arena.ladder.arrival import ARRIVAL_MODES, TOLERANCES, simulate_arrival
from arena.ladder.design import information_shares
from arena.ladder.selection import ELO_PER_UNIT, Policy
from arena.ladder.simulation import MODES, load_heuristic, simulate, true_strengths
from arena.ladder.tables import default_table_sizes

DEFAULT_MODES = ["ladder", "random"]
ARRIVAL_CHECKS = (12, 20, 40, 60, 100, 200, 300)


def _truth(job: dict[str, Any]) -> list[float]:
    """The oracle's true strengths for one game and size, cached on disk (they cost minutes)."""
    cache = Path(job["cache"]) / (
        f"{job['game_name']}-{job['size']}p-{job['bots']}bots-{job['matches']}-"
        f"hash{job['hash_seed']}.json"
    )
    if cache.exists():
        return list(json.loads(cache.read_text()))
    heuristic = load_heuristic(Path(job["directory"]), job["game_name"])
    theta = true_strengths(job["game_name"], heuristic, job["bots"], job["size"], job["matches"])
    cache.parent.mkdir(parents=True, exist_ok=True)
    partial = cache.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(json.dumps(theta))
    partial.replace(cache)
    return theta


def _simulated(job: dict[str, Any], how) -> tuple[Any, dict[str, Any]]:
    """Run `how` (simulate or simulate_arrival) on a job: the run, and the figures every
    run reports (its case, its matches and its seconds)."""
    heuristic = load_heuristic(Path(job.pop("directory")), job["game_name"])
    policy = Policy(job.pop("newcomer_games"), job.pop("exploration"))
    started = time.perf_counter()
    run = how(heuristic=heuristic, policy=policy, **job)
    seconds = round(time.perf_counter() - started, 1)
    case = {"game": run.game, "size": run.size, "mode": run.mode, "seed": run.seed}
    return run, {**case, "matches": run.matches, "seconds": seconds}


def _run(job: dict[str, Any]) -> dict[str, Any]:
    run, figures = _simulated(job, simulate)
    return {
        **figures,
        "elo_reached": run.reached,
        "fit_reached": run.fit_reached,
        "final_spearman": round(run.final, 4),
    }


def _run_arrival(job: dict[str, Any]) -> dict[str, Any]:
    run, figures = _simulated(job, simulate_arrival)
    return {
        **figures,
        "newcomer": run.newcomer,
        "newcomer_games": run.newcomer_games,
        # JSON keys: the tolerance in places, as text.
        "reached": {str(k): v for k, v in run.reached.items()},
        "games_when_reached": {str(k): v for k, v in run.games_when_reached.items()},
        "final_spearman": round(run.curve[-1][3], 4) if run.curve else None,
        # The newcomer's place error at each check: a smoother figure than "stays within".
        "errors": {str(matches): error for matches, error, _, _ in run.curve},
    }


class LadderBench(BaseCommand):
    help = (
        "Simulate the ladder against uniformly random tables and print how many matches each "
        "needs before the leaderboard's Spearman correlation with the true order stays >= 0.95."
    )

    def add_arguments(self, parser):
        parser.add_argument("--games", nargs="+", help="games (default: every registered game)")
        parser.add_argument("--bots", type=int, default=20, help="simulated bots (default 20)")
        parser.add_argument("--seeds", type=int, default=1, help="runs per case (default 1)")
        parser.add_argument("--first-seed", type=int, default=1)
        parser.add_argument(
            "--sizes", nargs="+", type=int, help="table sizes (default: 2 and the game's default)"
        )
        parser.add_argument(
            "--max-matches", type=int, default=1500, help="matches per run (default 1500)"
        )
        parser.add_argument(
            "--every", type=int, default=20, help="matches between two checks (default 20)"
        )
        parser.add_argument("--threshold", type=float, default=0.95)
        parser.add_argument("--exploration", type=float, default=None)
        parser.add_argument("--newcomer-games", type=int, default=None)
        parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
        parser.add_argument(
            "--hash-seed",
            type=int,
            default=0,
            help="PYTHONHASHSEED of the processes that play (default 0): the reference "
            "heuristics iterate over sets, so without a fixed one runs do not repeat",
        )
        parser.add_argument(
            "--no-duplicates",
            action="store_true",
            help="for comparison: the ladder's sets get a fresh seed per rotation",
        )
        parser.add_argument(
            "--modes",
            nargs="+",
            choices=MODES,
            default=DEFAULT_MODES,
            help="table choices to compare (default: ladder random); random is always played",
        )
        parser.add_argument("--json", action="store_true", help="one JSON object per run too")
        parser.add_argument(
            "--truth-matches",
            type=int,
            default=4000,
            help="random tables whose fit is the oracle's truth (default 4000; cached)",
        )
        parser.add_argument(
            "--arrival",
            action="store_true",
            help="instead: one newcomer joins n-1 settled bots; matches until it stands within "
            "0, 1 and 2 places of its true place (arena/ladder/arrival.py)",
        )
        parser.add_argument(
            "--warm-matches",
            type=int,
            default=600,
            help="with --arrival: random tables among the others before it arrives (default 600)",
        )
        parser.add_argument(
            "--model",
            action="store_true",
            help="draw outcomes from the Plackett-Luce model at the true strengths instead of "
            "playing the engine (fast; judged against the model's order)",
        )

    def handle(self, *args, **options):
        games = options["games"] or engine.game_names()
        for name in games:
            if name not in engine.game_names():
                raise CommandError(
                    f"unknown game {name!r}; known: {', '.join(engine.game_names())}"
                )
        if options["bots"] < 3:
            raise CommandError("--bots must be at least 3")
        if not 0 < options["threshold"] <= 1:
            raise CommandError("--threshold must be in (0, 1]")
        if options["seeds"] < 1 or options["max_matches"] < 1 or options["every"] < 1:
            raise CommandError("--seeds, --max-matches and --every must be positive")
        exploration = options["exploration"]
        if exploration is None:
            exploration = settings.ARENA_LADDER_EXPLORATION
        if not 0 <= exploration <= 1:
            raise CommandError("--exploration must be between 0 and 1")
        newcomer = options["newcomer_games"]
        if newcomer is None:
            newcomer = settings.ARENA_LADDER_NEWCOMER_GAMES
        directory = str(settings.ARENA_REFERENCE_BOTS_DIR)
        if options["jobs"] < 1 or not 0 <= options["hash_seed"] <= 4294967295:
            raise CommandError("--jobs must be positive and --hash-seed in 0-4294967295")
        if options["arrival"]:
            self._arrival(games, options, directory, Policy(newcomer, exploration))
            return
        modes = [m for m in MODES if m in options["modes"] or m == "random"]
        jobs = [
            {
                "game_name": name,
                "bots": options["bots"],
                "size": size,
                "mode": mode,
                "seed": seed,
                "max_matches": options["max_matches"],
                "every": options["every"],
                "threshold": options["threshold"],
                "directory": directory,
                "newcomer_games": newcomer,
                "exploration": exploration,
                "duplicate": not options["no_duplicates"],
            }
            for name, size, seed in _cases(games, options)
            for mode in modes
        ]
        started = time.perf_counter()
        # Seed by seed, so an interrupted run has whole seeds of every case; with --json each
        # run is printed as it finishes (a long benchmark on a busy machine keeps its part).
        jobs.sort(key=lambda job: job["seed"])
        if "oracle" in modes or options["model"]:
            truths = self._truths(jobs, options, directory)
            for job in jobs:
                job["truth"] = truths[(job["game_name"], job["size"])]
                job["model"] = options["model"]
        show = (lambda r: self.stdout.write(json.dumps(r))) if options["json"] else None
        results = _play_all(jobs, options["jobs"], options["hash_seed"], show)
        self._table(results, options, modes)
        self.stdout.write(f"total {time.perf_counter() - started:.0f} s")

    def _arrival(self, games: list[str], options, directory: str, policy: Policy) -> None:
        if options["warm_matches"] < 1:
            raise CommandError("--warm-matches must be positive")
        for name in games:
            if engine.get_game(name).cooperative:
                raise CommandError(f"{name} is cooperative: no board to place a newcomer on")
        jobs = [
            {
                "game_name": name,
                "bots": options["bots"],
                "size": size,
                "mode": mode,
                "seed": seed,
                "warm_matches": options["warm_matches"],
                "max_matches": options["max_matches"],
                "every": options["every"],
                "directory": directory,
                "newcomer_games": policy.newcomer_games,
                "exploration": policy.exploration,
            }
            for name, size, seed in _cases(games, options)
            for mode in ARRIVAL_MODES
        ]
        started = time.perf_counter()
        show = (lambda r: self.stdout.write(json.dumps(r))) if options["json"] else None
        results = _play_all(jobs, options["jobs"], options["hash_seed"], show, task=_run_arrival)
        out = self.stdout
        out.write(
            f"a newcomer joins {options['bots'] - 1} bots settled by {options['warm_matches']} "
            f"random tables; matches after its arrival (all tables, checked every "
            f"{options['every']}) until its place on the fit's board stays within k of its "
            f"true place, to the end of {options['max_matches']} (median over "
            f"{options['seeds']} seed(s); its own games in brackets)"
        )
        out.write(f"{'game':<16}{'size':>5}  {'k':>2} {'ladder':>14}{'random':>14}{'ratio':>7}")
        never = options["max_matches"]
        for game, size in sorted({(r["game"], r["size"]) for r in results}):
            row = [r for r in results if r["game"] == game and r["size"] == size]
            for k in TOLERANCES:
                cells = {}
                for mode in ARRIVAL_MODES:
                    mine = [r for r in row if r["mode"] == mode]
                    cells[mode] = (
                        _median([r["reached"][str(k)] for r in mine], never),
                        _median_of_known([r["games_when_reached"][str(k)] for r in mine]),
                    )
                (ladder, ladder_games), (random_, random_games) = cells["ladder"], cells["random"]
                ratio = f"{ladder / random_:.2f}" if ladder and random_ else "-"
                show_cell = lambda v, g: "-" if v is None or g is None else f"{v:.0f} ({g:.0f})"  # noqa: E731
                out.write(
                    f"{game:<16}{size:>5}  {k:>2} {show_cell(ladder, ladder_games):>14}"
                    f"{show_cell(random_, random_games):>14}{ratio:>7}"
                )
        checks = [m for m in ARRIVAL_CHECKS if m <= never and m % options["every"] == 0]
        out.write(
            "the newcomer's mean distance from its true place (places) after this many matches: "
            + ", ".join(str(m) for m in checks)
        )
        for game, size in sorted({(r["game"], r["size"]) for r in results}):
            for mode in ARRIVAL_MODES:
                mine = [
                    r for r in results if (r["game"], r["size"], r["mode"]) == (game, size, mode)
                ]
                means = [statistics.mean(r["errors"][str(m)] for r in mine) for m in checks]
                out.write(f"{game:<16}{size:>5}  {mode:<8}" + "".join(f"{v:>7.2f}" for v in means))
        out.write(f"total {time.perf_counter() - started:.0f} s")

    def _truths(self, jobs, options, directory: str) -> dict[tuple[str, int], list[float]]:
        cases = sorted({(job["game_name"], job["size"]) for job in jobs})
        wanted = [
            {
                "game_name": name,
                "size": size,
                "bots": options["bots"],
                "matches": options["truth_matches"],
                "hash_seed": options["hash_seed"],
                "directory": directory,
                "cache": str(Path(settings.VAR_DIR) / "ladder_bench"),
            }
            for name, size in cases
        ]
        found = _play_all(wanted, options["jobs"], options["hash_seed"], task=_truth)
        for (name, size), theta in zip(cases, found, strict=True):
            shares = information_shares(np.array(theta), size)
            self.stdout.write(
                f"{name} at {size}: true spread {(max(theta) - min(theta)) * ELO_PER_UNIT:.0f} "
                f"Elo; information of a random table {shares[0]:.2f}, of true neighbours "
                f"{shares[1]:.2f} (an even table's = 1)"
            )
        return dict(zip(cases, found, strict=True))

    def _table(self, results: list[dict[str, Any]], options, modes: list[str]) -> None:
        out = self.stdout
        out.write(
            f"{options['bots']} bots (p = i/{options['bots'] - 1}), runs of "
            f"{options['max_matches']} matches, checked every {options['every']}; matches until "
            f"Spearman stays >= {options['threshold']} (median over {options['seeds']} seed(s); "
            "'-': not within the run)"
        )
        out.write(
            f"{'game':<16}{'size':>5} {'mode':<14}{'Elo board':>10}{'random':>8}{'ratio':>7}"
            f"   {'fit board':>10}{'random':>8}{'ratio':>7}"
        )
        cases = sorted({(r["game"], r["size"]) for r in results})
        for game, size in cases:
            row = [r for r in results if r["game"] == game and r["size"] == size]
            for mode in modes:
                if mode == "random":
                    continue
                cells = []
                for key in ("elo_reached", "fit_reached"):
                    cells.append(
                        {
                            name: _median(
                                [r[key] for r in row if r["mode"] == name], options["max_matches"]
                            )
                            for name in (mode, "random")
                        }
                    )
                out.write(
                    f"{game:<16}{size:>5} {mode:<14}"
                    + _cells(cells[0], mode, 10)
                    + "   "
                    + (
                        _cells(cells[1], mode, 10)
                        if engine.get_game(game).cooperative is False
                        else f"{'(cooperative)':>15}{'':>8}{'':>2}"
                    )
                )


def _cases(games: list[str], options) -> list[tuple[str, int, int]]:
    """(game, table size, seed) of every run asked for, sizes checked against each game."""
    cases = []
    for name in games:
        spec = engine.get_game(name)
        sizes = options["sizes"] or default_table_sizes(name, spec.min_players, spec.max_players)
        for size in sizes:
            if not max(2, spec.min_players) <= size <= min(spec.max_players, options["bots"]):
                raise CommandError(f"{name} cannot seat {size} players at a ladder table")
            first = options["first_seed"]
            cases += [(name, size, seed) for seed in range(first, first + options["seeds"])]
    return cases


def _play_all(
    jobs: list[dict[str, Any]], processes: int, hash_seed: int, show=None, task=_run
) -> list[Any]:
    """Play the runs in fresh interpreters started with a fixed hash seed (repeatable)."""
    previous = os.environ.get("PYTHONHASHSEED")
    os.environ["PYTHONHASHSEED"] = str(hash_seed)
    try:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(processes, mp_context=context) as pool:
            results = []
            for result in pool.map(task, jobs):
                if show is not None:
                    show(result)
                results.append(result)
            return results
    finally:
        if previous is None:
            os.environ.pop("PYTHONHASHSEED", None)
        else:
            os.environ["PYTHONHASHSEED"] = previous


def _median(values: list[int | None], never: int) -> float | None:
    # A run that never settles counts as one past its end, so the median stays defined.
    if not values:
        return None
    if all(v is None for v in values):
        return None
    return statistics.median(never + 1 if v is None else v for v in values)


def _median_of_known(values: list[int | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def _cells(found: dict[str, float | None], mode: str, width: int) -> str:
    ladder, random_ = found[mode], found["random"]
    ratio = f"{ladder / random_:.2f}" if ladder and random_ else "-"
    show = lambda v: "-" if v is None else f"{v:.0f}"  # noqa: E731
    return f"{show(ladder):>{width}}{show(random_):>8}{ratio:>7}"
