"""What the sandbox costs: start-up, per-move round trip, and a whole match.

    python -m workers.bench_sandbox [--json] [--runs 30] [--moves 3000] [--matches 5]

* start-up: launch a sandbox running `python -I -S -c pass` until it exits
  (median of --runs), beside the same interpreter started bare; and the time
  until a sandboxed bot runner answers its first move.
* round trip: one `act` message and its reply through a sandboxed runner with a
  trivial bot (median of --moves), beside the same through an unsandboxed process.
* match cost: a full match (Moonrollers when registered) between two random
  bots, sandboxed processes including their start-up, divided by the same
  match with the bots called in-process (sum over --matches seeds).

Goals from the issue: start-up under 20 ms, round trip under 100 µs, ratio under 2.
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
from workers.launchers import PROJECT_ROOT, TrustedProcessLauncher
from workers.limits import Limits
from workers.players import InProcessPlayer, ProcessPlayer
from workers.referee import play_match
from workers.sandbox import BubblewrapLauncher

RANDOM_BOT = PROJECT_ROOT / "bots" / "reference" / "random_bot.py"
GOALS = {"startup_ms": 20.0, "round_trip_us": 100.0, "match_ratio": 2.0}


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


def default_game() -> str:
    names = engine.game_names()
    if not names:
        raise SystemExit("no game is registered")
    return "moonrollers" if "moonrollers" in names else names[0]


def run(
    runs: int = 30,
    moves: int = 3000,
    matches: int = 5,
    game: str | None = None,
    bot: Path = RANDOM_BOT,
) -> dict[str, Any]:
    launcher = BubblewrapLauncher()
    launcher.check()
    report: dict[str, Any] = {"sandbox": launcher.describe()}
    report.update(bench_startup(launcher, runs))
    report.update(bench_round_trip(launcher, moves))
    report.update(bench_match(launcher, game or default_game(), matches, bot))
    report["load_average"] = [round(x, 2) for x in os.getloadavg()]
    report["goals"] = {
        name: {"goal": goal, "value": report[name], "met": report[name] < goal}
        for name, goal in GOALS.items()
    }
    return report


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="arena bench-sandbox", description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--runs", type=int, default=30, help="sandbox starts to time")
    parser.add_argument("--moves", type=int, default=3000, help="round trips to time")
    parser.add_argument("--matches", type=int, default=5, help="matches of each kind")
    parser.add_argument("--game", default=None, help="game for the match cost")
    parser.add_argument("--bot", type=Path, default=RANDOM_BOT, help="bot file for the match")
    while argv[:1] == ["--"]:  # `arena bench-sandbox -- --json` passes separators through
        argv = argv[1:]
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(list(sys.argv[1:] if argv is None else argv))
    # Measured as a worker's pool process runs matches: pinned to one CPU (workers/affinity.py).
    from workers.affinity import pin_to_one_cpu

    pin_to_one_cpu()
    report = run(args.runs, args.moves, args.matches, args.game, args.bot)
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
    print(f"load average while measuring: {report['load_average']}")
    for name, goal in report["goals"].items():
        print(f"  goal {name} < {goal['goal']}: {'met' if goal['met'] else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["main", "run"]
