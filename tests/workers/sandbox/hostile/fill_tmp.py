"""Fills its temp dir with 1 MB files until the disk says no."""

import os


def act(observation, legal_actions):
    block = b"\0" * (1 << 20)
    index = 0
    while True:
        with open(os.path.join("/tmp", f"fill-{index}"), "wb") as handle:
            handle.write(block)
        index += 1
