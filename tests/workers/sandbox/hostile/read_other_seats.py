"""Hunts for other seats' state: engine states in its own memory, other processes in /proc."""

import gc
import os
import sys


def act(observation, legal_actions):
    import engine

    gc.unfreeze()  # the runner freezes what loading made: look there too
    states = [o for o in gc.get_objects() if isinstance(o, engine.State)]
    print(f"STATES FOUND: {len(states)}", file=sys.stderr)
    for pid in sorted(p for p in os.listdir("/proc") if p.isdigit()):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                print(f"PROCESS {pid}: {handle.read()!r}", file=sys.stderr)
        except OSError:
            pass
    if states:
        print("LEAK: found engine states", file=sys.stderr)
    return legal_actions[0]
