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
    options: dict | None = None,
):
    """A state where `seat` starts its turn and its first roll shows `dice`.

    `crew` gives every seat's hired crew (seats not named hire nothing).
    """
    state = GAME.new_state(players, seed, {"variant": variant} | (options or {}))
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


# The display of the ability tests (requirement indexes in brackets):
#   namari   [0] Shield 4, [1] Damage 3 H, [2] Thruster 3, [3] Reactor 1 H
#   saghari  [0] Damage 4, [1] Damage 3, [2] Damage 2, [3] Damage 1 H
#   vila_noir[0] Reactor 4, [1] Reactor 3, [2] Reactor 2, [3] Reactor 1 H
#   aponi    [0] Reactor 4 H, [1] Thruster 3, [2] Shield 3 H, [3] Wild 2 x2
#   b3_ar    [0] Thruster 4, [1] Thruster 3, [2] Thruster 2, [3] Thruster 1 H
ABILITY_DISPLAY = ["namari", "saghari", "vila_noir", "aponi", "b3_ar"]


def start(*dice, crew, **kw):
    """Seat 0 holds `crew` and rolls `dice` first, in front of ABILITY_DISPLAY (by default)."""
    kw.setdefault("display", ABILITY_DISPLAY)
    return table(*dice, crew={0: crew}, **kw)


def ended(players, prestige, hazards):
    """The result of a game stopped now with these crew prestige and hazard tokens."""
    st = table(players=players, hazards=dict(enumerate(hazards)))
    st.prestige = list(prestige)
    st.over = True
    st.end_reason = "test"
    return st.result()


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
