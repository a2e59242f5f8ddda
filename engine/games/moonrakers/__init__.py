"""Moonrakers, with the Overload expansion (on by default; `expansions=[]` plays the base game).

Rules: ../shared/rules/moonrakers-overload.md and DATA.md section 2; the action
encoding and every assumption are listed in this package's README.md.
"""

from engine.core.game import Game, Option
from engine.core.registry import register
from engine.games.moonrakers.cards import RULES
from engine.games.moonrakers.state import MoonrakersState

GAME = register(
    Game(
        name="moonrakers",
        rules_version="moonrakers@2",
        min_players=1,  # 1-2 players use the Mercenary deck
        max_players=5,
        cooperative=False,
        state_class=MoonrakersState,
        options=(
            Option(
                "expansions",
                ["overload"],
                subset_of=("overload",),
                help="expansions in play; [] is the base game",
            ),
            Option(
                "max_rounds",
                RULES["round_cap"]["value"],
                help="E-moonrakers-1: the game stops after this many rounds; Prestige decides",
                # A game needs a round; a cap far beyond any real game only makes matches that
                # run into their wall-clock limit.
                minimum=1,
                maximum=1000,
            ),
        ),
        title="Moonrakers (+ Overload)",
    )
)

__all__ = ["GAME", "MoonrakersState"]
