"""A full shared-memory folder does not stop a host: bot files go to disk instead.

The scratch folder here is a tmpfs of the test's own, 64 KiB and filled, standing for a
full /dev/shm (the machine's own is never filled).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from arena.models import Match
from tests.workers.sandbox.conftest import RANDOM_BOT, pick_game
from tests.workers.test_tasks import make_bot, make_match, reference
from workers import tasks
from workers.play.smoke import smoke_test
from workers.sandbox import code_cache, scratch


@pytest.fixture
def full_scratch(tmp_path: Path, monkeypatch) -> Iterator[Path]:
    place = tmp_path / "shm"
    place.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(place)], check=True)
    try:
        with open(place / "filler", "wb", buffering=0) as handle, pytest.raises(OSError):
            while True:
                handle.write(b"x" * 4096)

        monkeypatch.setenv("ARENA_SCRATCH_DIR", str(place))
        _forget_the_scratch_dir()
        assert scratch.scratch_dir() == str(place)
        yield place
    finally:
        monkeypatch.delenv("ARENA_SCRATCH_DIR", raising=False)
        _forget_the_scratch_dir()  # the next tests' code cache and folders go back to /dev/shm
        subprocess.run(["umount", "-l", str(place)], check=False)


def _forget_the_scratch_dir() -> None:
    scratch.scratch_dir.cache_clear()
    code_cache.cache_dir.cache_clear()


@pytest.mark.django_db
def test_a_set_plays_when_shared_memory_is_full(full_scratch, settings):
    settings.ARENA_BOT_ISOLATION = "sandbox"
    owner = User.objects.create_user("shm")
    bots = [make_bot(owner, name, reference("random_bot.py")) for name in ("a", "b")]
    match = make_match(bots)
    assert tasks.execute_match(match.pk) == "recorded"
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert not [name for name in os.listdir(full_scratch) if name.startswith("arena-set-")]


def test_an_upload_is_checked_when_shared_memory_is_full(full_scratch):
    assert smoke_test(pick_game(), RANDOM_BOT.read_bytes(), "random_bot.py") is None
    assert not [name for name in os.listdir(full_scratch) if name.startswith("arena-smoke-")]
