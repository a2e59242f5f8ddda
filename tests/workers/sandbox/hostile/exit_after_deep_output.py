"""Writes 1,100 unclosed brackets, no newline, and exits: the referee reads that last
output for the runner's error line, and must do so within bounds."""

import os


def act(observation, legal_actions):
    os.write(1, b"[" * 1100)
    os._exit(3)
