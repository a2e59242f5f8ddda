"""Writes megabytes without a newline to the protocol pipe itself: it must forfeit for flooding."""

import sys


def act(observation, legal_actions):
    out = sys.__stdout__
    chunk = "x" * (1 << 20)
    for _ in range(16):
        out.write(chunk)
        out.flush()
    return legal_actions[0]
