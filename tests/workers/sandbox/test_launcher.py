"""The launcher itself: one clear error for a bad set-up, a sealed sandbox, clean reuse."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.workers.sandbox.conftest import (
    FAST,
    RANDOM_BOT,
    assert_nothing_left,
    play_sandboxed,
)
from workers.play.players import ProcessPlayer
from workers.sandbox.bubblewrap import BubblewrapLauncher, SandboxUnavailable, _world_readable
from workers.sandbox.isolation import get_launcher
from workers.sandbox.launchers import fast_codec_file
from workers.sandbox.limits import Limits


def test_missing_bubblewrap_is_one_clear_error():
    with pytest.raises(SandboxUnavailable) as caught:
        BubblewrapLauncher(bwrap="/nonexistent/bwrap").check()
    assert str(caught.value) == (
        "bubblewrap is not installed: apt-get install bubblewrap (the bwrap command)"
    )


@pytest.mark.parametrize("tool", ["prlimit", "setpriv"])
def test_missing_launch_tools_are_one_clear_error(tool):
    launcher = BubblewrapLauncher()
    setattr(launcher, tool, f"/nonexistent/{tool}")
    with pytest.raises(SandboxUnavailable, match=f"/nonexistent/{tool} is missing.*util-linux"):
        launcher.check()


def test_limits_out_of_range_are_refused_at_check(launcher):
    with pytest.raises(
        SandboxUnavailable, match=r"bad sandbox limits: limit memory_mb=1 is outside"
    ):
        launcher.check({"memory_mb": 1})
    with pytest.raises(SandboxUnavailable, match="unknown limit 'gpus'"):
        launcher.check({"gpus": 1})
    launcher.check({"memory_mb": 128})


def test_bwrap_that_cannot_build_namespaces_is_reported():
    folder = Path(tempfile.mkdtemp(dir="/tmp"))  # reachable by the sandbox uid
    try:
        folder.chmod(0o755)
        fake = folder / "bwrap"
        fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\n")
        fake.chmod(0o755)
        with pytest.raises(SandboxUnavailable) as caught:
            BubblewrapLauncher(bwrap=str(fake)).check()
    finally:
        shutil.rmtree(folder)
    assert str(caught.value) == (
        "bubblewrap cannot create the sandbox's namespaces here: "
        "bwrap: No permissions to create new namespace"
    )


def test_get_launcher_gives_the_sandbox():
    assert isinstance(get_launcher("sandbox"), BubblewrapLauncher)


def _run(launcher: BubblewrapLauncher, code: str) -> str:
    process = launcher._start(RANDOM_BOT, FAST, command=["-c", code])
    out, err = process.communicate(timeout=20)
    assert process.returncode == 0, err.decode()
    return out.decode().strip()


def test_sandbox_runs_as_an_unprivileged_uid_with_an_empty_environment(launcher):
    out = _run(launcher, "import os; print(os.getuid(), os.getgid(), sorted(os.environ))")
    uid, gid, env = out.split(" ", 2)
    assert int(uid) >= 1000 and int(gid) >= 1000
    assert env == "['HOME', 'LANG', 'PATH', 'PWD', 'TMPDIR']"


def test_sandbox_sees_only_what_python_and_the_bot_need(launcher):
    out = _run(
        launcher,
        "import os; print(sorted(os.listdir('/')), sorted(os.listdir('/arena')),"
        " sorted(os.listdir('/arena/lib')), sorted(os.listdir('/arena/lib/bots/sdk')),"
        " [n.split('.')[0] for n in os.listdir('/arena/codec')]"
        " if os.path.isdir('/arena/codec') else None)",
    )
    # /arena/codec: the worker's orjson extension alone, read-only (the runner's fast codec),
    # mounted only where the sandbox's uid can read it (a checkout in a private folder cannot:
    # the runner then uses the standard library's codec).
    codec = fast_codec_file()
    mounted = codec is not None and (os.geteuid() != 0 or _world_readable(str(codec)))
    arena = "['bot', 'codec', 'lib', 'runner.pyc']" if mounted else "['bot', 'lib', 'runner.pyc']"
    assert out == (
        "['arena', 'bin', 'dev', 'lib', 'lib64', 'proc', 'sbin', 'tmp', 'usr'] "
        f"{arena} ['bots', 'engine'] "
        "['__init__.py', 'runner.py', 'search.py', 'standing.py', 'worlds'] "
        f"{['orjson'] if mounted else None}"
    )


def test_engine_is_importable_and_read_only(launcher):
    out = _run(
        launcher,
        "import sys; sys.path.insert(0, '/arena/lib'); import engine, os\n"
        "print(len(engine.game_names()) > 0)\n"
        "try:\n    open(os.path.join(os.path.dirname(engine.__file__), 'x.py'), 'w')\n"
        "except OSError as e:\n    print(e.errno)\n",
    )
    assert out.split() == ["True", "30"]


def test_third_party_packages_are_hidden(launcher):
    out = _run(
        launcher,
        "import sys, os\n"
        "dirs = [p for p in sys.path if os.path.isdir(p)]\n"
        "extra = ['/usr/lib/python3/dist-packages', '/usr/local/lib/python3.11/dist-packages']\n"
        "print(sum(len(os.listdir(d)) for d in extra if os.path.isdir(d)))\n",
    )
    assert out == "0"


def test_tmp_is_private_and_size_limited(launcher):
    out = _run(
        launcher,
        "import os\n"
        "print(os.listdir('/tmp'))\n"
        "st = os.statvfs('/tmp'); print(st.f_blocks * st.f_frsize)\n",
    )
    listing, size = out.splitlines()
    assert listing == "[]" and int(size) == FAST.tmp_mb << 20


def test_the_hosts_shared_memory_where_matches_keep_bot_files_is_out_of_sight(launcher):
    """Workers write each match's bot files under /dev/shm (workers/sandbox/scratch.py): the sandbox's
    /dev is its own, so neither the folder nor a file in it can be listed or opened."""
    from workers.sandbox import scratch

    assert scratch.scratch_dir() == "/dev/shm"
    with tempfile.TemporaryDirectory(prefix="arena-match-probe-", dir="/dev/shm") as folder:
        planted = Path(folder) / "bot.py"
        planted.write_text("secret")
        planted.chmod(0o644)
        os.chmod(folder, 0o755)
        out = _run(
            launcher,
            f"import os\nprint(os.listdir('/dev/shm'))\nprint(os.path.exists({str(planted)!r}))\n",
        )
    assert out.splitlines() == ["[]", "False"]


def test_no_network_interface_but_loopback(launcher):
    out = _run(
        launcher,
        "lines = open('/proc/net/dev').read().splitlines()[2:]\n"
        "print(sorted(line.split(':')[0].strip() for line in lines))",
    )
    assert out == "['lo']"


def test_rlimits_are_applied(launcher):
    out = _run(
        launcher,
        "import resource as r\n"
        "print(*[r.getrlimit(x)[0] for x in (r.RLIMIT_AS, r.RLIMIT_CPU, r.RLIMIT_NOFILE, "
        "r.RLIMIT_FSIZE, r.RLIMIT_NPROC, r.RLIMIT_CORE)])",
    )
    assert [int(x) for x in out.split()] == [
        FAST.memory_mb << 20,
        FAST.cpu_seconds,
        FAST.open_files,
        FAST.file_size_mb << 20,
        FAST.max_processes + 2,
        0,
    ]


def test_each_seat_gets_its_own_uid_and_every_uid_is_freed(launcher, game):
    played = play_sandboxed(launcher, game, [RANDOM_BOT, RANDOM_BOT])
    assert played.outcome.forfeits == {}
    assert len(set(played.uids)) == 2
    assert_nothing_left(played.uids)


def test_many_matches_back_to_back_leave_nothing_behind(launcher, game):
    """RLIMIT_NPROC counts zombies: a launcher that does not reap fails after a few bots."""
    uids = set()
    for seed in range(6):
        played = play_sandboxed(launcher, game, [RANDOM_BOT, RANDOM_BOT], seed=seed)
        assert played.outcome.forfeits == {}
        uids.update(played.uids)
    assert_nothing_left(sorted(uids))


def test_bot_killed_by_the_kernel_is_reported_with_its_cause(launcher):
    limits = Limits(**{**FAST.to_dict(), "cpu_seconds": 1, "move_seconds": 5.0})
    bot = RANDOM_BOT.parent / "random_bot.py"
    process = launcher._start(bot, limits, command=["-c", "while True: pass"])
    process.wait(timeout=20)
    assert process.returncode in (-9, -24)  # SIGXCPU, then SIGKILL at the hard limit
    player = ProcessPlayer(launcher.launch(bot, FAST), FAST)
    assert player.start({"seed": 1, "seat": 0}) is None
    os.killpg(player.process.pid, 9)
    player.process.wait(timeout=5)
    assert player.process.returncode == -9
    player.close()


def test_process_tree_is_gone_after_close_even_mid_move(launcher, tmp_path):
    bot = tmp_path / "sleeper.py"
    bot.write_text(
        "import os, time\n"
        "def act(o, l):\n"
        "    for _ in range(3):\n"
        "        os.fork()\n"
        "    time.sleep(60)\n"
    )
    player = ProcessPlayer(launcher.launch(bot, FAST), FAST)
    player.start({})
    assert "timed out" in player.act({}, [1]).reason
    uid = player.process.uid
    player.close()
    assert_nothing_left([uid])
    assert subprocess.run(["true"]).returncode == 0


def test_the_spawn_chain_applies_each_limit_and_drops_to_the_leased_uid():
    launcher = BubblewrapLauncher()
    limits = Limits(memory_mb=256, cpu_seconds=30, open_files=32, file_size_mb=2)
    chain = launcher._spawn_prefix(61234, limits, 18, ["/cg/pids/cgroup.procs"])
    assert chain[:6] == ["/bin/sh", "-c", chain[2], "arena-sandbox", "/cg/pids/cgroup.procs", "--"]
    limits_part = chain[chain.index(launcher.prlimit) : chain.index(launcher.setpriv)]
    for expected in (
        f"--as={256 << 20}",
        "--cpu=30:31",
        "--nofile=32",
        f"--fsize={2 << 20}",
        "--core=0",
        "--nproc=18",
    ):
        assert expected in limits_part
    assert chain[chain.index(launcher.setpriv) :] == [
        launcher.setpriv,
        "--reuid=61234",
        "--regid=61234",
        "--clear-groups",
        "--",
    ]
    # Not root: the bot keeps this uid, so no setpriv, and room for our own processes.
    unprivileged = launcher._spawn_prefix(None, limits, 18, [])
    assert launcher.setpriv not in unprivileged
    nproc = next(a for a in unprivileged if a.startswith("--nproc="))
    assert int(nproc.split("=")[1]) > 18


def test_a_cgroup_that_cannot_be_joined_stops_the_chain_before_bwrap(tmp_path):
    launcher = BubblewrapLauncher()
    chain = launcher._spawn_prefix(None, Limits(), 18, [str(tmp_path / "missing" / "procs")])
    done = subprocess.run(
        [*chain, "/bin/echo", "bwrap would start"], capture_output=True, text=True, env={}
    )
    assert done.returncode == 125
    assert "bwrap would start" not in done.stdout
    assert "arena-sandbox: cannot join cgroup" in done.stderr


def test_a_lease_says_clean_only_after_a_clean_release(tmp_path):
    """The marker is overwritten in place (same size, no truncate): a worker that dies
    holding the uid leaves "dirty", so the next holder searches /proc for leftovers."""
    from workers.sandbox.bubblewrap import UidLease

    path = tmp_path / "uid-61000.lock"
    lease = UidLease(61000, os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    assert not lease.was_clean()  # a new file
    lease.mark(clean=False)
    assert not lease.was_clean() and path.read_bytes() == b"dirty"
    lease.release(clean=True)
    again = UidLease(61000, os.open(path, os.O_RDWR))
    assert again.was_clean() and path.read_bytes() == b"clean"
    again.mark(clean=False)  # taken again, then the worker dies
    assert path.read_bytes() == b"dirty"
    again.release(clean=False)


def _zombie_of_another_parent(uid: int) -> subprocess.Popen[bytes]:
    """A live parent (not this process) holding an unreaped child that ran as `uid`: what
    a SIGKILLed pool process leaves for the worker's main process to reap."""
    code = (
        "import os, sys, time\n"
        "pid = os.fork()\n"
        f"if pid == 0:\n    os.setresgid({uid}, {uid}, {uid}); os.setresuid({uid}, {uid}, {uid})\n"
        "    os._exit(0)\n"
        "print(pid, flush=True)\n"
        "time.sleep(120)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    assert parent.stdout is not None
    int(parent.stdout.readline())
    return parent


def test_a_dirty_uid_held_by_someone_elses_zombie_is_skipped_without_waiting(tmp_path):
    """Nothing a starting pool process can do removes another process's zombie: the lease
    moves on to the next uid at once instead of waiting out its deadline for each such uid
    (a second each, which pushed a pool process past Celery's 4 s start-up limit)."""
    from workers.sandbox.process import _kill_uid, processes_of_uid

    uid = 64990
    parent = _zombie_of_another_parent(uid)
    try:
        deadline = time.monotonic() + 10
        while not processes_of_uid(uid) and time.monotonic() < deadline:
            time.sleep(0.01)  # the child changes its uid, then exits
        assert processes_of_uid(uid), "the zombie should be there"
        started = time.monotonic()
        assert _kill_uid(uid, started + 30.0) is False  # still there: the uid stays dirty
        assert time.monotonic() - started < 10.0
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 10
    while processes_of_uid(uid) and time.monotonic() < deadline:
        time.sleep(0.05)  # its parent gone, init reaps it
    assert _kill_uid(uid, time.monotonic() + 1.0) is True


def test_a_dirty_uid_whose_processes_live_is_emptied_and_leased():
    """A live leftover of a crashed worker is killed; its uid is then clean to lease."""
    from workers.sandbox.process import _kill_uid, processes_of_uid

    uid = 64991
    leftover = subprocess.Popen(
        ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "sleep", "120"]
    )
    try:
        deadline = time.monotonic() + 10
        while not processes_of_uid(uid) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _kill_uid(uid, time.monotonic() + 5.0) is True
        assert processes_of_uid(uid) == []
    finally:
        leftover.kill()
        leftover.wait()
