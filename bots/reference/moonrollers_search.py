"""A moonrollers search bot: information-set Monte Carlo tree search over worlds sampled from
its observation (bots/sdk/search.py), random playouts, half the move limit a move."""

from bots.sdk.search import SearchBot


class Bot(SearchBot):
    game = "moonrollers"
