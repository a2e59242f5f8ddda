"""Reads another bot's file: beside itself, by its host path, and the reference bots in the project."""

import os
import sys

HOST = globals().get("HOST", {})


def act(observation, legal_actions):
    here = os.path.dirname(os.path.abspath(__file__))
    print("MY FOLDER:", os.listdir(here), file=sys.stderr)
    targets = [
        os.path.join(here, "victim_bot.py"),
        HOST.get("victim", "/nonexistent"),
        HOST.get("reference", "/nonexistent"),
    ]
    for path in targets:
        try:
            with open(path) as handle:
                print("LEAK:", path, handle.read()[:200], file=sys.stderr)
        except OSError as exc:
            print(f"BLOCKED: {path}: {exc!r}", file=sys.stderr)
    with open(targets[1]) as handle:
        handle.read()
    return legal_actions[0]
