"""The guide (docs/, mkdocs.yml) and the README: a strict build, a short front door, and
documents that say what is true now rather than keep a diary.

`mkdocs build --strict` fails on a link to a page or anchor that does not exist, on a page
left out of the navigation, and on an included file (the games' rules pages include
engine/games/<game>/README.md) that is missing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
README_MAX_LINES = 200


def _build(site: Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    # Not --quiet: mkdocs then drops the warnings before --strict counts them, and a
    # broken link builds "cleanly".
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1"},
    )


def test_the_guide_builds_strictly(tmp_path):
    result = _build(tmp_path / "site")
    assert result.returncode == 0, result.stdout + result.stderr
    rules = tmp_path / "site" / "bot-authors" / "games" / "moonrollers-rules" / "index.html"
    # The included engine README, not the include line, is what the page shows.
    assert "A-3" in rules.read_text() and "--8&lt;--" not in rules.read_text()


def _copy_of_the_guide(tmp_path: Path) -> Path:
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "docs", copy / "docs")
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    for readme in (ROOT / "engine" / "games").glob("*/README.md"):
        target = copy / readme.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(readme, target)
    return copy


@pytest.mark.slow
def test_a_broken_link_or_a_page_missing_from_the_navigation_fails_the_build(tmp_path):
    copy = _copy_of_the_guide(tmp_path)
    assert _build(tmp_path / "ok", cwd=copy).returncode == 0

    page = copy / "docs" / "bot-authors" / "protocol.md"
    original = page.read_text()
    page.write_text(original + "\nSee [the missing page](no-such-page.md).\n")
    broken = _build(tmp_path / "broken", cwd=copy)
    assert broken.returncode != 0 and "no-such-page.md" in broken.stdout + broken.stderr

    page.write_text(original + "\nSee [the SDK](sdk.md#no-such-heading).\n")
    assert _build(tmp_path / "anchor", cwd=copy).returncode != 0

    page.write_text(original)
    (copy / "docs" / "orphan.md").write_text("# A page nobody links\n")
    orphan = _build(tmp_path / "orphan", cwd=copy)
    assert orphan.returncode != 0 and "orphan.md" in orphan.stdout + orphan.stderr


def test_the_readme_is_a_short_front_door_whose_links_exist():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) < README_MAX_LINES
    assert "make run" in readme and "make test" in readme
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme)
    assert targets, "the README links into the guide"
    missing = [t for t in targets if not t.startswith("http") and not (ROOT / t).exists()]
    assert not missing, f"README links to files that do not exist: {missing}"


def _documents() -> list[Path]:
    return [
        ROOT / "README.md",
        *sorted((ROOT / "docs").rglob("*.md")),
        # Included into the guide's rules pages.
        *sorted((ROOT / "engine" / "games").glob("*/README.md")),
    ]


# "session" in its ordinary meanings: a login (or database) session, and longer words or
# names that contain it (possession, SessionAuthentication, idle_in_transaction_session_timeout).
ORDINARY_SESSION = re.compile(
    r"(login|database|browser)\s+sessions?\b|sessions?\s+cookies?\b", re.I
)


def _diary_sessions(text: str) -> list[str]:
    found = []
    for match in re.finditer(r"session", text, re.I):
        start, end = match.start(), match.end()
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
            start -= 1
        while end < len(text) and (text[end].isalnum() or text[end] == "_"):
            end += 1
        word = text[start:end]
        if word.lower() not in {"session", "sessions"}:
            continue  # part of a longer word or a name
        context = text[max(0, start - 20) : end + 10]
        if not ORDINARY_SESSION.search(context):
            found.append(context.replace("\n", " "))
    return found


def test_the_documents_keep_no_diary_of_sessions():
    offending = {
        str(path.relative_to(ROOT)): hits
        for path in _documents()
        if (hits := _diary_sessions(path.read_text()))
    }
    assert not offending, f"'session' outside its ordinary meanings: {offending}"


def test_the_diary_check_tells_a_diary_from_ordinary_words():
    assert _diary_sessions("Measured in session 8, and again this session.")
    assert _diary_sessions("Sessions 9-14 made it faster.")
    assert not _diary_sessions("Signs login sessions; SessionAuthentication; in their possession.")
    assert not _diary_sessions("idle_in_transaction_session_timeout, a database session")


def test_the_game_examples_are_what_the_engine_sends_today():
    module = load_script("observation_example")
    for game, (players, moves) in module.EXAMPLES.items():
        path = module.EXAMPLES_DIR / f"{game}.json"
        assert path.read_text() == module.example(game, players, moves), (
            f"{path.relative_to(ROOT)} is stale: run python scripts/observation_example.py --write"
        )
