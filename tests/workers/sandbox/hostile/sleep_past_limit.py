"""Sleeps far past the move limit and the time bank: the move must time out."""

import time


def act(observation, legal_actions):
    time.sleep(30)
    return legal_actions[0]
