"""Spreads its memory over forked children, each under the per-process limit: the cgroup must hold the total."""

import os
import time


def act(observation, legal_actions):
    for _ in range(6):
        if os.fork() == 0:
            hoard = []
            try:
                for _ in range(24):
                    hoard.append(b"x" * (8 << 20))
            except MemoryError:
                pass
            time.sleep(60)
            os._exit(0)
    hoard = []
    for _ in range(24):
        hoard.append(b"x" * (8 << 20))
    time.sleep(60)
    return legal_actions[0]
