"""The `arena` command's service side: log in, submit, follow, read results and logs.

    arena login http://arena.example.org         # asks for username and password once
    arena submit my_bot.py --game moonrollers    # a new bot, or a new version of it
    arena bots | arena status [BOT] | arena matches [BOT] --last 10
    arena logs MATCH | arena replay download MATCH
    arena challenge 41 37 --follow              # version 41 against version 37
    arena tournament create --game moonrollers --name Cup --bots 3 4 5 6
    arena tournament follow ID | arena tournament standings ID

Each command takes --json and prints one JSON document instead of text. Waiting shows a
progress bar with its rate and time left (rich, on stderr, only on a terminal). Errors are
one line on stderr: 1 when the arena refused or failed, 2 for a usage mistake.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bots.sdk.client import ArenaClient, ClientError, Credentials, cache_dir
from bots.sdk.folders import FolderError, zip_folder

POLL_SECONDS = 1.0
# Bigger than any honest upload; the service has its own, smaller cap.
MAX_UPLOAD_BYTES = 8 << 20


def _print_json(value: Any) -> None:
    print(json.dumps(value, indent=2, sort_keys=True, default=str))


def _table(rows: list[list[Any]], header: list[str]) -> str:
    text = [[str("—" if cell is None else cell) for cell in row] for row in [header, *rows]]
    widths = [max(len(row[i]) for row in text) for i in range(len(header))]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in text
    ]
    return "\n".join(lines)


class Waiting:
    """A progress bar on stderr (rate and time left) while something runs at the arena."""

    def __init__(self, what: str, total: float | None, quiet: bool) -> None:
        self.enabled = not quiet and sys.stderr.isatty()
        self.what = what
        self.total = total
        self._progress: Any = None

    def __enter__(self) -> Waiting:
        if self.enabled:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                ProgressColumn,
                SpinnerColumn,
                TaskProgressColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.text import Text

            class Rate(ProgressColumn):
                """Things done per second (rich's own speed column counts bytes)."""

                def render(self, task: Any) -> Text:
                    speed = task.finished_speed or task.speed
                    return Text(f"{speed:.1f}/s" if speed else "–/s", style="progress.data.speed")

            columns: list[Any] = [SpinnerColumn(), "{task.description}"]
            if self.total:
                columns += [
                    BarColumn(),
                    MofNCompleteColumn(),
                    TaskProgressColumn(),
                    Rate(),
                    TimeRemainingColumn(),
                ]
            else:
                columns += [TimeElapsedColumn()]
            from rich.console import Console

            self._progress = Progress(*columns, console=Console(stderr=True), transient=True)
            self._progress.start()
            self._task = self._progress.add_task(self.what, total=self.total)
        return self

    def update(self, done: float, description: str | None = None) -> None:
        if self._progress is not None:
            self._progress.update(self._task, completed=done, description=description or self.what)

    def __exit__(self, *_: object) -> None:
        if self._progress is not None:
            self._progress.stop()


def _follow(
    fetch: Callable[[], dict[str, Any]],
    done: Callable[[dict[str, Any]], bool],
    progress: Callable[[dict[str, Any]], tuple[float, float | None, str]],
    timeout: float,
    quiet: bool,
) -> dict[str, Any]:
    """Poll `fetch` until `done`; the bar shows `progress` (done, total, description)."""
    deadline = time.monotonic() + timeout
    state = fetch()
    _, total, what = progress(state)
    with Waiting(what, total, quiet) as bar:
        while not done(state):
            if time.monotonic() > deadline:
                raise ClientError(f"still not done after {timeout:.0f} s: try again later")
            time.sleep(POLL_SECONDS)
            state = fetch()
            finished, total, what = progress(state)
            bar.update(finished, what)
    return state


# ----- accounts --------------------------------------------------------------------------


def command_login(args: argparse.Namespace) -> int:
    username = args.username or input("username: ").strip()
    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = getpass.getpass("password: ")
    client = ArenaClient(args.url)
    token = client.login(username, password)
    path = Credentials(client.url, token, username).save()
    if args.json:
        _print_json({"url": client.url, "username": username, "credentials": str(path)})
    else:
        print(f"logged in to {client.url} as {username} (token kept in {path})")
    return 0


def command_logout(args: argparse.Namespace) -> int:
    forgotten = Credentials.forget()
    if args.json:
        _print_json({"forgotten": forgotten})
    else:
        print("token forgotten" if forgotten else "was not logged in")
    return 0


# ----- bots ------------------------------------------------------------------------------


def _read_bot_file(path: str) -> tuple[str, bytes]:
    """The upload's name and bytes: the file, or a folder zipped (a bot with arena.toml)."""
    file = Path(path)
    if file.is_dir():
        try:
            content = zip_folder(file, MAX_UPLOAD_BYTES)
        except (FolderError, OSError) as exc:
            raise ClientError(f"cannot send {path}: {exc}", 2) from None
        return f"{file.resolve().name}.zip", content
    try:
        content = file.read_bytes()
    except OSError as exc:
        raise ClientError(f"cannot read {path}: {exc.strerror}", 2) from None
    if len(content) > MAX_UPLOAD_BYTES:
        raise ClientError(f"{path} is {len(content)} bytes: too big to upload", 2)
    return file.name, content


def _default_name(path: Path) -> str:
    """A folder's name, or a file's without its extension (kit.tar.gz: kit)."""
    if path.is_dir():
        return path.resolve().name
    return path.stem.removesuffix(".tar")


def _latest(versions: list[dict[str, Any]]) -> dict[str, Any]:
    return max(versions, key=lambda version: version["number"])


def command_submit(args: argparse.Namespace) -> int:
    client = ArenaClient.from_credentials()
    filename, content = _read_bot_file(args.bot_file)
    name = args.name or _default_name(Path(args.bot_file))
    client.check_version()
    client.check_game(args.game)
    mine = [bot for bot in client.my_bots() if bot["name"] == name]
    if mine:
        bot = mine[0]
        if bot["game"] != args.game:
            raise ClientError(f"your bot {name!r} plays {bot['game']}, not {args.game}", 2)
        version = client.add_version(bot["id"], filename, content)
    else:
        bot = client.create_bot(name, args.game, filename, content)
        version = bot["latest_version"]
    if not args.no_wait:
        number = version["number"]
        version = _follow(
            lambda: next(v for v in client.versions(bot["id"]) if v["number"] == number),
            lambda v: v["validation"] != "pending",
            lambda v: (0.0, None, f"validating {name} v{number} (a smoke match in the sandbox)"),
            timeout=args.timeout,
            quiet=args.json,
        )
    outcome = {"bot_id": bot["id"], "bot": name, "game": args.game, "version": version}
    if args.json:
        _print_json(outcome)
    else:
        state = version["validation"]
        line = f"{name} v{version['number']} (bot {bot['id']}, version id {version['id']}): {state}"
        print(line)
        if state == "rejected":
            print(f"reason: {version.get('validation_error') or 'not given'}")
    return 1 if version["validation"] == "rejected" else 0


def command_bots(args: argparse.Namespace) -> int:
    client = ArenaClient.from_credentials()
    bots = client.my_bots()
    if args.json:
        _print_json(bots)
        return 0
    rows = []
    for bot in bots:
        latest = bot.get("latest_version") or {}
        rating = bot.get("rating") or {}
        rows.append(
            [
                bot["id"],
                bot["name"],
                bot["game"],
                f"v{latest.get('number')} {latest.get('validation', '')}" if latest else None,
                bot.get("ladder_status"),
                rating.get("games"),
                round(rating["rating"]) if rating.get("rating") is not None else None,
            ]
        )
    header = ["id", "name", "game", "latest", "ladder", "games", "elo"]
    print(_table(rows, header) if rows else "no bots yet: arena submit BOT_FILE --game GAME")
    return 0


def _status_of(client: ArenaClient, bot: dict[str, Any]) -> dict[str, Any]:
    return {
        "bot": bot,
        "versions": client.versions(bot["id"]),
        "leaderboard": client.leaderboard_row(bot["game"], bot["id"]),
    }


def _interval(row: dict[str, Any], key: str) -> str:
    value, low, high = row.get(key), row.get(f"{key}_low"), row.get(f"{key}_high")
    if value is None:
        return "not fitted yet"
    if low is None or high is None:
        return f"{value:.0f}"
    return f"{value:.0f} ({low:.0f}–{high:.0f}, 95%)"


def command_status(args: argparse.Namespace) -> int:
    client = ArenaClient.from_credentials()
    bots = [client.find_bot(args.bot)] if args.bot else client.my_bots()
    statuses = [_status_of(client, bot) for bot in bots]
    if args.json:
        _print_json(statuses if not args.bot else statuses[0])
        return 0
    for status in statuses:
        bot, row = status["bot"], status["leaderboard"] or {}
        print(f"{bot['name']} (bot {bot['id']}, {bot['game']}, owner {bot['owner']})")
        ladder = bot.get("ladder_status")
        if bot.get("ladder_pause_reason"):
            ladder = f"{ladder}: {bot['ladder_pause_reason']}"
        print(f"  ladder: {ladder}")
        if row:
            rank = f"#{row['rank']}"
            if row.get("rank_low") is not None:
                rank += f" ({row['rank_low']}–{row['rank_high']})"
            print(f"  rank {rank}, {row['games']} games, skill {_interval(row, 'skill')}, ", end="")
            print(f"elo {row['rating']:.0f}")
            if row.get("success_rate") is not None:
                print(f"  team success rate {row['success_rate']:.0%}")
        else:
            print("  not on the leaderboard yet (no rated game)")
        for version in status["versions"]:
            line = f"  v{version['number']} (id {version['id']}): {version['validation']}"
            if version.get("validation_error"):
                line += f": {version['validation_error']}"
            print(line)
    if not statuses:
        print("no bots yet: arena submit BOT_FILE --game GAME")
    return 0


# ----- matches ---------------------------------------------------------------------------


def _seat_text(seat: dict[str, Any]) -> str:
    text = f"{seat['bot']} v{seat['version']}: rank {seat.get('rank')} score {seat.get('score')}"
    if seat.get("forfeit_reason"):
        text += f" (forfeit: {seat['forfeit_reason']})"
    return text


def command_matches(args: argparse.Namespace) -> int:
    client = ArenaClient.from_credentials()
    bot_id = client.find_bot(args.bot)["id"] if args.bot else None
    matches = client.matches(bot_id, args.last)
    if args.json:
        _print_json(matches)
        return 0
    for match in matches:
        finished = (match.get("finished_at") or "")[:19].replace("T", " ")
        print(
            f"match {match['id']} {match['game']} {match['purpose']} {match['status']} {finished}"
        )
        for seat in match.get("seats", []):
            print(f"  seat {seat['seat']}: {_seat_text(seat)}")
        if match.get("error"):
            print(f"  error: {match['error']}")
    if not matches:
        print("no matches yet")
    return 0


def command_logs(args: argparse.Namespace) -> int:
    client = ArenaClient.from_credentials()
    match = client.match(args.match)
    own = [seat for seat in match.get("seats", []) if seat.get("stderr") is not None]
    if args.json:
        _print_json([{"seat": s["seat"], "bot": s["bot"], "stderr": s["stderr"]} for s in own])
        return 0
    if not own:
        raise ClientError(f"none of match {args.match}'s seats is one of your bots")
    for seat in own:
        print(f"== seat {seat['seat']}: {seat['bot']} v{seat['version']}")
        print(seat["stderr"] or "(nothing on stderr)", end="" if seat["stderr"] else "\n")
    return 0


def download_replay(match_id: int, path: str | None, quiet: bool = False) -> Path:
    """The match's replay record saved as JSON; `arena replay` plays it back."""
    client = ArenaClient.from_credentials()
    record = client.replay(match_id)
    target = Path(path or f"match-{match_id}.json")
    try:
        target.write_text(json.dumps(record) + "\n")
    except OSError as exc:
        raise ClientError(f"cannot write {target}: {exc.strerror}", 2) from None
    return target


def fetch_bot(spec: str) -> tuple[str, Path]:
    """`arena:BOT` or `arena:BOT@N` (one of your bots, by name or id; version N or the latest)
    as a local file for `arena play`, kept in the user's cache folder; (label, path)."""
    name, _, number = spec.removeprefix("arena:").partition("@")
    if number and not number.isdigit():
        raise ClientError(f"{spec}: the version after @ is a number", 2)
    client = ArenaClient.from_credentials()
    bot = client.find_bot(name)
    versions = client.versions(bot["id"])
    wanted = [v for v in versions if not number or v["number"] == int(number)]
    if not wanted:
        raise ClientError(f"bot {bot['name']!r} has no version {number}", 2)
    version = _latest(wanted)
    suffix = Path(version["filename"]).suffix or ".py"
    cache = (
        cache_dir() / "bots" / f"{bot['id']}-v{version['number']}-{version['sha256'][:12]}{suffix}"
    )
    if not cache.exists():
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_bytes(client.source(bot["id"], version["number"]))
    return f"{bot['name']} v{version['number']}", cache


# ----- challenges and tournaments --------------------------------------------------------


def _game_of_version(client: ArenaClient, version_id: int) -> str:
    """The game of one of the user's own versions (else --game must say it)."""
    for bot in client.my_bots():
        if any(v["id"] == version_id for v in client.versions(bot["id"])):
            return str(bot["game"])
    raise ClientError(f"version {version_id} is not one of yours: say --game GAME", 2)


def _challenge_progress(state: dict[str, Any]) -> tuple[float, float | None, str]:
    llr = state.get("llr")
    what = f"challenge {state['id']}: {state['status']}"
    if llr is not None:
        what += f", LLR {llr:.2f} in ({state['llr_lower']:.2f}, {state['llr_upper']:.2f})"
    return float(state.get("games") or 0), float(state["max_games"]), what


def command_challenge(args: argparse.Namespace) -> int:
    client = ArenaClient.from_credentials()
    data: dict[str, Any] = {"candidate": args.candidate, "baseline": args.baseline}
    game = args.game or _game_of_version(client, args.candidate)
    data.update({"game": game, "max_games": args.max_games})
    # The arena's defaults apply to what is not given.
    for field in ("players", "elo0", "elo1", "batch_pairs", "batches_in_flight"):
        if getattr(args, field) is not None:
            data[field] = getattr(args, field)
    challenge = client.create_challenge(data)
    if args.follow:
        challenge = _follow(
            lambda: client.challenge(challenge["id"]),
            lambda c: c["status"] not in ("queued", "running", "pending"),
            _challenge_progress,
            timeout=args.timeout,
            quiet=args.json,
        )
    if args.json:
        _print_json(challenge)
    else:
        elo = challenge.get("elo") or {}
        print(f"challenge {challenge['id']}: {challenge['status']}, {challenge['games']} games")
        if elo.get("elo") is not None:
            print(
                f"candidate − baseline: {elo['elo']:+.0f} Elo ({elo['low']:+.0f}…{elo['high']:+.0f})"
            )
    return 0


def command_tournament(args: argparse.Namespace) -> int:
    client = ArenaClient.from_credentials()
    if args.action == "create":
        data = {
            "name": args.name,
            "game": args.game,
            "format": args.format,
            "bots": args.bots,
            "players_per_match": args.players,
            "games_per_pairing": args.games_per_pairing,
        }
        if args.start_at:
            data["start_at"] = args.start_at
        tournament = client.create_tournament(data)
    else:
        tournament = client.tournament(args.id)
        if args.action == "follow":
            tournament = _follow(
                lambda: client.tournament(args.id),
                lambda t: t["status"] in ("finished", "cancelled"),
                lambda t: (
                    float(t.get("matches_done") or 0),
                    float(t.get("matches_total") or 0) or None,
                    f"{t['name']}: {t['status']}",
                ),
                timeout=args.timeout,
                quiet=args.json,
            )
    if args.json:
        _print_json(tournament)
        return 0
    print(
        f"tournament {tournament['id']} {tournament['name']!r} ({tournament['game']}, "
        f"{tournament['format']}): {tournament['status']}, "
        f"{tournament.get('matches_done', 0)}/{tournament.get('matches_total', 0)} matches"
    )
    if args.action != "create":
        rows = [
            [row.get("position", place), row.get("bot"), row.get("points"), row.get("matches"),
             row.get("wins")]
            for place, row in enumerate(tournament.get("standings") or [], start=1)
        ]  # fmt: skip
        if rows:
            print(_table(rows, ["rank", "bot", "points", "matches", "wins"]))
    return 0


# ----- the parser ------------------------------------------------------------------------


def add_commands(sub: Any) -> None:
    """Add the service commands to the `arena` parser's subcommands."""
    login = sub.add_parser("login", help="log in to a Moon Arena service (keeps a token)")
    login.add_argument("url")
    login.add_argument("--username")
    login.add_argument("--password-stdin", action="store_true", help="read the password")
    login.set_defaults(func=command_login)

    logout = sub.add_parser("logout", help="forget the kept token")
    logout.set_defaults(func=command_logout)

    submit = sub.add_parser("submit", help="upload a bot or a new version and follow validation")
    submit.add_argument("bot_file", help="a bot file, an archive, or a folder with arena.toml")
    submit.add_argument("--game", required=True)
    submit.add_argument("--name", help="the bot's name (default: the file's name)")
    submit.add_argument("--no-wait", action="store_true", help="do not follow validation")
    submit.add_argument("--timeout", type=float, default=600.0)
    submit.set_defaults(func=command_submit)

    bots = sub.add_parser("bots", help="your bots")
    bots.set_defaults(func=command_bots)

    status = sub.add_parser("status", help="a bot's versions, skill, rank and games")
    status.add_argument("bot", nargs="?", help="name (yours) or id; default: all yours")
    status.set_defaults(func=command_status)

    matches = sub.add_parser("matches", help="recent matches, yours or a bot's")
    matches.add_argument("bot", nargs="?", help="name (yours) or id")
    matches.add_argument("--last", type=int, default=10)
    matches.set_defaults(func=command_matches)

    logs = sub.add_parser("logs", help="what your bot wrote to stderr in a match")
    logs.add_argument("match", type=int)
    logs.set_defaults(func=command_logs)

    challenge = sub.add_parser("challenge", help="version against version, to a verdict")
    challenge.add_argument("candidate", type=int, help="version id of the candidate")
    challenge.add_argument("baseline", type=int, help="version id of the baseline")
    challenge.add_argument("--game")
    challenge.add_argument("--max-games", type=int, default=2000)
    challenge.add_argument(
        "--players", type=int, help="seats a game (default 2); a cooperative game's team size"
    )
    challenge.add_argument("--elo0", type=float, help="not better than this (default 0)")
    challenge.add_argument("--elo1", type=float, help="better by this much (default 5)")
    challenge.add_argument("--batch-pairs", type=int, help="pairs of games a batch (default 8)")
    challenge.add_argument(
        "--batches-in-flight", type=int, help="batches queued at a time (default 2)"
    )
    challenge.add_argument("--follow", action="store_true", help="wait for the verdict")
    challenge.add_argument("--timeout", type=float, default=3600.0)
    challenge.set_defaults(func=command_challenge)

    tournament = sub.add_parser("tournament", help="organisers: create and follow tournaments")
    actions = tournament.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create")
    create.add_argument("--name", required=True)
    create.add_argument("--game", required=True)
    create.add_argument("--format", default="round_robin")
    create.add_argument("--bots", type=int, nargs="+", required=True, help="bot ids")
    create.add_argument("--players", type=int, default=2, help="players per match")
    create.add_argument("--games-per-pairing", type=int, default=1)
    create.add_argument(
        "--start-at", metavar="TIME", help="ISO 8601 time to start at (default: at once)"
    )
    follow = actions.add_parser("follow", help="wait for the end, with progress")
    standings = actions.add_parser("standings", help="the standings now")
    for action in (follow, standings):
        action.add_argument("id", type=int)
        action.add_argument("--timeout", type=float, default=24 * 3600.0)
    tournament.set_defaults(func=command_tournament)

    for parser in (login, logout, submit, bots, status, matches, logs, challenge):
        parser.add_argument("--json", action="store_true", help="print JSON for scripts")
    for parser in (create, follow, standings):
        parser.add_argument("--json", action="store_true", help="print JSON for scripts")
