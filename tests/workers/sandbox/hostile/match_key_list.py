"""Answers with a "match" that is a list, on the protocol pipe itself: a list cannot be
looked up among the requests (it once raised out of the referee and failed the set)."""

import os


def act(observation, legal_actions):
    os.write(1, b'{"match": [7], "action": 0}\n')
    return legal_actions[0]
