"""Sets through the real sandbox: one process per bot for all of a set's matches.

The hostile bots again, now each playing a set (the same seed, seats rotated) in one
sandboxed process against a sandboxed random bot, exactly as a worker's `run_set` plays
it; a bot that misbehaves only in its third match; a bot that answers with another
match's id; and a set whose results equal the same matches played one by one.
"""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

import pytest

import engine
from bots.reference import builtin_path
from bots.sdk.runner import load_bot
from tests.workers.sandbox.conftest import (
    CANARY,
    FAST,
    RANDOM_BOT,
    assert_launcher_serves,
    assert_nothing_left,
    prepare,
)
from tests.workers.sandbox.test_hostile_bots import FORFEITS
from workers.play.players import BotProcess, InProcessBot, InProcessPlayer, ProcessPlayer
from workers.play.referee import MatchOutcome, SetMatch, play_match, play_set
from workers.sandbox.launchers import PROJECT_ROOT, launch_all
from workers.sandbox.limits import Limits
from workers.sandbox.zygote_lanes import ForkedSandbox

SET_BOTS = Path(__file__).resolve().parent / "bots"
HEURISTIC = PROJECT_ROOT / "bots" / "reference" / "moonrollers_heuristic.py"


def rotated_set(size: int, seed: int = 7, first_key: int = 100) -> list[SetMatch]:
    """`size` matches between bot 0 and bot 1, seats alternating, two matches per seed."""
    return [
        SetMatch(key=first_key + i, seed=seed + i // 2, seats=[0, 1] if i % 2 == 0 else [1, 0])
        for i in range(size)
    ]


def play_sandboxed_set(launcher, game, bot_files, specs, limits=FAST):
    bots = [BotProcess(launcher.launch(path, limits), limits, len(specs)) for path in bot_files]
    uids = [bot.process.uid for bot in bots]  # type: ignore[attr-defined]
    return play_set(game, specs, bots, limits.match_seconds), uids


def hostile_seat(spec: SetMatch) -> int:
    return spec.seats.index(0)


@pytest.mark.parametrize("name", sorted(FORFEITS))
def test_hostile_bot_is_contained_in_a_set(name, launcher, game, tmp_path):
    setup = prepare(name, tmp_path)
    specs = rotated_set(2)
    outcomes, uids = play_sandboxed_set(launcher, game, [setup.bot, RANDOM_BOT], specs)
    expected = FORFEITS[name]
    for spec, outcome in zip(specs, outcomes, strict=True):
        mine, theirs = hostile_seat(spec), 1 - hostile_seat(spec)
        if expected is None:
            assert mine not in outcome.forfeits, outcome.forfeits
        else:
            assert mine in outcome.forfeits, f"{name} was not stopped in match {spec.key}"
            assert re.search(expected, outcome.forfeits[mine]), outcome.forfeits[mine]
            outcome.forfeits[mine].encode("utf-8")  # storable: no lone surrogate of the bot's
            assert outcome.ranks[mine] == max(outcome.ranks)
        # The random bot's process played every match of the set to the end.
        assert theirs not in outcome.forfeits, outcome.forfeits
        assert outcome.decisions > 1 and outcome.result["ranks"]
        assert all(CANARY not in text and "LEAK" not in text for text in outcome.stderr)
    assert_nothing_left(uids)
    assert_launcher_serves(launcher)


@pytest.mark.parametrize("mode", ["exit", "stall"])
def test_a_bot_misbehaving_only_in_its_third_match(mode, launcher, game, tmp_path):
    source = (SET_BOTS / "crash_in_third_match.py").read_text()
    bot = tmp_path / "third.py"
    bot.write_text(source.replace('MODE = "exit"', f'MODE = "{mode}"'))
    specs = rotated_set(5)
    outcomes, uids = play_sandboxed_set(launcher, game, [bot, RANDOM_BOT], specs)
    third = outcomes[2].forfeits
    assert hostile_seat(specs[2]) in third
    if mode == "exit":
        # The process is gone: every match it was still playing is lost, with the reason.
        assert "exited with status 7" in third[hostile_seat(specs[2])]
        for spec, outcome in zip(specs, outcomes, strict=True):
            assert outcome.forfeits.keys() == {hostile_seat(spec)}, outcome.forfeits
    else:
        # A timeout forfeits that match only; the others play on to their end.
        assert "timed out" in third[hostile_seat(specs[2])]
        for index, (spec, outcome) in enumerate(zip(specs, outcomes, strict=True)):
            assert bool(outcome.forfeits) == (index == 2), (index, outcome.forfeits)
            assert 1 - hostile_seat(spec) not in outcome.forfeits
    assert_nothing_left(uids)


def test_matches_finished_before_a_crash_keep_their_results(launcher, game, tmp_path):
    """Matches of a set end at different times: those over before the crash stand."""
    bot = tmp_path / "late_crash.py"
    bot.write_text(
        "import os\n"
        "ended = []\n"
        "class Bot:\n"
        "    def act(self, o, legal):\n"
        "        if len(ended) >= 2:\n"
        "            os._exit(9)\n"
        "        return legal[0]\n"
        "    def end(self, result):\n"
        "        ended.append(result)\n"
    )
    specs = rotated_set(6)
    outcomes, uids = play_sandboxed_set(launcher, game, [bot, RANDOM_BOT], specs)
    standing = [o for o in outcomes if not o.forfeits]
    lost = [o for o in outcomes if o.forfeits]
    assert len(standing) >= 2 and lost
    for outcome in lost:
        assert all("exited with status 9" in reason for reason in outcome.forfeits.values())
    assert_nothing_left(uids)


def test_an_answer_with_another_matchs_id_forfeits_that_request(launcher, game, tmp_path):
    specs = rotated_set(3)
    outcomes, uids = play_sandboxed_set(
        launcher, game, [SET_BOTS / "wrong_match_id.py", RANDOM_BOT], specs
    )
    forged = outcomes[1].forfeits
    assert forged.keys() == {hostile_seat(specs[1])}
    assert "answered for match 100, which it was not asked about" in forged[hostile_seat(specs[1])]
    # The forged id named a real match of the set: that match was not touched by it.
    assert not outcomes[0].forfeits and not outcomes[2].forfeits
    assert_nothing_left(uids)


def test_an_error_while_handling_a_bots_output_forfeits_that_bot_not_the_set(
    launcher, game, tmp_path, monkeypatch
):
    """Whatever the referee fails on while handling one bot's line is charged to that bot:
    here the decoder is made to fail on one marker, standing for a bug not yet known."""
    import workers.play.bot_process as bot_process

    decode = bot_process.decode_line

    def failing(line):
        if b"referee-bug" in line:
            raise RuntimeError("a bug in the referee")
        return decode(line)

    monkeypatch.setattr(bot_process, "decode_line", failing)
    bot = tmp_path / "trigger.py"
    bot.write_text(
        "import os\n"
        "def act(o, legal):\n"
        "    os.write(1, b'{\"referee-bug\": 1}\\n')\n"
        "    return legal[0]\n"
    )
    specs = rotated_set(3)
    outcomes, uids = play_sandboxed_set(launcher, game, [bot, RANDOM_BOT], specs)
    for spec, outcome in zip(specs, outcomes, strict=True):
        assert outcome.forfeits.keys() == {hostile_seat(spec)}, outcome.forfeits
        reason = outcome.forfeits[hostile_seat(spec)]
        assert reason == "its output could not be handled (RuntimeError)"
        assert outcome.result["ranks"]
    assert_nothing_left(uids)


def one_by_one(game: str, specs: list[SetMatch], files: list[Path], launcher) -> list[MatchOutcome]:
    played = []
    for spec in specs:
        players = [ProcessPlayer(launcher.launch(files[i], FAST), FAST) for i in spec.seats]
        played.append(play_match(game, spec.seed, players))
    return played


def test_a_set_gives_the_results_and_replays_of_its_matches_played_one_by_one(launcher, game):
    specs = rotated_set(6, seed=11)
    files = [HEURISTIC if game == "moonrollers" else RANDOM_BOT, RANDOM_BOT]
    together, _ = play_sandboxed_set(launcher, game, files, specs)
    alone = one_by_one(game, specs, files, launcher)
    in_process = play_set(game, specs, [InProcessBot(load_bot(str(f))) for f in files])
    for a, b, c in zip(together, alone, in_process, strict=True):
        assert (
            (a.ranks, a.scores, a.forfeits)
            == (b.ranks, b.scores, b.forfeits)
            == (
                c.ranks,
                c.scores,
                c.forfeits,
            )
        )
        assert a.record == b.record == c.record
        assert a.decisions == b.decisions
        engine.replay(a.record)


def test_a_set_of_one_is_the_single_match_path(launcher, game):
    players = [ProcessPlayer(launcher.launch(RANDOM_BOT, FAST), FAST) for _ in range(2)]
    single = play_match(game, 5, players)
    inside = play_match(game, 5, [InProcessPlayer(load_bot(str(RANDOM_BOT))) for _ in range(2)])
    assert single.record == inside.record and not single.forfeits


def test_bots_started_side_by_side_outlive_the_threads_that_started_them(launcher, game):
    """`launch_all` starts a set's bots from short-lived threads: a process whose parent
    thread has ended must keep running (no parent-death signal tied to that thread), in
    the order asked, and close side by side leaving nothing behind."""
    processes = launch_all(launcher, [RANDOM_BOT, HEURISTIC], FAST)
    assert all(isinstance(p, subprocess.Popen | ForkedSandbox) for p in processes)
    time.sleep(0.3)  # the starting threads are long gone
    assert [p.poll() for p in processes] == [None, None]  # type: ignore[union-attr]
    bots = [BotProcess(p, FAST, 4) for p in processes]  # type: ignore[arg-type]
    specs = rotated_set(4)
    uids = [bot.process.uid for bot in bots]  # type: ignore[attr-defined]
    played = play_set(game, specs, bots, FAST.match_seconds)
    assert not any(outcome.forfeits for outcome in played)
    inside = play_set(
        game, specs, [InProcessBot(load_bot(str(p))) for p in (RANDOM_BOT, HEURISTIC)]
    )
    assert [o.record for o in played] == [o.record for o in inside]
    assert_nothing_left(uids)  # closed side by side: nothing left of either sandbox


def test_a_start_that_fails_is_returned_in_its_place_not_raised():
    class HalfBroken:
        name = "half"

        def check(self) -> None: ...

        def launch(self, bot_path, limits):
            if bot_path.name == "bad.py":
                raise OSError("no room")
            return subprocess.Popen(["true"])

    started = launch_all(HalfBroken(), [Path("a.py"), Path("bad.py"), Path("c.py")], FAST)
    assert isinstance(started[1], OSError) and str(started[1]) == "no room"
    assert [p.wait() for p in (started[0], started[2])] == [0, 0]  # type: ignore[union-attr]


@pytest.mark.parametrize("game", engine.game_names())
def test_a_search_bot_plays_a_set_within_its_limits(game, launcher):
    """Every game's search bot imports what it needs of the SDK (worlds, search, fitted
    standings), mounted read-only in the sandbox, and keeps to half its move limit."""
    limits = Limits(move_seconds=0.05, time_bank_seconds=1.0, match_seconds=120.0)
    bots = [
        BotProcess(launcher.launch(path, limits.for_set(2)), limits, 2)
        for path in (builtin_path("search", game), RANDOM_BOT)
    ]
    uids = [bot.process.uid for bot in bots]  # type: ignore[attr-defined]
    outcomes = play_set(game, rotated_set(2), bots, limits.match_seconds)
    for outcome in outcomes:
        assert outcome.forfeits == {}, (outcome.forfeits, outcome.stderr)
        assert outcome.result["ranks"]
    assert_nothing_left(uids)


def test_cpu_seconds_are_a_matchs_so_a_set_gets_them_for_each_match(launcher, tmp_path):
    """A bot spending 0.7 s of CPU in each of three matches stays within cpu_seconds=1 a
    match, though the set's one process spends 2.1 s in all (per process, it was killed)."""
    burner = tmp_path / "burner.py"
    burner.write_text(
        "import time\n"
        "class Bot:\n"
        "    def setup(self, info):\n"
        "        end = time.process_time() + 0.7\n"
        "        while time.process_time() < end:\n"
        "            pass\n"
        "    def act(self, observation, legal_actions):\n"
        "        return legal_actions[0]\n"
    )
    burner.chmod(0o644)
    limits = Limits(move_seconds=2.0, time_bank_seconds=5.0, startup_seconds=10.0, cpu_seconds=2)
    specs = rotated_set(3)
    bots = [
        BotProcess(launcher.launch(path, limits.for_set(len(specs))), limits, len(specs))
        for path in (burner, RANDOM_BOT)
    ]
    outcomes = play_set("moonrollers", specs, bots, limits.match_seconds)
    assert [outcome.forfeits for outcome in outcomes] == [{}, {}, {}], [
        outcome.stderr for outcome in outcomes
    ]
    assert Limits(cpu_seconds=120).for_set(16).cpu_seconds == 1920
    assert Limits(cpu_seconds=3000).for_set(16).cpu_seconds == 3600  # the range's top
