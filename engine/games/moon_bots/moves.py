"""Who may do what in Moon-Bots: seating (targets, who is in play) and legal actions.

`MoonBotsBase` holds the state's fields and its read-only half; `state.MoonBotsState`
adds set-up, the turn flow and the effects. A seat's view (views.py) and the redeal of
what it cannot see (hidden.py) read this class, so they never import the state back.
"""

from __future__ import annotations

from typing import Any

from engine.core.state import State
from engine.games.moon_bots.cards import CATEGORY, IS_SECRET, KEY, PART, SLOT_INDEX
from engine.games.moon_bots.robots import Robot
from engine.games.moon_bots.rules import (
    ASSIGN_WEAPONS,
    BUY_WEAPONS,
    COST_MARK,
    D_SPLIT,
    DEFEND_WEAPONS,
    DUEL_PARTNER,
    ORDER_AFTER,
    PH_ASSIGN,
    PH_BLACK,
    PH_BUY,
    PUMP_WEAPONS,
    ROW_COST,
    START_WEAPONS,
)


class MoonBotsBase(State):
    # Fields (set by MoonBotsState.setup / _begin_turn).
    two_player: bool
    robots: list[Robot]
    targets: list[list[int]]
    market: list[int]
    deck: list[int]
    active: int
    phase: int
    decision: tuple[Any, ...] | None
    dice: list[int]
    dice_used: list[bool]
    parts_used: list[bool]
    buys_left: int
    rerolled: bool
    last_attack: tuple[int, int, tuple[int, ...]] | None
    last_roll: tuple[int, list[int]] | None  # (robot, dice): public, outlives the turn
    gained: int
    skipped: bool
    _assign_cache: list[Any] | None
    # Where the cards are besides the market and the pile.
    removed_unseen: list[int]  # secret weapons taken out at set-up, never seen
    facedown_discard: list[int]  # weapons discarded from the bottom row
    used: list[int]  # weapons played (revealed), in order
    # Spare Part Searches: (seat, weapons the searcher saw in the pile) (E-moon_bots-16).
    searches: list[tuple[int, tuple[int, ...]]]
    eliminated: list[int]  # robots in elimination order
    over: bool
    turns: int
    turn_limit: int

    # ----- seating, targets -------------------------------------------------------

    def _order_after(self, r: int) -> tuple[int, ...]:
        return ORDER_AFTER[len(self.robots)][r]

    def _targets(self, r: int) -> list[int]:
        """Robots `r` may attack (cached; recomputed whenever a robot is eliminated)."""
        return self.targets[r]

    def _compute_targets(self) -> None:
        self.targets = [self._find_targets(r) for r in range(len(self.robots))]

    def _find_targets(self, r: int) -> list[int]:
        """[left, right] neighbours, one neighbour, or the one robot it faces (2 players)."""
        robots = self.robots
        if not robots[r].alive:
            return []
        if self.two_player:
            if (robots[0].alive and robots[3].alive) or (robots[1].alive and robots[2].alive):
                # A duel is still on: fight the robot opposite, or sit deactivated.
                partner = DUEL_PARTNER[r]
                return [partner] if robots[partner].alive else []
            own = robots[r].owner
            return [x for x, rb in enumerate(robots) if rb.alive and rb.owner != own]
        alive = [x for x, rb in enumerate(robots) if rb.alive]
        k = len(alive)
        if k < 2:
            return []
        pos = alive.index(r)
        left = alive[(pos + 1) % k]  # the next player in turn order sits on the left
        if k == 2:
            return [left]
        return [left, alive[pos - 1]]

    def _in_play(self, r: int) -> bool:
        """Alive and able to fight (2-player: not defeated nor deactivated)."""
        return bool(self.targets[r])

    def _can_react(self, r: int) -> bool:
        return bool(self.robots[r].secrets) and bool(self.targets[r])

    # ----- legal actions ----------------------------------------------------------

    def _legal_actions(self) -> list[Any]:
        d = self.decision
        if d is not None:
            kind = d[0]
            if kind == D_SPLIT:
                hits = d[3]
                return [["split", a, hits - a] for a in range(hits + 1)]
            allowed = (START_WEAPONS, None, DEFEND_WEAPONS, PUMP_WEAPONS, START_WEAPONS)[kind]
            assert allowed is not None
            return ["pass", *self._weapon_actions(d[1], allowed)]
        phase = self.phase
        rb = self.robots[self.active]
        if phase == PH_ASSIGN:
            cached = self._assign_cache
            moves = cached[:] if cached is not None else self._assign_moves()
            if rb.secrets:
                moves.extend(self._weapon_actions(self.active, ASSIGN_WEAPONS))
            moves.append("done")
            return moves
        if phase == PH_BUY:
            moves = []
            if self.buys_left:
                energy = rb.energy
                parts = rb.parts
                for slot, card in enumerate(self.market):
                    if card < 0:
                        continue
                    cost = ROW_COST[slot] + COST_MARK[card]
                    if cost and energy <= cost:
                        continue  # a buy may not take the robot to 0
                    part_slot = SLOT_INDEX[card]
                    if part_slot >= 0:
                        if parts[part_slot] >= 0:
                            continue
                    elif not IS_SECRET[card] and not rb.can_take(card):
                        continue
                    moves.append(["buy", slot])
            if rb.secrets:
                moves.extend(self._weapon_actions(self.active, BUY_WEAPONS))
            moves.append("roll")
            return moves
        if phase == PH_BLACK:
            return [["take", s] for s, c in enumerate(self.market) if c >= 0 and rb.can_take(c)]
        # PH_SEARCH
        return [["part", key] for key in self._search_choices(rb)]

    def _assign_moves(self) -> list[Any]:
        """Activations (one per distinct die value or value pair) and re-rolls."""
        dice, used = self.dice, self.dice_used
        first = [-1] * 7  # first / second free die showing each value
        second = [-1] * 7
        free = False
        for i, v in enumerate(dice):
            if not used[i]:
                free = True
                if first[v] < 0:
                    first[v] = i
                elif second[v] < 0:
                    second[v] = i
        if not free:
            return []
        rb = self.robots[self.active]
        moves: list[Any] = []
        parts_used = self.parts_used
        for s, name, dice_needed, accepted in rb.activators:
            if parts_used[s]:
                continue
            if dice_needed == 1:
                for v in accepted:
                    if first[v] >= 0:
                        moves.append(["use", name, first[v]])
            else:
                for a, b in accepted:
                    i = first[a]
                    if i >= 0:
                        j = second[a] if a == b else first[b]
                        if j >= 0:
                            moves.append(["use", name, i, j] if i < j else ["use", name, j, i])
        if rb.reroll and not self.rerolled:
            values = [v for v in range(1, 7) if first[v] >= 0]
            moves.extend(["reroll", first[v]] for v in values)
            for k, a in enumerate(values):
                if second[a] >= 0:
                    moves.append(["reroll", first[a], second[a]])
                for b in values[k + 1 :]:
                    i, j = first[a], first[b]
                    moves.append(["reroll", i, j] if i < j else ["reroll", j, i])
        return moves

    def _weapon_actions(self, r: int, allowed: tuple[str, ...]) -> list[Any]:
        rb = self.robots[r]
        held = {KEY[c] for c in rb.secrets}
        out: list[Any] = []
        for kind in allowed:
            if kind not in held:
                continue
            if kind == "deflection":
                out.extend(["sw", kind, t] for t in self._deflect_targets(r))
            elif kind == "stronger":
                if self.last_attack is not None:
                    out.extend(["sw", kind, t] for t in self.last_attack[2] if self.robots[t].alive)
            elif kind == "adjustment":
                seen = 0
                for i, v in enumerate(self.dice):
                    if not self.dice_used[i] and not seen & (1 << v):
                        seen |= 1 << v
                        if v > 1:
                            out.append(["sw", kind, i, -1])
                        if v < 6:
                            out.append(["sw", kind, i, 1])
            elif kind == "black_market":
                if any(c >= 0 and rb.can_take(c) for c in self.market):
                    out.append(["sw", kind])
            elif kind == "spare_part_search":
                if self._search_choices(rb):
                    out.append(["sw", kind])
            else:
                out.append(["sw", kind])
        return out

    def _deflect_targets(self, r: int) -> list[int]:
        if self.two_player:
            return self._targets(r)
        return [x for x, rb in enumerate(self.robots) if rb.alive and x != r]

    def _search_cards(self, rb: Robot) -> list[int]:
        """Parts in the pile that fit a free slot of `rb`, by key."""
        return sorted(
            (c for c in self.deck if CATEGORY[c] == PART and rb.parts[SLOT_INDEX[c]] < 0),
            key=KEY.__getitem__,
        )

    def _search_choices(self, rb: Robot) -> list[str]:
        return [KEY[c] for c in self._search_cards(rb)]
