"""Moonrollers: push-your-luck dice, crew contracts and hazard tokens (2-5 players).

Rules: ../shared/rules/moonrollers.md; data and defaults A-1..A-7: DATA.md section 1.
The action encoding and every default this engine chose are in README.md.
"""

from engine.core.game import Game, Option
from engine.core.registry import register
from engine.games.moonrollers.cards import ABILITY_WILD_FILLS_WILD_REQUIREMENT
from engine.games.moonrollers.state import MoonrollersState

GAME = register(
    Game(
        name="moonrollers",
        rules_version="moonrollers@2",
        min_players=2,
        max_players=5,
        cooperative=False,
        state_class=MoonrollersState,
        options=(
            Option(
                "variant",
                "standard",
                choices=("standard", "long"),
                help="'long': no starting crew (the rulebook's longer game, for 2-3 players)",
            ),
            Option(
                "ability_wild_fills_wild_requirement",
                ABILITY_WILD_FILLS_WILD_REQUIREMENT,
                choices=(True, False),
                help="A-3: a die an ability locks 'as a Wild' may fill a Wild (x2) requirement",
            ),
        ),
        title="Moonrollers",
    )
)

__all__ = ["GAME", "MoonrollersState"]
