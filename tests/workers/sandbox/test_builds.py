"""Builds in the real build sandbox: what a failed build tells its author, its limits, and
that what it leaves is the artefact a bot then plays from.

The hostile builds (network, writes outside the scratch folder, compiler bombs) are in
tests/workers/sandbox/test_hostile_native.py.
"""

from __future__ import annotations

import hashlib
import os

import pytest

from arena.languages import manifest_for_file, parse_manifest
from tests.workers.sandbox.conftest import FAST, TEST_UID_BASE, pick_game
from workers.play.smoke import smoke_test
from workers.sandbox import artifacts
from workers.sandbox.bubblewrap import BubblewrapLauncher
from workers.sandbox.builds import build
from workers.sandbox.native import BuildLimits
from workers.sandbox.process import processes_of_uid

# Answers each request with its first legal action, cut from the line as text: a bot with
# no JSON library, so that the test is about the build and the walls, not a parser.
FIRST_ACTION_CPP = rb"""
#include <iostream>
#include <string>
int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find("\"type\":\"act\"") == std::string::npos) continue;
        size_t start = line.find("\"legal_actions\":[") + 17, end = start;
        int depth = 0; bool quoted = false;
        for (; end < line.size(); ++end) {
            char c = line[end];
            if (quoted) { if (c == '\\') ++end; else if (c == '"') quoted = false; continue; }
            if (c == '"') quoted = true;
            else if (c == '[' || c == '{') ++depth;
            else if ((c == ']' || c == '}') && depth-- == 0) break;
            else if (c == ',' && depth == 0) break;
        }
        size_t key = line.find("\"match\":");
        std::string match = line.substr(key + 8, line.find(',', key) - key - 8);
        std::cout << "{\"match\":" << match << ",\"action\":" << line.substr(start, end - start)
                  << "}" << std::endl;
    }
}
"""


@pytest.fixture(scope="module")
def launcher():
    # Uids of its own, past the other sandbox tests' (whose zygote lanes live on in
    # theirs), so that "nothing left" means nothing left by these builds.
    base = TEST_UID_BASE + 640 + (os.getpid() % 8) * 16
    sandbox = BubblewrapLauncher(uid_base=base, uid_count=16, use_lanes=False)
    sandbox.check(FAST)
    return sandbox


def assert_uids_clean(launcher) -> None:
    leftovers = {uid: processes_of_uid(uid) for uid in launcher._uids}
    assert not any(leftovers.values()), leftovers


def test_a_compile_error_comes_back_as_the_compilers_own_message(launcher):
    manifest = manifest_for_file("bot.cpp")
    built = build(launcher, {"bot.cpp": b"int main() { return undeclared_name; }\n"}, manifest)
    assert not built.ok
    assert "bot.cpp:1:" in built.log and "undeclared_name" in built.log
    assert built.log.endswith("--- the build failed (exit status 1)")
    assert_uids_clean(launcher)


def test_a_build_that_runs_past_its_time_is_stopped_and_leaves_nothing(launcher):
    manifest = parse_manifest(
        b'language = "cpp"\nbuild = "echo compiling; while :; do :; done"\n',
        {"arena.toml", "bot.cpp"},
    )
    built = build(launcher, {"bot.cpp": b""}, manifest, BuildLimits(seconds=1.5))
    assert not built.ok
    assert built.log.startswith("compiling") and "took longer than 1.5 s" in built.log
    assert built.seconds < 10
    assert_uids_clean(launcher)
    assert not [n for n in os.listdir("/dev/shm") if n.startswith(f"arena-build-p{os.getpid()}-")]


def test_a_build_must_leave_an_executable_bot_and_a_link_named_bot_is_not_followed(launcher):
    names = {"arena.toml", "bot.cpp"}
    nothing = parse_manifest(b'language = "cpp"\nbuild = "true"\n', names)
    assert "did not leave an executable 'bot'" in build(launcher, {"bot.cpp": b""}, nothing).log
    link = parse_manifest(b'language = "cpp"\nbuild = "ln -s /etc/shadow bot"\n', names)
    built = build(launcher, {"bot.cpp": b""}, link)
    assert not built.ok and "did not leave an executable 'bot'" in built.log


def test_the_same_source_builds_to_the_same_artefact_which_plays_its_smoke_match(launcher):
    manifest = manifest_for_file("bot.cpp")
    first = build(launcher, {"bot.cpp": FIRST_ACTION_CPP}, manifest)
    second = build(launcher, {"bot.cpp": FIRST_ACTION_CPP}, manifest)
    assert first.ok, first.log
    assert first.artifact == second.artifact  # stored once (arena.models.BuildArtifact)
    folder = artifacts.unpacked(hashlib.sha256(first.artifact).hexdigest(), lambda: first.artifact)
    assert (folder / "files" / "bot").stat().st_mode & 0o111
    assert (folder / "files" / "bot.cpp").read_bytes() == FIRST_ACTION_CPP
    reason = smoke_test(
        pick_game(), FIRST_ACTION_CPP, "bot.cpp", launcher=launcher, artifact=first.artifact
    )
    assert reason is None
    assert_uids_clean(launcher)


def test_a_bot_that_prints_and_dies_is_rejected_with_its_stderr(launcher):
    source = b'#include <cstdio>\nint main() { std::fprintf(stderr, "no luck\\n"); return 4; }\n'
    built = build(launcher, {"bot.cpp": source}, manifest_for_file("bot.cpp"))
    assert built.ok, built.log
    reason = smoke_test(pick_game(), source, "bot.cpp", launcher=launcher, artifact=built.artifact)
    assert reason is not None and "status 4" in reason and "no luck" in reason


def test_a_build_whose_folder_passes_its_output_cap_is_stopped_while_it_runs(launcher):
    # File after file, each under the file-size limit: the folder itself is measured.
    command = "i=0; while :; do head -c 1048576 /dev/zero > f$i; i=$((i+1)); done"
    manifest = parse_manifest(
        f'language = "cpp"\nbuild = "{command}"\n'.encode(), {"arena.toml", "bot.cpp"}
    )
    built = build(launcher, {"bot.cpp": b""}, manifest, BuildLimits(seconds=30, output_mb=4))
    assert not built.ok
    assert "the build was stopped: its folder passed 4 MB" in built.log
    assert built.seconds < 10
    assert_uids_clean(launcher)
