"""The board files' own data: Moonrollers' crew names and abilities as the engine has them."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BOARDS = ROOT / "arena" / "static" / "arena" / "boards"


def test_the_moonrollers_board_names_every_crew_card_and_ability_as_the_engine_does():
    text = (BOARDS / "moonrollers.js").read_text(encoding="utf-8")
    found = re.search(r"^  var CREW = (\{.*\});$", text, re.MULTILINE)
    assert found, "moonrollers.js keeps its crew on one line: var CREW = {...};"
    drawn = json.loads(found.group(1))
    data = ROOT / "engine" / "games" / "moonrollers" / "data" / "crew.json"
    crew = json.loads(data.read_text(encoding="utf-8"))["crew"]
    assert drawn == {c["id"]: [c["name"], c["ability"]] for c in crew}


def test_every_board_registers_itself_under_its_game():
    for path in BOARDS.glob("*.js"):
        if path.stem == "common":
            continue
        text = path.read_text(encoding="utf-8")
        assert f"window.MoonBoards.{path.stem} = " in text or (
            f'window.MoonBoards["{path.stem}"] = ' in text
        ), path.name
