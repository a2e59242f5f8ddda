"""Answers with an action nested 1,100 deep: orjson refuses it, and the standard parser
would recurse past Python's limit. It must forfeit, not stop the referee."""

import os


class Bot:
    def setup(self, info):
        self.match = info.get("match")  # absent in a single match

    def act(self, observation, legal_actions):
        key = b"" if self.match is None else b'"match": %d, ' % self.match
        os.write(1, b"{" + key + b'"action": ' + b"[" * 1100 + b"]" * 1100 + b"}\n")
        return legal_actions[0]
