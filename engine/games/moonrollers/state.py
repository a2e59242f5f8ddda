"""Moonrollers game state: set-up, the decisions on offer, applying them, scoring, copies.

A turn is a chain of small decisions of the active seat: choose a crew, commit
to a requirement, lock dice, use an ability, roll again or stop, keep one of two
hazard tokens, place a hired crew on top of or under its faction stack, return
a hazard token. Steps with nothing to decide (the first roll of a turn, a bust
when no lock and no ability is possible, the forced stop when the rolling pool
is empty) happen inside `apply`. The steps of a turn themselves (rolling, completing,
busting, hiring) are `turn.Turn`'s, which the crew abilities share. See README.md for the
action encoding.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core.ranking import ranks_from_keys
from engine.games.moonrollers.abilities import (
    ability_actions,
    before_commit_actions,
    lock_actions,
    lock_value,
    use_ability,
)
from engine.games.moonrollers.cards import (
    CREW,
    CREW_INDEX,
    DISPLAY_SIZE,
    FACE_INDEX,
    FACES,
    FACTIONS,
    HAZARD_BY_PRESTIGE,
    HAZARD_KINDS,
    HAZARD_PRESTIGE,
    HAZARD_SYMBOLS,
    START_DICE,
    STARTERS,
)
from engine.games.moonrollers.phases import (
    COMMIT,
    CREW_CHOICE,
    HAZARD,
    LOCK,
    NAMARI,
    PLACE,
    RETURN,
    SELECT,
    START,
)
from engine.games.moonrollers.turn import Turn
from engine.games.moonrollers.views import observe

_KAL_DAMAR = ["use", "kal_damar"]
_NAMARI = ["use", "namari"]
_PLACE = [["place", "top"], ["place", "bottom"]]


class MoonrollersState(Turn):
    """One game of Moonrollers (2-5 players)."""

    # ----- setup ------------------------------------------------------------------

    def setup(self) -> None:
        n = self.num_players
        rng = self.rng
        self.prestige = [0] * n  # unbounded track
        self.hz = [[0] * len(HAZARD_KINDS) for _ in range(n)]  # hazard tokens by kind
        self.stacks = [[[] for _ in FACTIONS] for _ in range(n)]
        self.abil = [set() for _ in range(n)]  # abilities of top cards
        self.pile = [k.count for k in HAZARD_KINDS]  # A-1; drawn at random, so no order
        # A-3 (option): may a die an ability "locks as a Wild" fill a Wild (x2) requirement?
        self.wild_fill = self.options["ability_wild_fills_wild_requirement"]
        deck = [c.index for c in CREW if not c.starter]
        starters = list(STARTERS)
        rng.shuffle(starters)
        if self.options["variant"] == "standard":
            # one random starting crew each; the unused ones join the deck.
            for seat in range(n):
                self._put_crew(seat, starters[seat], top=True)
            starters = starters[n:]
        deck.extend(starters)
        rng.shuffle(deck)
        self.deck = deck  # the top card is the last one
        self.display = self._deal_display(DISPLAY_SIZE[n])
        self.marks = [[-1] * len(CREW[c].requirements) for c in self.display]
        self.over = False
        self.end_reason = ""
        self._rig_dice = []  # tests only: forced die faces, consumed first
        self._rig_tokens = []  # tests only: forced hazard draws
        self.cur = rng.randrange(n)  # the first player is chosen randomly
        self._start_turn()
        self._settle()

    def _deal_display(self, size: int) -> list[int]:
        """2-3 players: no duplicate faction; 4-5 players: 6 cards with every faction.

        Cards that would break the rule are set aside and shuffled back in.
        """
        most_dupes = max(0, size - len(FACTIONS))
        display: list[int] = []
        seen: set[int] = set()
        skipped: list[int] = []
        while len(display) < size:
            card = self.deck.pop()
            faction = CREW[card].faction
            if faction in seen and len(display) - len(seen) >= most_dupes:
                skipped.append(card)
                continue
            seen.add(faction)
            display.append(card)
        if skipped:
            self.deck.extend(skipped)
            self.rng.shuffle(self.deck)
        return display

    def _lock(self, action: list[Any]) -> None:
        face = FACE_INDEX[action[1]]
        n = action[2]
        self.pool[face] -= n
        self.locked += n
        self.need -= n * lock_value(action)
        self.progress = True
        self.ropen = False
        if len(action) > 3:
            self.used.add(action[3])
        if self.need <= 0:
            self.complete_requirement()

    # ----- decisions --------------------------------------------------------------

    def _settle(self) -> None:
        """Resolve forced steps (bust, stop with nothing else to do); cache the choices."""
        while not self.over:
            actions = self._gen()
            if actions:
                self._legal_cache = actions
                return
            # Only LOCK can be empty: nothing to lock, no ability, no roll.
            if self.progress or self.safe:
                self.end_turn()
            else:
                self._bust()
        self._legal_cache = []

    def _gen(self) -> list[Any]:
        phase = self.phase
        if phase == LOCK:
            return self._gen_lock()
        if phase == CREW_CHOICE:
            return [["crew", CREW[c].id] for c in self.display] + before_commit_actions(self)
        if phase == COMMIT:
            marks = self.marks[self.slot]
            out: list[Any] = [["commit", i] for i in range(len(marks)) if marks[i] < 0]
            return out + before_commit_actions(self)
        if phase == SELECT:
            out = []
            picked = sum(self.sel)
            if picked < self.sel_cap:
                pool, sel = self.pool, self.sel
                out = [["pick", FACES[f]] for f in range(6) if pool[f] > sel[f]]
            if not self.sel_exact or picked == self.sel_cap:
                out.append("reroll")
            return out
        if phase == HAZARD:
            return [["keep", HAZARD_PRESTIGE[k]] for k in sorted(set(self.drawn))]
        if phase == START:
            return ["roll", _KAL_DAMAR]
        if phase == PLACE:
            return list(_PLACE)
        if phase == RETURN:
            held = self.hz[self.cur]
            out = [["return", HAZARD_PRESTIGE[k]] for k in range(len(held)) if held[k]]
            out.append("no_return")
            return out
        if phase == NAMARI:
            return [_NAMARI, "pass"]
        raise AssertionError(phase)  # pragma: no cover

    def _gen_lock(self) -> list[Any]:
        out = lock_actions(self) if self.req >= 0 else []
        can_lock = bool(out)
        out += ability_actions(self)
        if self.progress or self.safe:
            if self._can_roll():
                out.append("roll")
            if out:
                out.append("stop")
        elif out and not can_lock:
            out.append("bust")  # abilities were offered and may be declined
        return out

    def _can_roll(self) -> bool:
        # never roll an empty pool (Avari's 3 supply dice count). Meg Gallak's saved
        # Wild is not rolled ("do not roll this die"), so alone it makes no roll.
        return sum(self.pool) + self.conv > 0 or (self.avari and self.supply > 0)

    # ----- engine hooks -----------------------------------------------------------

    def _to_move(self) -> int | None:
        return self.cur

    def _legal_actions(self) -> list[Any]:
        return self._gen()

    def _apply(self, action: Any) -> None:
        if type(action) is str:
            if action == "roll":
                if self.phase == START:
                    self.first_roll(START_DICE)
                else:
                    self._roll_again()
            elif action == "stop" or action == "pass":
                self.end_turn()
            elif action == "bust":
                self._bust()
            elif action == "reroll":
                self._reroll_selected()
            elif action == "no_return":
                self._finish_hire()
        else:
            head = action[0]
            if head == "lock":
                self._lock(action)
            elif head == "use":
                use_ability(self, action)
            elif head == "crew":
                self.slot = self.display.index(CREW_INDEX[action[1]])
                self.phase = COMMIT
            elif head == "commit":
                self.req = action[1]
                requirement = CREW[self.display[self.slot]].requirements[self.req]
                self.target = requirement.face
                self.need = requirement.count
                self.fresh = True
                self.phase = LOCK
            elif head == "pick":
                self.sel[FACE_INDEX[action[1]]] += 1
            elif head == "keep":
                self._keep(HAZARD_BY_PRESTIGE[action[1]])
            elif head == "place":
                top = action[1] == "top"
                self._put_crew(self.cur, self.hire, top=top)
                self._after_place(duplicate=True)
            elif head == "return":
                kind = HAZARD_BY_PRESTIGE[action[1]]
                self.hz[self.cur][kind] -= 1
                self.pile[kind] += 1
                self._finish_hire()
        self._settle()

    def _is_terminal(self) -> bool:
        return self.over

    # ----- scoring ----------------------------------------------------------------

    def hazard_symbols(self, seat: int) -> int:
        return sum(c * s for c, s in zip(self.hz[seat], HAZARD_SYMBOLS, strict=True))

    def hazard_prestige(self, seat: int) -> int:
        return sum(c * p for c, p in zip(self.hz[seat], HAZARD_PRESTIGE, strict=True))

    def disqualified(self) -> list[bool]:
        """Who scores nothing from hazard tokens (most symbols; 2 players: at least 3 more)."""
        symbols = [self.hazard_symbols(p) for p in range(self.num_players)]
        if self.num_players == 2:
            a, b = symbols
            return [a >= b + 3, b >= a + 3]
        most = max(symbols)
        # E-moonrollers-6: "all tied players do not score", a tie at 0 symbols included.
        return [s == most for s in symbols]

    def _result(self) -> dict[str, Any]:
        n = self.num_players
        symbols = [self.hazard_symbols(p) for p in range(n)]
        out = self.disqualified()
        bonus = [0 if out[p] else self.hazard_prestige(p) for p in range(n)]
        scores = [self.prestige[p] + bonus[p] for p in range(n)]
        # most prestige, then fewest hazard symbols, then a shared rank.
        ranks = ranks_from_keys([(scores[p], -symbols[p]) for p in range(n)])
        return {
            "ranks": ranks,
            "scores": scores,
            "crew_prestige": self.prestige[:],
            "hazard_prestige": bonus,
            "hazard_symbols": symbols,
            "hazard_disqualified": out,
            "end_reason": self.end_reason,
        }

    # ----- what a seat sees -------------------------------------------------------

    def _observation(self, seat: int) -> dict[str, Any]:
        return observe(self, seat)

    # ----- copies -----------------------------------------------------------------

    def clone(self) -> MoonrollersState:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.actions = self.actions[:]
        other.prestige = self.prestige[:]
        other.hz = [h[:] for h in self.hz]
        other.stacks = [[s[:] for s in st] for st in self.stacks]
        other.abil = [set(a) for a in self.abil]
        other.pile = self.pile[:]
        other.deck = self.deck[:]
        other.display = self.display[:]
        other.marks = [m[:] for m in self.marks]
        other._rig_dice = self._rig_dice[:]
        other._rig_tokens = self._rig_tokens[:]
        other.pool = self.pool[:]
        other.rolled = self.rolled[:]
        other.used = set(self.used)
        other.sel = self.sel[:]
        other.placed = self.placed[:]
        other.drawn = self.drawn[:]
        return other

    def resample_hidden(self, seat: int, rng: random.Random) -> MoonrollersState:
        """Redraw what `seat` cannot see: other seats' hazard tokens (and a pending
        draw of another seat), the pile's contents and the crew deck's order. Once the
        game is over every seat's tokens are revealed, so only the deck is redrawn."""
        other = self.clone()
        if not self.over:
            self._redeal_tokens(other, seat, rng)
        rng.shuffle(other.deck)
        other.rng = random.Random(rng.getrandbits(64))
        other._rig_dice = []
        other._rig_tokens = []
        other._legal_cache = None
        return other

    def _redeal_tokens(self, other: MoonrollersState, seat: int, rng: random.Random) -> None:
        """Deal the tokens `seat` has not seen (other hands, a foreign draw, the pile) anew."""
        hidden = self.pile[:]
        seats = [p for p in range(self.num_players) if p != seat]
        for p in seats:
            for kind, count in enumerate(self.hz[p]):
                hidden[kind] += count
        foreign_draw = self.cur != seat and bool(self.drawn)
        if foreign_draw:
            for kind in self.drawn:
                hidden[kind] += 1
        tokens = [kind for kind, count in enumerate(hidden) for _ in range(count)]
        rng.shuffle(tokens)
        for p in seats:
            take, tokens = tokens[: sum(self.hz[p])], tokens[sum(self.hz[p]) :]
            other.hz[p] = [take.count(k) for k in range(len(HAZARD_KINDS))]
        if foreign_draw:
            other.drawn, tokens = tokens[: len(self.drawn)], tokens[len(self.drawn) :]
        other.pile = [tokens.count(k) for k in range(len(HAZARD_KINDS))]

    # ----- test helpers: force a table position -------------------------------------

    def force_dice(self, *faces: str) -> None:
        """The next dice rolled show these faces (in order), then the RNG takes over."""
        self._rig_dice.extend(FACE_INDEX[f] for f in faces)

    def force_tokens(self, *prestige: int) -> None:
        """The next hazard tokens drawn are these kinds (named by prestige: 1, 2, 5)."""
        self._rig_tokens.extend(HAZARD_BY_PRESTIGE[p] for p in prestige)

    def force_table(
        self,
        display: list[str] | None = None,
        crew: dict[int, list[str]] | None = None,
        marks: dict[str, dict[int, int]] | None = None,
        hazards: dict[int, list[int]] | None = None,
        deck: list[str] | None = None,
    ) -> None:
        """Set the public table directly (crew ids; `crew` lists each seat's hires, top
        first per faction; `marks` maps a display crew to {requirement: seat})."""
        taken: set[int] = set()
        if crew is not None:
            for seat, ids in crew.items():
                self.stacks[seat] = [[] for _ in FACTIONS]
                for cid in ids:
                    self.stacks[seat][CREW[CREW_INDEX[cid]].faction].append(CREW_INDEX[cid])
                self.abil[seat] = {CREW[s[0]].id for s in self.stacks[seat] if s}
        for st in self.stacks:
            for stack in st:
                taken.update(stack)
        if display is not None:
            self.display = [CREW_INDEX[c] for c in display]
            self.marks = [[-1] * len(CREW[c].requirements) for c in self.display]
        taken.update(self.display)
        if deck is not None:
            self.deck = [CREW_INDEX[c] for c in reversed(deck)]  # deck[0] is the top card
        else:
            self.deck = [c.index for c in CREW if c.index not in taken]
        for cid, by_req in (marks or {}).items():
            slot = self.display.index(CREW_INDEX[cid])
            for index, seat in by_req.items():
                self.marks[slot][index] = seat
        for seat, values in (hazards or {}).items():
            for kind, count in enumerate(self.hz[seat]):
                self.pile[kind] += count
            self.hz[seat] = [0] * len(HAZARD_KINDS)
            for value in values:
                kind = HAZARD_BY_PRESTIGE[value]
                self.hz[seat][kind] += 1
                self.pile[kind] -= 1

    def force_turn(self, seat: int, *faces: str) -> None:
        """Start `seat`'s turn afresh; its first roll shows `faces` (if given)."""
        self.cur = seat
        self.force_dice(*faces)
        self._start_turn()
        self._settle()
