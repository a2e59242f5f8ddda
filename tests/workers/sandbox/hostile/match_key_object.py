"""Answers with a "match" that is an object, on the protocol pipe itself: it must forfeit."""

import os


def act(observation, legal_actions):
    os.write(1, b'{"match": {"id": 7}, "action": 0}\n')
    return legal_actions[0]
