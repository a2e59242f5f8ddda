"""Sends SIGKILL to its parent, to pid 1, to every pid it can name and to -1, then plays on."""

import os
import signal
import sys

done = False


def act(observation, legal_actions):
    global done
    if not done:
        done = True
        me = os.getpid()
        targets = [os.getppid(), 1, *range(2, 400)]
        for pid in targets:
            if pid == me:
                continue
            try:
                os.kill(pid, signal.SIGKILL)
                print(f"SENT: SIGKILL to {pid}", file=sys.stderr)
            except OSError:
                pass
        try:
            os.kill(-1, signal.SIGKILL)
            print("SENT: SIGKILL to -1", file=sys.stderr)
        except OSError as exc:
            print(f"BLOCKED: kill -1: {exc!r}", file=sys.stderr)
    return legal_actions[0]
