"""Moonrollers' table and the steps of a turn that crew abilities take too.

`Turn` declares every field of a game in progress and carries a turn from its first
roll to its end: rolling, drawing hazard tokens, completing a requirement, busting,
hiring the crew, ending the game. The crew abilities (abilities.py) call these steps and
a seat's view (views.py) reads the fields; `state.MoonrollersState` adds set-up, the
decisions on offer, applying an action, scoring and copies. So the abilities and the
view import this module, and the state imports all three.
"""

from __future__ import annotations

from engine.core.state import State
from engine.games.moonrollers.cards import (
    CREW,
    EXTRA,
    NUM_DICE,
    START_DICE,
    WILD,
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


class Turn(State):
    """The fields of one Moonrollers game (set up in `MoonrollersState.setup`) and the turn."""

    # The table.
    prestige: list[int]  # per seat (A-7: unbounded track)
    hz: list[list[int]]  # per seat: hazard tokens by kind
    stacks: list[list[list[int]]]  # per seat, per faction: hired crew, the top first
    abil: list[set[str]]  # per seat: the abilities of its top cards
    pile: list[int]  # hazard tokens left, by kind (drawn at random: no order, A-1)
    wild_fill: bool  # an ability's Wild may fill a Wild (x2) requirement
    deck: list[int]  # the crew deck, its top card last
    display: list[int]  # the crew on offer
    marks: list[list[int]]  # per display slot, per requirement: the seat that filled it, or -1
    over: bool
    end_reason: str
    _rig_dice: list[int]  # tests only: forced die faces, consumed first
    _rig_tokens: list[int]  # tests only: forced hazard draws
    # The turn (reset by `_start_turn`).
    cur: int
    phase: int
    slot: int
    req: int
    target: int
    need: int
    pool: list[int]
    conv: int
    saved: int
    locked: int
    rolled: list[int]
    first: bool
    progress: bool
    fresh: bool
    safe: bool
    safe_next: bool
    avari: bool
    used: set[str]
    ropen: bool
    sel: list[int]
    sel_cap: int
    sel_exact: bool
    sel_back: int
    placed: list[int]
    drawn: list[int]
    hire: int
    supply: int

    def _put_crew(self, seat: int, card: int, top: bool) -> None:
        stack = self.stacks[seat][CREW[card].faction]
        if top:
            stack.insert(0, card)
        else:
            stack.append(card)
        self.abil[seat] = {CREW[s[0]].id for s in self.stacks[seat] if s}

    # ----- the turn ---------------------------------------------------------------

    def _start_turn(self) -> None:
        self.slot = -1  # display slot of the crew worked on
        self.req = -1  # committed requirement index, -1 when not committed
        self.target = 0  # face of the committed requirement
        self.need = 0  # dice (value) it still needs
        self.pool = [0] * 6  # rolling pool, counts by face
        self.conv = 0  # pool dice an ability made Extra Dice (never lockable)
        self.saved = 0  # Meg Gallak's Wild kept for the next roll
        self.locked = 0
        self.rolled = [0] * 6  # faces this roll produced ("actual die rolled")
        self.first = True
        self.progress = False  # locked a die (or used B3-Ar) on this roll
        self.fresh = False  # committed on this roll
        self.safe = False  # cannot bust on this roll (At-0k, Moro Mada)
        self.safe_next = False
        self.avari = False
        self.used = set()  # once-per-roll abilities already used
        self.ropen = False  # re-roll abilities still allowed on this roll
        self.sel = [0] * 6  # dice picked for a Lila / Vila re-roll
        self.sel_cap = 0
        self.sel_exact = False  # Vila Noir re-rolls exactly sel_cap dice
        self.sel_back = LOCK
        self.placed = []  # requirements of `slot` completed this turn
        self.drawn = []  # hazard tokens drawn, waiting for "keep"
        self.hire = -1
        self.supply = NUM_DICE
        if "kal_damar" in self.abil[self.cur]:
            self.phase = START
        else:
            self.first_roll(START_DICE)

    def first_roll(self, dice: int) -> None:
        self.supply -= dice
        self.pool = self.roll(dice)
        self._after_roll()

    def _roll_again(self) -> None:
        pool = self.pool
        add = pool[EXTRA] + self.conv + (3 if self.avari else 0)
        if add > self.supply:
            add = self.supply
        self.supply -= add
        self.pool = pool = self.roll(sum(pool) + self.conv + add)
        pool[WILD] += self.saved
        self.saved = 0
        self.first = False
        self._after_roll()

    def _after_roll(self) -> None:
        self.rolled = self.pool[:]
        self.conv = 0
        self.used.clear()
        self.ropen = True
        self.progress = False
        self.fresh = False
        self.safe = self.safe_next
        self.safe_next = False
        self.avari = False
        if self.slot < 0:
            self.phase = CREW_CHOICE
        elif self.req < 0:
            self.phase = COMMIT
        else:
            self.phase = LOCK

    def roll(self, dice: int) -> list[int]:
        """Roll `dice` dice; face counts. Only the state's RNG (or a test's forced faces)."""
        counts = [0] * 6
        rig = self._rig_dice
        while rig and dice:
            counts[rig.pop(0)] += 1
            dice -= 1
        rand = self.rng.random
        for _ in range(dice):
            counts[int(rand() * 6)] += 1
        return counts

    def draw_tokens(self, count: int) -> list[int]:
        """Draw up to `count` random hazard tokens from the pile (A-1: fewer if it runs out)."""
        out = []
        pile = self.pile
        for _ in range(count):
            total = sum(pile)
            if not total:
                break
            if self._rig_tokens:
                kind = self._rig_tokens.pop(0)
            else:
                r = self.rng.randrange(total)
                kind = 0
                while r >= pile[kind]:
                    r -= pile[kind]
                    kind += 1
            pile[kind] -= 1
            out.append(kind)
        return out

    def start_select(self, cap: int, exact: bool) -> None:
        self.sel = [0] * 6
        self.sel_cap = cap
        self.sel_exact = exact
        self.sel_back = self.phase
        self.phase = SELECT

    def _reroll_selected(self) -> None:
        sel, pool = self.sel, self.pool
        for face in range(6):
            pool[face] -= sel[face]
        new = self.roll(sum(sel))
        rolled = self.rolled
        # The re-rolled dice now show their new faces: "if you roll ..." reads those.
        for face in range(6):
            pool[face] += new[face]
            rolled[face] += new[face] - sel[face]
        self.phase = self.sel_back

    def complete_requirement(self) -> None:
        """Slide the token down; a Hazard requirement draws 2 tokens to keep 1."""
        requirement = CREW[self.display[self.slot]].requirements[self.req]
        self.marks[self.slot][self.req] = self.cur
        self.placed.append(self.req)
        self.req = -1
        self.need = 0
        if requirement.hazard:
            self.drawn = self.draw_tokens(2)
            if self.drawn:
                self.phase = HAZARD
                return
        self._after_requirement()

    def _keep(self, kind: int) -> None:
        self.drawn.remove(kind)
        self.hz[self.cur][kind] += 1
        for other in self.drawn:
            self.pile[other] += 1  # returned face down: the pile has no known order
        self.drawn = []
        self._after_requirement()

    def _after_requirement(self) -> None:
        if min(self.marks[self.slot]) >= 0:
            self._complete_crew()  # forced stop: one crew per turn
        else:
            self.phase = LOCK

    def _bust(self) -> None:
        marks = self.marks[self.slot]
        for index in self.placed:
            marks[index] = -1
        self.placed = []
        if "namari" in self.abil[self.cur]:
            self.phase = NAMARI
        else:
            self.end_turn()

    def end_turn(self) -> None:
        self.cur = (self.cur + 1) % self.num_players
        self._start_turn()

    # ----- completing a crew, hiring, game end -----------------------------------

    def _complete_crew(self) -> None:
        card = self.display[self.slot]
        for requirement, owner in zip(CREW[card].requirements, self.marks[self.slot], strict=True):
            self.prestige[owner] += requirement.prestige
        self.hire = card
        stack = self.stacks[self.cur][CREW[card].faction]
        if len(stack) == 1:
            self.phase = PLACE  # a duplicate that does not end the game: top or bottom?
            return
        # First of its faction, or the third (the game ends at once: the order is moot).
        duplicate = bool(stack)
        self._put_crew(self.cur, card, top=not duplicate)
        self._after_place(duplicate)

    def _after_place(self, duplicate: bool) -> None:
        if duplicate and sum(self.hz[self.cur]) > 0:
            self.phase = RETURN  # may return 1 hazard token, free
            return
        self._finish_hire()

    def _finish_hire(self) -> None:
        stacks = self.stacks[self.cur]
        if all(stacks):
            self._end_game("one_of_each_faction")
            return
        if any(len(s) >= 3 for s in stacks):
            self._end_game("three_of_one_faction")
            return
        card = self.deck.pop()
        self.display[self.slot] = card
        self.marks[self.slot] = [-1] * len(CREW[card].requirements)
        if not self.deck:
            self._end_game("crew_deck_exhausted")
            return
        self.end_turn()

    def _end_game(self, reason: str) -> None:
        self.over = True
        self.end_reason = reason
