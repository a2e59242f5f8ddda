"""Building Moon Adventure positions for rules tests.

Tests place crew, cards and chips directly on a fresh state (it is plain data)
and script the dice, so each rule can be checked from a known position.
"""

from __future__ import annotations

import engine
from engine.games.moon_adventure.state import ACT, CHIP, EMPTY, MoonAdventureState

GAME = engine.get_game("moon_adventure")


class Dice:
    """Stands in for the state's RNG: each random() call shows the next scripted face."""

    def __init__(self, faces, fallback):
        self.faces = list(faces)
        self.fallback = fallback

    def random(self):
        if self.faces:
            face = self.faces.pop(0)
            return (2 * face - 2) / 6 + 0.01  # FACES = 1,1,2,2,3,3
        return self.fallback.random()

    def shuffle(self, items):
        self.fallback.shuffle(items)


def new(roles, seed=0, beginner=False) -> MoonAdventureState:
    """A game whose seats chose `roles` in order; seat 0 is about to act."""
    state = GAME.new_state(len(roles), seed, {"roles": "chosen", "beginner": beginner})
    for role in roles:
        state.apply(f"role:{role}")
    return state


def script_dice(state, *faces):
    state.rng = Dice(faces, state.rng)


def set_turn(state, seat, ap, phase=ACT):
    """Put `seat` in its action phase with `ap` action points and fresh per-turn flags."""
    state.cur = seat
    state.phase = phase
    state.ap = ap
    state.dice = [1] * 2
    state.bonus = 0
    state.used_mechanic = state.used_inventor = False
    state.used_inspector = state.used_surgeon = False
    state.can_reroll = False
    state._legal_cache = None


def place(state, **positions):
    """place(state, s0=3, s1=5): move crew pieces (seat index after the 's')."""
    for key, pos in positions.items():
        state.pos[int(key[1:])] = pos
    state._legal_cache = None


def fill(state, seat, *items):
    """Set a seat's containers: ints 2/3 are oxygen, ("chip", id) a supply chip, None empty."""
    slots = state.slots[seat]
    for i in range(len(slots)):
        item = items[i] if i < len(items) else None
        if item is None:
            slots[i] = EMPTY
        elif isinstance(item, tuple):
            slots[i] = CHIP + item[1]
        else:
            slots[i] = item
    state._legal_cache = None


def chip_at(state, q):
    return state.chip[q]


def refresh(state):
    """Forget cached legal actions after editing a state by hand."""
    state._legal_cache = None
