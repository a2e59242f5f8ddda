"""Hostile bots in every language the arena builds, played through the referee in the
real sandbox, and hostile builds. The list, with where each attack is stopped, is
docs/operators/hostile-languages.md.

A hostile bot is built as the worker builds an upload (workers/sandbox/builds.py),
unpacked as a worker unpacks it (workers/sandbox/artifacts.py) and seated in seat 0
against sandboxed Python random bots. As in test_hostile_bots.py: it must forfeit with
the right reason, or fail harmlessly inside; the other seats play on to the end; its
stderr shows where each attempt was stopped (the bots print `BLOCKED <what>: <error>`
for each refused attempt and `LEAK <what>` for any that worked); nothing it started
outlives the match; the same launcher then serves the next bot.

A hostile build must end as a failed Build whose log says why, with nothing of it left:
no process of its uid, no scratch folder, no file it aimed at outside its folder.

Native bots never run in zygote lanes (lanes fork a Python interpreter), so one
bwrap launcher serves the whole file.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from arena.languages import MANIFEST, manifest_for_file, parse_manifest
from tests.workers.sandbox.conftest import (
    CANARY,
    DAEMON_MARKER,
    FAST,
    HOSTILE_DAEMON_MARKER,
    RANDOM_BOT,
    VICTIM_CANARY,
    assert_launcher_serves,
    assert_nothing_left,
    make_test_launcher,
    marker_processes,
    play_sandboxed,
    seats_for,
)
from workers.sandbox import artifacts
from workers.sandbox.bubblewrap import BubblewrapLauncher
from workers.sandbox.builds import build
from workers.sandbox.limits import Limits
from workers.sandbox.native import BuildLimits
from workers.sandbox.scratch import folder_prefix, places

NATIVE_DIR = Path(__file__).resolve().parent / "hostile_native"
SETTINGS = Path(__file__).resolve().parents[3] / "arena" / "settings.py"


# FAST, but with time for the attack in the first move (a child process per attempt, a
# JVM starting threads on a loaded host): what must stop each attack is the limit it
# aims at, not the move's clock. Only the fork bomb is left to the clock.
PATIENT = replace(FAST, move_seconds=8.0)


@dataclass(frozen=True)
class Attack:
    """What must become of one hostile bot."""

    forfeit: str | None  # a regex on its forfeit reason; None: it plays on, unforfeited
    stderr: str = ""  # a regex its stderr must match: the evidence of where it was stopped
    blocked: int | range = 0  # how many `BLOCKED` lines it prints (attempts refused)
    limits: Limits = PATIENT


# bot source (under hostile_native/) -> what must become of it.
ATTACKS: dict[str, Attack] = {
    "cpp/fork_bomb.cpp": Attack(r"timed out", limits=FAST),
    "cpp/raw_syscalls.cpp": Attack(
        r"status 3", r"BLOCKED socket\(AF_INET\): Operation not permitted", blocked=17
    ),
    "cpp/read_host_files.cpp": Attack(
        r"status 3", r"BLOCKED open /etc/passwd: No such file", blocked=9
    ),
    "cpp/write_outside.cpp": Attack(r"status 3", r"TMP writable", blocked=8),
    "cpp/fill_dev_shm.cpp": Attack(
        r"status 3", r"BLOCKED /dev/shm after [34] MB: No space left on device", blocked=2
    ),
    "cpp/memory_bomb.cpp": Attack(r"status 3", r"BLOCKED malloc after 2\d\d MB", blocked=1),
    "cpp/memory_via_children.cpp": Attack(
        r"status 3", r"BLOCKED child killed by SIGKILL", range(5, 7)
    ),
    "rust/unsafe_syscalls.rs": Attack(r"signal SIGSEGV", r"BLOCKED setns", blocked=6),
    "rust/spawn_daemon.rs": Attack(None, r"daemon started"),
    "rust/thread_flood.rs": Attack(r"status 3", r"BLOCKED thread \d+: .*temporarily", blocked=1),
    "go/goroutine_flood.go": Attack(r"out of memory|status 2"),
    "go/thread_flood.go": Attack(r"status 2", r"failed to create new OS thread"),
    "go/exec_and_network.go": Attack(None, r"BLOCKED dial 127.0.0.1:5432", blocked=8),
    "go/memory_bomb.go": Attack(r"out of memory|status 2"),
    "java/HeapFlood.java": Attack(r"status 1", r"OutOfMemoryError: Java heap space"),
    "java/ThreadFlood.java": Attack(
        r"status 3", r"BLOCKED thread \d+: unable to create", blocked=1
    ),
    "java/RuntimeExec.java": Attack(None, r"BLOCKED connect 127.0.0.1:6379", blocked=4),
    "javascript/child_process.js": Attack(None, r"BLOCKED connect 127.0.0.1:5432", blocked=5),
    "javascript/native_addon.js": Attack(
        r"status 3", r"BLOCKED addon socket\(AF_INET\)", blocked=7
    ),
    "javascript/memory_bomb.js": Attack(r"out of memory"),
    # V8 aborts when it cannot reserve a worker's code range (SIGTRAP) or start its
    # thread (SIGABRT), Node reports the worker it could not start (exit 3), or the
    # cgroup kills it: whichever comes first, which depends on the host's load.
    "javascript/worker_flood.js": Attack(
        r"SIGTRAP|SIGABRT|status 3|out of memory", r"Fatal process OOM|BLOCKED worker|^$", range(2)
    ),
}
# Host paths the bots above aim at: none may exist afterwards.
HOST_TARGETS = [
    Path("/usr/lib/planted-native.txt"),
    Path("/usr/lib/planted-addon.txt"),
    Path("/etc/planted-native.txt"),
    Path("/root/planted-native.txt"),
    Path("/planted-native.txt"),
]


def _as_range(count: int | range) -> range:
    return count if isinstance(count, range) else range(count, count + 1)


def _source(relative: str, tmp_path: Path) -> bytes:
    """A hostile bot's source, aimed at this test's host paths and daemon marker."""
    text = (NATIVE_DIR / relative).read_text()
    for token, value in {
        "__SETTINGS__": str(SETTINGS),
        "__VICTIM__": str(RANDOM_BOT),
        "__OUTSIDE__": str(tmp_path / "planted.txt"),
        HOSTILE_DAEMON_MARKER: DAEMON_MARKER,
    }.items():
        text = text.replace(token, value)
    return text.encode()


def hostile_files(relative: str, tmp_path: Path) -> dict[str, bytes]:
    """The upload: the bot's source, and for the add-on bot its shared object (built on
    the host, as an author would before uploading it)."""
    files = {Path(relative).name: _source(relative, tmp_path)}
    if relative == "javascript/native_addon.js":
        addon = tmp_path / "addon.node"
        source = NATIVE_DIR / "javascript" / "addon.cpp"
        subprocess.run(["g++", "-shared", "-fPIC", "-o", str(addon), str(source)], check=True)
        files["addon.node"] = addon.read_bytes()
    return files


def built_bot(launcher: BubblewrapLauncher, files: dict[str, bytes], entry: str) -> Path:
    """Build a bot as the worker does and unpack it: the folder a launcher starts."""
    outcome = build(launcher, files, manifest_for_file(entry))
    assert outcome.ok, outcome.log
    assert outcome.artifact is not None
    digest = hashlib.sha256(outcome.artifact).hexdigest()
    return artifacts.unpacked(digest, lambda: outcome.artifact)  # type: ignore[return-value]


@pytest.fixture(scope="module")
def native_launcher() -> BubblewrapLauncher:
    assert os.geteuid() == 0, "the sandbox suite must run as root (each bot gets its own uid)"
    launcher = make_test_launcher(use_lanes=False)
    launcher.check(FAST)
    return launcher


@pytest.mark.parametrize("relative", sorted(ATTACKS))
def test_hostile_native_bot_is_contained(relative, native_launcher, game, tmp_path):
    attack = ATTACKS[relative]
    name = Path(relative).name
    folder = built_bot(native_launcher, hostile_files(relative, tmp_path), name)
    started = time.monotonic()
    try:
        played = play_sandboxed(native_launcher, game, seats_for(game, folder), attack.limits)
    finally:
        shutil.rmtree(folder)  # each run's bots differ (host paths): keep no cache of them
    outcome = played.outcome
    stderr = outcome.stderr[0]

    if attack.forfeit is None:
        assert 0 not in outcome.forfeits, (outcome.forfeits, stderr[-1000:])
    else:
        assert 0 in outcome.forfeits, f"{relative} was not stopped; stderr: {stderr[-1000:]}"
        assert re.search(attack.forfeit, outcome.forfeits[0]), (outcome.forfeits[0], stderr)
    assert re.search(attack.stderr, stderr), stderr[-2000:]
    blocked = len(re.findall(r"^BLOCKED ", stderr, re.M))
    assert blocked in _as_range(attack.blocked), stderr[-2000:]
    # The other seats played on to the end; the hostile one ranks last if it forfeited.
    assert all(seat == 0 for seat in outcome.forfeits), outcome.forfeits
    assert outcome.decisions > 1 and outcome.result["ranks"]
    if 0 in outcome.forfeits:
        assert outcome.ranks[0] == max(outcome.ranks)
    for text in outcome.stderr:
        assert "LEAK" not in text, text[-2000:]
        assert CANARY not in text and VICTIM_CANARY not in text
    assert not (tmp_path / "planted.txt").exists()
    assert [path for path in HOST_TARGETS if path.exists()] == []
    assert_nothing_left(played.uids)
    assert marker_processes(DAEMON_MARKER) == []
    assert_launcher_serves(native_launcher)
    assert time.monotonic() - started < 20


@dataclass(frozen=True)
class BuildAttack:
    """What must become of one hostile build: its log's reason, under these limits."""

    reason: str  # a regex on the log, whose last line is the build's reason for failing
    limits: BuildLimits = BuildLimits(seconds=5, memory_mb=512, processes=64)
    blocked: int = 0  # how many `BLOCKED` lines its log must hold (attempts refused)
    slow: bool = False  # runs into a limit of seconds: a compiler bomb, an endless build


# Small limits, so that a bomb costs seconds: what matters is that a limit holds.
BOMB = r"took longer than 5 s|stopped: out of memory|stopped: file size limit"
BUILD_ATTACKS: dict[str, BuildAttack] = {
    # Compiler bombs: whichever limit comes first (time, the cgroup's memory, the
    # address space under the compiler's own allocator) must end them.
    "cpp_template_bomb": BuildAttack(BOMB, slow=True),
    "cpp_include_bomb": BuildAttack(
        r"stopped: out of memory: the sandbox passed its 512", slow=True
    ),
    "cpp_macro_bomb": BuildAttack(r"stopped: out of memory: the sandbox passed its 512", slow=True),
    "rust_macro_bomb": BuildAttack(BOMB, slow=True),
    "go_huge_array": BuildAttack(r"fatal error: out of memory"),
    "java_huge_source": BuildAttack(r"insufficient memory for the Java Runtime|" + BOMB, slow=True),
    # Build commands (arena.toml's build) that attack the build sandbox itself.
    "runs_forever": BuildAttack(
        r"(?s)compiling.*took longer than 3 s", BuildLimits(seconds=3), slow=True
    ),
    "fork_bomb": BuildAttack(
        r"(?s)Cannot fork.*\n--- the build", BuildLimits(seconds=3, processes=32)
    ),
    "network": BuildAttack(r"PermissionError: \[Errno 1\] Operation not permitted", blocked=4),
    "writes_outside": BuildAttack(r"(?s)PRIVATE /dev/shm.*Read-only file system", blocked=10),
    "symlink_to_shadow": BuildAttack(r"did not leave an executable 'bot'"),
    "fills_disk": BuildAttack(
        r"stopped: file size limit \(16 MB\)", BuildLimits(seconds=5, file_size_mb=16)
    ),
    "many_files": BuildAttack(
        # Whichever comes first: the memory the folder takes, or its measured size.
        r"stopped: out of memory: the sandbox passed its 256 MB|stopped: its folder passed 64 MB",
        BuildLimits(seconds=5, memory_mb=256, tmp_mb=16),
    ),
}
# Host paths the builds above aim at: none may exist afterwards.
BUILD_TARGETS = [
    Path("/usr/planted-by-build"),
    Path("/usr/bin/planted-by-build"),
    Path("/etc/planted-by-build"),
    Path("/root/planted-by-build"),
    Path("/planted-by-build"),
    Path("/dev/shm/planted-by-build"),
]


def build_files(name: str) -> dict[str, bytes]:
    folder = NATIVE_DIR / "builds" / name
    return {
        path.name: path.read_bytes().replace(HOSTILE_DAEMON_MARKER.encode(), DAEMON_MARKER.encode())
        for path in sorted(folder.iterdir())
    }


def scratch_folders() -> list[str]:
    """This process's build scratch folders (arena-build-p<pid>-…) in every scratch place."""
    found = []
    for place in places():
        base = place or tempfile.gettempdir()
        prefix = folder_prefix("build")
        found += [entry for entry in os.listdir(base) if entry.startswith(prefix)]
    return found


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=[pytest.mark.slow] if attack.slow else [])
        for name, attack in sorted(BUILD_ATTACKS.items())
    ],
)
def test_hostile_build_fails_and_leaves_nothing(name, native_launcher):
    attack = BUILD_ATTACKS[name]
    files = build_files(name)
    manifest = parse_manifest(files[MANIFEST], set(files))
    before = scratch_folders()
    started = time.monotonic()
    outcome = build(native_launcher, files, manifest, attack.limits)

    assert not outcome.ok, outcome.log[-2000:]
    assert outcome.artifact is None
    assert re.search(attack.reason, outcome.log), outcome.log[-2000:]
    assert len(re.findall(r"^BLOCKED ", outcome.log, re.M)) == attack.blocked, outcome.log
    assert "LEAK" not in outcome.log, outcome.log
    assert time.monotonic() - started < attack.limits.seconds + 10
    # Nothing of it left: no process of any uid the launcher leases, no scratch folder,
    # no daemon, no file where it aimed.
    assert_nothing_left(native_launcher._uids)  # every uid the launcher may lease
    assert scratch_folders() == before == []
    assert marker_processes(DAEMON_MARKER) == []
    assert [path for path in BUILD_TARGETS if path.exists()] == []


def test_a_builds_daemon_ends_with_the_build(native_launcher):
    """A build that succeeds but leaves a daemon behind (new session, output closed):
    the build's pid namespace and cgroup end it with the build."""
    files = build_files("leaves_a_daemon")
    manifest = parse_manifest(files[MANIFEST], set(files))
    outcome = build(native_launcher, files, manifest, BuildLimits(seconds=20))
    assert outcome.ok, outcome.log
    assert marker_processes(DAEMON_MARKER) == []
    assert_nothing_left(native_launcher._uids)
    assert scratch_folders() == []


def test_links_beside_a_built_program_stay_out_of_the_artefact(native_launcher, tmp_path):
    """A build that succeeds and leaves links to the host's /etc/shadow and /etc beside
    its program: the artefact holds the program and the sources, never a link's target."""
    toml = (
        b'language = "cpp"\n'
        b'build = "g++ -o bot bot.cpp && ln -s /etc/shadow shadow.txt && ln -s /etc etc"\n'
    )
    files = {MANIFEST: toml, "bot.cpp": b"int main() {}\n"}
    outcome = build(native_launcher, files, parse_manifest(toml, set(files)))
    assert outcome.ok, outcome.log
    assert outcome.artifact is not None
    with tarfile.open(fileobj=io.BytesIO(outcome.artifact), mode="r:gz") as archive:
        members = {member.name: member for member in archive.getmembers()}
    assert set(members) == {"run.json", "files/arena.toml", "files/bot.cpp", "files/bot"}
    assert all(member.isreg() for member in members.values())
    assert scratch_folders() == []
