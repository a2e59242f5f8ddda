"""Helpers for Moon-Bots rules tests: build exact positions without playing to them.

They reach into the state's fields on purpose (the tests are white-box about the
position, black-box about the rules: every rule is then exercised through
`apply` and `legal_actions`).
"""

from __future__ import annotations

import engine
from engine.games.moon_bots.cards import KEY
from engine.games.moon_bots.rules import PH_ASSIGN, PH_BUY
from engine.games.moon_bots.state import MoonBotsState

GAME = engine.get_game("moon_bots")


def new(players: int = 4, seed: int = 1, **options) -> MoonBotsState:
    state = GAME.new_state(players, seed, options or None)
    assert isinstance(state, MoonBotsState)
    return state


def take(state: MoonBotsState, key: str) -> int:
    """Remove one card with this key from wherever it waits (pile, market, box)."""
    for pile in (state.deck, state.removed_unseen, state.facedown_discard):
        for card in pile:
            if KEY[card] == key:
                pile.remove(card)
                return card
    for slot, card in enumerate(state.market):
        if card >= 0 and KEY[card] == key:
            state.market[slot] = -1
            return card
    raise LookupError(f"no free {key} card left")


def give(state: MoonBotsState, robot: int, *keys: str) -> None:
    for key in keys:
        state.robots[robot].install(take(state, key))
    touch(state)


def place(state: MoonBotsState, slot: int, key: str) -> int:
    """Put a card with this key into a market slot (the old card goes back on the pile)."""
    card = take(state, key)
    if state.market[slot] >= 0:
        state.deck.insert(0, state.market[slot])
    state.market[slot] = card
    touch(state)
    return card


def touch(state: MoonBotsState) -> None:
    state._legal_cache = None
    state._assign_cache = None


def start_turn(state: MoonBotsState, robot: int) -> None:
    """Make `robot` the active robot at the start of its buy step, no windows pending."""
    state._begin_turn(robot)
    state.agenda.clear()
    state.decision = None
    state.phase = PH_BUY
    touch(state)


def at_assign(state: MoonBotsState, dice: list[int], robot: int | None = None) -> None:
    """The active robot (or `robot`) has just rolled exactly these dice."""
    if robot is not None:
        start_turn(state, robot)
    state.agenda.clear()
    state.decision = None
    state.phase = PH_ASSIGN
    state.dice = list(dice)
    state.dice_used = [False] * len(dice)
    touch(state)


def uses(state: MoonBotsState) -> list[list]:
    return [a for a in state.legal_actions() if isinstance(a, list) and a[0] == "use"]


def energies(state: MoonBotsState) -> list[int]:
    return [rb.energy for rb in state.robots]


def decision(state: MoonBotsState) -> dict:
    return state.observation(0)["decision"]


def empty_market(state: MoonBotsState) -> None:
    """Move every market card to the bottom of the pile."""
    for slot, card in enumerate(state.market):
        if card >= 0:
            state.deck.insert(0, card)
            state.market[slot] = -1
    touch(state)


def begin(state: MoonBotsState, robot: int) -> None:
    """Start `robot`'s turn as the rules do, start-of-turn windows included."""
    state.agenda.clear()
    state.decision = None
    state._begin_turn(robot)
    state._settle()
    touch(state)
