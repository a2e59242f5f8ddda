"""A Moon-Bots search bot: information-set Monte Carlo tree search over worlds sampled
from its observation (bots/sdk/search.py), half the move limit a move, starting from the
heuristic's choice and keeping it unless the search finds better.

It searches one decision deep (`tree_depth = 1`): each of its choices is tried, then the
heuristic plays every seat for a round (`horizon`: four robot turns), and `evaluate`
scores the world there. So the search asks which move, followed by the heuristic's play,
leaves the table best: a rollout improvement of the heuristic. Random playouts say little
about a duel of built robots; the heuristic's round costs about what 20 random decisions
did, and shows what the move leads to.

`evaluate` is a standing fitted, not guessed (`bots.sdk.standing.FittedStanding`):
`WEIGHTS` come from a logistic model of which seat finishes ahead of which, by the
difference of their features, in 3,000 games of the heuristic against itself per table
size (`python scripts/fit_standing.py moon_bots --players 2 3 4 --games 3000`). Each
feature has a weight at the start of the game and one more that grows with the turn
count (`progress`): extra dice and attack bonuses count more late, when few turns are
left to build."""

from operator import attrgetter

from bots.reference import moon_bots_heuristic as heuristic
from bots.sdk.search import SearchBot, heuristic_policy
from bots.sdk.standing import FittedStanding

FEATURES = (
    "robots",
    "energy",
    "least_energy",
    "parts",
    "extra_dice",
    "upgrades",
    "secrets",
    "attack_bonus",
    "protection",
)
LATE_TURN = 60  # robot turns: where `progress` reaches 1
ROUND = 4  # robot turns a playout plays before `evaluate` scores it

WEIGHTS = {
    # held-out log loss 0.540, accuracy 0.701
    2: {
        "robots": (-1.735, -0.883),
        "energy": (0.077, 0.362),
        "least_energy": (0.006, -0.065),
        "parts": (0.364, -0.345),
        "extra_dice": (0.049, 0.458),
        "upgrades": (0.402, -0.044),
        "secrets": (0.126, -0.248),
        "attack_bonus": (0.048, 0.096),
        "protection": (-0.258, 0.491),
    },
    # held-out log loss 0.368, accuracy 0.824
    3: {
        "robots": (7.463, 2.879),
        "energy": (0.190, 0.015),
        "least_energy": (0.190, 0.015),
        "parts": (0.210, 0.028),
        "extra_dice": (-0.332, 1.366),
        "upgrades": (0.480, 0.621),
        "secrets": (0.254, 0.073),
        "attack_bonus": (-0.353, 0.921),
        "protection": (0.664, -1.093),
    },
    # held-out log loss 0.357, accuracy 0.813
    4: {
        "robots": (7.750, 3.466),
        "energy": (0.218, -0.047),
        "least_energy": (0.218, -0.047),
        "parts": (0.093, 0.341),
        "extra_dice": (-0.313, 1.441),
        "upgrades": (0.717, -0.734),
        "secrets": (0.673, -0.767),
        "attack_bonus": (-0.964, 2.765),
        "protection": (0.499, 0.517),
    },
}


def features(state, seat):
    """The seat's robots still standing, their energy (all and the weakest's), and what
    they have built."""
    robots = [robot for robot in state.robots if robot.owner == seat and robot.alive]
    return [
        len(robots),
        sum(robot.energy for robot in robots),
        min((robot.energy for robot in robots), default=0),
        sum(1 for robot in robots for card in robot.parts if card >= 0),
        sum(robot.extra_dice for robot in robots),
        sum(len(robot.upgrades) for robot in robots),
        sum(len(robot.secrets) for robot in robots),
        sum(sum(robot.bonus) for robot in robots),
        sum(sum(robot.protection) for robot in robots),
    ]


def progress(state):
    return min(1.0, state.turns / LATE_TURN)


class Bot(SearchBot):
    game = "moon_bots"
    guide = staticmethod(heuristic.act)
    policy = staticmethod(heuristic_policy(heuristic.act))
    evaluate = FittedStanding(WEIGHTS, FEATURES, features, progress)
    horizon = staticmethod(attrgetter("turns"))
    horizon_span = ROUND
    tree_depth = 1
