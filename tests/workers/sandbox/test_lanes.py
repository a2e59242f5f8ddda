"""Zygote lanes (workers/sandbox/zygote_lanes.py, workers/sandbox/zygote.py): bots forked by a zygote
inside a long-lived sandbox. The hostile suites run through lanes too (the `launcher`
fixture is parametrised); these tests check what is particular to a lane: the walls a
forked bot builds for itself, that nothing of one bot reaches the next bot of the same
lane, and that a broken lane is replaced. The real sandbox throughout, never a mock.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import time
from pathlib import Path

import pytest

from tests.workers.sandbox.conftest import (
    CANARY,
    FAST,
    RANDOM_BOT,
    assert_nothing_left,
    make_test_launcher,
)
from workers.play.players import BotProcess, ProcessPlayer
from workers.play.referee import SetMatch, play_set
from workers.sandbox.bubblewrap import BubblewrapLauncher
from workers.sandbox.launchers import launch_all
from workers.sandbox.zygote_lanes import PROBE_BOT, ForkedSandbox, LanePool, lane_pids_of_uid

# These tests are about what a lane walls off, not about time: a move limit a busy CI host
# cannot miss (FAST's 0.3 s forfeited the leaver at a load average above 6).
ROOMY = dataclasses.replace(FAST, move_seconds=3.0, time_bank_seconds=3.0)


@pytest.fixture
def one_lane() -> BubblewrapLauncher:
    """A launcher with a single lane, so that consecutive bots share it."""
    assert os.geteuid() == 0, "lanes need root: this suite must run as root"
    launcher = make_test_launcher(use_lanes=True)
    launcher.check(FAST)
    assert launcher.describe()["zygote_lanes"] == "on", launcher.describe()
    launcher._lanes = LanePool(launcher, 1)
    yield launcher
    launcher.lanes.close()


def _run(launcher: BubblewrapLauncher, source: str, folder: Path) -> tuple[ForkedSandbox, str]:
    """Start a bot file, play two moves with it, close it; its process and its stderr."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "bot.py"
    path.write_text(source)
    process = launcher.launch(path, ROOMY)
    assert isinstance(process, ForkedSandbox), "a lane launcher must fork its bots"
    player = ProcessPlayer(process, ROOMY)
    assert player.start({"seed": 1, "seat": 0}) is None
    assert player.act({}, ["a", "b"]) in ("a", "b")
    assert player.act({}, ["a", "b"]) in ("a", "b")
    return process, player.close()


def test_a_forked_bot_is_walled_in_like_a_bwrap_bot(one_lane, tmp_path):
    """Alone in its PID namespace (as PID 2 under its own PID 1), no capability in any set,
    no_new_privs and the seccomp filter on, no network interface but loopback, nothing
    writable but its fresh /tmp and /dev/shm, no host path and no worker secret."""
    checks = PROBE_BOT
    checks += (
        "\nimport os as _os, sys as _sys\n"
        "_status = open('/proc/self/status').read()\n"
        "print('SECCOMP', [l for l in _status.splitlines() if l.startswith('Seccomp:')], file=_sys.stderr)\n"
        "print('PIDS', _os.getpid(), _os.getppid(), sorted(p for p in _os.listdir('/proc') if p.isdigit()), file=_sys.stderr)\n"
        "print('ENV', dict(_os.environ), file=_sys.stderr)\n"
        "print('CMDLINE', open('/proc/1/cmdline', 'rb').read(), file=_sys.stderr)\n"
    )
    _, stderr = _run(one_lane, checks, tmp_path / "probe")
    assert "probe: ok" in stderr.splitlines(), stderr
    assert "SECCOMP ['Seccomp:\\t2']" in stderr, stderr
    assert "PIDS 2 1 ['1', '2']" in stderr, stderr
    assert CANARY not in stderr, stderr
    environment = "{'HOME': '/tmp', 'TMPDIR': '/tmp', 'LANG': 'C.UTF-8', 'PATH': '/usr/bin:/bin', 'PWD': '/tmp'}"
    assert f"ENV {environment}" in stderr, stderr
    assert str(tmp_path) not in stderr and "/work" not in stderr, stderr


def test_a_forked_bot_runs_as_batch_work_like_its_referee(one_lane, tmp_path):
    """A woken bot must not preempt its referee mid-round (workers/node/affinity.py)."""
    source = (
        "import os, sys\n"
        "print('POLICY', os.sched_getscheduler(0), file=sys.stderr)\n"
        "def act(observation, legal_actions):\n"
        "    return legal_actions[0]\n"
    )
    _, stderr = _run(one_lane, source, tmp_path / "policy")
    assert f"POLICY {os.SCHED_BATCH}" in stderr.splitlines(), stderr


LEAVER = """
import os, socket, sys, time

for path in ("/tmp/left-behind", "/dev/shm/left-behind"):
    with open(path, "w") as handle:
        handle.write("set one")
# A daemon that hides: new session, double fork, an abstract socket held open.
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind("\\0arena-left-behind")
        listener.listen(1)
        time.sleep(120)
    os._exit(0)
time.sleep(0.2)
print("LEFT", file=sys.stderr)


def act(observation, legal_actions):
    return legal_actions[0]
"""

LOOKER = """
import os, socket, sys

found = []
for path in ("/tmp/left-behind", "/dev/shm/left-behind"):
    if os.path.exists(path):
        found.append(path)
try:
    socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).connect("\\0arena-left-behind")
    found.append("abstract socket")
except OSError:
    pass
others = sorted(int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, os.getpid()))
if others:
    found.append(f"processes {others}")
print("FOUND", found, file=sys.stderr)


def act(observation, legal_actions):
    return legal_actions[0]
"""


def test_nothing_of_one_bot_reaches_the_next_bot_of_the_same_lane(one_lane, tmp_path):
    first, stderr = _run(one_lane, LEAVER, tmp_path / "one")
    assert "LEFT" in stderr, stderr
    assert_nothing_left([first.uid])  # the daemon died with the bot's PID namespace
    second, stderr = _run(one_lane, LOOKER, tmp_path / "two")
    assert second.uid == first.uid and second.lane is first.lane  # the same lane
    assert "FOUND []" in stderr, stderr
    assert_nothing_left([second.uid])
    # The lane's uid runs only the lane's own three processes between bots.
    assert len(lane_pids_of_uid(first.uid)) == 3


def test_a_lane_whose_zygote_died_is_replaced(one_lane, tmp_path):
    first, _ = _run(one_lane, "def act(o, l):\n    return l[0]\n", tmp_path / "one")
    lane = first.lane
    zygote = max(lane.own_pids)  # bwrap, its PID 1, then the zygote: the newest pid
    os.kill(zygote, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while lane.is_usable() and time.monotonic() < deadline:
        time.sleep(0.01)  # bwrap follows its command out
    second, stderr = _run(one_lane, "def act(o, l):\n    return l[-1]\n", tmp_path / "two")
    assert second.lane is not lane
    assert_nothing_left([first.uid, second.uid])


def test_a_worker_process_forked_after_its_check_starts_lanes_of_its_own(one_lane, tmp_path):
    """Celery forks its pool after the check: a child never uses its parent's lanes."""
    parent, _ = _run(one_lane, "def act(o, l):\n    return l[0]\n", tmp_path / "parent")
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through its exit status
        status = 1
        try:
            forked, _ = _run(one_lane, "def act(o, l):\n    return l[0]\n", tmp_path / "child")
            status = 0 if forked.lane.owner_pid == os.getpid() else 3
            one_lane.lanes.close()
        finally:
            os._exit(status)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    # The parent's lane is still its own and still serves.
    again, _ = _run(one_lane, "def act(o, l):\n    return l[0]\n", tmp_path / "again")
    assert again.lane is parent.lane


def test_a_bot_killed_by_a_signal_reports_that_signal(one_lane, tmp_path):
    source = "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n"
    path = tmp_path / "segv" / "bot.py"
    path.parent.mkdir()
    path.write_text(source)
    process = one_lane.launch(path, FAST)
    assert process.wait(timeout=10) == -signal.SIGSEGV


def test_lanes_are_off_without_root_or_when_turned_off(monkeypatch):
    monkeypatch.setenv("ARENA_SANDBOX_ZYGOTE", "off")
    assert BubblewrapLauncher().describe()["zygote_lanes"] == "off"
    monkeypatch.setenv("ARENA_SANDBOX_ZYGOTE", "on")
    assert BubblewrapLauncher(use_cgroups=False).describe()["zygote_lanes"].startswith("off (")


def test_a_plain_bot_still_plays_in_a_lane(one_lane):
    process = one_lane.launch(RANDOM_BOT, ROOMY)
    assert isinstance(process, ForkedSandbox)
    player = ProcessPlayer(process, ROOMY)
    assert player.start({"seed": 1, "seat": 0}) is None
    assert player.act({}, [1, 2, 3]) in (1, 2, 3)
    player.close()
    assert_nothing_left([process.uid])


def test_lanes_first_started_from_short_lived_threads_outlive_them(one_lane, game):
    """A set's bots start side by side from threads that end at once (launch_all); a
    lane first started by such a thread must not die with it."""
    one_lane._lanes = LanePool(one_lane, 2)  # no lane yet: both start now
    processes = launch_all(one_lane, [RANDOM_BOT, RANDOM_BOT], ROOMY)
    assert all(isinstance(p, ForkedSandbox) for p in processes), processes
    time.sleep(0.3)  # the starting thread is long gone
    assert [p.poll() for p in processes] == [None, None]  # type: ignore[union-attr]
    bots = [BotProcess(p, ROOMY, 2) for p in processes]  # type: ignore[arg-type]
    specs = [SetMatch(key=i, seed=5, seats=[i % 2, (i + 1) % 2]) for i in range(2)]
    played = play_set(game, specs, bots, ROOMY.match_seconds)
    assert not any(outcome.forfeits for outcome in played), played[0].forfeits
    assert all(p.lane.is_usable() for p in processes)  # type: ignore[union-attr]
    assert_nothing_left([p.uid for p in processes])  # type: ignore[union-attr]


def test_closing_all_lanes_ends_every_launchers_lanes_lent_or_idle(one_lane, tmp_path):
    """What a pool process does as it exits: the worker's launcher and the validation's
    (workers/play/smoke.py keeps its own) both started lanes; one lane is still lent to a bot.
    Afterwards nothing of their uids is left, not even a zombie child of this process."""
    from workers.sandbox.zygote_lanes import close_all_lanes

    idle, _ = _run(one_lane, "def act(o, l):\n    return l[0]\n", tmp_path / "idle")
    other = make_test_launcher(use_lanes=True)
    other.check(FAST)
    bot = tmp_path / "lent" / "bot.py"
    bot.parent.mkdir()
    bot.write_text("def act(o, l):\n    return l[0]\n")
    lent = other.launch(bot, FAST)
    assert isinstance(lent, ForkedSandbox)
    uids = [idle.uid, lent.uid]
    close_all_lanes()
    assert lane_pids_of_uid(idle.uid) == set() and lane_pids_of_uid(lent.uid) == set()
    assert_nothing_left(uids)
    zombies = [
        pid
        for pid in os.listdir("/proc")
        if pid.isdigit()
        and (stat := _stat(pid)) is not None
        and stat[0] == "Z"
        and stat[1] == os.getpid()
    ]
    assert zombies == []


def _stat(pid: str) -> tuple[str, int] | None:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return fields[0], int(fields[1])
