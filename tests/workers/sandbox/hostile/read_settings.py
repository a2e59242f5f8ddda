"""Reads the project's settings, by the host path and next to the exposed engine."""

import os
import sys

HOST = globals().get("HOST", {})


def act(observation, legal_actions):
    import engine  # allowed: the pure engine is exposed read-only

    beside_engine = os.path.join(
        os.path.dirname(os.path.dirname(engine.__file__)), "arena", "settings.py"
    )
    for path in (beside_engine, HOST.get("settings", "/work/main/arena/settings.py")):
        try:
            with open(path) as handle:
                print("LEAK:", path, handle.read()[:200], file=sys.stderr)
        except OSError as exc:
            print(f"BLOCKED: {path}: {exc!r}", file=sys.stderr)
    with open(HOST.get("settings", "/work/main/arena/settings.py")) as handle:
        handle.read()
    return legal_actions[0]
