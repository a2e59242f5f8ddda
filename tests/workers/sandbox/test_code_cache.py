"""A bot's compiled code, cached per source: compiled in its sandbox, reused by the next one."""

from __future__ import annotations

import marshal
import os
import uuid

from tests.workers.sandbox.conftest import FAST, RANDOM_BOT
from tests.workers.sandbox.test_sets import rotated_set
from workers.play.players import BotProcess
from workers.play.referee import play_set
from workers.sandbox import code_cache

# A bot with a source of its own (so a key of its own), saying on stderr where it came from.
SOURCE = """
import sys
sys.stderr.write("{marker}\\n")
def act(observation, legal):
    return legal[0]
"""


def _bot(tmp_path, marker: str, extra: str = "") -> tuple:
    path = tmp_path / "cached_bot.py"
    path.write_text(SOURCE.format(marker=marker) + extra + f"# {uuid.uuid4()}\n")
    key = code_cache.code_key(path.read_bytes(), path.name, os.path.realpath(_python()))
    return path, key


def _python() -> str:
    from tests.workers.sandbox.conftest import make_test_launcher

    launcher = make_test_launcher()
    launcher._static_args()
    return launcher._python or ""


def _play(launcher, game, path) -> tuple[list, str]:
    specs = rotated_set(2)
    bots = [BotProcess(launcher.launch(p, FAST), FAST, len(specs)) for p in (path, RANDOM_BOT)]
    outcomes = play_set(game, specs, bots, FAST.match_seconds)
    return outcomes, bots[0].stderr.decode()


def test_the_first_start_stores_the_code_compiled_in_its_sandbox(launcher, game, tmp_path):
    path, key = _bot(tmp_path, "from-source")
    assert code_cache.cached_path(key) is None
    outcomes, stderr = _play(launcher, game, path)
    assert not any(o.forfeits for o in outcomes) and "from-source" in stderr
    stored = code_cache.cached_path(key)
    assert stored is not None and os.stat(stored).st_mode & 0o077 == 0
    with open(stored, "rb") as handle:
        code = marshal.loads(handle.read())
    assert code.co_filename == path.name and "act" in code.co_names


def test_a_later_start_runs_the_cached_code_and_ignores_a_broken_file(launcher, game, tmp_path):
    path, key = _bot(tmp_path, "from-source")
    _play(launcher, game, path)  # fills the cache
    stored = code_cache.cached_path(key)
    assert stored is not None
    # The cache is what runs: a (trusted, test-made) stand-in says so.
    stand_in = compile(SOURCE.format(marker="from-cache"), path.name, "exec")
    with open(stored, "wb") as handle:
        handle.write(marshal.dumps(stand_in))
    outcomes, stderr = _play(launcher, game, path)
    assert not any(o.forfeits for o in outcomes)
    assert "from-cache" in stderr and "from-source" not in stderr
    # A file that does not load: the runner compiles the source, and plays.
    with open(stored, "wb") as handle:
        handle.write(b"not marshal data")
    outcomes, stderr = _play(launcher, game, path)
    assert not any(o.forfeits for o in outcomes) and "from-source" in stderr


def test_a_code_line_written_by_the_bot_itself_is_never_stored(launcher, game, tmp_path):
    # The bot writes a "code" line of its own on its top level, after the runner's.
    fake = marshal.dumps(compile("x = 1", "fake", "exec")).hex()
    extra = f'import os\nos.write(1, b\'{{"code":"{fake}"}}\\n\')\n'
    path, key = _bot(tmp_path, "from-source", extra)
    _play(launcher, game, path)
    stored = code_cache.cached_path(key)
    assert stored is not None
    with open(stored, "rb") as handle:
        code = marshal.loads(handle.read())
    assert code.co_filename == path.name and "act" in code.co_names
    # With the cache filled, nothing is asked for: the same line is only a stray line.
    before = os.stat(stored).st_mtime_ns
    _play(launcher, game, path)
    with open(stored, "rb") as handle:
        assert marshal.loads(handle.read()).co_filename == path.name
    assert os.stat(stored).st_mtime_ns == before


def test_store_takes_only_a_code_line_within_bounds(tmp_path):
    key = uuid.uuid4().hex
    assert not code_cache.store(key, b'{"match":1,"action":0}')
    assert not code_cache.store(key, b'{"code":"zz"}')
    assert not code_cache.store(key, b'{"code":"' + b"00" * (code_cache.MAX_CODE_BYTES + 1) + b'"}')
    assert code_cache.cached_path(key) is None
    assert code_cache.store(key, b'{"code":"00ff"}')
    stored = code_cache.cached_path(key)
    assert stored is not None
    with open(stored, "rb") as handle:
        assert handle.read() == b"\x00\xff"
    os.unlink(stored)


def test_a_full_cache_drops_its_oldest_quarter_and_keeps_the_new_code(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    monkeypatch.setattr(code_cache, "cache_dir", lambda: str(folder))
    monkeypatch.setattr(code_cache, "MAX_FILES", 8)
    for number in range(8):
        entry = folder / f"old{number}.marshal"
        entry.write_bytes(b"\x00")
        os.utime(entry, ns=(number * 10**9, number * 10**9))
    assert code_cache.store("new", b'{"code":"00ff"}')
    left = sorted(p.name for p in folder.iterdir())
    assert left == sorted([f"old{n}.marshal" for n in range(2, 8)] + ["new.marshal"])


def test_a_code_line_the_cache_cannot_keep_is_never_taken_for_an_answer(monkeypatch):
    """The runner's first line is its code; with the cache full or unwritable it must
    still be taken out, or it answers the bot's first request (a forfeit)."""
    from tests.workers.scripted_bot import answers_to

    monkeypatch.setattr(code_cache, "store", lambda key, line: False)
    script = (
        "import sys\n"
        'sys.stdout.write(\'{"code":"00ff"}\\n\')\n'
        "sys.stdout.flush()\n"
        "sys.stdin.readline()\n"
        'sys.stdout.write(\'{"match": 1, "action": "a"}\\n\')\n'
        "sys.stdout.flush()\n"
        "sys.stdin.read()\n"
    )
    assert answers_to(script, [1], code_key="some-key") == {1: "a"}
