"""Bots in each language side by side, in the sandbox: build, start-up, round trip, match.

    arena bench-languages [--json] [--runs 10] [--moves 300] [--matches 5] [--game G]

The same simple bot in every language: the starter kit's bot for the game
(bots/sdk/kits; Python's starter from bots/sdk/starters), which reads the observation
and plays a legal move. Each is built once as a worker builds it (build seconds), then:

* start-up: from `launch` until the bot answers its first request, a real observation
  of the game (median of --runs): the sandbox, the runtime's start and its first move.
  `spawn_ms` is `launch` alone (the sandbox's processes, not the runtime).
* round trip: one `act` request and its reply after the first (median of --moves).
* match: a whole match of the game with the bot in every seat, each in its own sandbox,
  starts included: wall time, and CPU time of the referee and of the sandboxes (their
  cgroups), median of --matches seeds.

The load average is printed with the figures: quote them with it (docs/bot-authors/languages.md).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import engine
from arena.languages import LANGUAGES, manifest_of_archive
from bots.sdk.kits import kit_files
from workers.play.players import ProcessPlayer
from workers.play.referee import play_match
from workers.sandbox import artifacts
from workers.sandbox.bubblewrap import BubblewrapLauncher
from workers.sandbox.builds import build
from workers.sandbox.limits import Limits


def _cpu_now() -> float:
    """This process's CPU seconds (the referee's side of a match)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def _median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1e3, 2)


def built_bot(launcher: BubblewrapLauncher, game: str, language: str) -> tuple[Path, float]:
    """The language's starter for `game`, built: the path to launch and the build's seconds."""
    files = kit_files(game, language)
    manifest = manifest_of_archive(files, zip_file=True)
    if manifest.language.is_python:
        folder = Path(artifacts.cache_dir()) / f"bench-python-{game}"
        folder.mkdir(exist_ok=True)
        path = folder / "bot.py"
        path.write_bytes(files[manifest.entry])
        return path, 0.0
    started = time.perf_counter()
    built = build(launcher, files, manifest)
    seconds = time.perf_counter() - started
    if built.artifact is None:
        raise RuntimeError(f"the {language} starter did not build:\n{built.log}")
    artifact = built.artifact
    digest = hashlib.sha256(artifact).hexdigest()
    return artifacts.unpacked(digest, lambda: artifact), seconds


def _first_request(game: str) -> tuple[dict[str, Any], list[Any], int]:
    description = engine.get_game(game)
    state = description.new_state(description.min_players, 1, {})
    seat = state.to_move()
    return state.observation(seat), state.legal_actions(), seat


def bench_language(
    launcher: BubblewrapLauncher, game: str, language: str, runs: int, moves: int, matches: int
) -> dict[str, Any]:
    path, build_seconds = built_bot(launcher, game, language)
    limits = Limits()
    observation, legal, seat = _first_request(game)
    spawn, first, round_trips = [], [], []
    for run in range(runs):
        started = time.perf_counter()
        player = ProcessPlayer(launcher.launch(path, limits), limits)
        spawn.append(time.perf_counter() - started)
        try:
            player.start({"seed": 1, "seat": seat, "players": 2, "game": game, "options": {}})
            player.act(observation, legal)
            first.append(time.perf_counter() - started)
            if run == 0:
                for _ in range(moves):
                    before = time.perf_counter()
                    player.act(observation, legal)
                    round_trips.append(time.perf_counter() - before)
        finally:
            player.close()
    players = engine.get_game(game).min_players
    match_wall, match_cpu, forfeits = [], [], 0
    for seed in range(matches):
        cpu, started = _cpu_now(), time.perf_counter()
        seats = [ProcessPlayer(launcher.launch(path, limits), limits) for _ in range(players)]
        outcome = play_match(game, seed, seats)
        for player in seats:
            player.close()
        match_wall.append(time.perf_counter() - started)
        # The sandboxes' own CPU, from their cgroups, read as each was stopped.
        sandboxes = sum(player.bot.cpu_used or 0.0 for player in seats)
        match_cpu.append(_cpu_now() - cpu + sandboxes)
        forfeits += len(outcome.forfeits)
    return {
        "language": language,
        "title": LANGUAGES[language].title,
        "build_s": round(build_seconds, 2),
        "spawn_ms": _median_ms(spawn),
        "first_move_ms": _median_ms(first),
        "round_trip_us": round(statistics.median(round_trips) * 1e6, 1),
        "match_wall_ms": _median_ms(match_wall),
        "match_cpu_ms": _median_ms(match_cpu),
        "forfeits": forfeits,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="arena bench-languages", description=__doc__)
    parser.add_argument("--game", default="moonrollers")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    launcher = BubblewrapLauncher()
    launcher.check()
    rows = [
        bench_language(launcher, args.game, name.strip(), args.runs, args.moves, args.matches)
        for name in args.languages.split(",")
    ]
    report = {
        "game": args.game,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
        "rows": rows,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{args.game}, load average {report['load_average']}, {report['cpus']} CPUs")
    header = ("language", "build s", "spawn ms", "first move ms", "round trip µs", "match ms")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        cells = [
            row["title"],
            f"{row['build_s']:.2f}",
            f"{row['spawn_ms']:.1f}",
            f"{row['first_move_ms']:.1f}",
            f"{row['round_trip_us']:.0f}",
            f"{row['match_wall_ms']:.0f} (CPU {row['match_cpu_ms']:.0f})",
        ]
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
