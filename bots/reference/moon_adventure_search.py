"""A Moon Adventure search bot: information-set Monte Carlo tree search over worlds sampled
from its observation (bots/sdk/search.py), random playouts, half the move limit a move,
starting from the heuristic's choice and keeping it unless the search finds better."""

from bots.reference import moon_adventure_heuristic
from bots.sdk.search import SearchBot


class Bot(SearchBot):
    game = "moon_adventure"

    def setup(self, info):
        # The heuristic keeps a turn plan per match: one of its bots per match.
        self.guide = moon_adventure_heuristic.Bot().act
        super().setup(info)
