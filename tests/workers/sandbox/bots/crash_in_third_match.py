"""Plays the first legal action until its third match of a set, then misbehaves there.

"Third" is the third match it was started in (the referee starts a set's matches in
order). With MODE = "exit" it ends its process (every match it still plays forfeits);
with "stall" it stops for 0.7 s once, in that match only: past that match's time (the
tests give 0.3 s + a 0.2 s bank), so only that match forfeits, and back in time for the
next request, whose clock starts when the late answer arrives.
"""

import os
import time

MODE = "exit"
_started = []


class Bot:
    def setup(self, info):
        _started.append(info["match"])
        self.match = info["match"]

    def act(self, observation, legal_actions):
        if len(_started) >= 3 and self.match == _started[2]:
            if MODE == "exit":
                os._exit(7)
            if not getattr(self, "stalled", False):
                self.stalled = True
                time.sleep(0.7)
        return legal_actions[0]
