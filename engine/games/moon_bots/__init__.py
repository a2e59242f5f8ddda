"""Moon-Bots (Blue Orange, 2019): build a robot from market cards, roll dice, be the last one standing.

Rules: ../shared/rules/moon-bots.md; card list and timing defaults A-19..A-24 from
DATA.md section 3 (data/cards.toml). Action encoding and engine choices: README.md.
"""

from engine.core.game import Game, Option
from engine.core.registry import register
from engine.games.moon_bots.cards import RULES
from engine.games.moon_bots.state import MoonBotsState

GAME = register(
    Game(
        name="moon_bots",
        rules_version="moon_bots@2",
        min_players=2,
        max_players=4,
        cooperative=False,
        state_class=MoonBotsState,
        options=(
            Option(
                "max_rounds",
                RULES.max_rounds,
                help="turn cap (E-moon_bots-9): robot turns = max_rounds x robots; "
                "the game then ends and survivors rank by energy",
                # A game needs a round; a cap far beyond any real game only makes matches that
                # run into their wall-clock limit.
                minimum=1,
                maximum=1000,
            ),
        ),
        title="Moon-Bots",
    )
)

__all__ = ["GAME", "MoonBotsState"]
