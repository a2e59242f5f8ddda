"""The referee: matches to the end, forfeits for every kind of bot failure."""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path

import pytest

import engine
from bots.reference import builtin_path
from bots.sdk.runner import load_bot
from tests.workers.scripted_bot import answers_to
from workers.play.players import InProcessPlayer, ProcessPlayer
from workers.play.referee import fallback_action, final_ranks, play_match
from workers.sandbox.launchers import TrustedProcessLauncher
from workers.sandbox.limits import Limits, LimitsError

GAME = "moonrollers"
RANDOM = builtin_path("random", GAME)


def in_process(path: Path) -> InProcessPlayer:
    return InProcessPlayer(load_bot(str(path)))


def in_subprocess(path: Path, **limits) -> ProcessPlayer:
    chosen = Limits(**{"move_seconds": 2.0, "time_bank_seconds": 0.0, **limits})
    return ProcessPlayer(TrustedProcessLauncher().launch(path, chosen), chosen)


def bot_file(tmp_path: Path, body: str, name: str = "bot.py") -> Path:
    path = tmp_path / name
    path.write_text(body)
    return path


def test_forfeited_seats_share_last_place_and_the_rest_keep_their_order():
    assert final_ranks([1, 2, 3], {0}) == [3, 1, 2]
    assert final_ranks([2, 1, 3, 4], {1, 3}) == [1, 3, 2, 3]
    assert final_ranks([1, 1, 3], set()) == [1, 1, 3]


def test_fallback_passes_when_it_can():
    import random

    assert fallback_action(["roll", "pass"], random.Random(1)) == "pass"
    assert fallback_action(["a"], random.Random(1)) == "a"


def test_in_process_match_finishes_and_its_record_replays():
    outcome = play_match(GAME, 5, [in_process(RANDOM), in_process(RANDOM)])
    assert sorted(outcome.ranks)[0] == 1
    assert outcome.forfeits == {}
    assert outcome.decisions > 0
    replayed = engine.replay(json.loads(json.dumps(outcome.record)))
    assert replayed.result() == outcome.result


def test_process_match_gives_the_same_game_as_in_process():
    first = play_match(GAME, 17, [in_process(RANDOM), in_process(RANDOM)])
    second = play_match(GAME, 17, [in_subprocess(RANDOM), in_subprocess(RANDOM)])
    assert second.forfeits == {}
    assert first.record["actions"] == second.record["actions"]
    assert first.ranks == second.ranks


def test_a_process_bots_scratch_folder_goes_with_it(tmp_path, monkeypatch):
    """Each trusted process's working folder is removed once its process is waited for
    (`arena bench-sandbox` left 22 empty ones in /tmp per run)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = play_match(GAME, 5, [in_subprocess(RANDOM), in_subprocess(RANDOM)])
    assert result.forfeits == {}
    assert list(tmp_path.glob("arena-bot-*")) == []


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("def act(o, legal):\n    return 'no-such-move'\n", "illegal action"),
        ("def act(o, legal):\n    raise KeyError('lost')\n", "bot raised KeyError"),
        ("import time\ndef act(o, legal):\n    time.sleep(30)\n", "timed out"),
        (
            "import sys\ndef act(o, legal):\n    sys.__stdout__.write('x' * 3_000_000)\n"
            "    sys.__stdout__.flush()\n    return legal[0]\n",
            "flooded its output",
        ),
        ("import os\ndef act(o, legal):\n    os._exit(3)\n", "exited with status 3"),
        ("def act(o, legal):\n    return {1, 2}\n", "not JSON"),
        ("import os, signal\ndef act(o, legal):\n    os.kill(os.getpid(), 9)\n", "SIGKILL"),
    ],
)
def test_a_misbehaving_bot_forfeits_ranks_last_and_the_table_plays_on(tmp_path, body, reason):
    bad = bot_file(tmp_path, body)
    outcome = play_match(GAME, 3, [in_subprocess(bad, move_seconds=0.5), in_subprocess(RANDOM)])
    assert set(outcome.forfeits) == {0}
    assert reason in outcome.forfeits[0]
    assert outcome.ranks == [2, 1]
    assert outcome.record["forfeits"] == {"0": outcome.forfeits[0]}
    engine.replay(outcome.record)


def test_time_bank_absorbs_a_slow_move(tmp_path):
    slow_once = bot_file(
        tmp_path,
        "import time\nslow = [True]\n"
        "def act(o, legal):\n"
        "    if slow:\n        slow.pop()\n        time.sleep(0.4)\n"
        "    return legal[0]\n",
    )
    outcome = play_match(
        GAME,
        3,
        [in_subprocess(slow_once, move_seconds=0.2, time_bank_seconds=1.0), in_process(RANDOM)],
    )
    assert outcome.forfeits == {}


def test_a_bots_stderr_is_kept_for_its_author(tmp_path):
    chatty = bot_file(
        tmp_path,
        "import sys\ndef act(o, legal):\n    print('hello from', o['seat'])\n    return legal[0]\n",
    )
    outcome = play_match(GAME, 3, [in_subprocess(chatty), in_process(RANDOM)])
    assert "hello from 0" in outcome.stderr[0]
    assert outcome.stderr[1] == ""


def test_a_bot_that_fails_to_load_forfeits_at_start(tmp_path):
    broken = bot_file(tmp_path, "def act(:\n")
    outcome = play_match(GAME, 3, [in_subprocess(broken), in_process(RANDOM)])
    assert "not valid Python" in outcome.forfeits[0]


def test_limits_out_of_range_are_refused_with_the_name_and_range():
    with pytest.raises(LimitsError, match="move_seconds"):
        Limits(move_seconds=0)
    with pytest.raises(LimitsError, match="unknown limit"):
        Limits.from_dict({"memory": 5})


@pytest.mark.parametrize("fast", [True, False], ids=["orjson", "json"])
@pytest.mark.parametrize(
    "message",
    [
        {"type": "act", "observation": {"dice": [1, 2], "name": "Zek Ω"}, "legal_actions": []},
        {"type": "act", "observation": {"huge": 1 << 70}, "legal_actions": [["take", 3]]},
        {"type": "start", "options": {"expansions": ["overload"]}, "limits": {"x": 0.5}},
    ],
)
def test_protocol_lines_carry_the_same_values_with_or_without_orjson(monkeypatch, message, fast):
    import workers.play.protocol as protocol

    if not fast:
        monkeypatch.setattr(protocol, "orjson", None)
    line = protocol.encode_line(message)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line) == message
    assert protocol.decode_line(json.dumps(message).encode()) == message


@pytest.mark.parametrize("fast", [True, False], ids=["orjson", "json"])
def test_replies_that_only_the_json_package_reads_are_still_read(monkeypatch, fast):
    import workers.play.protocol as protocol

    if not fast:
        monkeypatch.setattr(protocol, "orjson", None)
    assert math.isnan(protocol.decode_line(b'{"action": NaN}')["action"])
    assert protocol.decode_line(b'{"action": %d}' % (1 << 70)) == {"action": 1 << 70}
    with pytest.raises(ValueError):
        protocol.decode_line(b'{"action": ')


def test_a_forged_match_id_forfeits_one_request_and_the_runners_own_answer_is_dropped():
    """A bot writes, for its second request, an answer naming its first match (already
    answered), then the runner's own answer for the second follows: the second request
    is forfeited, and that late answer is never taken for the third request."""
    script = (
        "import sys\n"
        "for _ in range(3): sys.stdin.readline()\n"
        "out = sys.stdout\n"
        'out.write(\'{"match": 1, "action": "a"}\\n\')\n'
        'out.write(\'{"match": 1, "action": "forged"}\\n\')\n'
        'out.write(\'{"match": 2, "action": "b"}\\n\')\n'
        'out.write(\'{"match": 3, "action": "c"}\\n\')\n'
        "out.flush()\n"
        "sys.stdin.read()\n"
    )
    answers = answers_to(script, [1, 2, 3])
    assert answers[1] == "a"
    assert "answered for match 1, which it was not asked about" in str(answers[2])
    assert answers[3] == "c"  # not forfeited by the runner's late answer for match 2


@pytest.mark.parametrize("fast", [True, False], ids=["orjson", "json"])
@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"[" * 1100 + b"]" * 1100, "nested deeper than 64 levels"),
        (b'{"match": 7, "action": ' + b"[" * 1000 + b"]" * 1000 + b"}", "nested deeper"),
        (b"[" * 65 + b"]" * 65, "nested deeper"),
        (b'{"action": "' + b"x" * (64 << 10) + b'"}', "longer than 65536 bytes"),
    ],
)
def test_a_reply_too_deep_or_too_long_is_refused_before_it_is_parsed(
    monkeypatch, fast, line, reason
):
    import workers.play.protocol as protocol

    if not fast:
        monkeypatch.setattr(protocol, "orjson", None)
    with pytest.raises(protocol.ReplyRefused, match=reason):
        protocol.decode_line(line)


@pytest.mark.parametrize(
    "line",
    [
        b"[" * 64 + b"]" * 64,
        # Brackets inside strings, escaped quotes and backslashes do not nest.
        b'{"action": "' + b"[" * 500 + b'\\"' + b"{" * 500 + b'", "x": "\\\\"}',
        b'["\\\\\\"[[[", [[1]]]',
    ],
)
def test_brackets_in_strings_and_up_to_64_levels_are_read(line):
    from workers.play.protocol import decode_line

    assert decode_line(line) == json.loads(line)


def test_a_reply_naming_no_request_by_an_int_forfeits_it_and_the_next_is_read():
    """Only an int names a match: a list, an object, a boolean (true is not match 1), a
    float, a string (a lone surrogate here) each forfeit the oldest request, with a
    reason that never quotes the bot's value; the runner's own answer that follows
    is dropped, and the next request is answered as usual."""
    keys = ["[1]", '{"id": 1}', "true", "1.0", '"\\\\ud800"']
    lines = "".join(f'out.write(\'{{"match": {key}, "action": "x"}}\\n\')\n' for key in keys)
    script = (
        "import sys\n"
        "for _ in range(6): sys.stdin.readline()\n"
        "out = sys.stdout\n"
        f"{lines}"
        + "".join(f'out.write(\'{{"match": {m}, "action": "a"}}\\n\')\n' for m in range(1, 7))
        + "out.flush()\nsys.stdin.read()\n"
    )
    answers = answers_to(script, [1, 2, 3, 4, 5, 6])
    kinds = ["a list", "an object", "a boolean", "a number", "a string"]
    for match, kind in zip(range(1, 6), kinds, strict=True):
        assert f'"match" that is {kind}, not the id' in str(answers[match]), answers[match]
        str(answers[match]).encode("utf-8")  # nothing of the bot's own text
    assert answers[6] == "a"


def test_an_unterminated_deep_line_from_a_bot_that_exits_is_read_within_bounds():
    script = "import os, sys\nsys.stdin.readline()\nos.write(1, b'[' * 5000)\nos._exit(4)\n"
    answers = answers_to(script, [1])
    assert "exited with status 4" in str(answers[1])


def test_progress_hands_over_each_moving_match_s_partial_record():
    from workers.play.players import InProcessBot
    from workers.play.referee import SetMatch, play_set

    specs = [SetMatch(key=1, seed=3, seats=[0, 1]), SetMatch(key=2, seed=4, seats=[1, 0])]
    seen: list[dict[int, dict]] = []
    outcomes = play_set(
        GAME,
        specs,
        [InProcessBot(load_bot(str(RANDOM))), InProcessBot(load_bot(str(RANDOM)))],
        progress=seen.append,
        progress_seconds=0.0,
    )
    assert seen, "progress was never called"
    final = {spec.key: o.record for spec, o in zip(specs, outcomes, strict=True)}
    for key in (1, 2):
        partial = [records[key] for records in seen if key in records]
        lengths = [len(r["actions"]) for r in partial]
        assert lengths == sorted(set(lengths)), "only matches that moved, each step once"
        for record in partial:
            # Unfinished (no result), or the whole match caught at its last step.
            assert record["result"] is None or record["actions"] == final[key]["actions"]
            # A prefix of the match as it ended, and one the engine's frames replay.
            assert record["actions"] == final[key]["actions"][: len(record["actions"])]
            assert (
                len(list(engine.frames(json.loads(json.dumps(record)))))
                == len(record["actions"]) + 1
            )
