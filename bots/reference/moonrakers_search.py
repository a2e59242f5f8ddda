"""A Moonrakers search bot: information-set Monte Carlo tree search over worlds
sampled from its observation (bots/sdk/search.py), half the move limit a move, starting from
the heuristic's choice and keeping it unless the search finds better.

Random play never scores in Moonrakers (games end at the round cap with no Prestige), so a
playout to the end tells nothing; playouts stop after `playout_depth` random decisions and
`standing` scores the world there: Prestige, Credits, and the deck and Ship Parts each
player has built, valued as the heuristic values them. Such playouts cannot see a contract
pay off, so contracts, deals and the cards played on a contract are the heuristic's
(`trust_guide`); the search decides the rest (buying, discarding, requirements, ...)."""

from bots.reference import moonrakers_heuristic as heuristic
from bots.sdk.search import SearchBot, standing_reward

PRESTIGE_WEIGHT = 3.0  # a Prestige, against the heuristic's card and part values
CREDIT_WEIGHT = heuristic.CREDIT_WEIGHT
CARD_WEIGHT = 0.5  # a card's value counts for a share only: it pays back over later turns
PART_WEIGHT = 0.6
DEALS = frozenset(("negotiate", "offer", "answer", "join"))
STRATEGIC = DEALS | {"plan", "step"}
SCALE = 3.0  # a standing lead of a Prestige is worth about 73% to 27%


def _part_name(part):
    return part[0] if isinstance(part, list | tuple) else part


def standing(state):
    """Each player's standing, in Prestige-worth units (higher is better)."""
    values = []
    for seat in range(state.num_players):
        cards = state.hand[seat] + state.draw[seat] + state.discard[seat] + state.inplay[seat]
        deck = sum(heuristic._card_value(c) for c in cards if isinstance(c, str))
        parts = sum(heuristic._part_value(_part_name(p)) for p in state.parts[seat])
        values.append(
            PRESTIGE_WEIGHT * state.prestige[seat]
            + CREDIT_WEIGHT * state.credits[seat]
            + CARD_WEIGHT * deck
            + PART_WEIGHT * parts
        )
    return values


def strategic(observation):
    """Contracts, deals and the cards played on a contract: their payoff comes when the
    contract resolves, beyond what random playouts of a few decisions show."""
    pending = observation.get("pending") or [""]
    return pending[0] in STRATEGIC


def policy(state, legal, rng):
    """Random, except the deals between players (invitations, offers, answers), which
    the heuristic makes: a random answer would make any offer look acceptable."""
    if state.stack and state.stack[-1][0] in DEALS:
        choice = heuristic.act(state.observation(state.to_move()), legal)
        if choice in legal:
            return choice
    return legal[rng.randrange(len(legal))]


def evaluate(state):
    return standing_reward(standing(state), SCALE)


class Bot(SearchBot):
    game = "moonrakers"
    guide = staticmethod(heuristic.act)
    trust_guide = staticmethod(strategic)
    policy = staticmethod(policy)
    evaluate = staticmethod(evaluate)
    playout_depth = 12
