"""What one seat sees of a Moon-Bots state: the only door for hidden information.

Hidden from a seat: other players' secret weapons, also those an eliminated
robot never used (only their count shows), face-down weapons in the market
(only "a secret weapon, cost c"), the pile's order beyond the back of its top
card, and the weapons removed or discarded face down (only their counts).
Cards are shown self-described (condition, hits, energy) so bots need no data.
"""

from __future__ import annotations

from typing import Any

from engine.games.moon_bots.cards import BOARDS, IS_SECRET, KEY, RULES, SLOTS, card_view
from engine.games.moon_bots.moves import MoonBotsBase
from engine.games.moon_bots.robots import HIT_TYPES

PHASE_NAMES = ("buy", "spare_part_search", "black_market", "assign", "end")
ACTIVATOR_NAMES = (*SLOTS, "board")
COLUMNS = RULES.market_columns


def _decision(state: MoonBotsBase) -> dict[str, Any]:
    d = state.decision
    if d is None:
        return {"kind": PHASE_NAMES[state.phase], "robot": state.active}
    kind = d[0]
    if kind == 0:
        return {"kind": "start_of_turn", "robot": d[1], "active": state.active}
    if kind == 1:
        return {
            "kind": "split",
            "robot": d[1],
            "type": HIT_TYPES[d[2]],
            "hits": d[3],
            "left": d[4],
            "right": d[5],
        }
    if kind == 2:
        return {
            "kind": "defend",
            "robot": d[1],
            "attacker": d[2],
            "type": HIT_TYPES[d[3]],
            "hits": d[4],
        }
    if kind == 3:
        return {"kind": "energy_pump", "robot": d[1], "gainer": d[2]}
    return {"kind": "after_roll", "robot": d[1], "active": state.active}


def _robot(state: MoonBotsBase, index: int, seat: int) -> dict[str, Any]:
    rb = state.robots[index]
    return {
        "robot": index,
        "owner": rb.owner,
        "board": rb.board,
        "energy": rb.energy,
        "alive": rb.alive,
        "targets": state._targets(index)[:],
        "board_ability": BOARDS[rb.board].describe(),
        "parts": {SLOTS[s]: (card_view(c) if c >= 0 else None) for s, c in enumerate(rb.parts)},
        "upgrades": [KEY[u] for u in rb.upgrades],
        "dice": rb.dice_count,
        "secret_weapon_count": len(rb.secrets),
        "secret_weapons": rb.secret_kinds() if rb.owner == seat else None,
        "eliminated_event": rb.out_event,
    }


def _market(state: MoonBotsBase) -> list[dict[str, Any] | None]:
    cells: list[dict[str, Any] | None] = []
    for slot, card in enumerate(state.market):
        if card < 0:
            cells.append(None)
            continue
        row_cost = RULES.row_costs[slot // COLUMNS]
        if IS_SECRET[card]:
            view: dict[str, Any] = {"category": "secret", "face_down": True, "cost": row_cost}
        else:
            view = card_view(card)
            view["cost"] = row_cost + view["cost_mark"]
        view["slot"] = slot
        view["row"] = slot // COLUMNS
        cells.append(view)
    return cells


def observation_for(state: MoonBotsBase, seat: int) -> dict[str, Any]:
    last = state.last_attack if not state.over else None
    searching = state.decision is None and state.phase == 1 and not state.over
    deck = state.deck
    return {
        "two_player": state.two_player,
        "my_robots": [i for i, rb in enumerate(state.robots) if rb.owner == seat],
        "robots": [_robot(state, i, seat) for i in range(len(state.robots))],
        "market": _market(state),
        "deck_size": len(deck),
        # Card backs (E-moon_bots-15): everyone sees whether the pile's top card is a
        # secret weapon; parts and upgrades share one back.
        "deck_top": None if not deck else "secret" if IS_SECRET[deck[-1]] else "ability",
        "used_secret_weapons": [KEY[c] for c in state.used],
        # What this seat saw going through the pile with Spare Part Search (E-moon_bots-16).
        "pile_weapons_seen": [
            sorted(KEY[c] for c in seen) for owner, seen in state.searches if owner == seat
        ],
        "face_down_discards": len(state.facedown_discard),
        "removed_unseen": len(state.removed_unseen),
        "active_robot": state.active,
        "decision": _decision(state) if not state.over else None,
        "turn": min(state.turns, state.turn_limit),
        "turn_limit": state.turn_limit,
        "dice": state.dice[:],
        "dice_used": state.dice_used[:],
        "parts_used": [
            n for n, used in zip(ACTIVATOR_NAMES, state.parts_used, strict=True) if used
        ],
        "energy_gained_this_turn": state.gained,
        "buys_left": state.buys_left,
        "rerolled": state.rerolled,
        "rested": state.skipped,
        "last_attack": None
        if last is None
        else {"attacker": last[0], "type": HIT_TYPES[last[1]], "targets": list(last[2])},
        "eliminated_robots": state.eliminated[:],
        # Spare Part Search: the parts in the pile that fit (which parts are in the
        # pile follows from what is visible, so this reveals nothing new).
        "search_choices": [card_view(c) for c in state._search_cards(state.robots[state.active])]
        if searching
        else None,
        # The searcher goes through the whole pile: every card in it, sorted.
        "search_pile": sorted(KEY[c] for c in deck)
        if searching and state.robots[state.active].owner == seat
        else None,
        "last_roll": None
        if state.last_roll is None
        else {"robot": state.last_roll[0], "dice": state.last_roll[1][:]},
    }
