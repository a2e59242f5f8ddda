"""Building Moonrollers positions directly, with forced dice, for rules tests."""

from __future__ import annotations

import engine

GAME = engine.get_game("moonrollers")

# A neutral display (one crew per faction) used when a test does not care.
DEFAULT_DISPLAY = ["namari", "lee_van_cribb", "saghari", "sella_pelleon", "b3_ar"]


def table(
    *dice: str,
    players: int = 2,
    seat: int = 0,
    display: list[str] | None = None,
    crew: dict[int, list[str]] | None = None,
    marks: dict[str, dict[int, int]] | None = None,
    hazards: dict[int, list[int]] | None = None,
    deck: list[str] | None = None,
    seed: int = 0,
    variant: str = "standard",
):
    """A state where `seat` starts its turn and its first roll shows `dice`.

    `crew` gives every seat's hired crew (seats not named hire nothing).
    """
    state = GAME.new_state(players, seed, {"variant": variant})
    crew = {p: [] for p in range(players)} | (crew or {})
    state.force_table(
        display=display or DEFAULT_DISPLAY,
        crew=crew,
        marks=marks,
        hazards=hazards,
        deck=deck,
    )
    state.force_turn(seat, *dice)
    return state


def play(state, *actions):
    for action in actions:
        state.apply(action)
    return state


def pool(state) -> dict[str, int]:
    return dict(state.observation(state.cur)["turn"]["pool"])


def marks(state, crew_id: str) -> list[int | None]:
    for card in state.observation(0)["display"]:
        if card["crew"] == crew_id:
            return [r["token"] for r in card["requirements"]]
    raise KeyError(crew_id)


def rolled_count(state) -> int:
    return sum(state.observation(state.cur)["turn"]["rolled"].values())
