"""The cooperative rating on the real cooperative game, without the service around it.

Five bots play a round robin of two-seat Moon Adventure tables, on the standard rules
(a target of 5 undamaged supplies) and with the rulebook's new-crew easing (a target of
3): the heuristic bot, the random bot,
and three more heuristic bots as the partners both of them are dealt, each pairing
three times in each seating. Every table's outcome moves each seat against the game's own
rating (arena/ratings/elo_maths.py), as the pipeline does. The heuristic must end
above the random bot (which loses rating to the game), after its tables succeeded
more often. The same test through Celery workers and PostgreSQL, on a small test
game, is tests/workers/pipeline/test_cooperative.py.
"""

from __future__ import annotations

import itertools

import pytest

import engine
from arena.ratings.elo_maths import rate_cooperative
from bots.reference import builtin_path
from bots.sdk.runner import load_bot

START = 1500.0
GAME = "moon_adventure"
PLAYERS = 2
GAMES_PER_SEATING = 3


def play_table(bot_names: list[str], seed: int, options: dict[str, bool]) -> bool:
    """One match with a fresh copy of each bot per seat, as one process per seat would be."""
    bots = [load_bot(str(builtin_path(name, GAME))) for name in bot_names]
    for seat, bot in enumerate(bots):
        if bot.setup is not None:
            bot.setup({"seat": seat, "seed": seed, "players": len(bots)})
    state = engine.get_game(GAME).new_state(len(bots), seed, options)
    while not state.is_terminal():
        seat = state.to_move()
        state.apply(bots[seat].act(state.observation(seat), state.legal_actions()))
    return state.result()["outcome"] == "success"


# With these seeds the heuristic's tables succeed 11 times in 24 on the standard rules and
# 20 times with the easing; the random bot's tables 0 and 9 times (a heuristic partner can
# carry it to the eased target).
@pytest.mark.parametrize("options", [{}, {"beginner": True}], ids=["standard", "new_crew"])
def test_the_heuristic_ends_above_random_after_a_round_robin_with_dealt_partners(options):
    pool = ["strong", "weak", "partner1", "partner2", "partner3"]
    file_of = {name: "random" if name == "weak" else "heuristic" for name in pool}
    rating = dict.fromkeys(pool, START)
    game_rating = START
    successes = dict.fromkeys(pool, 0)
    seed = 0
    for table in itertools.combinations(pool, PLAYERS):
        for rotation in range(PLAYERS * GAMES_PER_SEATING):  # each bot in each seat
            seats = list(table[rotation % PLAYERS :] + table[: rotation % PLAYERS])
            seed += 1
            success = play_table([file_of[name] for name in seats], seed, options)
            update = rate_cooperative([rating[n] for n in seats], game_rating, [success] * PLAYERS)
            for name, new in zip(seats, update.seats, strict=True):
                rating[name] = new
                successes[name] += success
            game_rating = update.game

    # Both met the same partners in the same seats.
    assert successes["strong"] > successes["weak"] + 5
    assert rating["strong"] > rating["weak"] + 100
    assert rating["weak"] < START  # the random bot loses rating to the game
