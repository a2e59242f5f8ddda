"""Answers its second match's first request with the id of another match of the set.

It writes the forged answer on the protocol pipe itself (a bot can: fd 1 is the pipe),
then returns normally, so the runner's own answer for that request follows the forgery.
"""

import os

_matches = []


class Bot:
    def setup(self, info):
        _matches.append(info["match"])
        self.match = info["match"]
        self.forged = False

    def act(self, observation, legal_actions):
        if self.match == _matches[1] and not self.forged:
            self.forged = True
            other = _matches[0]
            os.write(1, b'{"match": %d, "action": %s}\n' % (other, b'"pass"'))
        return legal_actions[0]
