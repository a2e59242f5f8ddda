"""Answers with "match": true, on the protocol pipe itself: true is not a match id (in
Python it equals 1, so it could pass for match 1)."""

import os


def act(observation, legal_actions):
    os.write(1, b'{"match": true, "action": 0}\n')
    return legal_actions[0]
