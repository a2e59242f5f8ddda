"""`python manage.py search_strength`: the search bots against the heuristics, measured by the
arena itself.

    python manage.py search_strength [--games moonrollers moon_bots ...] [--budgets 0.5]
        [--players 2 3 4] [--max-games 80] [--elo1 50] [--tables 1000] [--team-elo1 17]
        [--workers 2] [--minutes 60] [--json] [--keep]
    python manage.py search_strength --limits-matches 200 [--limits-move-seconds 1]

For each competitive game, player count and move budget it starts a real challenge
(arena/services/challenges.py): the game's reference `search` bot as the candidate, its
`heuristic` as the baseline, other seats (3-4 players) filled with the heuristic, with
limits whose `move_seconds` is twice the budget (a search bot thinks half its move limit).
The challenge's sequential test says whether the search is stronger (its verdict); the
report adds the candidate's score share and mean rank against the baseline's, each from
the challenge's recorded games. A cooperative game (Moon Adventure) gets a team challenge:
each pair is a table of search bots only and one of heuristics only on one seed, at most
`--tables` of each, tested at `--team-elo1` (17 Elo: a success rate higher by 0.05);
the report adds each team's success rate with its 95% (Wilson) interval and whether the
intervals are apart.

With `--limits-matches N` it checks limits instead: each game's search bot plays N
matches of a round robin with the heuristic and the random bot (cooperative: the three at
one table) under `--limits-move-seconds`, and the report counts its forfeits by reason.

Everything runs through the pipeline: `--workers` real `celery -A workers worker`
processes on a private queue, every bot in the bubblewrap sandbox, results in PostgreSQL.
At `--minutes` whatever is still running is cancelled and reported as it stands. The bench
bots, challenges and matches are deleted afterwards unless --keep is given.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Avg

import engine
from arena.models import Bot, BotVersion, Challenge, Match, MatchSeat, Tournament
from arena.services.challenges import (
    cancel_challenge,
    challenge_games,
    create_challenge,
    describe,
)
from arena.services.tournaments import create_tournament
from bots.reference import builtin_path

BENCH_USER = "strength-bench"
REFERENCES = ("search", "heuristic", "random")
Z95 = 1.959964


def wilson(successes: int, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (0, 1 when nothing was played)."""
    if games == 0:
        return 0.0, 1.0
    share = successes / games
    spread = Z95 * math.sqrt(share * (1 - share) / games + Z95**2 / (4 * games**2))
    middle = share + Z95**2 / (2 * games)
    scale = 1 + Z95**2 / games
    return max(0.0, (middle - spread) / scale), min(1.0, (middle + spread) / scale)


def limits_for(budget: float) -> dict[str, Any]:
    """Limits under which a search bot thinks `budget` seconds a move: twice it a move, and
    CPU and match time enough that long matches do not cut it short."""
    return {
        "move_seconds": round(2 * budget, 3),
        "cpu_seconds": int(min(3600, max(120, 300 * budget))),
        "match_seconds": float(min(7200, max(600, 900 * budget))),
    }


def _bench_bot(owner: User, game: str, reference: str, label: str, args: Any) -> BotVersion:
    """A bot of this run (`args.created` lists them, for the clean-up)."""
    path = builtin_path(reference, game)
    if path is None:
        raise LookupError(f"{game} has no reference {reference!r} bot")
    bot = Bot.objects.create(owner=owner, game=game, name=f"{label}-{uuid.uuid4().hex[:6]}")
    args.created.append(bot.pk)
    return bot.add_version(path.read_bytes(), path.name)


def start_challenge(owner: User, game: str, players: int, budget: float, args: Any) -> Challenge:
    cooperative = engine.get_game(game).cooperative
    search = _bench_bot(owner, game, "search", "bench-search", args)
    heuristic = _bench_bot(owner, game, "heuristic", "bench-heuristic", args)
    # A bot of its own for each other seat: a challenge's opponents are distinct versions.
    # (A cooperative challenge has none: each table is one version's team.)
    others = [
        _bench_bot(owner, game, "heuristic", "bench-other", args)
        for _ in range(0 if cooperative else players - 2)
    ]
    return create_challenge(
        owner,
        game=game,
        candidate=search.pk,
        baseline=heuristic.pk,
        players=players,
        opponents=[version.pk for version in others],
        elo0=0.0,
        elo1=args.team_elo1 if cooperative else args.elo1,
        max_games=2 * args.tables if cooperative else args.max_games,
        batch_pairs=args.batch_pairs,
        batches_in_flight=args.batches_in_flight or args.workers,
        limits=limits_for(budget),
    )


def start_limits_tournament(owner: User, game: str, args: Any) -> Tournament:
    """A round robin of the search bot, the heuristic and the random bot in which the
    search bot plays `--limits-matches` matches under `--limits-move-seconds`."""
    spec = engine.get_game(game)
    versions = [_bench_bot(owner, game, name, f"bench-{name}", args) for name in REFERENCES]
    # Cooperative: the three at one table; else every pair, the search in two pairings.
    players = 3 if spec.cooperative else 2
    per_pairing = args.limits_matches if spec.cooperative else args.limits_matches // 2
    return create_tournament(
        owner,
        name=f"limits bench {game} {uuid.uuid4().hex[:6]}",
        game=game,
        bots=[version.bot_id for version in versions],
        players_per_match=players,
        games_per_pairing=per_pairing,
        limits={"move_seconds": args.limits_move_seconds},
    )


def limits_row(game: str, tournament: Tournament) -> dict[str, Any]:
    search = MatchSeat.objects.filter(
        match__tournament=tournament, bot__name__startswith="bench-search"
    )
    finished = search.filter(match__status=Match.Status.FINISHED)
    reasons: dict[str, int] = {}
    for reason in finished.exclude(forfeit_reason="").values_list("forfeit_reason", flat=True):
        reasons[reason[:80]] = reasons.get(reason[:80], 0) + 1
    return {
        "game": game,
        "move_seconds": tournament.limits.get("move_seconds"),
        "search_matches": finished.count(),
        "scheduled": search.count(),
        "failed": search.filter(match__status=Match.Status.FAILED).count(),
        "forfeits": reasons,
    }


def challenge_row(challenge: Challenge, budget: float) -> dict[str, Any]:
    challenge.refresh_from_db()
    shown = describe(challenge)
    finished = Match.objects.filter(challenge=challenge, status=Match.Status.FINISHED)
    seats = MatchSeat.objects.filter(match__in=finished)
    candidate = seats.filter(bot_version=challenge.candidate)
    baseline = seats.filter(bot_version=challenge.baseline).filter(
        match__in=candidate.values("match")
    )
    games = candidate.count()
    # Head to head: the candidate's share of the games where the two finished apart.
    ahead = behind = 0
    for match_id, rank in candidate.values_list("match_id", "rank"):
        other = baseline.filter(match_id=match_id).order_by("rank").values_list("rank", flat=True)
        first_other = other.first()
        if rank is None or first_other is None:
            continue
        ahead += rank < first_other
        behind += rank > first_other
    score = (ahead + (games - ahead - behind) / 2) / games if games else None
    low, high = wilson(ahead + (games - ahead - behind) // 2, games)
    forfeits = seats.exclude(forfeit_reason="").filter(bot_version=challenge.candidate).count()
    return {
        "game": challenge.game,
        "players": challenge.players,
        "budget_seconds": budget,
        "move_seconds": challenge.limits.get("move_seconds"),
        "games": games,
        "score": None if score is None else round(score, 3),
        "score_low": round(low, 3),
        "score_high": round(high, 3),
        "mean_rank_search": _mean(candidate),
        "mean_rank_heuristic": _mean(baseline),
        "elo": shown["elo"],
        "llr": shown["llr"],
        "bounds": [shown["llr_lower"], shown["llr_upper"]],
        "search_forfeits": forfeits,
        "verdict": challenge.status,
    }


def _mean(seats: Any) -> float | None:
    value = seats.exclude(rank=None).aggregate(mean=Avg("rank"))["mean"]
    return None if value is None else round(float(value), 3)


def team_row(challenge: Challenge, budget: float) -> dict[str, Any]:
    """A team challenge: each version's tables, successes and Wilson interval, the verdict
    of the intervals and the sequential test's."""
    challenge.refresh_from_db()
    shown = describe(challenge)
    finished = [g for g in challenge_games(challenge) if g["status"] == Match.Status.FINISHED]
    row: dict[str, Any] = {
        "game": challenge.game,
        "players": challenge.players,
        "budget_seconds": budget,
        "move_seconds": challenge.limits.get("move_seconds"),
    }
    for name, version in (("search", challenge.candidate), ("heuristic", challenge.baseline)):
        tables = [g for g in finished if g["team"] == version.pk]
        successes = sum(g["success"] for g in tables)
        low, high = wilson(successes, len(tables))
        row[name] = {
            "tables": len(tables),
            "successes": successes,
            "rate": round(successes / len(tables), 3) if tables else None,
            "low": round(low, 3),
            "high": round(high, 3),
            "forfeits": sum(g["forfeits"] > 0 for g in tables),
        }
    search, heuristic = row["search"], row["heuristic"]
    if search["low"] > heuristic["high"]:
        row["intervals"] = "search above"
    elif search["high"] < heuristic["low"]:
        row["intervals"] = "search below"
    else:
        row["intervals"] = "not separated"
    row.update(elo=shown["elo"], llr=shown["llr"], pair_counts=shown["pair_counts"])
    row["verdict"] = challenge.status
    return row


class StopRequest:
    """Ctrl-C or SIGTERM while the bench waits ends the wait: the run then cancels what is
    left and reports what was played, as at its time cap (a bare interrupt would leave
    the workers playing and report nothing). A process started in the background has
    SIGINT ignored; inside this block it is heard again."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.asked = False
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> StopRequest:
        self._previous = {number: signal.signal(number, self._ask) for number in self.SIGNALS}
        return self

    def __exit__(self, *exc: object) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)

    def _ask(self, number: int, frame: Any) -> None:
        self.asked = True

    def wait(self, seconds: float) -> None:
        """Sleep `seconds`, or less once a stop is asked."""
        deadline = time.monotonic() + seconds
        while not self.asked and time.monotonic() < deadline:
            time.sleep(min(0.2, max(0.0, deadline - time.monotonic())))


class Workers:
    """`count` Celery worker processes on a private queue, every bot sandboxed."""

    def __init__(self, count: int, queue: str, log_dir: Path) -> None:
        self.processes: list[subprocess.Popen[bytes]] = []
        env = {**os.environ, "ARENA_QUEUE": queue, "ARENA_BOT_ISOLATION": "sandbox"}
        celery = str(Path(sys.executable).with_name("celery"))
        for index in range(count):
            log = (log_dir / f"strength-worker{index}.log").open("wb")
            command = [celery, "-A", "workers", "worker", "-c", "1", "-n", f"s{index}-{queue}@%h"]
            command += ["--without-gossip", "--without-mingle", "--loglevel=WARNING"]
            self.processes.append(
                subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
            )

    def stop(self) -> None:
        for process in self.processes:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def measure(args: Any, log_dir: Path, say: Any) -> dict[str, Any]:
    owner, _ = User.objects.get_or_create(username=BENCH_USER, defaults={"is_staff": True})
    if not owner.is_staff:
        owner.is_staff = True
        owner.save(update_fields=["is_staff"])
    args.created = []
    queue = f"strength-{uuid.uuid4().hex[:8]}"
    # Read by workers/queue/routing.py whenever a queue is named, in this process too. (An
    # update, not an item assignment: scripts/settings_reference.py takes a variable the
    # code assigns for itself as no operator's, and an operator does set ARENA_QUEUE.)
    os.environ.update({"ARENA_QUEUE": queue})
    challenges: list[tuple[Challenge, float]] = []
    teams: list[tuple[Challenge, float]] = []
    limited: list[tuple[str, Tournament]] = []
    for game in args.games:
        if args.limits_matches:
            limited.append((game, start_limits_tournament(owner, game, args)))
            continue
        spec = engine.get_game(game)
        counts = [n for n in args.players if spec.min_players <= n <= spec.max_players]
        for players in counts:
            for budget in args.budgets:
                started_one = (start_challenge(owner, game, players, budget, args), budget)
                (teams if spec.cooperative else challenges).append(started_one)
    workers = Workers(args.workers, queue, log_dir)
    started = time.monotonic()
    ended = "time cap"
    try:
        with StopRequest() as stop:
            while time.monotonic() - started < args.minutes * 60 and not stop.asked:
                running = [c for c, _ in challenges + teams if _running(c)]
                unfinished = Match.objects.filter(tournament__in=[t for _, t in limited]).exclude(
                    status__in=[Match.Status.FINISHED, Match.Status.FAILED]
                )
                if not running and not unfinished.exists():
                    ended = "done"
                    break
                say(
                    f"{len(running)} challenges running, {unfinished.count()} tournament matches left"
                )
                stop.wait(args.poll)
            if stop.asked:
                ended = "stopped on request"
                say("stopping: what has been played is reported, the rest cancelled")
        for challenge, _ in challenges + teams:
            if _running(challenge):
                cancel_challenge(challenge, owner)
    finally:
        workers.stop()
    report = {
        "seconds": round(time.monotonic() - started, 1),
        "ended": ended,
        "load_average": [round(value, 2) for value in os.getloadavg()],
        "challenges": [challenge_row(c, budget) for c, budget in challenges],
        "teams": [team_row(challenge, budget) for challenge, budget in teams],
        "limits": [limits_row(game, tournament) for game, tournament in limited],
    }
    if not args.keep:
        _delete(
            args.created,
            [c for c, _ in challenges + teams],
            [t for _, t in limited],
        )
    return report


def _running(challenge: Challenge) -> bool:
    challenge.refresh_from_db(fields=["status"])
    return challenge.status == Challenge.Status.RUNNING


def _delete(bots: list[int], challenges: list[Challenge], made: list[Tournament]) -> None:
    tournaments = [t.pk for t in made]
    Match.objects.filter(challenge__in=challenges).delete()
    Match.objects.filter(tournament__in=tournaments).delete()
    Challenge.objects.filter(pk__in=[c.pk for c in challenges]).delete()
    Tournament.objects.filter(pk__in=tournaments).delete()
    Bot.objects.filter(pk__in=bots).delete()


class Command(BaseCommand):
    help = "Challenge each game's heuristic with its search bot, through real workers."

    def add_arguments(self, parser):
        parser.add_argument("--games", nargs="+", default=engine.game_names())
        parser.add_argument("--budgets", type=float, nargs="+", default=[0.5])
        parser.add_argument("--players", type=int, nargs="+", default=[2])
        parser.add_argument("--max-games", type=int, default=80)
        parser.add_argument("--batch-pairs", type=int, default=4)
        parser.add_argument(
            "--batches-in-flight",
            type=int,
            default=None,
            help="a challenge's batches queued at a time (default: --workers, one each)",
        )
        parser.add_argument("--elo1", type=float, default=50.0)
        parser.add_argument(
            "--tables", type=int, default=1000, help="most tables a team (cooperative)"
        )
        parser.add_argument(
            "--team-elo1",
            type=float,
            default=17.0,
            help="a team challenge's elo1 (cooperative; 17: a success rate higher by 0.05)",
        )
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--minutes", type=float, default=60.0)
        parser.add_argument("--poll", type=float, default=10.0)
        parser.add_argument(
            "--limits-matches",
            type=int,
            default=0,
            help="instead: N matches of each search bot in a round robin, forfeits counted",
        )
        parser.add_argument("--limits-move-seconds", type=float, default=1.0)
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--keep", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        unknown = sorted(set(options["games"]) - set(engine.game_names()))
        if unknown:
            raise CommandError(f"unknown game {unknown[0]!r}; games: {engine.game_names()}")
        if any(not 0.005 <= budget <= 30 for budget in options["budgets"]):
            raise CommandError("a budget is 0.005 to 30 seconds a move")
        options["max_games"] -= options["max_games"] % 2
        log_dir = Path(tempfile.mkdtemp(prefix="arena-strength-"))
        namespace = type("Args", (), options)
        try:
            report = measure(namespace, log_dir, lambda line: self.stderr.write(line))
        except (LookupError, ValueError) as exc:
            raise CommandError(str(exc)) from None
        report["worker_logs"] = str(log_dir)
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
            return
        self._tables(report)

    def _tables(self, report: dict[str, Any]) -> None:
        out = self.stdout.write
        out(f"{report['seconds']} s ({report['ended']}), load average {report['load_average']}")
        if report["challenges"]:
            out(
                "| game | players | budget (s) | games | search's score [95%] | mean rank search / heuristic | Elo [95%] | LLR | forfeits | verdict |"
            )
            out("|---|---|---|---|---|---|---|---|---|---|")
        for row in report["challenges"]:
            elo = row["elo"] or {}
            out(
                f"| {row['game']} | {row['players']} | {row['budget_seconds']} | {row['games']} "
                f"| {row['score']} [{row['score_low']}, {row['score_high']}] "
                f"| {row['mean_rank_search']} / {row['mean_rank_heuristic']} "
                f"| {elo.get('elo')} [{elo.get('low')}, {elo.get('high')}] | {row['llr']} "
                f"| {row['search_forfeits']} | {row['verdict']} |"
            )
        for row in report["limits"]:
            out(
                f"{row['game']}: the search bot finished {row['search_matches']} of "
                f"{row['scheduled']} matches at {row['move_seconds']} s a move "
                f"({row['failed']} failed); forfeits: {row['forfeits'] or 'none'}"
            )
        if report["teams"]:
            out(
                "| game | players | budget (s) | success rate [95%] | intervals | Elo [95%] | LLR | verdict |"
            )
            out("|---|---|---|---|---|---|---|---|")
        for row in report["teams"]:
            cells = []
            for name in ("search", "heuristic"):
                team = row[name]
                cells.append(
                    f"{name} {team['successes']}/{team['tables']} = {team['rate']} "
                    f"[{team['low']}, {team['high']}]"
                )
            elo = row["elo"] or {}
            out(
                f"| {row['game']} | {row['players']} | {row['budget_seconds']} "
                f"| {' vs '.join(cells)} | {row['intervals']} "
                f"| {elo.get('elo')} [{elo.get('low')}, {elo.get('high')}] | {row['llr']} "
                f"| {row['verdict']} |"
            )
