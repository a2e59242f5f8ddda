"""Forks forever, every child too, ignoring failures: the pids limit must hold and the move time out."""

import contextlib
import os


def act(observation, legal_actions):
    while True:
        with contextlib.suppress(OSError):
            os.fork()
