"""Answers its own request with an action nested 1,000 deep, which orjson reads: the
legality check and its message must not recurse on it."""

import os


class Bot:
    def setup(self, info):
        self.match = info.get("match")  # absent in a single match

    def act(self, observation, legal_actions):
        key = b"" if self.match is None else b'"match": %d, ' % self.match
        os.write(1, b"{" + key + b'"action": ' + b"[" * 1000 + b"]" * 1000 + b"}\n")
        return legal_actions[0]
