"""Imports the arena's own modules to cheat (the referee, the settings), also by adding the host path."""

import sys

HOST = globals().get("HOST", {})


def act(observation, legal_actions):
    sys.path.append(HOST.get("project", "/work/main"))
    import workers.play.referee  # noqa: F401

    return legal_actions[0]
