"""Bots' text made storable (arena/stored_text.py), and stored, on PostgreSQL and SQLite.

PostgreSQL refuses a NUL in text and jsonb; neither database takes a lone surrogate (no
UTF-8 form). Every write of a bot's text (seats' forfeit reasons and stderr, records and
results, failures, attempts, re-queue reasons, rejected uploads' reasons, upload names)
stores it cleaned: tests/arena/stored_text_writes.py makes each write and reads it back.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.stored_text import REPLACEMENT, clean_json, clean_text
from tests.arena.stored_text_writes import CLEAN, store_bot_text

SCRIPT = Path(__file__).with_name("stored_text_writes.py")
PROJECT = SCRIPT.parents[2]


def test_nul_and_lone_surrogates_are_replaced_and_a_pair_is_its_character():
    assert clean_text("a\x00b") == f"a{REPLACEMENT}b"
    assert clean_text("\ud800x\udfff") == f"{REPLACEMENT}x{REPLACEMENT}"
    assert clean_text("\ud83d\ude00") == "\U0001f600"
    assert clean_text("é\x00\ud83d") == f"é{REPLACEMENT}{REPLACEMENT}"
    for text in ("plain", "é ü 😀", "\U0001f600"):
        assert clean_text(text) is text  # clean text comes back as it was


def test_text_is_capped_and_none_means_no_cap():
    assert clean_text("x" * 5000) == "x" * 4000
    assert clean_text("x" * 10, limit=3) == "xxx"
    assert clean_text("x" * 5000, limit=None) == "x" * 5000


def test_every_string_and_key_of_a_json_value_is_cleaned():
    value = {"a\x00": ["b\ud800", {"c": "ok", "n": 1, "none": None}], "t": ("\x00",)}
    assert clean_json(value) == {
        f"a{REPLACEMENT}": [f"b{REPLACEMENT}", {"c": "ok", "n": 1, "none": None}],
        "t": [REPLACEMENT],
    }


def assert_all_clean(stored: dict[str, Any]) -> None:
    assert stored["statuses"] == ["finished"] * 3
    assert stored["forfeit_reasons"] == [f"answered for match {CLEAN}"] * 3
    assert stored["record_forfeits"] == stored["result_forfeits"] == stored["forfeit_reasons"]
    assert sorted(stored["stderr"]) == sorted([f"stderr {CLEAN}", CLEAN] * 3)
    assert stored["errors"] == [f"the referee stopped: {CLEAN}", f"gave up: {CLEAN}"]
    assert stored["last_infra_errors"] == [CLEAN, f"lapsed: {CLEAN}"]
    # The replay's and the lapse's attempts, then the two logged by hand.
    assert sorted(stored["attempt_details"]) == sorted([CLEAN, f"lapsed: {CLEAN}", CLEAN, CLEAN])
    assert stored["filenames"] == [f"{CLEAN}.py"] * 2
    assert stored["validation_error"] == f"the bot failed its smoke match: {CLEAN}"


@pytest.mark.django_db
def test_every_write_of_a_bots_text_is_stored_clean_on_postgresql():
    assert_all_clean(store_bot_text())


def test_every_write_of_a_bots_text_is_stored_clean_on_sqlite(tmp_path):
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'arena.sqlite3'}", SECRET_KEY="t")
    done = subprocess.run(
        [sys.executable, str(SCRIPT)],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert_all_clean(json.loads(done.stdout.splitlines()[-1]))
