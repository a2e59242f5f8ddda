"""The SDK runner: loading bot files and speaking JSON lines in a real process."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bots.sdk.runner import BotLoadError, load_bot

RUNNER = Path(__file__).resolve().parents[2] / "bots" / "sdk" / "runner.py"


def write(tmp_path: Path, text: str, name: str = "bot.py") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def converse(bot: Path, *messages: dict, separators=None) -> tuple[list[dict], int, str]:
    lines = "".join(json.dumps(m, separators=separators) + "\n" for m in messages)
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(RUNNER), str(bot)],
        input=lines,
        capture_output=True,
        text=True,
        timeout=20,
    )
    replies = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return replies, done.returncode, done.stderr


START = {"type": "start", "game": "g", "seat": 1, "players": 2, "options": {}, "limits": {}}


def act(legal):
    return {"type": "act", "observation": {"seat": 1}, "legal_actions": legal}


def test_function_bot_answers_each_act_and_exits_on_end(tmp_path):
    bot = write(tmp_path, "def act(observation, legal_actions):\n    return legal_actions[-1]\n")
    replies, code, _ = converse(bot, START, act(["a", "b"]), act([[1, 2], [3]]), {"type": "end"})
    assert replies == [{"action": "b"}, {"action": [3]}]
    assert code == 0


def test_what_loading_made_is_kept_out_of_the_collectors_passes(tmp_path):
    """The runner and the bot's module live for the whole set: frozen once loaded, so
    the collector does not walk them again at every pass (the bot's own garbage is
    still collected)."""
    bot = write(
        tmp_path,
        "import gc\n"
        "LOADED = [object() for _ in range(100)]\n"
        "def act(observation, legal_actions):\n"
        "    frozen = gc.get_freeze_count()\n"
        "    cycle = []\n"
        "    cycle.append(cycle)\n"
        "    del cycle\n"
        "    return [frozen, gc.collect()]\n",
    )
    replies, code, _ = converse(bot, START, act([0]), {"type": "end"})
    frozen, collected = replies[0]["action"]
    assert frozen >= 100  # the bot's module-level objects among them
    assert collected >= 1  # a cycle made while playing is still collected
    assert code == 0


def test_class_bot_gets_setup_before_acting(tmp_path):
    bot = write(
        tmp_path,
        "class Bot:\n"
        "    def setup(self, info):\n        self.seat = info['seat']\n"
        "    def act(self, observation, legal_actions):\n        return self.seat\n",
    )
    replies, code, _ = converse(bot, START, act([0, 1]), {"type": "end"})
    assert replies == [{"action": 1}]
    assert code == 0


def test_print_in_a_bot_goes_to_stderr_not_the_protocol(tmp_path):
    bot = write(tmp_path, "def act(o, legal):\n    print('thinking')\n    return legal[0]\n")
    replies, _, stderr = converse(bot, START, act(["x"]), {"type": "end"})
    assert replies == [{"action": "x"}]
    assert "thinking" in stderr


def test_exception_in_act_reports_a_reason_and_a_traceback(tmp_path):
    bot = write(tmp_path, "def act(o, legal):\n    return 1 / 0\n")
    replies, code, stderr = converse(bot, START, act(["x"]))
    assert replies == [{"error": "bot raised ZeroDivisionError: division by zero"}]
    assert code == 1
    assert "Traceback" in stderr


def test_zip_with_bot_py_is_accepted(tmp_path):
    archive = tmp_path / "bot.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr("bot.py", "def act(o, legal):\n    return legal[0]\n")
    replies, code, _ = converse(archive, START, act(["only"]), {"type": "end"})
    assert replies == [{"action": "only"}]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("def act(:\n", "not valid Python"),
        ("x = 1\n", "neither act"),
        ("raise RuntimeError('boom')\n", "failed while loading: RuntimeError: boom"),
        ("class Bot:\n    pass\n", "has no act"),
        ("class Bot:\n    def __init__(self):\n        raise ValueError('no')\n", "Bot() failed"),
    ],
)
def test_broken_bot_files_are_refused_with_a_reason(tmp_path, text, reason):
    bot = write(tmp_path, text)
    with pytest.raises(BotLoadError, match=re.escape(reason)):
        load_bot(str(bot))
    replies, code, _ = converse(bot, START)
    assert code == 1
    assert reason in replies[0]["error"]


def test_a_bot_file_with_a_byte_order_mark_runs_as_python_would_run_it(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_bytes(
        b"\xef\xbb\xbfdef act(observation, legal_actions):\n    return legal_actions[0]\n"
    )
    assert load_bot(str(bot)).act({}, ["x"]) == "x"
    replies, code, _ = converse(bot, START, act(["a"]), {"type": "end"})
    assert replies == [{"action": "a"}] and code == 0


def test_a_bot_using_dataclasses_with_postponed_annotations_loads(tmp_path):
    # dataclasses looks the class's module up in sys.modules; an unregistered module made
    # this fail with "'NoneType' object has no attribute '__dict__'".
    bot = write(
        tmp_path,
        "from __future__ import annotations\n"
        "from dataclasses import dataclass\n"
        "@dataclass(frozen=True)\n"
        "class Plan:\n    pick: int\n"
        "PLAN = Plan(1)\n"
        "def act(observation, legal_actions):\n    return legal_actions[PLAN.pick]\n",
    )
    assert load_bot(str(bot)).act({}, ["a", "b"]) == "b"
    replies, code, _ = converse(bot, START, act(["a", "b"]), {"type": "end"})
    assert replies == [{"action": "b"}] and code == 0


def test_non_utf8_and_missing_files_are_refused(tmp_path):
    binary = tmp_path / "bot.py"
    binary.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(BotLoadError, match="not UTF-8"):
        load_bot(str(binary))
    with pytest.raises(BotLoadError, match="no bot file"):
        load_bot(str(tmp_path / "missing.py"))
    not_zip_bot = tmp_path / "other.zip"
    with zipfile.ZipFile(not_zip_bot, "w") as handle:
        handle.writestr("main.py", "def act(o, l):\n    return l[0]\n")
    with pytest.raises(BotLoadError, match="no bot.py"):
        load_bot(str(not_zip_bot))


@pytest.mark.parametrize(
    "value",
    [
        {"type": "act", "observation": {"dice": [1, 2], "name": "Zek Zarag"}, "legal_actions": []},
        ["a", 1, -2.5, True, False, None, {"nested": [[], {}]}],
        'unicode: Ω and \u2603 and "quotes" \\ slash',
        12345678901234567890,
    ],
)
def test_the_runners_json_codec_agrees_with_the_json_package(value):
    from bots.sdk import runner

    assert json.loads(runner.dumps(value)) == value
    assert runner.loads(json.dumps(value)) == value
    assert runner.loads("  " + json.dumps(value) + "\n") == value


@pytest.mark.parametrize("text", ["", "{", '{"a": 1} x', "nope", "[1,]"])
def test_the_runners_json_codec_rejects_bad_lines(text):
    from bots.sdk import runner

    with pytest.raises(ValueError):
        runner.loads(text)


def test_one_process_plays_interleaved_matches_with_a_bot_instance_per_match(tmp_path):
    bot = write(
        tmp_path,
        "seen = []\n"
        "class Bot:\n"
        "    def setup(self, info):\n"
        "        self.seat = info['seat']\n"
        "        seen.append(info['match'])\n"
        "    def act(self, observation, legal_actions):\n"
        "        return [self.seat, len(seen)]\n",
    )
    replies, code, _ = converse(
        bot,
        {**START, "match": 7, "seat": 0},
        {**START, "match": 8, "seat": 1},
        {**act(["x"]), "match": 8},
        {**act(["x"]), "match": 7},
        {"type": "end", "match": 7, "result": {}},
        {**act(["x"]), "match": 8},
    )
    # Each match its own instance (its seat); the module's memory is shared by the set.
    assert replies == [
        {"match": 8, "action": [1, 2]},
        {"match": 7, "action": [0, 2]},
        {"match": 8, "action": [1, 2]},
    ]
    assert code == 0  # the input closing ends the set


def test_a_failure_names_its_match_and_ends_the_process(tmp_path):
    bot = write(tmp_path, "def act(o, legal):\n    raise KeyError('lost')\n")
    replies, code, stderr = converse(bot, {**START, "match": 3}, {**act([1]), "match": 3})
    assert replies == [{"match": 3, "error": "bot raised KeyError: 'lost'"}] and code == 1
    assert "KeyError" in stderr


def test_the_fast_codec_loads_from_a_lib_folder_and_leaves_the_real_modules(tmp_path):
    from workers.sandbox.launchers import fast_codec_file

    codec = fast_codec_file()
    assert codec is not None, "orjson is a dependency of the project"
    probe = write(
        tmp_path,
        "import sys\n"
        f"sys.path.insert(0, {str(RUNNER.parent)!r})\n"
        f"sys.path.insert(0, {str(codec.parent)!r})\n"
        "import runner\n"
        "print(runner.use_fast_codec(), runner.loads(b'[1, 2.5]'), runner.dumps({'a': None}))\n"
        "print(sorted({'datetime', 'uuid', 'dataclasses', 'json', 'enum'} & set(sys.modules)))\n"
        "import json, uuid, dataclasses, enum\n"
        "print(json.dumps([1]), uuid.UUID(int=1).int, dataclasses.is_dataclass(1))\n"
        "Size = enum.IntEnum('Size', 'S M')\n"
        "print(runner.dumps([Size.M]), runner.dumps({'size': Size.S}))\n",
        name="probe.py",
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(probe)], capture_output=True, text=True, timeout=20
    )
    assert done.stdout.splitlines() == [
        "True [1, 2.5] b'{\"a\":null}'",
        "[]",  # the stand-ins are gone: nothing imported on the bot's behalf
        "[1] 1 False",
        "b'[2]' b'{\"size\":1}'",  # the real enum, written by value
    ], done.stderr


LAZY_BOT = """
LAZY_OBSERVATION = True
seen = []

def act(observation, legal_actions):
    if legal_actions[0] == "look":
        return [observation["seat"], observation.get("x", 0), "seat" in observation,
                sorted(observation), len(observation), dict(observation) == {k: observation[k] for k in observation}]
    return legal_actions[-1]
"""


def test_a_lazy_bot_reads_the_same_observation_and_actions_as_a_plain_one(tmp_path):
    lazy = write(tmp_path, LAZY_BOT, "lazy.py")
    plain = write(tmp_path, LAZY_BOT.replace("= True", "= False"), "plain.py")
    observation = {"seat": 1, "x": [1.5, None, "é"], "big": 10**30}
    lines = [
        {"match": 4, **START},
        # The referee's layout (the lazy path), then hand-typed orders (the whole line decoded).
        {"match": 4, "type": "act", "legal_actions": ["look"], "observation": observation},
        {"match": 4, "type": "act", "legal_actions": [["a", {"b": 2}]], "observation": {}},
        {"match": 4, "type": "act", "observation": observation, "legal_actions": ["look"]},
        {"type": "act", "legal_actions": ["look"], "observation": observation},
        {"match": 4, "type": "end", "result": {}},
    ]
    answers = {}
    for bot in (lazy, plain):
        # Compact, as the referee writes lines (orjson: no spaces).
        replies, code, stderr = converse(bot, *lines, separators=(",", ":"))
        assert code == 0, stderr
        answers[bot.name] = replies
    look = [1, [1.5, None, "é"], True, ["big", "seat", "x"], 3, True]
    assert answers["lazy.py"] == answers["plain.py"]
    assert answers["lazy.py"] == [
        {"match": 4, "action": look},
        {"match": 4, "action": ["a", {"b": 2}]},
        {"match": 4, "action": look},
        {"action": look},
    ]


def test_split_act_takes_only_the_referees_layout():
    from bots.sdk.runner import split_act

    line = b'{"match":7,"type":"act","legal_actions":[1,"x"],"observation":{"a":[1,{"b":2}]}}\n'
    match, legal, observation = split_act(line)  # type: ignore[misc]
    assert (match, legal, observation.value()) == (7, [1, "x"], {"a": [1, {"b": 2}]})
    assert observation == {"a": [1, {"b": 2}]} and observation["a"][1] == {"b": 2}
    for other in (
        b'{"type":"act","legal_actions":[1],"observation":{}}',  # no match: typed by hand
        b'{"match":7,"type":"start","legal_actions":[1],"observation":{}}',
        b'{"match":7,"type":"act","observation":{},"legal_actions":[1]}',
        b'{"match":7,"type":"act","legal_actions":3,"observation":{}}',
        b'{"match":7,"type":"act","legal_actions":[1,"observation":{}}',
    ):
        assert split_act(other) is None, other
    # The observation itself is checked only when read (the referee wrote it).
    broken = split_act(b'{"match":7,"type":"act","legal_actions":[1],"observation":{"a"}')
    with pytest.raises(ValueError):
        broken[2].value()  # type: ignore[index]


def _timed_replies(bot: Path, messages: list[dict], wait: float = 5.0) -> list[tuple[float, dict]]:
    """Send every message in one write; each reply line with when it arrived."""
    import os
    import selectors
    import time

    process = subprocess.Popen(
        [sys.executable, "-I", "-S", str(RUNNER), str(bot)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    replies: list[tuple[float, dict]] = []
    try:
        started = time.monotonic()
        process.stdin.write("".join(json.dumps(m) + "\n" for m in messages).encode())
        process.stdin.flush()
        asked = sum(1 for m in messages if m["type"] == "act")
        pending = b""
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            while len(replies) < asked and time.monotonic() - started < wait:
                if not selector.select(wait):
                    break
                pending += os.read(process.stdout.fileno(), 65536)
                *lines, pending = pending.split(b"\n")
                now = time.monotonic() - started
                replies += [(now, json.loads(line)) for line in lines]
    finally:
        process.kill()
        process.wait()
    return replies


def test_an_answer_is_not_held_while_the_bot_thinks_about_the_next_request(tmp_path):
    """Several requests in one write: each answer leaves as soon as it is decided (the
    referee times each answer on arrival, so a slow decision must not make an earlier
    match look slow)."""
    bot = write(
        tmp_path,
        "import time\n"
        "def act(observation, legal_actions):\n"
        "    if legal_actions == ['slow']:\n"
        "        time.sleep(1.0)\n"
        "    return legal_actions[0]\n",
    )
    messages = [
        {**START, "match": 1},
        {**START, "match": 2},
        {**act(["quick"]), "match": 1},
        {**act(["slow"]), "match": 2},
    ]
    replies = _timed_replies(bot, messages)
    assert [reply for _, reply in replies] == [
        {"match": 1, "action": "quick"},
        {"match": 2, "action": "slow"},
    ]
    assert replies[0][0] < 0.5 < replies[1][0]


def test_the_runner_typed_to_by_hand_works_with_unbuffered_output(tmp_path):
    # `python -u` (or PYTHONUNBUFFERED=1, common in containers) gives sys.stdout a raw
    # file with no buffer of its own beneath it: the runner must still find its output.
    bot = write(tmp_path, "def act(observation, legal_actions):\n    return legal_actions[0]\n")
    done = subprocess.run(
        [sys.executable, "-u", "-I", "-S", str(RUNNER), str(bot)],
        input=json.dumps(act(["a", "b"])) + "\n" + json.dumps({"type": "end"}) + "\n",
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == [{"action": "a"}]


def test_what_a_bot_writes_is_marked_with_its_move_and_silent_moves_cost_nothing(tmp_path):
    bot = write(
        tmp_path,
        "class Bot:\n"
        "    def setup(self, info):\n"
        "        print('ready', info['match'])\n"
        "        self.moves = 0\n"
        "    def act(self, observation, legal_actions):\n"
        "        self.moves += 1\n"
        "        if self.moves != 2:\n"
        "            print('move', self.moves)\n"
        "        return legal_actions[0]\n",
    )
    _, code, stderr = converse(
        bot,
        {**START, "match": 7},
        {**START, "match": 8},
        {**act(["x"]), "match": 7},
        {**act(["x"]), "match": 8},
        {**act(["x"]), "match": 7},
        {**act(["x"]), "match": 7},
    )
    assert code == 0
    # (split on newlines only: splitlines also splits at the mark's \x1e)
    assert stderr.split("\n") == [
        "\x1emove 7 0",
        "ready 7",
        "\x1emove 8 0",
        "ready 8",
        "\x1emove 7 1",
        "move 1",
        "\x1emove 8 1",
        "move 1",
        # Match 7's second move printed nothing: no mark.
        "\x1emove 7 3",
        "move 3",
        "",
    ]
