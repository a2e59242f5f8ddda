"""Playing a claimed set: its bots started once each, in the worker's launcher; the
referee plays the set's matches interleaved; the bots end while the task records.

`play_claimed_set_ending` returns the outcomes as soon as the bots are killed, with a
`SetEnding` to wait for once the task has recorded them (workers/tasks.py).
`InfrastructureFault` and `Unplayable` are the two ways a set cannot be played: the
first gives the claims back for a retry, the second fails the matches.
"""

from __future__ import annotations

import contextlib
import logging
import tempfile
import threading
import traceback
from collections.abc import Callable
from pathlib import Path

from django.conf import settings

import engine
from arena.models import BotVersion, BuildArtifact, Match, MatchSeat
from workers.play.players import BotProcess, close_all
from workers.play.referee import MatchOutcome, Progress, SetMatch, play_set
from workers.sandbox import artifacts
from workers.sandbox.isolation import get_launcher
from workers.sandbox.launchers import Launcher, launch_all
from workers.sandbox.limits import Limits, LimitsError
from workers.sandbox.scratch import folder_prefix, is_full, places

log = logging.getLogger(__name__)


class InfrastructureFault(Exception):
    """Something around the match broke (not a bot, not the match): try again later."""


class Unplayable(Exception):
    """The match itself cannot be played (bad set-up, limits, engine error): it fails."""


# ----- the launcher, one per worker process -----------------------------------------------------

_launchers: dict[str, Launcher] = {}


def worker_launcher() -> Launcher:
    """This process's launcher for the configured isolation, checked once.

    The sandbox keeps per-process state (uid leases, child reaping), so each worker
    process builds its own after the fork rather than inheriting one.
    """
    kind = settings.ARENA_BOT_ISOLATION
    launcher = _launchers.get(kind)
    if launcher is None:
        try:
            launcher = get_launcher(kind)
            launcher.check()
        except Exception as exc:
            raise InfrastructureFault(f"the {kind} launcher cannot run bots: {exc}") from exc
        _launchers[kind] = launcher
    return launcher


def close_launchers() -> None:
    """Close this process's launchers and every zygote lane it started, the validation's
    smoke matches' too (a pool process's last act: workers/celery.py)."""
    from workers.sandbox.zygote_lanes import close_all_lanes

    _launchers.clear()
    try:
        close_all_lanes()
    except Exception:
        log.warning("closing the zygote lanes failed", exc_info=True)


# ----- playing one claimed match -------------------------------------------------------------


def _bot_file(folder: Path, seat: MatchSeat) -> Path:
    """The seat's bot version as a file, written once per version for the whole set; a
    version that runs from a build, its unpacked build in this host's cache."""
    version = seat.bot_version
    if version.needs_artifact():
        return _unpacked_build(version)
    name = "bot.zip" if version.is_zip() else "bot.py"
    version_dir = folder / f"version{version.pk}"
    path = version_dir / name
    if not path.exists():
        version_dir.mkdir(mode=0o700, exist_ok=True)
        path.write_bytes(bytes(version.source))
    return path


def _unpacked_build(version: BotVersion) -> Path:
    """The version's build, unpacked once per host (fetched only when not there yet)."""
    if version.artifact_id is None:
        raise Unplayable(f"bot version {version.pk} has no build (it was never validated)")
    found = BuildArtifact.objects.filter(pk=version.artifact_id).values_list("sha256", flat=True)
    digest = found.first()
    if digest is None:
        raise Unplayable(f"the build of bot version {version.pk} is missing")

    def load() -> bytes:
        return bytes(
            BuildArtifact.objects.values_list("data", flat=True).get(pk=version.artifact_id)
        )

    try:
        return artifacts.unpacked(digest, load)
    except artifacts.ArtifactError as exc:
        raise InfrastructureFault(str(exc)) from exc


def _close_quietly(bots: list[BotProcess]) -> None:
    for bot in bots:
        with contextlib.suppress(Exception):
            bot.close()


def check_playable(match: Match, seats: list[MatchSeat]) -> Limits:
    """Raise Unplayable when a claimed match cannot be played at all; return its limits."""
    if len(seats) != match.players:
        raise Unplayable(f"the match has {len(seats)} seat rows for {match.players} players")
    try:
        limits = Limits.from_dict(match.limits)
        # Checked before any bot starts, so a bad set-up never leaves processes behind.
        game = engine.get_game(match.game)
        game.check_players(match.players)
        game.check_options(match.options)
    except (LimitsError, engine.UnknownGame, engine.InvalidSetup) as exc:
        raise Unplayable(str(exc)) from exc
    return limits


class SetEnding:
    """A played set's bots ending (killed, waited for), then its folder removed, in a
    thread of its own: the worker records the set meanwhile. The wait is mostly the
    kernel's (a sandbox's namespaces torn down, ~4 ms a set), the recording mostly
    PostgreSQL's, so side by side they cost about the longer of the two."""

    def __init__(
        self, bots: list[BotProcess], folder: tempfile.TemporaryDirectory[str] | None = None
    ) -> None:
        self._bots = bots
        self._folder = folder
        self._thread = threading.Thread(target=self._end, name="arena-set-ending", daemon=True)
        self._thread.start()

    def _end(self) -> None:
        try:
            close_all(self._bots)
        except Exception:
            # Their uids and cgroups go back dirty and are cleaned before reuse
            # (workers/sandbox/bubblewrap.py).
            log.exception("the set's bots did not end cleanly")
        finally:
            if self._folder is not None:
                with contextlib.suppress(OSError):
                    self._folder.cleanup()

    def wait(self) -> None:
        self._thread.join()


def play_claimed_set(
    claimed: list[tuple[Match, list[MatchSeat]]],
    limits: Limits,
    heartbeat: Callable[[], None] | None = None,
) -> list[MatchOutcome]:
    """Play claimed matches of one game and limits as one set: one process per bot version
    (per seat it holds in a match: self-play starts one per seat). Raises Unplayable or
    InfrastructureFault."""
    outcomes, ending = play_claimed_set_ending(claimed, limits, heartbeat)
    ending.wait()
    return outcomes


def play_claimed_set_ending(
    claimed: list[tuple[Match, list[MatchSeat]]],
    limits: Limits,
    heartbeat: Callable[[], None] | None = None,
    progress: Progress | None = None,
    progress_seconds: float = 3.0,
) -> tuple[list[MatchOutcome], SetEnding]:
    """`play_claimed_set`, returning as soon as the bots are killed: the caller waits for
    their end (`SetEnding.wait`) when it has done what it could meanwhile. `progress` gets
    the running matches' partial records (`play_set`)."""
    launcher = worker_launcher()
    first = claimed[0][0]
    # A process per (version, its n-th seat in a match): versions in a set's usual case.
    process_of: dict[tuple[int, int], int] = {}
    specs = []
    for match, seats in claimed:
        seen: dict[int, int] = {}
        placed = []
        for seat in seats:
            nth = seen[seat.bot_version_id] = seen.get(seat.bot_version_id, -1) + 1
            placed.append(process_of.setdefault((seat.bot_version_id, nth), len(process_of)))
        specs.append(SetMatch(key=match.pk, seed=match.seed, seats=placed, options=match.options))
    bots: list[BotProcess] = []
    versions = {s.bot_version_id: s for _, seats in claimed for s in seats}
    # In the order of their indexes.
    starting = [versions[version_id] for version_id, _ in process_of]
    folder, paths = _write_bot_files(f"{folder_prefix('set')}{first.pk}-", starting)
    try:
        started = launch_all(launcher, paths, limits)
        for process in started:
            if not isinstance(process, Exception):
                bots.append(BotProcess(process, limits, matches=len(claimed)))
        for seat, process in zip(starting, started, strict=True):
            if isinstance(process, Exception):
                raise InfrastructureFault(
                    f"could not start seat {seat.seat}: {process}"
                ) from process
        try:
            outcomes = play_set(
                first.game,
                specs,
                bots,
                limits.match_seconds,
                heartbeat,
                reap=False,
                progress=progress,
                progress_seconds=progress_seconds,
            )
        except Exception as exc:
            raise Unplayable(describe_failure(exc, "the referee stopped")) from exc
    except BaseException:
        # play_set kills its bots even when it raises; this covers a failure before it.
        _close_quietly(bots)
        with contextlib.suppress(OSError):
            folder.cleanup()
        raise
    return outcomes, SetEnding(bots, folder)


def _write_bot_files(
    prefix: str, starting: list[MatchSeat]
) -> tuple[tempfile.TemporaryDirectory[str], list[Path]]:
    """A folder of the set's own holding each bot's file: in shared memory, or on disk in
    the temp folder when shared memory is full (a full /dev/shm must not stop the host)."""
    for place in places():
        folder = None
        try:
            folder = tempfile.TemporaryDirectory(prefix=prefix, dir=place)
            return folder, [_bot_file(Path(folder.name), seat) for seat in starting]
        except OSError as exc:
            if folder is not None:
                with contextlib.suppress(OSError):
                    folder.cleanup()
            if place is None or not is_full(exc):
                raise
            log.warning("%s is full: this set's bot files go to %s", place, tempfile.gettempdir())
    raise AssertionError("unreachable")


def play_claimed(match: Match, seats: list[MatchSeat] | None = None) -> MatchOutcome:
    """Play one match this worker has claimed; raise Unplayable or InfrastructureFault."""
    if seats is None:
        seats = list(match.seats.select_related("bot_version").order_by("seat"))
    limits = check_playable(match, seats)
    return play_claimed_set([(match, seats)], limits)[0]


def describe_failure(exc: BaseException, what: str) -> str:
    return f"{what}: {type(exc).__name__}: {exc}\n" + "".join(traceback.format_exception(exc)[-3:])
