"""A Moon Adventure search bot: the heuristic's move, improved by information-set Monte
Carlo search (bots/sdk/search.py) where a choice is about oxygen.

The team wins or loses together and every seat runs the same heuristic, so a playout
plays every seat as the heuristic would, to the end of the mission: the search asks
"would the team do better if I chose otherwise here, and then all of us played on as
usual?" (a rollout improvement of the heuristic, `tree_depth` 1). Each rollout costs
tens of milliseconds, so only the decisions where oxygen is won or lost are searched:
drawing oxygen cards or stopping (`replenish`), handing oxygen over (`share`) and which
oxygen card to burn (`oxygen`). Movement, gathering and building follow the heuristic's
turn plan."""

from bots.reference import moon_adventure_heuristic as heuristic
from bots.sdk.search import SearchBot

SEARCHED = frozenset(("replenish", "share", "oxygen"))


def trust_heuristic(observation):
    return observation.get("phase") not in SEARCHED


class Bot(SearchBot):
    game = "moon_adventure"
    trust_guide = staticmethod(trust_heuristic)
    tree_depth = 1

    def setup(self, info):
        # The heuristic keeps a turn plan per match: one of its bots per match for the
        # real moves, and one more for the playouts, so they never mix plans.
        self.guide = heuristic.Bot().act
        playing = heuristic.Bot()

        def policy(state, legal, rng):
            choice = playing.act(state.observation(state.to_move()), legal)
            return choice if choice in legal else legal[rng.randrange(len(legal))]

        self.policy = policy
        super().setup(info)
