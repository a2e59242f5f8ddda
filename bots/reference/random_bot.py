"""Plays a uniformly random legal action. Works for every game.

A class, so that each match gets its own generator: one process plays every match
of a set, interleaved, and a shared generator would make a match's moves depend on
the other matches' (module-level state lives for the whole set).
"""

import random

# It never reads its observation: the runner need not decode it (bots/sdk/runner.py).
LAZY_OBSERVATION = True


class Bot:
    def __init__(self):
        self._rng = random.Random()

    def setup(self, info):
        # Seeded per match and seat so a match with random bots is reproducible.
        self._rng.seed(f"{info.get('seed', 0)}:{info.get('seat', 0)}")

    def act(self, observation, legal_actions):
        return self._rng.choice(legal_actions)
