"""A played set's bots end while the task records it, and are gone before it returns.

Killing a sandbox is quick; waiting for its end is not (~4 ms a set, mostly the kernel
tearing down namespaces), so the task records meanwhile (workers/play/set_play.py).
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import threading
import time

import pytest

from arena.models import Match, RatingChange
from tests.workers.test_tasks import make_bot, reference
from tests.workers.test_tasks_sets import make_match, rotated
from workers import tasks
from workers.play import set_play
from workers.play.players import BotProcess
from workers.sandbox.limits import Limits
from workers.sandbox.scratch import folder_prefix, scratch_dir

# How long a test waits for the other side before it calls the overlap missing.
PATIENCE_SECONDS = 10.0


@pytest.fixture(autouse=True)
def plain_processes(settings):
    settings.ARENA_BOT_ISOLATION = "process"


@pytest.fixture
def owner(db):
    from django.contrib.auth.models import User

    return User.objects.create_user("sami")


def two_bots(owner):
    return [
        make_bot(owner, "heur", reference("moonrollers_heuristic.py")),
        make_bot(owner, "rand", reference("random_bot.py")),
    ]


def test_a_set_is_recorded_while_its_bots_are_still_ending(owner, monkeypatch):
    recording = threading.Event()
    seen: dict[str, object] = {}
    real_close_all, real_record = set_play.close_all, tasks.record_results

    def slow_close_all(bots):
        # The bots are already killed: the recording may start before they are waited for.
        seen["recording_began_before_the_end"] = recording.wait(PATIENCE_SECONDS)
        seen["bots"] = list(bots)
        return real_close_all(bots)

    def record(*args, **kwargs):
        recording.set()
        return real_record(*args, **kwargs)

    monkeypatch.setattr(set_play, "close_all", slow_close_all)
    monkeypatch.setattr(tasks, "record_results", record)
    matches = rotated(two_bots(owner), 4)
    assert tasks.execute_set([m.pk for m in matches]) == ["recorded"] * 4
    assert seen["recording_began_before_the_end"] is True
    # Waited for before the task returned: nothing of the set outlives it.
    bots = seen["bots"]
    assert isinstance(bots, list) and len(bots) == 2
    assert all(bot.process.returncode is not None for bot in bots)
    for match in Match.objects.filter(pk__in=[m.pk for m in matches]):
        assert match.status == Match.Status.FINISHED and match.rated
        assert RatingChange.objects.filter(match=match).count() == 2


def test_the_sets_folder_is_gone_when_the_task_returns(owner):
    # This process's folders only: a worker elsewhere on the machine makes its own.
    def own() -> set[str]:
        return {n for n in os.listdir(scratch_dir()) if n.startswith(folder_prefix("set"))}

    before = own()
    matches = rotated(two_bots(owner), 2)
    assert tasks.execute_set([m.pk for m in matches]) == ["recorded"] * 2
    assert own() - before == set()


def test_a_bot_ending_badly_does_not_undo_the_recorded_set(owner, monkeypatch):
    def broken_close_all(bots):
        for bot in bots:
            bot.close()
        raise OSError("the cgroup would not go")

    monkeypatch.setattr(set_play, "close_all", broken_close_all)
    matches = rotated(two_bots(owner), 2)
    assert tasks.execute_set([m.pk for m in matches]) == ["recorded"] * 2
    assert Match.objects.filter(pk__in=[m.pk for m in matches], rated=True).count() == 2


def test_a_set_that_cannot_be_played_still_ends_its_bots(owner, monkeypatch):
    started: list[BotProcess] = []
    real_bot_process = set_play.BotProcess

    def tracked(*args, **kwargs):
        bot = real_bot_process(*args, **kwargs)
        started.append(bot)
        return bot

    def broken_referee(*args, **kwargs):
        raise KeyError("deck")

    monkeypatch.setattr(set_play, "BotProcess", tracked)
    monkeypatch.setattr(set_play, "play_set", broken_referee)
    match = make_match(two_bots(owner))
    assert tasks.execute_set([match.pk]) == ["failed"]
    assert len(started) == 2
    assert all(bot.process.returncode is not None for bot in started)


def _bot_that_wrote(text: str) -> BotProcess:
    code = f"import sys, time\nsys.stderr.write({text!r})\nsys.stderr.flush()\ntime.sleep(60)\n"
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert process.stderr is not None
    ready, _, _ = select.select([process.stderr], [], [], PATIENCE_SECONDS)
    assert ready, "the bot wrote nothing to stderr"
    return BotProcess(process, Limits())


def test_stop_kills_the_bot_and_keeps_its_stderr_and_close_then_waits_for_it():
    bot = _bot_that_wrote("thinking hard")
    assert bot.stop() == "thinking hard"
    # Killed: it ends by itself, with no wait of ours.
    deadline = time.monotonic() + PATIENCE_SECONDS
    while bot.process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert bot.process.returncode == -9
    assert bot.stop() == "thinking hard"  # once: a second stop changes nothing
    assert bot.close() == "thinking hard"
    assert bot.process.stdin is not None and bot.process.stdin.closed


def test_close_alone_still_kills_waits_and_returns_the_stderr():
    bot = _bot_that_wrote("a last word")
    assert bot.close() == "a last word"
    assert bot.process.returncode == -9
