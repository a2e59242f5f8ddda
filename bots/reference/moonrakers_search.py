"""A Moonrakers search bot: information-set Monte Carlo tree search over worlds
sampled from its observation (bots/sdk/search.py), starting from the heuristic's choice
and keeping it unless the search finds better.

It searches one decision deep (`tree_depth = 1`): each of its choices is tried, then the
heuristic plays every seat to the end of the turn (`horizon`), and `evaluate` scores the
world there. So the search asks which move, followed by the heuristic's play, leaves the
table best when the turn is over: the contract taken and its hazards, the cards played
on it, what was bought. Random play never scores in Moonrakers, so random playouts
told the search nothing.

`evaluate` is a standing fitted, not guessed (`bots.sdk.standing.FittedStanding`):
`WEIGHTS` come from a logistic model of which seat finishes ahead of which, by the
difference of their features, in heuristic games against itself (`python
scripts/fit_standing.py moonrakers --players 2 --games 800`). Each feature has a weight
at the start and one more that grows with the turn count (`progress`): a Prestige counts
several times as much at the round cap as at the start.

A Moonrakers game gives a seat about 200 decisions with a choice, more than the match's
CPU allows at half the move limit each, so `decisions_guess` spreads the match's CPU over
them."""

from operator import attrgetter

from bots.reference import moonrakers_heuristic as heuristic
from bots.sdk.search import SearchBot, heuristic_policy
from bots.sdk.standing import FittedStanding

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
    # held-out log loss 0.563, accuracy 0.680
    3: {
        "prestige": (0.172, 0.884),
        "credits": (0.011, 0.050),
        "deck_value": (-0.023, 0.037),
        "cards": (-0.059, 0.077),
        "parts_value": (-0.002, 0.026),
        "parts": (0.166, -0.129),
        "objectives_claimed": (-0.223, 0.394),
        "objectives_held": (0.024, 0.024),
    },
    # held-out log loss 0.563, accuracy 0.685
    4: {
        "prestige": (0.230, 1.139),
        "credits": (0.109, -0.156),
        "deck_value": (0.002, 0.031),
        "cards": (0.000, -0.067),
        "parts_value": (0.106, -0.190),
        "parts": (-0.077, 0.199),
        "objectives_claimed": (0.085, -0.326),
        "objectives_held": (0.266, -0.315),
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


class Bot(SearchBot):
    game = "moonrakers"
    guide = staticmethod(heuristic.act)
    policy = staticmethod(heuristic_policy(heuristic.act))
    evaluate = FittedStanding(WEIGHTS, FEATURES, features, progress)
    horizon = staticmethod(attrgetter("turns"))
    horizon_span = 1
    tree_depth = 1
    decisions_guess = 200.0
