"""What the sandbox costs: start-up, per-move round trip, and a whole match.

    python -m workers.bench.sandbox [--json] [--runs 30] [--moves 3000] [--matches 5]

* start-up: launch a sandbox running `python -I -S -c pass` until it exits
  (median of --runs), beside the same interpreter started bare; and the time
  until a sandboxed bot runner answers its first move.
* round trip: one `act` message and its reply through a sandboxed runner with a
  trivial bot (median of --moves), beside the same through an unsandboxed process.
* match cost: a full match (Moonrollers when registered) between two random
  bots (or --bot, a trusted file: the baseline runs it in this process),
  sandboxed processes including their start-up, divided by the same match
  with the bots called in-process (sum over --matches seeds).
* set cost: a set of N matches (two per seed, seats swapped) between two
  reference heuristic bots, and between two random bots, played as the workers
  play a set (one sandboxed process per bot for the whole set, the matches
  interleaved), per match, divided by the same N matches in-process (one bot
  instance per match, loaded once per set); at sets of 1, 4 and 16 (--set-sizes),
  --sets sets of each. Both wall time and CPU time (this process and the sandboxes'
  cgroups: a zygote lane's group holds its bot and the zygote's forks for it): on a
  loaded machine the CPU ratio is the steadier figure.
* zygote lanes (workers/sandbox/zygote_lanes.py), where they are on: a bot forked by a warm
  lane, to its first answer and closed (wall and CPU); a lane's own start, paid once
  per worker process and left out of the set figures (the lanes are started first).

Goals from the issues: start-up under 20 ms, round trip under 100 µs, match ratio under 2
(one match per process: out of reach, see docs/benchmarks.md), and the ratio of a
set of 16 at most 2 for heuristic and random bots (issue 20).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import engine
from bots.sdk.runner import load_bot
from workers.play.players import BotProcess, InProcessBot, InProcessPlayer, ProcessPlayer
from workers.play.referee import SetMatch, play_match, play_set
from workers.sandbox.bubblewrap import BubblewrapLauncher
from workers.sandbox.launchers import PROJECT_ROOT, TrustedProcessLauncher, launch_all
from workers.sandbox.limits import Limits

RANDOM_BOT = PROJECT_ROOT / "bots" / "reference" / "random_bot.py"
HEURISTIC_BOT = PROJECT_ROOT / "bots" / "reference" / "moonrollers_heuristic.py"
GOALS = {"startup_ms": 20.0, "round_trip_us": 100.0, "match_ratio": 2.0}
SET_GOAL = 2.0  # cost of a match in a set of 16, sandboxed / in-process (issue 20)


def _median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1e3, 2)


def _cpu_now() -> float:
    """CPU seconds used so far by this process and all its waited-for descendants."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def bench_startup(launcher: BubblewrapLauncher, runs: int) -> dict[str, float]:
    limits = Limits()
    sandboxed, bare, ready, sandboxed_cpu, bare_cpu = [], [], [], [], []
    python = launcher.describe()["python"]
    for _ in range(runs):
        cpu = _cpu_now()
        started = time.perf_counter()
        process = launcher._start(RANDOM_BOT, limits, command=["-c", "pass"])
        process.wait()
        sandboxed.append(time.perf_counter() - started)
        sandboxed_cpu.append(_cpu_now() - cpu)

        cpu = _cpu_now()
        started = time.perf_counter()
        subprocess.run([python, "-I", "-S", "-c", "pass"], check=True)
        bare.append(time.perf_counter() - started)
        bare_cpu.append(_cpu_now() - cpu)

        started = time.perf_counter()
        player = ProcessPlayer(launcher.launch(RANDOM_BOT, limits), limits)
        player.start({"seed": 0, "seat": 0})
        player.act({}, [0])
        ready.append(time.perf_counter() - started)
        player.close()
    return {
        "startup_ms": _median_ms(sandboxed),
        "startup_min_ms": round(min(sandboxed) * 1e3, 2),
        "bare_python_ms": _median_ms(bare),
        "sandbox_overhead_ms": round(_median_ms(sandboxed) - _median_ms(bare), 2),
        # CPU time spent by this process and every process of the start (bwrap,
        # its reaper, the interpreter): what a start costs, whatever the host's load.
        "startup_cpu_ms": _median_ms(sandboxed_cpu),
        "bare_python_cpu_ms": _median_ms(bare_cpu),
        "bot_ready_ms": _median_ms(ready),
    }


def _round_trip(launcher: Any, moves: int) -> float:
    limits = Limits()
    player = ProcessPlayer(launcher.launch(RANDOM_BOT, limits), limits)
    try:
        player.start({"seed": 0, "seat": 0})
        observation = {"seat": 0, "to_move": 0, "dice": [1, 2, 3, 4, 5], "score": [3, 4]}
        legal = ["roll", "pass", ["take", 1], ["take", 2]]
        player.act(observation, legal)
        samples = []
        for _ in range(moves):
            started = time.perf_counter()
            player.act(observation, legal)
            samples.append(time.perf_counter() - started)
    finally:
        player.close()
    return round(statistics.median(samples) * 1e6, 1)


def bench_round_trip(launcher: BubblewrapLauncher, moves: int) -> dict[str, float]:
    return {
        "round_trip_us": _round_trip(launcher, moves),
        "round_trip_unsandboxed_us": _round_trip(TrustedProcessLauncher(), moves),
    }


def bench_match(
    launcher: BubblewrapLauncher, game: str, matches: int, bot: Path = RANDOM_BOT
) -> dict[str, Any]:
    limits = Limits()
    seats = max(2, engine.get_game(game).min_players)
    trusted = TrustedProcessLauncher()
    elapsed = {"in_process": 0.0, "sandboxed": 0.0, "process": 0.0}
    decisions = 0
    for seed in range(matches):
        started = time.perf_counter()
        outcome = play_match(
            game, seed, [InProcessPlayer(load_bot(str(bot))) for _ in range(seats)]
        )
        elapsed["in_process"] += time.perf_counter() - started
        decisions += outcome.decisions

        for kind, chosen in (("sandboxed", launcher), ("process", trusted)):
            started = time.perf_counter()
            players = [ProcessPlayer(chosen.launch(bot, limits), limits) for _ in range(seats)]
            outcome = play_match(game, seed, players)
            elapsed[kind] += time.perf_counter() - started
            if outcome.forfeits:
                raise RuntimeError(f"a bot forfeited in the benchmark: {outcome.forfeits}")
    return {
        "game": game,
        "seats": seats,
        "matches": matches,
        "decisions_per_match": round(decisions / matches, 1),
        "bot": bot.name,
        "match_in_process_ms": round(elapsed["in_process"] / matches * 1e3, 2),
        "match_unsandboxed_process_ms": round(elapsed["process"] / matches * 1e3, 2),
        "match_sandboxed_ms": round(elapsed["sandboxed"] / matches * 1e3, 2),
        "match_ratio": round(elapsed["sandboxed"] / elapsed["in_process"], 2),
        # The sandbox's own share: the same bots as plain processes, no isolation.
        "match_ratio_vs_process": round(elapsed["sandboxed"] / elapsed["process"], 2),
    }


def _set_specs(size: int, first_seed: int, seats: int) -> list[SetMatch]:
    """`size` matches, each seed played under every rotation of the seats (a duplicate set)."""
    return [
        SetMatch(
            key=index,
            seed=first_seed + index // seats,
            seats=[(seat + index) % seats for seat in range(seats)],
        )
        for index in range(size)
    ]


def _started(process: subprocess.Popen[bytes] | Exception) -> subprocess.Popen[bytes]:
    if isinstance(process, Exception):
        raise process
    return process


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def bench_set(
    launcher: BubblewrapLauncher, game: str, size: int, sets: int, bot: Path
) -> dict[str, Any]:
    """One set size: per-match wall and CPU time, sandboxed set / in-process set."""
    limits = Limits()
    seats = max(2, engine.get_game(game).min_players)
    wall = {"in_process": 0.0, "sandboxed": 0.0}
    cpu = {"in_process": 0.0, "sandboxed": 0.0}
    decisions = 0
    for number in range(sets):
        specs = _set_specs(size, 1000 * number, seats)
        cpu_before, started = _own_cpu(), time.perf_counter()
        inside = play_set(game, specs, [InProcessBot(load_bot(str(bot))) for _ in range(seats)])
        wall["in_process"] += time.perf_counter() - started
        cpu["in_process"] += _own_cpu() - cpu_before
        decisions += sum(outcome.decisions for outcome in inside)

        cpu_before, started = _own_cpu(), time.perf_counter()
        # Started side by side, as a worker starts a set's bots (workers/sandbox/launchers.py).
        launched = launch_all(launcher, [bot] * seats, limits)
        bots = [BotProcess(_started(process), limits, size) for process in launched]
        played = play_set(game, specs, bots)
        wall["sandboxed"] += time.perf_counter() - started
        # A lane's bot is measured by its lane's group, the zygote's forks for it included.
        cpu["sandboxed"] += _own_cpu() - cpu_before + sum(b.cpu_used or 0.0 for b in bots)
        if any(outcome.forfeits for outcome in played):
            raise RuntimeError(f"a bot forfeited in the benchmark: {played[0].forfeits}")
        if [o.record for o in played] != [o.record for o in inside]:
            raise RuntimeError("the sandboxed set did not play the in-process set's games")
    matches = size * sets
    return {
        "set_size": size,
        "sets": sets,
        "decisions_per_match": round(decisions / matches, 1),
        "in_process_ms": round(wall["in_process"] / matches * 1e3, 2),
        "sandboxed_ms": round(wall["sandboxed"] / matches * 1e3, 2),
        "ratio": round(wall["sandboxed"] / wall["in_process"], 2),
        "in_process_cpu_ms": round(cpu["in_process"] / matches * 1e3, 2),
        "sandboxed_cpu_ms": round(cpu["sandboxed"] / matches * 1e3, 2),
        "cpu_ratio": round(cpu["sandboxed"] / cpu["in_process"], 2),
    }


def warm_lanes(launcher: BubblewrapLauncher, seats: int) -> float:
    """Start the lanes a set of `seats` bots uses, as a worker does once for its life;
    the wall time of that first start (ms), which the set figures then leave out."""
    started = time.perf_counter()
    launcher.warm_lanes(seats)
    return round((time.perf_counter() - started) * 1e3, 2)


def bench_sets(
    launcher: BubblewrapLauncher,
    game: str,
    sizes: list[int],
    sets: int,
    bots: dict[str, Path],
) -> dict[str, Any]:
    return {
        name: [bench_set(launcher, game, size, sets, path) for size in sizes]
        for name, path in bots.items()
    }


def default_game() -> str:
    names = engine.game_names()
    if not names:
        raise SystemExit("no game is registered")
    return "moonrollers" if "moonrollers" in names else names[0]


def bench_forked_start(launcher: BubblewrapLauncher, runs: int) -> dict[str, float]:
    """A bot's start through a warm lane, to its first answer, and its CPU (the worker,
    and the lane's group: the zygote's forks and the bot), beside the bwrap start above."""
    if launcher.describe()["zygote_lanes"] != "on":
        return {}
    limits = Limits()
    warm_lanes(launcher, 1)
    walls, cpus = [], []
    for _ in range(runs):
        cpu, started = _own_cpu(), time.perf_counter()
        player = ProcessPlayer(launcher.launch(RANDOM_BOT, limits), limits)
        player.start({"seed": 0, "seat": 0})
        player.act({}, [0])
        player.close()
        walls.append(time.perf_counter() - started)
        bot_cpu = player.bot.cpu_used or 0.0
        cpus.append(_own_cpu() - cpu + bot_cpu)
    return {"forked_start_ms": _median_ms(walls), "forked_start_cpu_ms": _median_ms(cpus)}


def run(
    runs: int = 30,
    moves: int = 3000,
    matches: int = 5,
    game: str | None = None,
    bot: Path = RANDOM_BOT,
    set_sizes: tuple[int, ...] = (1, 4, 16),
    sets: int = 3,
) -> dict[str, Any]:
    launcher = BubblewrapLauncher()
    launcher.check()
    game = game or default_game()
    report: dict[str, Any] = {"sandbox": launcher.describe()}
    seats = max(2, engine.get_game(game).min_players)
    # A worker starts its lanes once, before its first set (workers/celery.py).
    report["lanes_start_ms"] = warm_lanes(launcher, seats)
    report.update(bench_startup(launcher, runs))
    report.update(bench_forked_start(launcher, runs))
    report.update(bench_round_trip(launcher, moves))
    report.update(bench_match(launcher, game, matches, bot))
    set_bots = {"random": RANDOM_BOT}
    if game == "moonrollers":
        set_bots = {"heuristic": HEURISTIC_BOT, "random": RANDOM_BOT}
    report["set_game"] = game
    report["set_bots"] = {name: path.name for name, path in set_bots.items()}
    report["sets"] = bench_sets(launcher, game, list(set_sizes), sets, set_bots)
    report["load_average"] = [round(x, 2) for x in os.getloadavg()]
    report["goals"] = {
        name: {"goal": goal, "value": report[name], "met": report[name] < goal}
        for name, goal in GOALS.items()
    }
    for name, rows in report["sets"].items():
        largest = max(rows, key=lambda row: row["set_size"])
        report["goals"][f"set_ratio_{name}_{largest['set_size']}"] = {
            "goal": SET_GOAL,
            "value": largest["ratio"],
            "cpu_value": largest["cpu_ratio"],
            "met": largest["ratio"] <= SET_GOAL,
        }
    return report


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="arena bench-sandbox", description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--runs", type=int, default=30, help="sandbox starts to time")
    parser.add_argument("--moves", type=int, default=3000, help="round trips to time")
    parser.add_argument("--matches", type=int, default=5, help="matches of each kind")
    parser.add_argument("--game", default=None, help="game for the match cost")
    parser.add_argument(
        "--bot",
        type=Path,
        default=RANDOM_BOT,
        help="a trusted bot file for the match cost: its in-process baseline runs the file "
        "in this process, unsandboxed",
    )
    parser.add_argument(
        "--set-sizes", default="1,4,16", help="comma-separated set sizes for the set cost"
    )
    parser.add_argument("--sets", type=int, default=3, help="sets of each size and bot")
    while argv[:1] == ["--"]:  # `arena bench-sandbox -- --json` passes separators through
        argv = argv[1:]
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(list(sys.argv[1:] if argv is None else argv))
    # Measured as a worker's pool process runs matches: pinned to one CPU (workers/node/affinity.py).
    from workers.node.affinity import pin_to_one_cpu

    pin_to_one_cpu()
    try:
        sizes = tuple(int(size) for size in args.set_sizes.split(","))
    except ValueError:
        raise SystemExit("--set-sizes: comma-separated whole numbers, e.g. 1,4,16") from None
    if not sizes or min(sizes) < 1 or args.sets < 1:
        raise SystemExit("--set-sizes and --sets must be at least 1")
    report = run(args.runs, args.moves, args.matches, args.game, args.bot, sizes, args.sets)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    sandbox = report["sandbox"]
    print(
        f"sandbox: {sandbox['python']} in bwrap; cgroups {sandbox['cgroups']}; "
        f"seccomp {sandbox['seccomp']}"
    )
    print(
        f"start-up (python -c pass, sandboxed): {report['startup_ms']} ms median, "
        f"{report['startup_min_ms']} ms min; bare {report['bare_python_ms']} ms"
    )
    print(
        f"start-up CPU time (all processes): {report['startup_cpu_ms']} ms sandboxed, "
        f"{report['bare_python_cpu_ms']} ms bare"
    )
    print(f"bot ready (runner loaded, first move answered): {report['bot_ready_ms']} ms")
    if "forked_start_ms" in report:
        print(
            f"bot forked by a warm zygote lane, started, answered and closed: "
            f"{report['forked_start_ms']} ms, CPU {report['forked_start_cpu_ms']} ms "
            f"(a lane's own start, once per worker: {report['lanes_start_ms']} ms)"
        )
    print(
        f"round trip: {report['round_trip_us']} µs sandboxed, "
        f"{report['round_trip_unsandboxed_us']} µs unsandboxed process"
    )
    print(
        f"{report['game']} match ({report['seats']} x {report['bot']}, "
        f"{report['decisions_per_match']} decisions): {report['match_sandboxed_ms']} ms "
        f"sandboxed / {report['match_in_process_ms']} ms in-process = {report['match_ratio']}x"
    )
    print(
        f"  the sandbox's own share: {report['match_sandboxed_ms']} ms sandboxed / "
        f"{report['match_unsandboxed_process_ms']} ms as unsandboxed processes = "
        f"{report['match_ratio_vs_process']}x"
    )
    for name, rows in report["sets"].items():
        for row in rows:
            print(
                f"set of {row['set_size']:>2} ({name}, {row['decisions_per_match']} decisions a "
                f"match): {row['sandboxed_ms']} ms sandboxed / {row['in_process_ms']} ms "
                f"in-process = {row['ratio']}x (CPU {row['sandboxed_cpu_ms']} / "
                f"{row['in_process_cpu_ms']} ms = {row['cpu_ratio']}x)"
            )
    print(f"load average while measuring: {report['load_average']}")
    for name, goal in report["goals"].items():
        print(f"  goal {name} {goal['goal']}: {'met' if goal['met'] else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["main", "run"]
