"""The typed observation helpers (bots/sdk/observations/) hold to what the engine sends.

Seeded random games of every game, player count and option choice: every observation
(of several seats, as JSON a bot receives) conforms to the game's `Observation`, every
legal action to its `Action`, and the helpers read them without error. The checker
itself must fail on an unknown key, a missing key and a wrong type, and the enumerations
(Literal types) must list what the engine's own tables list.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, Literal, NotRequired, TypedDict, get_args

import pytest

import engine
from bots.sdk.observations import conforms, moon_adventure, moon_bots, moonrakers, moonrollers

ROOT = Path(__file__).resolve().parents[2]
MODULES: dict[str, ModuleType] = {
    "moonrollers": moonrollers,
    "moonrakers": moonrakers,
    "moon_bots": moon_bots,
    "moon_adventure": moon_adventure,
}
POSITIONS = 240  # checked per game and player count, spread over the games
GAMES = 4  # per game and player count (at least one per option choice), each to its end
SEATS = 3  # seats whose observation is checked at each position


def _use_moonrollers(obs: Any, legal: list[Any]) -> None:
    assert moonrollers.my_player(obs) is obs["players"][obs["seat"]]
    requirement = moonrollers.committed_requirement(obs)
    assert (requirement is None) == (obs["turn"]["committed"] is None)
    for action in legal:
        move = moonrollers.parse_action(action)
        assert move.verb == (action if isinstance(action, str) else action[0])


def _use_moonrakers(obs: Any, legal: list[Any]) -> None:
    decision = moonrakers.decision(obs)
    assert (decision is None) == (obs["to_move"] is None)
    moonrakers.installed_parts(moonrakers.my_player(obs))
    contract = obs["contract"]
    if contract is not None:
        assert set(moonrakers.execution(contract)) <= set(contract["participants"])


def _use_moon_bots(obs: Any, legal: list[Any]) -> None:
    assert all(r["owner"] == obs["seat"] for r in moon_bots.my_robots(obs))
    robot = moon_bots.deciding_robot(obs)
    assert (robot is None) == (obs["decision"] is None)
    for action in legal:
        move = moon_bots.parse_action(action)
        assert move.verb == (action if isinstance(action, str) else action[0])


def _use_moon_adventure(obs: Any, legal: list[Any]) -> None:
    held = moon_adventure.supplies_held(moon_adventure.my_containers(obs))
    assert all("area" in chip for chip in held)
    for action in legal:
        move = moon_adventure.parse_action(action)
        assert action.startswith(move.verb)


USE: dict[str, Callable[[Any, list[Any]], None]] = {
    "moonrollers": _use_moonrollers,
    "moonrakers": _use_moonrakers,
    "moon_bots": _use_moon_bots,
    "moon_adventure": _use_moon_adventure,
}


def _option_sets(game: engine.Game) -> list[dict[str, Any] | None]:
    sets: list[dict[str, Any] | None] = [None]
    for option in game.options:
        if option.subset_of is not None:
            sets.append({option.name: []})
        sets += [{option.name: c} for c in option.choices or () if c != option.default]
    return sets


def _cases() -> list[Any]:
    return [
        pytest.param(name, players, id=f"{name}-{players}p")
        for name in engine.game_names()
        for players in range(
            engine.get_game(name).min_players, engine.get_game(name).max_players + 1
        )
    ]


def test_every_game_has_a_module() -> None:
    assert sorted(MODULES) == sorted(engine.game_names())


def _positions(game: engine.Game, players: int, options: Any, seed: int) -> Iterator[Any]:
    """Every position of a seeded random game, its final one included."""
    state = game.new_state(players, seed=seed, options=options)
    rng = random.Random(seed)
    while True:
        yield state
        if state.is_terminal():
            return
        state.apply(rng.choice(state.legal_actions()))


def _check_position(name: str, state: Any, where: str) -> None:
    module = MODULES[name]
    legal = json.loads(json.dumps(state.legal_actions()))
    seats = random.Random(where).sample(range(state.num_players), min(state.num_players, SEATS))
    for seat in seats:
        obs = json.loads(json.dumps(state.observation(seat)))
        assert conforms(obs, module.Observation, "observation") == [], f"{where} seat {seat}"
        USE[name](obs, legal if seat == state.to_move() else [])
    for action in legal:
        assert conforms(action, module.Action, "action") == [], where


@pytest.mark.parametrize(("name", "players"), _cases())
def test_random_play_conforms(name: str, players: int) -> None:
    game = engine.get_game(name)
    option_sets = _option_sets(game)
    games = max(GAMES, len(option_sets))
    for seed in range(games):
        options = option_sets[seed % len(option_sets)]
        length = sum(1 for _ in _positions(game, players, options, seed)) - 1
        # A spread of positions from the whole game, and always its final one.
        picked = {*random.Random(seed).sample(range(length), min(length, POSITIONS // games))}
        picked.add(length)
        for moves, state in enumerate(_positions(game, players, options, seed)):
            if moves in picked:
                _check_position(
                    name, state, f"{name} {players}p {options} seed {seed} move {moves}"
                )


def test_the_enumerations_match_the_engine() -> None:
    from engine.games.moon_adventure.data import RULES as ADVENTURE
    from engine.games.moon_adventure.pieces import PHASE_NAMES
    from engine.games.moon_bots.cards import SECRET_KINDS, SLOTS, UPGRADE_KINDS
    from engine.games.moonrakers.machine import OPTIONS
    from engine.games.moonrollers.cards import FACES, FACTIONS
    from engine.games.moonrollers.phases import PHASES

    assert set(get_args(moonrollers.Face)) == set(FACES)
    assert set(get_args(moonrollers.Faction)) == set(FACTIONS)
    assert set(get_args(moonrollers.Phase)) == set(PHASES)
    assert set(get_args(moonrakers.Decision)) == set(OPTIONS)
    assert set(get_args(moon_bots.WeaponKind)) == set(SECRET_KINDS)
    assert set(get_args(moon_bots.UpgradeKind)) == set(UPGRADE_KINDS)
    assert set(get_args(moon_bots.BodySlot)) == set(SLOTS)
    assert set(get_args(moon_adventure.Role)) == set(ADVENTURE.role_ids)
    assert set(get_args(moon_adventure.Phase)) == set(PHASE_NAMES)


# ----- the checker can fail -------------------------------------------------------------


class Inner(TypedDict):
    face: Literal["wild", "extra"]
    count: int


class Outer(TypedDict):
    name: str
    inner: Inner
    items: list[Inner | None]
    counts: dict[str, int]
    ratio: float
    maybe: int | None
    later: NotRequired[bool]


GOOD: dict[str, Any] = {
    "name": "x",
    "inner": {"face": "wild", "count": 2},
    "items": [None, {"face": "extra", "count": 0}],
    "counts": {"a": 1},
    "ratio": 1,
    "maybe": None,
}


def _changed(path: list[Any], value: Any) -> dict[str, Any]:
    doc = json.loads(json.dumps(GOOD))
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


def test_a_conforming_value_has_no_problems() -> None:
    assert conforms(GOOD, Outer) == []
    assert conforms({**GOOD, "later": True}, Outer) == []


@pytest.mark.parametrize(
    ("doc", "problem"),
    [
        ({**GOOD, "extra": 1}, "value: unexpected key 'extra'"),
        ({k: v for k, v in GOOD.items() if k != "ratio"}, "value: missing key 'ratio'"),
        (_changed(["name"], 3), "value['name']: expected str, got int 3"),
        (_changed(["inner", "count"], "2"), "value['inner']['count']: expected int, got str '2'"),
        (
            _changed(["inner", "count"], True),
            "value['inner']['count']: expected int, got bool True",
        ),
        (_changed(["inner", "face"], "shield"), "value['inner']['face']: expected one of"),
        (_changed(["inner", "bonus"], 1), "value['inner']: unexpected key 'bonus'"),
        (
            _changed(["items", 1, "count"], None),
            "value['items'][1]['count']: expected int, got null",
        ),
        (_changed(["items"], [7]), "value['items'][0]: expected Inner | null, got int 7"),
        (_changed(["counts", "a"], 1.5), "value['counts']['a']: expected int, got float 1.5"),
        (_changed(["ratio"], "1"), "value['ratio']: expected float, got str '1'"),
        (_changed(["maybe"], "no"), "value['maybe']: expected int | null, got str 'no'"),
        ({**GOOD, "later": 1}, "value['later']: expected bool, got int 1"),
        ([GOOD], "value: expected an object (Outer), got list"),
    ],
)
def test_the_checker_reports_a_wrong_value(doc: Any, problem: str) -> None:
    problems = conforms(doc, Outer)
    assert len(problems) == 1 and problems[0].startswith(problem), problems


def test_a_real_observation_with_a_wrong_field_fails() -> None:
    state = engine.get_game("moonrollers").new_state(2, seed=1)
    obs = json.loads(json.dumps(state.observation(0)))
    assert conforms(obs, moonrollers.Observation) == []
    obs["turn"]["phase"] = "lunch"
    obs["players"][1]["secret"] = []
    assert conforms(obs, moonrollers.Observation, "obs") == [
        "obs['players'][1]: unexpected key 'secret'",
        "obs['turn']['phase']: expected one of ['start', 'crew', 'commit', 'lock', 'select', "
        "'hazard', 'place', 'return', 'namari'], got str 'lunch'",
    ]
    assert conforms(["lock", "wild"], moonrollers.Action) == []  # shapes live in parse_action
    with pytest.raises(ValueError):
        moonrollers.parse_action(["lock", "wild"])


def test_an_unsupported_type_is_refused() -> None:
    with pytest.raises(TypeError):
        conforms((1, 2), tuple[int, int])


# ----- the guide's typed bot ----------------------------------------------------------------


def test_the_guides_typed_bot_passes_mypy_and_a_misspelt_key_does_not(tmp_path: Path) -> None:
    from mypy import api

    guide = (ROOT / "docs" / "bot-authors" / "sdk.md").read_text()
    section = guide.split("## Types for observations and actions", 1)[1]
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    (tmp_path / "typed_bot.py").write_text(example)
    (tmp_path / "misspelt_bot.py").write_text(example.replace('turn["pool"]', 'turn["poll"]'))
    out, err, status = api.run(
        ["--strict", "--cache-dir", str(tmp_path / "cache"), "--no-error-summary"]
        + [str(tmp_path / "typed_bot.py"), str(tmp_path / "misspelt_bot.py")]
    )
    problems = out.strip().splitlines()
    assert status == 1 and len(problems) == 1, out + err
    assert "misspelt_bot.py" in problems[0] and 'has no key "poll"' in problems[0]
