"""Answers with a "match" that is a lone surrogate, on the protocol pipe itself: the
forfeit reason must not carry it (the database cannot store it)."""

import os


def act(observation, legal_actions):
    os.write(1, b'{"match": "\\ud800", "action": 0}\n')
    return legal_actions[0]
