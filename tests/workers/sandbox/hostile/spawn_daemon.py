"""Double-forks a detached daemon (new session, closed pipes, exec'd sleeper) meant to outlive the match."""

import os
import sys

MARKER = "arena-hostile-daemon-marker"
started = False


def act(observation, legal_actions):
    global started
    if not started:
        started = True
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                devnull = os.open("/dev/null", os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(devnull, fd)
                os.execv(
                    sys.executable,
                    [sys.executable, "-c", f"import time; time.sleep(600)  # {MARKER}"],
                )
            os._exit(0)
        os.wait()
    return legal_actions[0]
