"""The starter kits in C++, Rust, Go, Java and JavaScript, built and run for real.

Each kit is written out with `write_kit`, built once with the arena's default command
(real compilers, nothing from the network), and then plays a whole match in every seat
through the referee: no forfeit, and the observation field it reads is in its stderr.
The protocol libraries are also driven by hand with awkward JSON (escapes, non-ASCII,
big and negative numbers, nesting, interleaved matches, a 1 MiB line): every action
must come back as the same JSON value.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

import engine
from bots.sdk.kits import LANGUAGES, STARTERS_DIR, KitError, kit_files, write_kit
from workers.play.players import ProcessPlayer
from workers.play.referee import play_match
from workers.sandbox.limits import Limits

pytestmark = pytest.mark.slow

COMPILED = ("cpp", "rust", "go", "java", "javascript")
GAMES = ("moonrollers", "moonrakers", "moon_adventure", "moon_bots")
GO_ENV = {"GO111MODULE": "off", "GOCACHE": "/tmp/gocache", "HOME": "/tmp", "GOFLAGS": ""}
# What each starter logs on a match's first move, "<game> seat <n>: <field>=<value>".
LOGGED_FIELD = {
    "moonrollers": "turn.phase",
    "moonrakers": "pending",
    "moon_adventure": "phase",
    "moon_bots": "decision.kind",
}


def build_command(language: str, folder: Path) -> list[str]:
    """The arena's default build, with the tools by their absolute paths."""
    if language == "cpp":
        sources = sorted(path.name for path in folder.glob("*.cpp"))
        return ["/usr/bin/g++", "-O2", "-std=c++17", "-pipe", "-o", "bot", *sources]
    if language == "rust":
        return ["/usr/bin/rustc", "-O", "--edition", "2021", "-o", "bot", "main.rs"]
    if language == "go":
        sources = sorted(path.name for path in folder.glob("*.go"))
        return ["/usr/bin/go", "build", "-o", "bot", *sources]
    if language == "java":
        sources = sorted(path.name for path in folder.glob("*.java"))
        return ["/usr/bin/javac", "-d", ".", *sources]
    return []  # javascript: node runs the source


def run_command(language: str) -> list[str]:
    if language == "java":
        return ["/usr/bin/java", "-cp", ".", "Bot"]
    if language == "javascript":
        return ["/usr/bin/node", "bot.js"]
    return ["./bot"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """build(game, language) -> the folder of the kit, written and built once."""
    folders: dict[tuple[str, str], Path] = {}

    def build(game: str, language: str) -> Path:
        if (game, language) not in folders:
            folder = tmp_path_factory.mktemp(f"{language}-{game}")
            write_kit(game, language, folder)
            command = build_command(language, folder)
            if command:
                env = {**os.environ, **GO_ENV} if language == "go" else None
                done = subprocess.run(
                    ["nice", "-n", "10", *command], cwd=folder, env=env, capture_output=True
                )
                assert done.returncode == 0, done.stderr.decode(errors="replace")
            folders[game, language] = folder
        return folders[game, language]

    return build


def start(language: str, folder: Path) -> subprocess.Popen[bytes]:
    pipe = subprocess.PIPE
    return subprocess.Popen(run_command(language), stdin=pipe, stdout=pipe, stderr=pipe, cwd=folder)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", COMPILED)
def test_a_kit_plays_a_whole_match_in_every_seat(built, language, game):
    folder = built(game, language)
    seats = engine.get_game(game).min_players
    players = [ProcessPlayer(start(language, folder), Limits()) for _ in range(seats)]
    outcome = play_match(game, 3, players)
    assert outcome.forfeits == {}, outcome.stderr
    assert outcome.decisions > 0
    for seat, stderr in enumerate(outcome.stderr):
        logged = re.findall(rf"{game} seat {seat}: {re.escape(LOGGED_FIELD[game])}=\w+", stderr)
        assert len(logged) == 1, stderr  # once a match, not once a move


TRICKY_STRINGS = [
    "",
    'quote " backslash \\ slash / and \b\f\n\r\t',
    "controls \x00\x01\x1f\x7f",
    "accents é ü ß, 中文, emoji 😀 🚀, a BMP edge \uffff",
]
TRICKY_NUMBERS = [0, -1, 42, -(2**31), 2**53, 1.5, -0.25, 1e-7, 6.02e23, -1.5e300, 0.1, 2.0]
BIG_INTEGERS = [2**53 + 1, 2**63 - 1, -(2**63)]  # beyond JavaScript's exact integers
TRICKY_NESTED = [
    [],
    {},
    [[[[]]]],
    {"b": 1, "a": [True, False, None], "": {"x": {"y": [1, "two", 3.5]}}},
    ["lock", "wild", 2, {"ability": "meg_gallak"}],
    {"z": "last key first", 'key "with" escapes \u00e9': [-0.5, {"k": []}]},
]


def tricky_values(language: str) -> list:
    values = TRICKY_STRINGS + TRICKY_NUMBERS + TRICKY_NESTED + [True, False, None]
    return values if language == "javascript" else values + BIG_INTEGERS


def same_json(language: str, sent, received) -> bool:
    """The very same JSON value; JavaScript has one number type, so 2.0 comes back as 2."""
    if language == "javascript":
        return sent == received
    return json.dumps(sent) == json.dumps(received)


@pytest.mark.parametrize("language", COMPILED)
def test_a_kit_answers_with_the_legal_action_it_was_given(built, language):
    """One legal action each time, so the starter must send back exactly that value; the
    matches interleave and carry match keys of every kind, echoed verbatim."""
    folder = built("moonrollers", language)
    observation = {"seat": 0, "turn": {"phase": "crew"}, "display": [], "note": 'ü \\ "'}
    values = tricky_values(language)
    matches = [7, "set-1/match-2", {"set": 3, "keys": [1, "é"]}, -1]
    lines = [json.dumps({"type": "start", "match": match, "seat": 0}) for match in matches]
    expected = []
    for index, value in enumerate(values):
        match = matches[index % len(matches)]
        request = {"type": "act", "match": match, "observation": observation}
        request["legal_actions"] = [value]
        # Half the lines escape non-ASCII text (\uXXXX, surrogate pairs), half send UTF-8.
        lines.append(json.dumps(request, ensure_ascii=index % 2 == 0))
        expected.append((match, value))
    big = {**observation, "padding": "x" * (1 << 20)}  # a line of over 1 MiB
    lines.append(json.dumps({"type": "act", "match": 7, "observation": big, "legal_actions": [1]}))
    expected.append((7, 1))
    lines += [json.dumps({"type": "end", "match": match, "result": {}}) for match in matches]
    done = subprocess.run(
        run_command(language),
        input=("\n".join(lines) + "\n").encode(),
        cwd=folder,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    replies = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(replies) == len(expected)
    for reply, (match, value) in zip(replies, expected, strict=True):
        assert list(reply) == ["match", "action"]
        assert json.dumps(reply["match"]) == json.dumps(match)
        assert same_json(language, value, reply["action"]), (value, reply["action"])


@pytest.mark.parametrize("language", COMPILED)
def test_a_message_without_a_match_is_a_single_match_typed_by_hand(built, language):
    folder = built("moonrollers", language)
    observation = {"seat": 1, "turn": {"phase": "lock"}, "display": [{}, {}]}
    lines = [
        {"type": "start", "seat": 1, "players": 2},
        {"type": "act", "observation": observation, "legal_actions": [["roll"]]},
        {"type": "end", "result": {"ranks": [1, 0]}},
        {"type": "act", "observation": observation, "legal_actions": ["after the end"]},
    ]
    done = subprocess.run(
        run_command(language),
        input="".join(json.dumps(line) + "\n" for line in lines).encode(),
        cwd=folder,
        capture_output=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert [json.loads(line) for line in done.stdout.decode().splitlines()] == [
        {"action": ["roll"]}
    ]
    assert "moonrollers seat 1: turn.phase=lock, 2 crew cards on display" in done.stderr.decode()


@pytest.mark.parametrize("language", COMPILED)
def test_a_line_that_is_not_json_ends_the_bot_with_an_error(built, language):
    folder = built("moonrollers", language)
    done = subprocess.run(
        run_command(language),
        input=b'{"type": "start", "match": 4}\n{"type": "act", "match": 4, \n',
        cwd=folder,
        capture_output=True,
        timeout=30,
    )
    assert done.returncode == 1
    assert json.loads(done.stdout.decode()) == {"error": "the referee sent a line that is not JSON"}


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_kit_files_hold_the_library_the_starter_and_the_manifest(language):
    files = kit_files("moon_bots", language)
    entry = LANGUAGES[language].entry
    assert f'language = "{language}"' in files["arena.toml"].decode()
    assert f'entry = "{entry}"' in files["arena.toml"].decode()
    if language == "python":
        assert files == {
            "bot.py": (STARTERS_DIR / "moon_bots.py").read_bytes(),
            "arena.toml": files["arena.toml"],
        }
    else:
        assert b"moon_bots seat" in files[entry]
        assert len(files) >= 3  # the library beside the bot and the manifest


def test_write_kit_refuses_to_overwrite_and_names_what_is_wrong(tmp_path):
    written = write_kit("moonrakers", "rust", tmp_path / "bot")
    assert sorted(path.name for path in written) == ["arena.rs", "arena.toml", "main.rs"]
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "main.rs").write_text("mine")
    with pytest.raises(KitError, match="not overwriting existing files: .*main.rs"):
        write_kit("moonrakers", "rust", tmp_path / "other")
    assert sorted(os.listdir(tmp_path / "other")) == ["main.rs"]  # nothing else written
    assert (tmp_path / "other" / "main.rs").read_text() == "mine"
    with pytest.raises(KitError, match="unknown language 'cobol'"):
        kit_files("moonrakers", "cobol")
    with pytest.raises(KitError, match="unknown game 'chess'"):
        kit_files("chess", "go")
