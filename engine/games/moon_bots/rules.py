"""Moon-Bots constants shared by the state modules: phases, decisions, market geometry."""

from __future__ import annotations

from typing import cast

from engine.games.moon_bots.cards import BOARD, CARDS, RULES, SLOTS, Ability

PH_BUY, PH_SEARCH, PH_BLACK, PH_ASSIGN, PH_END = range(5)  # indexes of views.PHASE_NAMES

# Decision tuples: (kind, deciding robot, ...). D_ROLL: the window after a roll (E-moon_bots-3).
D_START, D_SPLIT, D_DEFEND, D_PUMP, D_ROLL = range(5)
# Agenda items. A_DEFEND resumes a defence window after a weapon played inside it.
A_ASK_START, A_ATTACK, A_HIT, A_ENERGY, A_ASK_PUMP, A_ASK_ROLL, A_DEFEND = range(7)

ACTIVATORS = SLOTS + (BOARD,)  # index 6 = the board's built-in ability
ACTIVATOR_INDEX = {name: i for i, name in enumerate(ACTIVATORS)}
# Read only for robot parts (None for other cards); typed for the hot path.
ABILITY = tuple(cast(Ability, c.ability) for c in CARDS)
COST_MARK = tuple(c.cost_mark for c in CARDS)
COLUMNS = RULES.market_columns
MARKET_SIZE = COLUMNS * len(RULES.row_costs)
COLUMN_SLOTS = tuple(tuple(range(col, MARKET_SIZE, COLUMNS)) for col in range(COLUMNS))
ROW_COST = tuple(RULES.row_costs[slot // COLUMNS] for slot in range(MARKET_SIZE))
MAX_E = RULES.max_energy

ANYTIME = ("energy_stock", "computer_virus")
START_WEAPONS = ("rest", *ANYTIME)
DEFEND_WEAPONS = ("dodge", "shock_absorber", "deflection", *ANYTIME)
PUMP_WEAPONS = ("energy_pump", *ANYTIME)
BUY_WEAPONS = ("black_market", "supermarket", "spare_part_search", *ANYTIME)
ASSIGN_WEAPONS = ("adjustment", "stronger", *ANYTIME)
# 2-player duels (E-moon_bots-1): a player's left robot faces the other's right one.
DUEL_PARTNER = (3, 2, 1, 0)
DUELS = ((0, 3), (1, 2))
# ORDER_AFTER[robots][r]: the other robots in turn order, starting after r.
ORDER_AFTER = {
    count: tuple(tuple((r + k) % count for k in range(1, count)) for r in range(count))
    for count in (2, 3, 4)
}
