"""A Moon-Bots search bot: information-set Monte Carlo tree search over worlds sampled
from its observation (bots/sdk/search.py), half the move limit a move, starting from the
heuristic's choice and keeping it unless the search finds better.

Random playouts to the end say little about a duel of built robots, so playouts stop after
`playout_depth` random decisions and `standing` scores the world there: each player's
robots still standing, their energy, and what they have built (parts, extra dice,
upgrades, secret weapons)."""

from bots.reference import moon_bots_heuristic
from bots.sdk.search import SearchBot, standing_reward

ROBOT_WEIGHT = 8.0  # a robot still in the game, beyond its energy
PART_WEIGHT = 1.5
DIE_WEIGHT = 2.0
UPGRADE_WEIGHT = 0.7
SECRET_WEIGHT = 1.5
SCALE = 4.0  # a standing lead of 4 energy is worth about 73% to 27%


def standing(state):
    """Each player's standing, in energy-worth units (higher is better)."""
    values = [0.0] * state.num_players
    for robot in state.robots:
        if not robot.alive:
            continue
        values[robot.owner] += (
            ROBOT_WEIGHT
            + robot.energy
            + PART_WEIGHT * sum(1 for card in robot.parts if card >= 0)
            + DIE_WEIGHT * robot.extra_dice
            + UPGRADE_WEIGHT * len(robot.upgrades)
            + SECRET_WEIGHT * len(robot.secrets)
        )
    return values


def evaluate(state):
    return standing_reward(standing(state), SCALE)


class Bot(SearchBot):
    game = "moon_bots"
    guide = staticmethod(moon_bots_heuristic.act)
    evaluate = staticmethod(evaluate)
    playout_depth = 20
