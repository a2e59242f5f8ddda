"""The `arena` command, run as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ARENA = [sys.executable, "-m", "workers.cli"]
ROOT = Path(__file__).resolve().parents[2]


def arena(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*ARENA, *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT
    )


def test_play_json_reports_games_seconds_decisions_and_each_bot():
    done = arena("play", "--game", "moonrollers", "--games", "4", "--json", "random", "first")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["games"] == 4
    assert report["decisions"] > 0 and report["seconds"] > 0
    assert [bot["name"] for bot in report["bots"]] == ["random", "first"]
    assert sum(bot["wins"] for bot in report["bots"]) >= 4
    for bot in report["bots"]:
        assert set(bot) >= {"wins", "mean_rank", "mean_score"}


def test_saved_replay_reproduces_and_a_tampered_one_does_not(tmp_path):
    saved = tmp_path / "game.json"
    done = arena("play", "--game", "moonrollers", "--save-replay", str(saved), "random", "random")
    assert done.returncode == 0, done.stderr
    good = arena("replay", str(saved))
    assert good.returncode == 0
    assert "reproduces" in good.stdout
    record = json.loads(saved.read_text())
    record["result"]["scores"][0] += 1
    saved.write_text(json.dumps(record))
    bad = arena("replay", str(saved))
    assert bad.returncode == 1
    assert "does not reproduce" in bad.stdout


def test_bench_json_gives_rates_per_player_count():
    done = arena("bench", "--game", "moonrollers", "--seconds", "0.2", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["decisions_per_s"] > 0
    assert set(report["players"]) == {"2", "3", "4", "5"}
    assert all(c["games_per_s"] > 0 for c in report["players"].values())


def one_line_error(done: subprocess.CompletedProcess[str], text: str) -> None:
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and text in lines[0], done.stderr


def test_unknown_game_is_one_clear_line():
    one_line_error(arena("play", "--game", "chess", "random", "random"), "unknown game 'chess'")


def test_wrong_player_count_is_one_clear_line():
    one_line_error(arena("play", "--game", "moonrollers", "random"), "takes 2-5 players, not 1")


def test_broken_bot_file_is_one_clear_line(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("def act(:\n")
    one_line_error(
        arena("play", "--game", "moonrollers", str(broken), "random"), "not valid Python"
    )
    one_line_error(arena("play", "--game", "moonrollers", "nobody", "random"), "neither a built-in")


def test_play_runs_a_bot_file_only_in_the_sandbox_never_in_the_callers_process(tmp_path):
    # The file's top level leaves a marker where the caller can see it and prints to
    # stdout; in the sandbox the folder is not there (the write fails quietly) and the
    # print goes to the bot's stderr, so neither may reach the caller.
    marker = tmp_path / "ran-outside-the-sandbox"
    bot = tmp_path / "marker_bot.py"
    bot.write_text(
        "print('top-level code ran here')\n"
        "try:\n"
        f"    open({str(marker)!r}, 'w').write('ran')\n"
        "except OSError:\n"
        "    pass\n"
        "def act(observation, legal_actions):\n"
        "    return legal_actions[0]\n"
    )
    done = arena("play", "--game", "moonrollers", "--games", "2", "--json", str(bot), "random")
    assert done.returncode == 0, done.stderr
    assert not marker.exists()
    report = json.loads(done.stdout)
    assert [b["name"] for b in report["bots"]] == ["marker_bot.py", "random"]
    assert report["decisions"] > 0
    assert [b["forfeits"] for b in report["bots"]] == [0, 0]


def test_a_bot_file_without_act_or_bot_is_one_clear_line_without_running_it(tmp_path):
    marker = tmp_path / "ran"
    bot = tmp_path / "no_entry.py"
    bot.write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    one_line_error(
        arena("play", "--game", "moonrollers", str(bot), "random"),
        "defines neither act(observation, legal_actions) nor class Bot",
    )
    assert not marker.exists()


def test_a_bot_file_that_fails_while_loading_forfeits_in_the_sandbox(tmp_path):
    bot = tmp_path / "raises.py"
    bot.write_text("1 / 0\ndef act(observation, legal_actions):\n    return legal_actions[0]\n")
    done = arena("play", "--game", "moonrollers", "--games", "2", str(bot), "random")
    assert done.returncode == 0, done.stderr
    assert "raises.py last forfeit: the bot failed while loading: ZeroDivisionError" in (
        done.stdout
    )


def test_unreadable_replay_is_one_clear_line(tmp_path):
    one_line_error(arena("replay", str(tmp_path / "missing.json")), "cannot read")


def test_illegal_action_from_a_bot_file_is_a_recorded_forfeit(tmp_path):
    cheat = tmp_path / "cheat.py"
    cheat.write_text("def act(o, legal):\n    return 'win-now'\n")
    done = arena("play", "--game", "moonrollers", "--isolation", "process", str(cheat), "random")
    assert done.returncode == 0, done.stderr
    assert "illegal action" in done.stdout


def test_cooperative_play_reports_team_successes_not_shared_wins():
    done = arena(
        "play", "--game", "moon_adventure", "--games", "3", "--json", "heuristic", "random"
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert 0 <= report["successes"] <= 3
    assert report["success_rate"] == round(report["successes"] / 3, 4)
    for bot in report["bots"]:
        assert bot["successes"] == report["successes"]


@pytest.mark.parametrize(
    "argv",
    [
        ["--json", "--runs", "3"],
        ["--", "--json", "--runs", "3"],
        ["--", "--", "--json", "--runs", "3"],
    ],
)
def test_bench_sandbox_takes_its_options_with_or_without_separators(argv):
    from workers.bench.sandbox import parse_args

    args = parse_args(argv)
    assert args.json is True and args.runs == 3


def test_bench_sandbox_refuses_an_unknown_option_with_a_usage_line(capsys):
    from workers.bench.sandbox import parse_args

    with pytest.raises(SystemExit) as exited:
        parse_args(["--runz", "3"])
    assert exited.value.code == 2
    assert "unrecognized arguments: --runz" in capsys.readouterr().err
