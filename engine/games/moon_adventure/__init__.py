"""Moon Adventure (Oink Games): a cooperative mission to bring supplies back to base."""

from engine.core.game import Game, Option
from engine.core.registry import register
from engine.games.moon_adventure.state import MoonAdventureState

GAME = register(
    Game(
        name="moon_adventure",
        rules_version="moon_adventure@3",
        min_players=2,
        max_players=5,
        cooperative=True,
        state_class=MoonAdventureState,
        # Added within moon_adventure@3 (E-moon_adventure-14); play is unchanged.
        later_result_fields=("progress",),
        options=(
            Option(
                "roles",
                "dealt",
                choices=("dealt", "chosen"),
                help="deal role cards at random, or let each seat choose one in seat order",
            ),
            Option(
                "beginner",
                False,
                help="new crew: the success target is lowered by the beginners' easing (A-31)",
            ),
        ),
        title="Moon Adventure",
    )
)

__all__ = ["GAME", "MoonAdventureState"]
