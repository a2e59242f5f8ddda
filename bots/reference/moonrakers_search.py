"""A Moonrakers search bot: information-set Monte Carlo tree search over worlds
sampled from its observation (bots/sdk/search.py), starting from the heuristic's choice
and keeping it unless the search finds better.

It searches one decision deep (`tree_depth = 1`): each of its choices is tried, then the
heuristic plays every seat to the end of the turn (`horizon`), and `standing` scores the
world there. So the search asks which move, followed by the heuristic's play, leaves the
table best when the turn is over: the contract taken and its hazards, the cards played
on it, what was bought. Random play never scores in Moonrakers, so random playouts
told the search nothing.

`standing` is fitted, not guessed: `WEIGHTS` come from a logistic model of which seat
finishes ahead of which, by the difference of their features, in heuristic games against
itself (`python scripts/fit_standing.py moonrakers --players 2 --games 800`). Each
feature has a weight at the start and one more that grows with the turn count
(`progress`): a Prestige counts several times as much at the round cap as at the
start.

A Moonrakers game gives a seat about 200 decisions with a choice, more than the match's
CPU allows at half the move limit each, so `decisions_guess` spreads the match's CPU over
them."""

from bots.reference import moonrakers_heuristic as heuristic
from bots.sdk.search import SearchBot, standing_reward

FEATURES = (
    "prestige",
    "credits",
    "deck_value",
    "cards",
    "parts_value",
    "parts",
    "objectives_claimed",
    "objectives_held",
)

WEIGHTS = {
    # held-out log loss 0.605, accuracy 0.641
    2: {
        "prestige": (0.123, 0.700),
        "credits": (0.027, -0.015),
        "deck_value": (-0.049, 0.059),
        "cards": (0.007, 0.014),
        "parts_value": (0.084, -0.098),
        "parts": (-0.061, 0.314),
        "objectives_claimed": (-0.210, 0.086),
        "objectives_held": (-0.147, 0.306),
    },
}


def _part_name(part):
    return part[0] if isinstance(part, list | tuple) else part


def features(state, seat):
    """The seat's Prestige and Credits, its deck and Ship Parts (valued as the heuristic
    values them) and its objectives."""
    cards = state.hand[seat] + state.draw[seat] + state.discard[seat] + state.inplay[seat]
    named = [card for card in cards if isinstance(card, str)]
    parts = [_part_name(part) for part in state.parts[seat]]
    return [
        state.prestige[seat],
        state.credits[seat],
        sum(heuristic._card_value(card) for card in named),
        len(named),
        sum(heuristic._part_value(part) for part in parts),
        len(parts),
        len(state.claimed[seat]),
        len(state.objs[seat]),
    ]


def progress(state):
    """0 at the start, 1 at the round cap."""
    return min(1.0, state.turns / max(1, state.round_cap * state.num_players))


def standing(state):
    """Each player's standing, in log-odds units (higher is better)."""
    # Only the two-player table is fitted so far; larger tables borrow its weights.
    weights = WEIGHTS.get(state.num_players, WEIGHTS[2])
    late = progress(state)
    pairs = [weights[name] for name in FEATURES]
    return [
        sum(
            value * (start + late * grow)
            for value, (start, grow) in zip(features(state, seat), pairs, strict=True)
        )
        for seat in range(state.num_players)
    ]


def evaluate(state):
    return standing_reward(standing(state), 1.0)


def policy(state, legal, rng):
    """The heuristic's move for whoever is to move, from that seat's observation."""
    return heuristic.act(state.observation(state.to_move()), legal)


def turns_played(state):
    return state.turns


class Bot(SearchBot):
    game = "moonrakers"
    guide = staticmethod(heuristic.act)
    policy = staticmethod(policy)
    evaluate = staticmethod(evaluate)
    horizon = staticmethod(turns_played)
    horizon_span = 1
    tree_depth = 1
    decisions_guess = 200.0
