"""Moon Adventure's codes for track spaces, container contents and decision phases.

Shared by the game state and by its observation module.
"""

# Space kinds on the track.
BASE, SUPPLY, COLLECTED, OGS, OGS_BROKEN, ROVER_SPOT = range(6)
KIND_NAMES = ("base", "supply", "collected", "ogs", "ogs_broken", "rover_spot")
CHIP_KINDS = (SUPPLY, COLLECTED, OGS, OGS_BROKEN)

# Cards and container contents: 0 is an empty container, 2/3 an oxygen card,
# CHIP + id a supply chip. STORM only lives in the draw and discard piles.
EMPTY, STORM = 0, 1
CHIP = 10

# Phases of a decision.
CHOOSE, ROBOT, OXYGEN, ACT, SHARE, REPLENISH, OVER = range(7)
PHASE_NAMES = ("choose_role", "robot", "oxygen", "act", "share", "replenish", "over")
