"""Helpers for the hostile-bot suite: the real bubblewrap sandbox, never a mock.

These tests fail (they do not skip) when bubblewrap is missing: the arena must
not run untrusted bots on a host where the sandbox does not work.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

import engine
from workers.play.players import ProcessPlayer
from workers.play.referee import MatchOutcome, play_match
from workers.sandbox.bubblewrap import BubblewrapLauncher, processes_of_uid
from workers.sandbox.launchers import PROJECT_ROOT
from workers.sandbox.limits import Limits
from workers.sandbox.zygote_lanes import lane_pids_of_uid

HOSTILE_DIR = Path(__file__).resolve().parent / "hostile"
RANDOM_BOT = PROJECT_ROOT / "bots" / "reference" / "random_bot.py"
CANARY = "canary-4f1e9b2c-do-not-leak"
VICTIM_CANARY = "victim-bot-secret-7d3a"
HOSTILE_DAEMON_MARKER = "arena-hostile-daemon-marker"
# Unique per test process: xdist runs the daemon test in several processes at
# once, and one process must not find another's (still legitimately running) daemon.
DAEMON_MARKER = f"{HOSTILE_DAEMON_MARKER}-{os.getpid()}"
# Apart from workers' uids (61000 on); ARENA_TEST_UID_BASE moves them further, for
# test runs of several checkouts side by side on one host.
TEST_UID_BASE = int(os.environ.get("ARENA_TEST_UID_BASE", "63000"))

# Tight, so that every timeout costs half a second.
FAST = Limits(
    move_seconds=0.3,
    time_bank_seconds=0.2,
    match_seconds=60.0,
    startup_seconds=5.0,
    memory_mb=256,
    cpu_seconds=10,
    max_processes=8,
    open_files=64,
    file_size_mb=2,
    tmp_mb=4,
    output_bytes_per_move=256 << 10,
    output_bytes_per_match=8 << 20,
    stderr_bytes=64 << 10,
)


def pick_game() -> str:
    """Moonrollers when registered, else the first registered game."""
    names = engine.game_names()
    assert names, "no game is registered: the hostile suite needs one to play"
    return "moonrollers" if "moonrollers" in names else names[0]


def make_test_launcher(use_lanes: bool | None = None) -> BubblewrapLauncher:
    """A launcher on uids of its own, so that checks for leftovers never see the
    bots of a worker (or another test run) sharing this machine."""
    return BubblewrapLauncher(
        uid_base=TEST_UID_BASE + (os.getpid() % 32) * 16, uid_count=16, use_lanes=use_lanes
    )


# Both ways a bot starts: forked by a zygote lane (the default where root has cgroups)
# and a bwrap of its own (the fallback, and the only way elsewhere).
@pytest.fixture(scope="session", params=["lanes", "bwrap"])
def launcher(request: pytest.FixtureRequest) -> BubblewrapLauncher:
    # Each bot runs as its own uid, which only root can give; fail, never skip.
    assert os.geteuid() == 0, "the sandbox suite must run as root (each bot gets its own uid)"
    sandbox = make_test_launcher(use_lanes=request.param == "lanes")
    sandbox.check(FAST)  # raises SandboxUnavailable, failing the suite, if bwrap cannot work
    if request.param == "lanes":
        assert sandbox.describe()["zygote_lanes"] == "on", sandbox.describe()
    return sandbox


@pytest.fixture(scope="session")
def game() -> str:
    return pick_game()


@pytest.fixture(autouse=True)
def worker_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Secrets in the worker's environment, which no bot may see."""
    monkeypatch.setenv("SECRET_KEY", CANARY)
    monkeypatch.setenv("DATABASE_URL", f"postgres://arena:{CANARY}@127.0.0.1:5432/arena")


@dataclass
class HostileSetup:
    bot: Path
    source: bytes
    victim: Path
    outside: Path
    settings: Path


def prepare(name: str, tmp_path: Path) -> HostileSetup:
    """Copy a hostile bot into its own folder, next to a victim bot, with host paths to aim at."""
    folder = tmp_path / "bots" / "hostile"
    folder.mkdir(parents=True)
    victims = tmp_path / "bots" / "victims"
    victims.mkdir(parents=True)
    (folder / "victim_bot.py").write_text(f"# {VICTIM_CANARY}\ndef act(o, l):\n    return l[0]\n")
    victim = victims / "victim_bot.py"
    victim.write_text(f"# {VICTIM_CANARY}\ndef act(o, l):\n    return l[0]\n")
    outside = tmp_path / "planted.txt"
    settings = PROJECT_ROOT / "arena" / "settings.py"
    host = {
        "project": str(PROJECT_ROOT),
        "settings": str(settings),
        "victim": str(victim),
        "reference": str(RANDOM_BOT),
        "outside": str(outside),
    }
    hostile = (HOSTILE_DIR / f"{name}.py").read_text()
    source = f"HOST = {host!r}\n" + hostile.replace(HOSTILE_DAEMON_MARKER, DAEMON_MARKER)
    bot = folder / f"{name}.py"
    bot.write_text(source)
    return HostileSetup(bot, source.encode(), victim, outside, settings)


@dataclass
class Played:
    outcome: MatchOutcome
    uids: list[int]


def play_sandboxed(
    launcher: BubblewrapLauncher, game: str, bots: list[Path], limits: Limits = FAST, seed: int = 7
) -> Played:
    """A match exactly as the worker plays one: each seat a sandboxed process player."""
    players = [ProcessPlayer(launcher.launch(bot, limits), limits) for bot in bots]
    uids = [player.process.uid for player in players]  # type: ignore[attr-defined]
    outcome = play_match(game, seed, players, match_seconds=limits.match_seconds)
    return Played(outcome, uids)


def seats_for(game: str, hostile: Path) -> list[Path]:
    """The hostile bot in seat 0, random bots in the others (two seats when the game allows)."""
    description = engine.get_game(game)
    count = max(2, description.min_players)
    return [hostile] + [RANDOM_BOT] * (count - 1)


def marker_processes(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if marker.encode() in handle.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


def assert_nothing_left(uids: list[int]) -> None:
    """No process (not even a zombie) of any sandbox uid used, no daemon, no cgroup.

    A zygote lane keeps its own three processes (bwrap, its PID 1, the zygote) under its
    uid between bots (workers/sandbox/zygote_lanes.py): those, and only those, may remain."""
    for uid in uids:
        left = [pid for pid in processes_of_uid(uid) if pid not in lane_pids_of_uid(uid)]
        assert left == [], f"processes of sandbox uid {uid} outlived the match"
    assert marker_processes(DAEMON_MARKER) == []
    for base in ("/sys/fs/cgroup/pids", "/sys/fs/cgroup/memory"):
        for uid in uids:
            leftover = [p for p in _cgroup_dirs(base) if p.endswith(f"/arena-sandbox/uid-{uid}")]
            assert leftover == [], f"cgroup {leftover} outlived the match"


def _cgroup_dirs(base: str) -> list[str]:
    found = []
    if not os.path.isdir(base):
        return found
    for root, dirs, _ in os.walk(base):
        if root.endswith("/arena-sandbox"):
            found.extend(os.path.join(root, d) for d in dirs)
            dirs[:] = []
    return found


def assert_launcher_serves(launcher: BubblewrapLauncher) -> None:
    """The same launcher still starts a bot that answers."""
    player = ProcessPlayer(launcher.launch(RANDOM_BOT, FAST), FAST)
    try:
        assert player.start({"seed": 1, "seat": 0}) is None
        assert player.act({}, ["a", "b"]) in ("a", "b")
    finally:
        player.close()
    assert_nothing_left([player.process.uid])  # type: ignore[attr-defined]


def copy_bot(source: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / source.name
    shutil.copy(source, target)
    return target
