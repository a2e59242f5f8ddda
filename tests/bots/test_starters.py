"""The starter bots and `arena new-bot`: legal play, better than random, files written.

Games are played in this process with the engine, each observation through JSON as the
referee sends it; a bot's exception or illegal answer (a forfeit in the arena) fails the
test. The seeds are fixed, so the margins over random play are the same on every run.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

import engine
from bots.sdk.runner import LoadedBot, load_bot
from bots.sdk.starters import (
    STARTERS_DIR,
    StarterError,
    add_command,
    starter_path,
    write_starter,
)

ROOT = Path(__file__).resolve().parents[2]
GAMES = engine.game_names()
RANDOM_FILE = str(ROOT / "bots" / "reference" / "random_bot.py")


@cache
def loaded(path: str) -> LoadedBot:
    # Loaded once: the starters keep no state between matches (class bots get a new
    # instance per match from for_match all the same).
    return load_bot(path)


def play(game: str, seed: int, files: list[str]) -> dict:
    """One game, seat i played by the bot file files[i]; returns the result."""
    state = engine.get_game(game).new_state(len(files), seed=seed)
    players: list[LoadedBot] = []
    for seat, path in enumerate(files):
        player = loaded(path).for_match()
        if player.setup:
            player.setup({"game": game, "seat": seat, "players": len(files), "seed": seed})
        players.append(player)
    while not state.is_terminal():
        seat = state.to_move()
        legal = state.legal_actions()
        observation = json.loads(json.dumps(state.observation(seat)))
        action = players[seat].act(observation, json.loads(json.dumps(legal)))
        assert action in legal, f"{game} seed {seed} seat {seat}: {action!r} is not legal"
        state.apply(action)
    return state.result()


def starter(game: str) -> str:
    return str(starter_path(game))


@pytest.mark.parametrize("game", GAMES)
def test_each_starter_plays_twenty_whole_games_legally(game):
    info = engine.get_game(game)
    for seed in range(20):
        players = info.min_players + seed % (info.max_players - info.min_players + 1)
        files = [
            starter(game) if seat == seed % players else RANDOM_FILE for seat in range(players)
        ]
        if info.cooperative:
            files = [starter(game)] * players
        result = play(game, seed, files)
        assert len(result["ranks"]) == players


@pytest.mark.parametrize("game", [g for g in GAMES if not engine.get_game(g).cooperative])
def test_each_competitive_starter_beats_random_play_clearly(game):
    # Two players, the starter in seat 0 on even seeds and seat 1 on odd ones. A shared
    # rank (Moonrakers often ends with nobody at 10 Prestige) is neither a win nor a loss.
    wins = losses = 0
    for seed in range(40):
        seat = seed % 2
        files = [starter(game), RANDOM_FILE] if seat == 0 else [RANDOM_FILE, starter(game)]
        ranks = play(game, seed, files)["ranks"]
        wins += ranks[seat] < ranks[1 - seat]
        losses += ranks[seat] > ranks[1 - seat]
    assert wins >= 20 and wins >= 4 * losses, (wins, losses)


def test_the_cooperative_starter_team_scores_far_above_a_random_team():
    game = next(g for g in GAMES if engine.get_game(g).cooperative)
    seeds = range(40)
    starters = [play(game, seed, [starter(game)] * 2)["team_score"] for seed in seeds]
    randoms = [play(game, seed, [RANDOM_FILE] * 2)["team_score"] for seed in seeds]
    assert sum(starters) >= sum(randoms) + 0.5 * len(seeds), (sum(starters), sum(randoms))


@pytest.mark.parametrize("game", GAMES)
def test_each_starter_stays_short_enough_to_read(game):
    assert len(starter_path(game).read_text().splitlines()) <= 120


def test_write_starter_writes_the_bot_a_readme_and_a_test(tmp_path):
    paths = write_starter("moonrollers", tmp_path / "new" / "folder")
    assert [p.name for p in paths] == ["bot.py", "README.md", "test_bot.py"]
    folder = tmp_path / "new" / "folder"
    assert (folder / "bot.py").read_text() == (STARTERS_DIR / "moonrollers.py").read_text()
    readme = (folder / "README.md").read_text()
    assert "arena play --game moonrollers --games 100 bot.py random" in readme
    assert "docs/bot-authors/games/moonrollers.md" in readme
    assert 'GAME = "moonrollers"' in (folder / "test_bot.py").read_text()


def test_write_starter_refuses_to_overwrite_and_then_writes_nothing(tmp_path):
    (tmp_path / "README.md").write_text("mine\n")
    with pytest.raises(StarterError, match=r"already holds README\.md: not overwritten"):
        write_starter("moon_bots", tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md"]
    assert (tmp_path / "README.md").read_text() == "mine\n"
    write_starter("moon_bots", tmp_path / "again")
    with pytest.raises(StarterError, match="bot.py, README.md, test_bot.py"):
        write_starter("moon_bots", tmp_path / "again")


def test_write_starter_refuses_an_unknown_game_and_a_file_as_folder(tmp_path):
    with pytest.raises(StarterError, match=r"unknown game 'chess' \(known: moon_adventure"):
        write_starter("chess", tmp_path)
    (tmp_path / "taken").write_text("")
    with pytest.raises(StarterError, match="exists and is not a folder"):
        write_starter("moonrollers", tmp_path / "taken")


def parser() -> argparse.ArgumentParser:
    arena = argparse.ArgumentParser(prog="arena")
    add_command(arena.add_subparsers(dest="command", required=True))
    return arena


def test_new_bot_command_writes_into_the_default_folder_and_reports(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    args = parser().parse_args(["new-bot", "moon_adventure"])
    assert args.handler(args) == 0
    out = capsys.readouterr().out
    assert "wrote moon_adventure_bot/bot.py" in out
    assert "arena play --game moon_adventure --games 100 bot.py bot.py" in out
    args = parser().parse_args(["new-bot", "moonrakers", "mine", "--json"])
    assert args.handler(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert report == {
        "game": "moonrakers",
        "folder": "mine",
        "files": ["mine/bot.py", "mine/README.md", "mine/test_bot.py"],
    }
    with pytest.raises(StarterError):
        args.handler(args)


@pytest.mark.parametrize("game", GAMES)
def test_the_written_test_passes_for_every_game(tmp_path, game, monkeypatch):
    write_starter(game, tmp_path)
    spec = importlib.util.spec_from_file_location(f"written_test_{game}", tmp_path / "test_bot.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.test_the_bot_plays_whole_games_legally()


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_written_test_passes_with_pytest_in_the_written_folder(tmp_path, game):
    write_starter(game, tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
