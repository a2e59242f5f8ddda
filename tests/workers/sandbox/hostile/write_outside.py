"""Writes outside its temp dir: over its own file, into /usr, at the root and at a host path."""

import os
import sys

HOST = globals().get("HOST", {})


def act(observation, legal_actions):
    targets = [
        os.path.abspath(__file__),
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "planted.py"),
        "/usr/lib/planted.txt",
        "/planted.txt",
        "/proc/sys/kernel/hostname",
        HOST.get("outside", "/work/planted.txt"),
    ]
    failures = 0
    for path in targets:
        try:
            with open(path, "w") as handle:
                handle.write("planted by a hostile bot\n")
            print(f"LEAK: wrote {path}", file=sys.stderr)
        except OSError as exc:
            failures += 1
            print(f"BLOCKED: {path}: {exc!r}", file=sys.stderr)
    with open(targets[-1], "w") as handle:
        handle.write("planted")
    return legal_actions[0]
