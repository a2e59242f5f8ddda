"""A Moonrollers search bot: information-set Monte Carlo tree search over worlds
sampled from its observation (bots/sdk/search.py), random playouts, half the move limit a
move, starting from the heuristic's choice and keeping it unless the search finds better."""

from bots.reference import moonrollers_heuristic
from bots.sdk.search import SearchBot


class Bot(SearchBot):
    game = "moonrollers"
    guide = staticmethod(moonrollers_heuristic.act)
