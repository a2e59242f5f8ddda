"""A well-behaved bot that thinks for 1 ms a move (busy), then plays a seeded random move.

For `arena bench-sandbox --bot tests/workers/sandbox/bots/busy_1ms_bot.py`: the match
cost of the sandbox when bots do some work, beside random bots that do none.
"""

import random
import time

_rng = random.Random(0)


def setup(info):
    _rng.seed(f"{info.get('seed', 0)}:{info.get('seat', 0)}")


def act(observation, legal_actions):
    end = time.perf_counter() + 0.001
    while time.perf_counter() < end:
        pass
    return _rng.choice(legal_actions)
