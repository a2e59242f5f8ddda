"""Moon-Bots rules: set-up, the turn (buy, activate, restock) and every card effect.

Flow model. The active robot's own turn is a `phase` (buy -> assign -> end).
Everything that happens inside it and may need someone's decision (an attack
to split, a target that may react with a protection weapon, an opponent who
may pump energy, the start-of-turn and after-roll windows for Rest) goes
through an `agenda`: a stack of small tuples processed by `_settle()` until a
decision is needed.
The current out-of-phase decision is `self.decision`. Reaction windows open
only from public facts (a robot holds at least one secret weapon, a count
everyone sees), so who is asked never reveals which weapon anyone holds;
"pass" is always legal. See README.md for the action encoding and the
engine choices (E-moon_bots-N).
"""

from __future__ import annotations

import random
from typing import Any

from engine.core.errors import InvalidSetup
from engine.core.ranking import ranks_from_keys
from engine.games.moon_bots.cards import (
    BOARDS,
    CARDS,
    IS_SECRET,
    KEY,
    PART,
    RULES,
)
from engine.games.moon_bots.hidden import redeal
from engine.games.moon_bots.moves import MoonBotsBase
from engine.games.moon_bots.robots import Robot
from engine.games.moon_bots.rules import (
    A_ASK_PUMP,
    A_ASK_ROLL,
    A_ASK_START,
    A_ATTACK,
    A_DEFEND,
    A_ENERGY,
    A_HIT,
    ABILITY,
    ACTIVATOR_INDEX,
    ACTIVATORS,
    COLUMN_SLOTS,
    COLUMNS,
    COST_MARK,
    D_DEFEND,
    D_PUMP,
    D_ROLL,
    D_SPLIT,
    D_START,
    MARKET_SIZE,
    MAX_E,
    PH_ASSIGN,
    PH_BLACK,
    PH_BUY,
    PH_END,
    PH_SEARCH,
    ROW_COST,
)
from engine.games.moon_bots.views import observation_for


class MoonBotsState(MoonBotsBase):
    # ----- set-up -----------------------------------------------------------------

    def setup(self) -> None:
        n = self.num_players
        max_rounds = self.options["max_rounds"]
        if max_rounds < 1:
            raise InvalidSetup("max_rounds must be at least 1")
        self.two_player = n == 2
        if self.two_player:
            e0, e1 = RULES.start_energy_two_player
            self.robots = [Robot(0, 1, e0), Robot(0, 2, e0), Robot(1, 3, e1), Robot(1, 4, e1)]
        else:
            self.robots = [Robot(i, i + 1, RULES.start_energy[i]) for i in range(n)]
        self.turn_limit = max_rounds * len(self.robots)  # E-moon_bots-9
        cards = [c.id for c in CARDS if not (n == 3 and c.three_player)]
        self.removed_marked = [c.id for c in CARDS if n == 3 and c.three_player]
        secrets = [c for c in cards if IS_SECRET[c]]
        self.removed_unseen = self.rng.sample(secrets, RULES.secret_weapons_removed)
        gone = set(self.removed_unseen)
        self.deck = [c for c in cards if c not in gone]
        self.rng.shuffle(self.deck)  # the top of the pile is the end of the list
        self.market = [self.deck.pop() for _ in range(MARKET_SIZE)]
        self.facedown_discard = []
        self.used = []
        self.searches = []
        # Secret weapons are never free, from the first turn on (E-moon_bots-11).
        self._restock()
        self.eliminated = []
        self.event = 0
        self.over = False
        self.capped = False
        self.turns = 0
        self.agenda: list[tuple[Any, ...]] = []
        self.decision: tuple[Any, ...] | None = None
        self._assign_cache: list[Any] | None = None
        self.last_roll = None
        self._compute_targets()
        self._begin_turn(0)
        self._settle()

    def clone(self) -> MoonBotsState:
        new = object.__new__(MoonBotsState)
        new.__dict__.update(self.__dict__)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.actions = self.actions[:]
        new._legal_cache = None
        new.robots = [r.copy() for r in self.robots]
        for name in (
            "deck",
            "market",
            "removed_unseen",
            "facedown_discard",
            "used",
            "searches",
            "eliminated",
            "agenda",
            "dice",
            "dice_used",
            "parts_used",
            "targets",
        ):
            setattr(new, name, getattr(self, name)[:])
        return new

    # ----- turn flow ----------------------------------------------------------------

    def _begin_turn(self, r: int) -> None:
        self.active = r
        self.turns += 1
        if self.turns > self.turn_limit:
            self.capped = True
            self.over = True
            return
        self.phase = PH_BUY
        self.dice: list[int] = []
        self.dice_used: list[bool] = []
        self.parts_used = [False] * len(ACTIVATORS)
        self.gained = 0
        self.buys_left = 1
        self.rerolled = False
        self.skipped = False
        self.last_attack: tuple[int, int, tuple[int, ...]] | None = None
        targets = self._targets(r)
        self.turn_opponent = targets[0] if self.two_player else -1
        self._ask_opponents(A_ASK_START, r)

    def _active_can_continue(self) -> bool:
        if not self.robots[self.active].alive:
            return False
        # 2-player: when the robot's duel ends its turn ends (it is deactivated).
        return not self.two_player or self.robots[self.turn_opponent].alive

    def _settle(self) -> None:
        """Run automatic steps until someone must decide or the game is over."""
        while not self.over:
            if self.decision is not None:
                return
            if self.agenda:
                self._run(self.agenda.pop())
                continue
            if self.phase == PH_END or not self._active_can_continue():
                self._end_turn()
                continue
            if self.phase == PH_ASSIGN:
                # Cached for _legal_actions; nothing changes before it is asked for.
                self._assign_cache = self._assign_moves()
                if not self._assign_cache and not self.robots[self.active].secrets:
                    self._end_turn()  # nothing left to activate: no empty decision
                    continue
            return
        self.agenda.clear()
        self.decision = None

    def _end_turn(self) -> None:
        self._restock()
        for x in (*self._order_after(self.active), self.active):
            if self._in_play(x):
                self._begin_turn(x)
                return
        self.over = True

    def _restock(self) -> None:
        """Discard bottom-row weapons, slide down, refill; again while a weapon lands
        on the bottom row, so no weapon is ever free (E-moon_bots-11)."""
        market, deck = self.market, self.deck
        if min(market) >= 0 and not any(IS_SECRET[market[c]] for c in range(COLUMNS)):
            return  # full market, no weapon on the bottom row: nothing moves
        while True:
            for col in range(COLUMNS):
                if market[col] >= 0 and IS_SECRET[market[col]]:
                    self.facedown_discard.append(market[col])
                    market[col] = -1
            for slots in COLUMN_SLOTS:
                column = [market[s] for s in slots if market[s] >= 0]
                if len(column) < len(slots):
                    column += [-1] * (len(slots) - len(column))
                    for s, card in zip(slots, column, strict=True):
                        market[s] = card
            for s in range(MARKET_SIZE):  # lower rows first, left column first
                if market[s] < 0 and deck:
                    market[s] = deck.pop()
            # Each pass discards at least one weapon, so this ends.
            if not any(market[c] >= 0 and IS_SECRET[market[c]] for c in range(COLUMNS)):
                return

    def _run(self, item: tuple[Any, ...]) -> None:
        kind = item[0]
        robots = self.robots
        if kind == A_HIT:
            _, attacker, target, ht, n, protectable = item
            rb = robots[target]
            if not rb.alive:
                return
            if protectable:
                n -= rb.protection[ht]
                if n <= 0:
                    return
                if self._can_react(target):
                    self.decision = (D_DEFEND, target, attacker, ht, n)
                    return
            self._damage([(target, n)])
        elif kind == A_ATTACK:
            _, attacker, ht, hits = item
            targets = self._targets(attacker)
            if not targets:
                return
            if len(targets) == 1:
                self.last_attack = (attacker, ht, (targets[0],))
                self.agenda.append((A_HIT, attacker, targets[0], ht, hits, True))
            else:
                self.decision = (D_SPLIT, attacker, ht, hits, targets[0], targets[1])
        elif kind == A_ENERGY:
            _, r, delta = item
            rb = robots[r]
            if not rb.alive:
                return
            if delta < 0:
                self._damage([(r, -delta)])
                return
            gain = min(delta, RULES.turn_gain_cap - self.gained, MAX_E - rb.energy)
            if gain > 0:
                rb.energy += gain
                self.gained += gain
                self._ask_pumps(r)
        elif kind == A_ASK_START:
            x = item[1]
            if self.phase == PH_BUY and self._active_can_continue() and self._can_react(x):
                self.decision = (D_START, x)
        elif kind == A_ASK_ROLL:
            x = item[1]
            if self.phase == PH_ASSIGN and self._active_can_continue() and self._can_react(x):
                self.decision = (D_ROLL, x)
        elif kind == A_ASK_PUMP:
            x = item[1]
            if self._can_react(x):
                self.decision = (D_PUMP, x, item[2])
        else:  # A_DEFEND: a defence window resumes after a weapon played inside it
            _, target, attacker, ht, n = item
            if not robots[target].alive:
                return
            if self._can_react(target):
                self.decision = (D_DEFEND, target, attacker, ht, n)
            else:
                self._damage([(target, n)])

    def _ask_opponents(self, item: int, r: int) -> None:
        """Queue a start-of-turn or after-roll window for each opponent of `r` (turn order)."""
        owner = self.robots[r].owner
        for x in reversed(self._order_after(r)):
            if self.robots[x].owner != owner and self._can_react(x):
                self.agenda.append((item, x))

    def _ask_pumps(self, gainer: int) -> None:
        """Any robot of another player may pump when `gainer` gains energy, on anyone's
        turn (E-moon_bots-6); asked in turn order from the active robot's left."""
        owner = self.robots[gainer].owner
        active = self.active
        for x in (active, *reversed(self._order_after(active))):
            if self.robots[x].owner != owner and self._can_react(x):
                self.agenda.append((A_ASK_PUMP, x, gainer))

    def _damage(self, losses: list[tuple[int, int]]) -> None:
        """Energy losses applied at once (one elimination event); checks the end."""
        self.event += 1
        died = False
        for r, n in losses:
            rb = self.robots[r]
            if not rb.alive or n <= 0:
                continue
            rb.energy -= n
            if rb.energy <= 0:
                rb.energy = 0
                rb.alive = False
                rb.out_event = self.event
                self.eliminated.append(r)
                # Its unused weapons leave the game unseen (E-moon_bots-7): they stay
                # in `secrets`, which nobody is asked about any more and the Virus skips.
                died = True
        if died:
            self._compute_targets()
            if len({rb.owner for rb in self.robots if rb.alive}) <= 1:
                self.over = True

    # ----- weapons ----------------------------------------------------------------

    def _use_secret(self, r: int, kind: str) -> None:
        rb = self.robots[r]
        card = rb.secrets.pop(rb.secret_index(kind))
        self.used.append(card)

    def _energy_stock(self, r: int) -> None:
        rb = self.robots[r]
        gain = min(RULES.energy_stock_gain, MAX_E - rb.energy)
        rb.energy += gain
        if gain > 0:
            self._ask_pumps(r)

    def _energy_pump(self, r: int) -> None:
        rb = self.robots[r]
        gain = min(RULES.energy_pump_gain, MAX_E - rb.energy)
        if r == self.active:  # only Energy Stock passes the +2 of your own turn
            gain = min(gain, RULES.turn_gain_cap - self.gained)
            self.gained += max(gain, 0)
        if gain > 0:
            rb.energy += gain
            self._ask_pumps(r)

    def _virus(self, r: int) -> None:
        """The player's own robots lose first (E-moon_bots-14): a Virus that fells its
        player's last robot ends a two-player table there, so it never forces a shared win."""
        owner = self.robots[r].owner
        loss = [(x, len(rb.secrets)) for x, rb in enumerate(self.robots) if self._can_react(x)]
        self._damage([(x, n) for x, n in loss if self.robots[x].owner == owner])
        if not self.over:
            self._damage([(x, n) for x, n in loss if self.robots[x].owner != owner])

    def _anytime(self, r: int, kind: str) -> None:
        if kind == "energy_stock":
            self._energy_stock(r)
        else:
            self._virus(r)

    # ----- whose decision ----------------------------------------------------------

    def _to_move(self) -> int | None:
        if self.over:
            return None
        d = self.decision
        return self.robots[d[1] if d is not None else self.active].owner

    def _is_terminal(self) -> bool:
        return self.over

    # ----- applying actions ---------------------------------------------------------

    def _apply(self, action: Any) -> None:
        self._assign_cache = None
        d = self.decision
        if d is not None:
            self.decision = None
            kind = d[0]
            if kind == D_SPLIT:
                self._apply_split(d, action)
            elif action != "pass":
                r, weapon = d[1], action[1]
                self._use_secret(r, weapon)
                if kind == D_DEFEND:
                    self._apply_defence(d, action)
                elif weapon == "rest":
                    self.skipped = True
                    self.phase = PH_END
                elif weapon == "energy_pump":
                    self._energy_pump(r)
                else:
                    # The window stays open for this robot while it holds a weapon; the
                    # pump windows an Energy Stock opens come first (pushed later).
                    self.agenda.append(
                        (A_ASK_START, r)
                        if kind == D_START
                        else (A_ASK_ROLL, r)
                        if kind == D_ROLL
                        else (A_ASK_PUMP, r, d[2])
                    )
                    self._anytime(r, weapon)
            elif kind == D_DEFEND:
                self._damage([(d[1], d[4])])
        elif self.phase == PH_ASSIGN:
            self._apply_assign(action)
        elif self.phase == PH_BUY:
            self._apply_buy(action)
        elif self.phase == PH_BLACK:
            slot = action[1]
            self.robots[self.active].install(self.market[slot])
            self.market[slot] = -1
            self.phase = PH_BUY
        else:  # PH_SEARCH
            rb = self.robots[self.active]
            card = next(c for c in self.deck if KEY[c] == action[1])
            self.deck.remove(card)
            rb.install(card)
            self.rng.shuffle(self.deck)
            self.phase = PH_BUY
        self._settle()

    def _apply_split(self, d: tuple[Any, ...], action: Any) -> None:
        _, attacker, ht, _, left, right = d
        a, b = action[1], action[2]
        self.last_attack = (attacker, ht, tuple(t for t, n in ((left, a), (right, b)) if n))
        if b:
            self.agenda.append((A_HIT, attacker, right, ht, b, True))
        if a:
            self.agenda.append((A_HIT, attacker, left, ht, a, True))

    def _apply_defence(self, d: tuple[Any, ...], action: Any) -> None:
        _, target, attacker, ht, n = d
        weapon = action[1]
        if weapon == "dodge":
            return
        if weapon == "shock_absorber":
            self._damage([(target, n - RULES.shock_absorber_hits)])
            return
        if weapon == "deflection":
            moved = min(RULES.deflection_hits, n)
            # The deflected hits attack the new target: its protection and its own
            # defence window apply (E-moon_bots-5).
            self.agenda.append((A_HIT, target, action[2], ht, moved, True))
            self._damage([(target, n - moved)])
            return
        self.agenda.append((A_DEFEND, target, attacker, ht, n))
        self._anytime(target, weapon)

    def _apply_buy(self, action: Any) -> None:
        rb = self.robots[self.active]
        if action == "roll":
            roll = self.rng.random
            self.dice = [1 + int(roll() * 6) for _ in range(rb.dice_count)]
            self.dice_used = [False] * len(self.dice)
            self.last_roll = (self.active, self.dice[:])  # public, outlives the turn
            self.phase = PH_ASSIGN
            self._ask_opponents(A_ASK_ROLL, self.active)  # Rest after seeing the roll
            return
        if action[0] == "buy":
            slot = action[1]
            card = self.market[slot]
            rb.energy -= ROW_COST[slot] + COST_MARK[card]
            rb.install(card)
            self.market[slot] = -1
            self.buys_left -= 1
            return
        weapon = action[1]
        self._use_secret(self.active, weapon)
        if weapon == "black_market":
            self.phase = PH_BLACK
        elif weapon == "supermarket":
            self.buys_left += 1
        elif weapon == "spare_part_search":
            # The searcher goes through the whole pile and sees its weapons too.
            seen = tuple(c for c in self.deck if IS_SECRET[c])
            self.searches.append((rb.owner, seen))
            self.phase = PH_SEARCH
        else:
            self._anytime(self.active, weapon)

    def _apply_assign(self, action: Any) -> None:
        if action == "done":
            self.phase = PH_END
            return
        verb = action[0]
        rb = self.robots[self.active]
        if verb == "use":
            s = ACTIVATOR_INDEX[action[1]]
            self.parts_used[s] = True
            for i in action[2:]:
                self.dice_used[i] = True
            ability = ABILITY[rb.parts[s]] if s < 6 else BOARDS[rb.board]
            self.last_attack = None
            # Resolve in card order: the attack, then the energy (E-moon_bots-4).
            if ability.energy:
                self.agenda.append((A_ENERGY, self.active, ability.energy))
            if ability.fists:
                self.agenda.append((A_ATTACK, self.active, 0, ability.fists + rb.bonus[0]))
            elif ability.missiles:
                self.agenda.append((A_ATTACK, self.active, 1, ability.missiles + rb.bonus[1]))
        elif verb == "reroll":
            self.rerolled = True
            self.last_attack = None
            for i in action[1:]:
                self.dice[i] = 1 + int(self.rng.random() * 6)
            self._ask_opponents(A_ASK_ROLL, self.active)
        else:
            weapon = action[1]
            self._use_secret(self.active, weapon)
            if weapon == "adjustment":
                self.dice[action[2]] += action[3]
            elif weapon == "stronger":
                # Extra hits of the attack just made; no protection applies to them.
                _, ht, _ = self.last_attack  # type: ignore[misc]
                self.agenda.append((A_HIT, self.active, action[2], ht, RULES.stronger_hits, False))
            else:
                self._anytime(self.active, weapon)

    # ----- what players see, results, hidden information ----------------------------

    def _observation(self, seat: int) -> dict[str, Any]:
        return observation_for(self, seat)

    def _result(self) -> dict[str, Any]:
        n = self.num_players
        energy = [0] * n
        alive = [0] * n
        last_out = [0] * n
        for rb in self.robots:
            if rb.alive:
                alive[rb.owner] = 1
                energy[rb.owner] += rb.energy
            else:
                last_out[rb.owner] = max(last_out[rb.owner], rb.out_event)
        # Survivors first (by energy if the turn cap ended the game), then the
        # later a player's last robot fell, the better (ranks by elimination order).
        keys = [(alive[s], energy[s] if alive[s] else last_out[s]) for s in range(n)]
        return {
            "ranks": ranks_from_keys(keys),
            "scores": energy,
            "eliminated_robots": self.eliminated[:],
            "turn_cap_reached": self.capped,
            "turns": min(self.turns, self.turn_limit),
        }

    def resample_hidden(self, seat: int, rng: random.Random) -> MoonBotsState:
        """Redraw every secret weapon `seat` cannot identify, and the pile order (hidden.py)."""
        new = self.clone()
        redeal(new, seat, rng)
        return new


def part_card(key: str) -> int:
    """The card id of the robot part with this key (for tests and tools)."""
    return next(c.id for c in CARDS if c.category == PART and c.key == key)
