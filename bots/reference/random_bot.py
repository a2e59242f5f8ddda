"""Plays a uniformly random legal action. Works for every game."""

import random

_rng = random.Random()


def setup(info):
    # Seeded per match and seat so a match with random bots is reproducible.
    _rng.seed(f"{info.get('seed', 0)}:{info.get('seat', 0)}")


def act(observation, legal_actions):
    return _rng.choice(legal_actions)
