"""Hostile bots, each trying one thing, played through the referee in the real sandbox.

Every test: the hostile bot sits in seat 0 against sandboxed random bots; it
must forfeit with the right reason or fail harmlessly inside the sandbox; the
other seats play on to the end; nothing it started outlives the match; the
same launcher then serves the next bot.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from tests.workers.sandbox.conftest import (
    CANARY,
    DAEMON_MARKER,
    VICTIM_CANARY,
    assert_launcher_serves,
    assert_nothing_left,
    marker_processes,
    play_sandboxed,
    prepare,
    seats_for,
)
from workers.sandbox.cgroups import BotCgroup, CgroupManager

# bot file -> the forfeit reason it must get (a regex), or None: it must not forfeit.
FORFEITS: dict[str, str | None] = {
    "fork_bomb": r"timed out",
    "allocate_4gb": r"MemoryError",
    "memory_via_children": r"timed out|out of memory|SIGKILL|MemoryError",
    "spin_forever": r"timed out: no move within 0.3s",
    "sleep_past_limit": r"timed out: no move within 0.3s",
    "print_megabytes": None,
    "flood_protocol": r"flooded its output",
    "open_sockets": r"PermissionError|ConnectionRefusedError",
    "read_passwd": r"FileNotFoundError: .*'/etc/passwd'",
    "read_settings": r"FileNotFoundError: .*settings\.py",
    "read_environ": None,
    "read_other_bots": r"FileNotFoundError: .*victim_bot\.py",
    "write_outside": r"OSError: \[Errno 30\] Read-only file system|FileNotFoundError",
    "fill_tmp": r"No space left on device|File too large",
    "spawn_daemon": None,
    "signal_parent": None,
    "import_project": r"ModuleNotFoundError: No module named 'workers'",
    "read_other_seats": None,
    "thread_bomb": r"can't start new thread|RuntimeError|timed out",
    "new_namespace": r"PermissionError|Operation not permitted",
    # Protocol attacks: lines written on the protocol pipe itself. Each once raised out
    # of the referee (the set failed, nothing rated) or was taken for an answer.
    "match_key_list": r'"match" that is a list, not the id of a match',
    "match_key_object": r'"match" that is an object, not the id of a match',
    "match_key_bool": r'"match" that is a boolean, not the id of a match',
    "match_key_surrogate": r'"match" that is a string, not the id of a match',
    "reply_1100_deep": r"reply is nested deeper than 64 levels",
    "action_1000_deep": r"reply is nested deeper than 64 levels",
    "reply_too_long": r"reply is longer than 65536 bytes",
    "exit_after_deep_output": r"process exited with status 3",
}


@pytest.mark.parametrize("name", sorted(FORFEITS))
def test_hostile_bot_is_contained(name, launcher, game, tmp_path):
    setup = prepare(name, tmp_path)
    started = time.monotonic()
    played = play_sandboxed(launcher, game, seats_for(game, setup.bot))
    outcome = played.outcome
    expected = FORFEITS[name]

    # The right verdict for the hostile seat.
    if expected is None:
        assert 0 not in outcome.forfeits, outcome.forfeits
    else:
        assert 0 in outcome.forfeits, f"{name} was not stopped; stderr: {outcome.stderr[0][-500:]}"
        assert re.search(expected, outcome.forfeits[0]), outcome.forfeits[0]
        outcome.forfeits[0].encode("utf-8")  # storable: no lone surrogate of the bot's
    # The other seats played on to the end, and the hostile one ranks last if it forfeited.
    assert all(seat == 0 for seat in outcome.forfeits), outcome.forfeits
    assert outcome.decisions > 1 and outcome.result["ranks"]
    if 0 in outcome.forfeits:
        assert outcome.ranks[0] == max(outcome.ranks)
    # Nothing leaked: no secret of the worker, no other bot's file, no success line.
    for text in outcome.stderr:
        assert CANARY not in text
        assert VICTIM_CANARY not in text
        assert "LEAK" not in text
    # Nothing outlived the match, and the launcher keeps working.
    assert_nothing_left(played.uids)
    assert_launcher_serves(launcher)
    assert time.monotonic() - started < 15


def test_print_flood_is_captured_bounded(launcher, game, tmp_path):
    setup = prepare("print_megabytes", tmp_path)
    outcome = play_sandboxed(launcher, game, seats_for(game, setup.bot)).outcome
    assert len(outcome.stderr[0]) < (64 << 10) + 200
    assert "more bytes of stderr dropped" in outcome.stderr[0]


def test_network_is_absent_not_just_refused(launcher, game, tmp_path):
    setup = prepare("open_sockets", tmp_path)
    outcome = play_sandboxed(launcher, game, seats_for(game, setup.bot)).outcome
    blocked = [line for line in outcome.stderr[0].splitlines() if line.startswith("BLOCKED")]
    assert len(blocked) == 5, outcome.stderr[0]


def test_host_files_are_untouched_by_writes(launcher, game, tmp_path):
    setup = prepare("write_outside", tmp_path)
    before = setup.bot.read_bytes()
    play_sandboxed(launcher, game, seats_for(game, setup.bot))
    assert setup.bot.read_bytes() == before
    assert not setup.outside.exists()
    assert not (setup.bot.parent / "planted.py").exists()
    assert not Path("/usr/lib/planted.txt").exists()


def test_environment_and_proc_hold_no_secret(launcher, game, tmp_path):
    setup = prepare("read_environ", tmp_path)
    outcome = play_sandboxed(launcher, game, seats_for(game, setup.bot)).outcome
    text = outcome.stderr[0]
    assert "ENV:" in text and CANARY not in text and "DATABASE_URL" not in text
    # Only the sandbox's own processes are visible: its pid-1 reaper and itself.
    pids = set(re.findall(r"PROC (\d+) cmdline", text))
    assert pids <= {"1", "2", "3"}, pids


def test_bot_sees_no_engine_state_of_the_match(launcher, game, tmp_path):
    setup = prepare("read_other_seats", tmp_path)
    outcome = play_sandboxed(launcher, game, seats_for(game, setup.bot)).outcome
    assert "STATES FOUND: 0" in outcome.stderr[0]
    assert "runner.py" in outcome.stderr[0]  # it sees itself ...
    assert "random_bot" not in outcome.stderr[0]  # ... and not the other seat's process


def test_daemon_is_killed_with_the_match(launcher, game, tmp_path):
    setup = prepare("spawn_daemon", tmp_path)
    played = play_sandboxed(launcher, game, seats_for(game, setup.bot))
    assert 0 not in played.outcome.forfeits
    assert marker_processes(DAEMON_MARKER) == []


def test_killing_its_parent_does_not_touch_the_worker(launcher, game, tmp_path):
    setup = prepare("signal_parent", tmp_path)
    played = play_sandboxed(launcher, game, seats_for(game, setup.bot))
    assert os.getppid() > 0 and 1 not in played.outcome.forfeits


@pytest.mark.parametrize("lanes", [True, False], ids=["lanes", "bwrap"])
def test_sandbox_processes_do_not_outlive_a_dead_worker(tmp_path, lanes):
    """--die-with-parent: kill the worker mid-match, the bot dies with it (and, started
    by a zygote lane, so does the lane)."""
    import signal
    import subprocess
    import sys

    from tests.workers.sandbox.conftest import HOSTILE_DIR, RANDOM_BOT  # noqa: F401

    script = tmp_path / "worker.py"
    script.write_text(
        "import sys, time\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parents[3])!r})\n"
        "from pathlib import Path\n"
        "from tests.workers.sandbox.conftest import FAST, make_test_launcher\n"
        f"launcher = make_test_launcher(use_lanes={lanes})\n"
        f"p = launcher.launch(Path({str(HOSTILE_DIR / 'spin_forever.py')!r}), FAST)\n"
        "print(p.uid, flush=True)\n"
        "time.sleep(60)\n"
    )
    worker = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE)
    assert worker.stdout is not None
    uid = int(worker.stdout.readline())
    from workers.sandbox.bubblewrap import processes_of_uid

    # The launch returns once the spawn chain runs; the uid switch comes a moment later.
    started = time.monotonic() + 5
    while not processes_of_uid(uid) and time.monotonic() < started:
        time.sleep(0.01)
    assert processes_of_uid(uid)
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        # Orphans may come to this process (a subreaper when the launcher fixture ran).
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            pass
        if not processes_of_uid(uid):
            break
        time.sleep(0.05)
    assert processes_of_uid(uid) == []
    # The dead worker could not remove its (now empty) cgroup; the next lease of the
    # uid would. Remove it here so test runs leave nothing behind.
    manager = CgroupManager()
    for name in (f"uid-{uid}", f"lane-{uid}"):
        assert BotCgroup(
            manager.version, {c: f"{b}/{name}" for c, b in manager.bases.items()}
        ).remove()
