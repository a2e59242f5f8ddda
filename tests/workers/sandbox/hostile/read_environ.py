"""Looks for secrets in its environment, /proc/1/environ and every /proc/*/environ it can see."""

import os
import sys


def act(observation, legal_actions):
    print("ENV:", dict(os.environ), file=sys.stderr)
    for pid in sorted(p for p in os.listdir("/proc") if p.isdigit()):
        for name in ("environ", "cmdline"):
            try:
                with open(f"/proc/{pid}/{name}", "rb") as handle:
                    print(f"PROC {pid} {name}:", handle.read()[:2000], file=sys.stderr)
            except OSError as exc:
                print(f"BLOCKED: /proc/{pid}/{name}: {exc!r}", file=sys.stderr)
    return legal_actions[0]
