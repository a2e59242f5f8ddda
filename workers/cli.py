"""The `arena` command: local play, replays and benchmarks, and a Moon Arena's client.

The service commands (login, submit, status and the rest) live in bots/sdk/commands.py.

    arena games
    arena play --game moonrollers --games 100 heuristic random
    arena replay match.json [--steps]        # or a match id at the arena, downloaded first
    arena replay download MATCH [-o PATH]
    arena bench --game moonrollers --json
    arena bench-sandbox
    arena bench-languages
    arena login URL | submit | bots | status | matches | logs | challenge | tournament

Errors a user can cause (unknown game, bad player count, broken bot file) end
in one line on stderr and exit status 2, never a traceback.

A bot file's code runs only where its bot plays (the sandbox, unless --isolation says
otherwise): this process reads and parses the file but never runs it, and names the
bot by its file name.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from bots.reference import builtin_names, builtin_path
from bots.sdk import commands as service_commands
from bots.sdk import starters
from bots.sdk.client import ArenaClient, ClientError
from bots.sdk.commands import Waiting
from bots.sdk.runner import BotLoadError, load_bot
from bots.sdk.source import check_bot_file
from workers.bench import playouts
from workers.play.local_builds import LocalBuildError, build_local, needs_build
from workers.play.players import Bot, BotProcess, InProcessBot
from workers.play.referee import SetMatch, play_set
from workers.sandbox.limits import Limits, LimitsError

# Games per set in `arena play` (as workers play sets: ARENA_SET_MAX_MATCHES).
SET_SIZE = 16


class UsageError(Exception):
    """A mistake in what the user asked for; printed as one line."""


@dataclass
class BotEntry:
    label: str
    path: Path
    builtin: bool
    # Another language's bot: built once (`built`, its unpacked build) before it plays.
    native: bool = False
    built: Path | None = None
    wins: int = 0
    ranks: list[int] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    forfeits: int = 0
    last_forfeit: str = ""
    successes: int = 0

    def summary(self, cooperative: bool = False) -> dict[str, Any]:
        games = len(self.ranks) or 1
        summary: dict[str, Any] = {
            "name": self.label,
            "wins": self.wins,
            "mean_rank": round(sum(self.ranks) / games, 4),
            "mean_score": round(sum(self.scores) / games, 4),
            "forfeits": self.forfeits,
        }
        if cooperative:
            # A shared rank 1 is not a win in a cooperative game: report the team outcome.
            summary["successes"] = self.successes
            summary["success_rate"] = round(self.successes / games, 4)
        return summary


def resolve_bot(spec: str, game: str) -> BotEntry:
    path = builtin_path(spec, game)
    if path is not None:
        return BotEntry(spec, path, builtin=True)
    label, candidate = spec, Path(spec)
    if spec.startswith("arena:"):
        label, candidate = service_commands.fetch_bot(spec)
    if candidate.exists() and needs_build(candidate):
        name = candidate.resolve().name if label == spec else label
        return BotEntry(name, candidate, builtin=False, native=True)
    if candidate.is_file():
        try:
            # Parsed, not loaded: loading runs the file's top level, here as the caller.
            check_bot_file(str(candidate))
        except BotLoadError as exc:
            raise UsageError(f"bot {spec}: {exc}") from None
        return BotEntry(label if label != spec else candidate.name, candidate, builtin=False)
    known = ", ".join(builtin_names(game))
    raise UsageError(
        f"bot {spec!r} is neither a built-in ({known}), a readable file nor arena:YOUR_BOT[@N]"
    )


def make_bot(entry: BotEntry, isolation: str, limits: Limits, matches: int) -> Bot:
    """One channel for a bot, playing `matches` games of a set (one process for all)."""
    kind = isolation
    if kind == "auto":
        # Built-in bots are ours and trusted; an author's file is sandboxed.
        kind = "inprocess" if entry.builtin else "sandbox"
    if entry.native:
        return _native_bot(entry, kind, limits, matches)
    if kind == "inprocess":
        try:
            return InProcessBot(load_bot(str(entry.path)))
        except BotLoadError as exc:
            raise UsageError(f"bot {entry.label}: {exc}") from None
    from workers.sandbox.isolation import get_launcher

    launcher = get_launcher(kind)
    return BotProcess(launcher.launch(entry.path, limits.for_set(matches)), limits, matches)


def _native_bot(entry: BotEntry, kind: str, limits: Limits, matches: int) -> Bot:
    """A bot in another language: built on first use with the chosen walls, then started."""
    if kind == "inprocess":
        raise UsageError(
            f"bot {entry.label} is not Python: it runs in its own process "
            "(--isolation sandbox, or process for your own trusted bots)"
        )
    from workers.sandbox.isolation import get_launcher

    launcher = get_launcher(kind)
    if entry.built is None:
        try:
            entry.built = build_local(entry.path, launcher)
        except LocalBuildError as exc:
            raise UsageError(str(exc)) from None
    return BotProcess(launcher.launch(entry.built, limits.for_set(matches)), limits, matches)


def check_isolation(entries: list[BotEntry], isolation: str) -> None:
    kinds = {
        isolation if isolation != "auto" else ("inprocess" if e.builtin else "sandbox")
        for e in entries
    }
    from workers.sandbox.isolation import get_launcher

    for kind in kinds - {"inprocess"}:
        try:
            get_launcher(kind).check()
        except Exception as exc:
            hint = (
                " (for trusted local bots only: --isolation process or inprocess)"
                if kind == "sandbox"
                else ""
            )
            raise UsageError(f"cannot run bots with isolation {kind}: {exc}{hint}") from None


def _show_stderr(spec: SetMatch, outcome: Any, entries: list[BotEntry]) -> None:
    """What each bot process wrote to stderr in a set, each line marked with its bot.

    One process plays a set's games, so its stderr is the set's: shown once per set.
    (Built-in bots play in this process and write to this terminal directly.)
    """
    for seat, entry_index in enumerate(spec.seats):
        text = outcome.stderr[seat] if seat < len(outcome.stderr) else ""
        for line in (text or "").splitlines():
            print(f"[{entries[entry_index].label}] {line}", file=sys.stderr)


def command_play(args: argparse.Namespace) -> int:
    game = engine.get_game(args.game)
    game.check_players(len(args.bots))
    options = json.loads(args.options) if args.options else None
    game.check_options(options)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    limits = Limits(move_seconds=args.move_seconds)
    if args.sandbox:
        args.isolation = "sandbox"
    entries = [resolve_bot(spec, game.name) for spec in args.bots]
    check_isolation(entries, args.isolation)
    if args.isolation != "inprocess":
        # Bot processes then share this CPU and each move skips a cross-CPU wake-up.
        from workers.node.affinity import pin_to_one_cpu

        pin_to_one_cpu()
    records = []
    decisions = 0
    team_successes = 0
    started = time.perf_counter()
    # Played as the arena plays sets: each bot one process for up to SET_SIZE games at a
    # time, the games interleaved; the seats rotate so each bot sits in each seat
    # equally often.
    with Waiting(f"playing {game.name}", float(args.games), quiet=args.games < 2) as progress:
        for first in range(0, args.games, SET_SIZE):
            indexes = range(first, min(first + SET_SIZE, args.games))
            specs = [
                SetMatch(
                    key=index,
                    seed=args.seed + index,
                    seats=[(seat + index) % len(entries) for seat in range(len(entries))],
                    options=options,
                )
                for index in indexes
            ]
            bots = [make_bot(entry, args.isolation, limits, len(specs)) for entry in entries]
            outcomes = play_set(game.name, specs, bots)
            if not args.hide_stderr:
                _show_stderr(specs[0], outcomes[0], entries)
            for spec, outcome in zip(specs, outcomes, strict=True):
                decisions += outcome.decisions
                succeeded = outcome.result.get("outcome") == "success"
                team_successes += succeeded
                for seat, entry_index in enumerate(spec.seats):
                    entry = entries[entry_index]
                    entry.ranks.append(outcome.ranks[seat])
                    entry.wins += outcome.ranks[seat] == 1
                    score = outcome.scores[seat]
                    entry.scores.append(score if isinstance(score, int | float) else 0)
                    entry.successes += succeeded and seat not in outcome.forfeits
                    if seat in outcome.forfeits:
                        entry.forfeits += 1
                        entry.last_forfeit = outcome.forfeits[seat]
                        print(
                            f"game {spec.key}: {entry.label} (seat {seat}) forfeits: "
                            f"{outcome.forfeits[seat]}",
                            file=sys.stderr,
                        )
                if args.save_replay:
                    records.append(outcome.record)
            progress.update(indexes[-1] + 1)
    seconds = time.perf_counter() - started
    if args.save_replay:
        payload = records[0] if len(records) == 1 else records
        Path(args.save_replay).write_text(json.dumps(payload) + "\n")
    report = {
        "game": game.name,
        "games": args.games,
        "seconds": round(seconds, 3),
        "decisions": decisions,
        "bots": [entry.summary(game.cooperative) for entry in entries],
    }
    if game.cooperative:
        report["successes"] = team_successes
        report["success_rate"] = round(team_successes / args.games, 4)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{game.name}: {args.games} games, {decisions} decisions in {seconds:.2f}s")
    if game.cooperative:
        print(
            f"team successes: {team_successes} of {args.games} "
            f"({100 * team_successes / args.games:.1f}%)"
        )
    print(
        f"{'bot':<24} {'wins':>6} {'win %':>7} {'mean rank':>10} {'mean score':>11} {'forfeits':>9}"
    )
    for entry in entries:
        s = entry.summary()
        print(
            f"{entry.label:<24} {s['wins']:>6} {100 * s['wins'] / args.games:>6.1f}% "
            f"{s['mean_rank']:>10.2f} {s['mean_score']:>11.2f} {s['forfeits']:>9}"
        )
    for entry in entries:
        if entry.forfeits:
            print(f"{entry.label} last forfeit: {entry.last_forfeit}")
    return 0


def _replay_payload(target: str) -> Any:
    """A saved replay file, or the replay of match `target` at the arena one is logged in to."""
    path = Path(target)
    if target.isdigit() and not path.exists():
        return ArenaClient.from_credentials().replay(int(target))
    try:
        return json.loads(path.read_text())
    except OSError as exc:
        raise UsageError(f"cannot read {target}: {exc.strerror}") from None
    except ValueError:
        raise UsageError(f"{target} is not JSON") from None


def _print_steps(record: dict[str, Any]) -> None:
    """Each recorded action with the seat that chose it, replayed by the engine."""
    game = engine.get_game(record["game"])
    state = game.new_state(record["players"], record["seed"], record["options"])
    for index, action in enumerate(record["actions"]):
        print(f"step {index}: seat {state.to_move()} plays {json.dumps(action)}")
        state.apply(action)


def command_replay(args: argparse.Namespace) -> int:
    if args.target == "download":
        if args.match is None or not args.match.isdigit():
            raise UsageError("arena replay download MATCH: give the match id")
        saved = service_commands.download_replay(int(args.match), args.output)
        if args.json:
            print(json.dumps({"match": int(args.match), "path": str(saved)}))
        else:
            print(f"saved match {args.match}'s replay to {saved}")
        return 0
    payload = _replay_payload(args.target)
    records = payload if isinstance(payload, list) else [payload]
    failures = 0
    verdicts = []
    for index, record in enumerate(records):
        label = f"record {index}: " if len(records) > 1 else ""
        try:
            state = engine.replay(record)
        except (engine.ReplayMismatch, engine.UnknownGame) as exc:
            verdicts.append({"reproduces": False, "reason": str(exc)})
            if not args.json:
                print(f"{label}does not reproduce: {exc}")
            failures += 1
            continue
        result = state.result() if state.is_terminal() else None
        verdicts.append({"reproduces": True, "actions": len(record["actions"]), "result": result})
        if args.json:
            continue
        if args.steps:
            _print_steps(record)
        print(
            f"{label}reproduces: {record['game']} seed {record['seed']}, "
            f"{len(record['actions'])} actions, result {json.dumps(result)}"
        )
    if args.json:
        print(json.dumps(verdicts[0] if len(verdicts) == 1 else verdicts))
    return 1 if failures else 0


def command_bench(args: argparse.Namespace) -> int:
    report = playouts.measure(engine.get_game(args.game), args.seconds, args.seed)
    print(json.dumps(report) if args.json else playouts.table(report, args.seconds))
    return 0


def command_games(args: argparse.Namespace) -> int:
    described = [engine.get_game(name).describe() for name in engine.game_names()]
    if args.json:
        print(json.dumps(described))
        return 0
    for info in described:
        kind = "cooperative" if info["cooperative"] else "competitive"
        print(
            f"{info['name']:<16} {info['rules_version']:<20} "
            f"{info['min_players']}-{info['max_players']} players, {kind}"
        )
    return 0


def command_bench_sandbox(args: argparse.Namespace) -> int:
    try:
        from workers.bench.sandbox import main as bench_main
    except ImportError as exc:
        raise UsageError(f"the sandbox benchmark is not available: {exc}") from None
    return int(bench_main(args.rest) or 0)


def command_bench_languages(args: argparse.Namespace) -> int:
    from workers.bench.languages import main as bench_main

    rest = args.rest[1:] if args.rest[:1] == ["--"] else args.rest
    return int(bench_main(rest) or 0)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="arena", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    games = sub.add_parser("games", help="list the registered games")
    games.add_argument("--json", action="store_true")
    games.set_defaults(func=command_games)

    play = sub.add_parser("play", help="play bots against each other locally")
    play.add_argument("--game", required=True)
    play.add_argument("--games", type=int, default=1)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--options", help='game options as JSON, e.g. \'{"variant": "long"}\'')
    play.add_argument("--json", action="store_true")
    play.add_argument("--save-replay", metavar="PATH")
    play.add_argument(
        "--isolation",
        choices=("auto", "sandbox", "process", "inprocess"),
        default="auto",
        help="auto: built-in bots in-process, bot files in the sandbox; process and "
        "inprocess are for trusted bots only",
    )
    play.add_argument(
        "--sandbox", action="store_true", help="every bot in the arena's sandbox and limits"
    )
    play.add_argument(
        "--hide-stderr", action="store_true", help="do not show what bot processes print"
    )
    play.add_argument("--move-seconds", type=float, default=2.0)
    play.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help="built-in name, bot file (any language), a folder with arena.toml, or "
        "arena:BOT[@N] (your bot's version at the arena)",
    )
    play.set_defaults(func=command_play)

    replay = sub.add_parser(
        "replay", help="replay a saved match or one at the arena; `replay download MATCH`"
    )
    replay.add_argument("target", help="a replay file, a match id, or `download`")
    replay.add_argument("match", nargs="?", help="with `download`: the match id")
    replay.add_argument("-o", "--output", help="with `download`: where to save it")
    replay.add_argument("--steps", action="store_true", help="print every step")
    replay.add_argument("--json", action="store_true", help="print JSON for scripts")
    replay.set_defaults(func=command_replay)

    service_commands.add_commands(sub)
    starters.add_command(sub)

    bench = sub.add_parser("bench", help="random playouts per second, in-process")
    bench.add_argument("--game", required=True)
    bench.add_argument("--seconds", type=float, default=3.0)
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--json", action="store_true")
    bench.set_defaults(func=command_bench)

    sandbox = sub.add_parser("bench-sandbox", help="sandbox start-up and round-trip costs")
    sandbox.add_argument("rest", nargs=argparse.REMAINDER)
    sandbox.set_defaults(func=command_bench_sandbox)

    languages = sub.add_parser(
        "bench-languages", help="each language's bot: build, start-up, round trip, match"
    )
    languages.add_argument("rest", nargs=argparse.REMAINDER)
    languages.set_defaults(func=command_bench_languages)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] in (["bench-sandbox"], ["bench-languages"]):
        # Their options belong to workers.bench; pass them through untouched.
        argv = [argv[0], "--", *argv[1:]]
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        # `handler` is what bots/sdk/starters registers; `func` everything else here.
        command = getattr(args, "func", None) or args.handler
        return int(command(args))
    except (UsageError, engine.EngineError, LimitsError) as exc:
        print(f"arena: error: {exc}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as exc:
        print(f"arena: error: --options is not valid JSON: {exc}", file=sys.stderr)
        return 2
    except ClientError as exc:
        print(f"arena: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except starters.StarterError as exc:
        print(f"arena: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("arena: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
