"""Each game's page explains its real example: every field of the observation is named
on the page, and every action of the example's list of legal actions is written out.

The examples are docs/bot-authors/games/examples/<game>.json, which
scripts/observation_example.py writes from the engine (tests/docs/test_guide.py checks
they are what the engine sends today); the pages include them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import engine

ROOT = Path(__file__).resolve().parents[2]
GAMES_DIR = ROOT / "docs" / "bot-authors" / "games"


def _page(game: str) -> str:
    return (GAMES_DIR / f"{game.replace('_', '-')}.md").read_text()


def _example(game: str) -> dict[str, Any]:
    return json.loads((GAMES_DIR / "examples" / f"{game}.json").read_text())


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value).union(*(_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_keys(v) for v in value))
    return set()


def _named(page: str) -> set[str]:
    """Every name written in inline code on the page (`turn.pool` names turn and pool)."""
    prose = re.sub(r"```.*?```", "", page, flags=re.S)
    names = set()
    for span in re.findall(r"`([^`\n]+)`", prose):
        names.add(span)
        names.update(re.findall(r"[A-Za-z0-9_+\-]+", span))
    return names


@pytest.mark.parametrize("game", engine.game_names())
def test_every_field_of_the_example_observation_is_named_on_the_page(game):
    missing = sorted(_keys(_example(game)["observation"]) - _named(_page(game)))
    assert not missing, f"fields of the {game} example the page does not explain: {missing}"


@pytest.mark.parametrize("game", engine.game_names())
def test_every_legal_action_of_the_example_is_written_out_on_the_page(game):
    page = _page(game)
    actions = _example(game)["legal_actions"]
    assert len(actions) >= 3, "an example with a choice to explain"
    missing = [a for a in actions if f"`{json.dumps(a)}`" not in page.replace("\n", " ")]
    assert not missing, f"legal actions of the {game} example the page does not explain: {missing}"


def test_the_field_check_finds_a_field_left_unexplained():
    assert _keys({"a": [{"b": 1}], "c": None}) == {"a", "b", "c"}
    named = _named('| `turn.pool`, `seat` | ... |\n```json\n{"hidden": 1}\n```\n')
    assert {"turn", "pool", "seat"} <= named and "hidden" not in named
