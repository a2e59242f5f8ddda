"""Moon Adventure: the game state, its legal actions and its transitions.

The track is one list of spaces: index 0 is the Base board, then the supply
chips (Area 3 nearest the base), and last the space where the Rover waits
(DATA.md 4.2). Chips inserted by "Activate OGS" and "Abandon Supplies" are new
spaces, so crew, robot and rover positions shift when a space is inserted in
front of them. Supply chips are face down: their area is public, whether they
are broken is not, until the Inspector turns one face up.

Action encoding (all strings; see README.md): "move+"/"move-" (+ is away from
the base; 2 spaces on the Rover), "move1+"/"move1-" (the Rover's rider moving 1
space), "walk+"/"walk-" (the Inventor stopping on a route piece), "ogs+"/"ogs-",
"route+"/"route-", "gather+"/"gather-",
"abandon:<slot><+|->", "share:<seat>" then "give:<slot>", "take:<slot>",
"swap:<mine>:<theirs>", "done"; "inspect:<slot>", "reroll", "end";
"robot<+|-><1|2>"/"robot0" (Engineer, start of turn); "oxygen2"/"oxygen3";
"draw"/"stop" (replenishing); "role:<id>" (when roles are chosen).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from engine.games.moon_adventure.data import RULES
from engine.games.moon_adventure.pieces import (
    ACT,
    BASE,
    CHIP,
    CHIP_KINDS,
    CHOOSE,
    COLLECTED,
    EMPTY,
    OGS,
    OGS_BROKEN,
    OVER,
    OXYGEN,
    REPLENISH,
    ROBOT,
    ROVER_SPOT,
    SHARE,
    STORM,
    SUPPLY,
)
from engine.games.moon_adventure.track import Track
from engine.games.moon_adventure.views import observe, rebuild

if TYPE_CHECKING:
    from engine.core.game import Game

FACES = RULES.dice_faces
COST = RULES.costs
FIXED_ACTIONS = ("end", "reroll", "done", "draw", "stop", "oxygen2", "oxygen3")


class MoonAdventureState(Track):
    """One Moon Adventure mission in progress."""

    # ----- setup ------------------------------------------------------------------

    def setup(self) -> None:
        rng = self.rng
        n = self.num_players
        self.area = []  # per chip id, public
        self.broken = []  # per chip id, hidden until revealed
        kind = [BASE]
        chip = [-1]
        for area in RULES.areas:
            good = RULES.undamaged_per_area[area]
            flags = [False] * good + [True] * (RULES.chips_per_area - good)
            rng.shuffle(flags)
            for flag in flags:
                kind.append(SUPPLY)
                chip.append(len(self.area))
                self.area.append(area)
                self.broken.append(flag)
        kind.append(ROVER_SPOT)
        chip.append(-1)
        self.kind = kind
        self.chip = chip
        self.route = [False] * len(kind)
        self.revealed = [False] * len(self.area)
        # Per chip: lies in the line because it was abandoned (its space was inserted).
        self.abandoned = [False] * len(self.area)
        self.rover = len(kind) - 1
        self.rider = -1
        self.robot = -1
        self.pos = [0] * n
        self.returned = [False] * n

        deck = [value for value, count in sorted(RULES.oxygen_cards.items()) for _ in range(count)]
        rng.shuffle(deck)
        per = RULES.oxygen_per_player
        self.slots = [
            deck[s * per : (s + 1) * per] + [EMPTY] * (RULES.containers - per) for s in range(n)
        ]
        # The leftover oxygen lies face up on the first storm card; the draw pile is empty.
        self.discard = [STORM] + deck[n * per :]
        self.draw = []
        self.storms_aside = RULES.storm_cards - 1
        self.routes_left = RULES.route_pieces
        self.ogs_left = RULES.ogs_chips
        self.target = RULES.target(n, self.options.get("beginner", False))
        self.outcome = None

        self.cur = 0
        self.phase = CHOOSE
        self.ap = 0
        self.dice = []
        self.bonus = 0
        self.used_mechanic = self.used_inventor = False
        self.used_inspector = self.used_surgeon = False
        self.can_reroll = False
        self.partner = -1
        self.moved_mine = []
        self.moved_theirs = []

        if self.options.get("roles", "dealt") == "chosen":
            self.roles = [None] * n
        else:
            ids = list(RULES.role_ids)
            rng.shuffle(ids)
            self.roles = list(ids[:n])
            self._roles_ready()

    def _roles_ready(self) -> None:
        for seat, role in enumerate(self.roles):
            if role == "carrier":
                self.slots[seat] += [EMPTY] * (RULES.carrier_containers - RULES.containers)
            if role == "engineer":
                self.robot = 0  # the robot starts on the Base board
        self._start_turn(0)  # E-moon_adventure-1: seat 0 starts

    # ----- turn flow --------------------------------------------------------------

    def _start_turn(self, seat: int) -> None:
        self.cur = seat
        slots = self.slots[seat]
        if 2 not in slots and 3 not in slots:
            self.outcome = "failure"  # a player starts a turn without oxygen
            self.phase = OVER
            return
        self.used_mechanic = self.used_inventor = False
        self.used_inspector = self.used_surgeon = False
        self.can_reroll = False
        self.partner = -1
        self.ap = 0
        self.dice = []
        role = self.roles[seat]
        self.bonus = 2 if role == "athlete" and self._on_active_ogs(seat) else 0
        if role == "engineer" and self._robot_moves():
            self.phase = ROBOT
            return
        self._oxygen_phase()

    def _oxygen_phase(self) -> None:
        slots = self.slots[self.cur]
        if 2 in slots and 3 in slots:
            self.phase = OXYGEN
        else:
            self._consume(2 if 2 in slots else 3)

    def _consume(self, value: int) -> None:
        slots = self.slots[self.cur]
        slots[slots.index(value)] = EMPTY
        self.discard.append(value)
        self._roll(value)
        self.can_reroll = self.roles[self.cur] == "rookie"
        self.phase = ACT
        self._maybe_auto_end()

    def _roll(self, count: int) -> None:
        rnd = self.rng.random
        dice = [FACES[int(rnd() * 6)] for _ in range(count)]
        self.dice = dice
        ap = sum(dice) + self.bonus
        if self.roles[self.cur] == "mood_maker" and min(dice) == max(dice):
            ap += 3
        self.ap = ap

    def _maybe_auto_end(self) -> None:
        """End the turn when "end" would be the only legal action (nothing costs 0 AP)."""
        if self.ap > 0 or self.can_reroll:
            return
        free_share = self.roles[self.cur] == "flight_surgeon" and not self.used_surgeon
        if free_share and self._share_partners():
            return
        self._end_turn()

    def _end_turn(self) -> None:
        if self._on_active_ogs(self.cur) and self._can_draw():
            self.phase = REPLENISH
        else:
            self._next_turn()

    def _can_draw(self) -> bool:
        return EMPTY in self.slots[self.cur] and bool(self.draw or self.discard)

    def _next_turn(self) -> None:
        n = self.num_players
        for step in range(1, n + 1):
            seat = (self.cur + step) % n
            if not self.returned[seat]:
                self._start_turn(seat)
                return
        self._finish()

    def _finish(self) -> None:
        self.outcome = "success" if self.team_score() >= self.target else "failure"
        self.phase = OVER

    # ----- hooks: decisions -------------------------------------------------------

    def _to_move(self) -> int | None:
        return self.cur

    def _is_terminal(self) -> bool:
        return self.outcome is not None

    def _legal_actions(self) -> list[Any]:
        phase = self.phase
        if phase == ACT:
            return self._act_actions()
        if phase == SHARE:
            return self._share_actions()
        if phase == REPLENISH:
            return ["draw", "stop"]
        if phase == OXYGEN:
            return ["oxygen2", "oxygen3"]
        if phase == ROBOT:
            return ["robot0", *self._robot_moves()]
        if phase == CHOOSE:
            taken = set(self.roles)
            return [f"role:{r}" for r in RULES.role_ids if r not in taken]
        return []

    def _act_actions(self) -> list[str]:
        seat = self.cur
        p = self.pos[seat]
        ap = self.ap
        role = self.roles[seat]
        riding = self.rider == seat
        kind = self.kind
        size = len(kind)
        slots = self.slots[seat]
        acts = ["reroll"] if self.can_reroll else []
        # Back on the Base (E-moon_adventure-3): "you cannot start from the base again".
        if ap >= 1 and not self.returned[seat]:
            for d, sign in ((1, "+"), (-1, "-")):
                if d < 0 and p == 0:
                    continue
                q = self._step(p, d, False)
                if q >= 0:
                    acts.append(f"move{sign}")
                    # The rider "may move 2 spaces for 1 AP": one space stays possible.
                    if riding and self._ride(q, d, False) != q:
                        acts.append(f"move1{sign}")
                # The Inventor may also stop on a route piece instead of jumping it.
                if role == "inventor" and self._step(p, d, True) not in (q, -1):
                    acts.append(f"walk{sign}")
        if not riding:
            if self.ogs_left:
                cost = 1 if role == "mechanic" and not self.used_mechanic else COST["activate_ogs"]
                if ap >= cost:
                    if p + 1 < size:
                        acts.append("ogs+")
                    if p >= 1:
                        acts.append("ogs-")
            if self.routes_left:
                cost = 1 if role == "inventor" and not self.used_inventor else COST["develop_route"]
                if ap >= cost:
                    if p + 1 < size and kind[p + 1] in CHIP_KINDS and self._free_target(p + 1):
                        acts.append("route+")
                    if p >= 2 and kind[p - 1] in CHIP_KINDS and self._free_target(p - 1):
                        acts.append("route-")
            cost = 2 if role == "veteran" else COST["gather"]
            if ap >= cost and EMPTY in slots:
                if p + 1 < size and kind[p + 1] == SUPPLY and self._free_target(p + 1):
                    acts.append("gather+")
                if p >= 2 and kind[p - 1] == SUPPLY and self._free_target(p - 1):
                    acts.append("gather-")
        cost = (
            0 if role == "flight_surgeon" and not self.used_surgeon else COST["container_sharing"]
        )
        if ap >= cost:
            acts.extend(f"share:{other}" for other in self._share_partners())
        if ap >= COST["abandon"]:
            for i, item in enumerate(slots):
                if item >= CHIP:
                    if p + 1 < size:
                        acts.append(f"abandon:{i}+")
                    if p >= 1:
                        acts.append(f"abandon:{i}-")
        # "You may not turn any supply chips you have face up until all players have
        # returned": a returned Inspector keeps hers face down.
        if role == "inspector" and not self.used_inspector and ap >= 1 and not self.returned[seat]:
            revealed = self.revealed
            acts.extend(
                f"inspect:{i}"
                for i, item in enumerate(slots)
                if item >= CHIP and not revealed[item - CHIP]
            )
        acts.append("end")
        return acts

    def _share_actions(self) -> list[str]:
        mine = self.slots[self.cur]
        theirs = self.slots[self.partner]
        moved_mine = self.moved_mine
        moved_theirs = self.moved_theirs
        free_mine = [i for i, item in enumerate(mine) if item and not moved_mine[i]]
        free_theirs = [j for j, item in enumerate(theirs) if item and not moved_theirs[j]]
        acts: list[str] = []
        if EMPTY in theirs:
            acts.extend(f"give:{i}" for i in free_mine)
        if EMPTY in mine:
            acts.extend(f"take:{j}" for j in free_theirs)
        for i in free_mine:
            for j in free_theirs:
                if mine[i] != theirs[j]:
                    acts.append(f"swap:{i}:{j}")
        acts.append("done")
        return acts

    # ----- hooks: transitions -----------------------------------------------------

    def _apply(self, action: Any) -> None:
        phase = self.phase
        if phase == ACT:
            self._apply_act(action)
        elif phase == SHARE:
            self._apply_share(action)
        elif phase == REPLENISH:
            if action == "draw":
                self._draw()
            else:
                self._next_turn()
        elif phase == OXYGEN:
            self._consume(int(action[-1]))
        elif phase == ROBOT:
            if action != "robot0":
                d = 1 if action[5] == "+" else -1
                for _ in range(int(action[6])):
                    self.robot = self._robot_step(self.robot, d)
            self._oxygen_phase()
        elif phase == CHOOSE:
            self.roles[self.cur] = action[5:]
            if None in self.roles:
                self.cur += 1
            else:
                self._roles_ready()

    def _apply_act(self, action: str) -> None:
        seat = self.cur
        if action == "end":
            self._end_turn()
            return
        if action == "reroll":
            self.can_reroll = False
            self._roll(len(self.dice))
            self._maybe_auto_end()
            return
        self.can_reroll = False
        head = action[0]
        p = self.pos[seat]
        role = self.roles[seat]
        if head in ("m", "w"):  # move (jumping route pieces), or walk onto one (Inventor)
            self.ap -= COST["move"]
            d = 1 if action[-1] == "+" else -1
            if self._move(seat, p, d, head == "w", action[4] == "1"):
                return
        elif head == "o":  # activate OGS
            if role == "mechanic" and not self.used_mechanic:
                self.used_mechanic = True
                self.ap -= 1
            else:
                self.ap -= COST["activate_ogs"]
            self.ogs_left -= 1
            self._insert(p + 1 if action[-1] == "+" else p, OGS, -1)
        elif head == "r":  # develop a route
            if role == "inventor" and not self.used_inventor:
                self.used_inventor = True
                self.ap -= 1
            else:
                self.ap -= COST["develop_route"]
            self.routes_left -= 1
            self.route[p + 1 if action[-1] == "+" else p - 1] = True
        elif head == "g":  # gather supplies
            self.ap -= 2 if role == "veteran" else COST["gather"]
            q = p + 1 if action[-1] == "+" else p - 1
            slots = self.slots[seat]
            cid = self.chip[q]
            slots[slots.index(EMPTY)] = CHIP + cid
            if self.abandoned[cid]:
                # E-moon_adventure-13: its first spot already holds a collected chip (the
                # game has 21, one per chip): the inserted space leaves the line.
                self._remove(q)
            else:
                self.kind[q] = COLLECTED
                self.chip[q] = -1
        elif head == "s":  # container sharing with an adjacent player
            if role == "flight_surgeon" and not self.used_surgeon:
                self.used_surgeon = True
            else:
                self.ap -= COST["container_sharing"]
            self.partner = int(action[6:])
            self.moved_mine = [False] * len(self.slots[seat])
            self.moved_theirs = [False] * len(self.slots[self.partner])
            self.phase = SHARE
            return
        elif head == "a":  # abandon supplies: the chip goes back into the line
            self.ap -= COST["abandon"]
            slot = int(action[8:-1])
            slots = self.slots[seat]
            chip = slots[slot] - CHIP
            slots[slot] = EMPTY
            self.abandoned[chip] = True
            self._insert(p + 1 if action[-1] == "+" else p, SUPPLY, chip)
        elif head == "i":  # inspector: turn a chip face up
            self.ap -= 1
            self.used_inspector = True
            self.revealed[self.slots[seat][int(action[8:])] - CHIP] = True
        self._maybe_auto_end()

    def _ride(self, q: int, d: int, inventor: bool) -> int:
        """Where the Rover's rider lands after the first step `q` of a 2-space move."""
        if q > 0:
            for _ in range(RULES.rover_spaces_per_ap - 1):
                nxt = self._step(q, d, inventor)
                if nxt < 0:
                    break
                q = nxt
                if q == 0:
                    break
        return q

    def _move(self, seat: int, p: int, d: int, inventor: bool, single: bool) -> bool:
        """Move `seat` one Movement action; True when that ended the turn (boarding)."""
        q = self._step(p, d, inventor)
        if self.rider == seat:
            if not single:
                q = self._ride(q, d, inventor)
            self.rover = q
        self.pos[seat] = q
        if q == 0:
            # Back on the Base board: no leaving it again and no sharing, but the AP left
            # may still gather, build or abandon beside it (E-moon_adventure-3).
            self.returned[seat] = True
        elif q == self.rover and self.rider < 0:
            # "AP automatically goes to 0": the turn ends at once, free powers included.
            self.rider = seat
            self.ap = 0
            self._end_turn()
            return True
        return False

    def _apply_share(self, action: str) -> None:
        if action == "done":
            self.phase = ACT
            self._maybe_auto_end()
            return
        mine = self.slots[self.cur]
        theirs = self.slots[self.partner]
        head = action[0]
        if head == "g":
            i = int(action[5:])
            j = theirs.index(EMPTY)
            theirs[j], mine[i] = mine[i], EMPTY
            self.moved_theirs[j] = True
        elif head == "t":
            j = int(action[5:])
            i = mine.index(EMPTY)
            mine[i], theirs[j] = theirs[j], EMPTY
            self.moved_mine[i] = True
        else:
            _, a, b = action.split(":")
            i, j = int(a), int(b)
            mine[i], theirs[j] = theirs[j], mine[i]
            self.moved_mine[i] = True
            self.moved_theirs[j] = True

    def _draw(self) -> None:
        if not self.draw:
            # Reshuffle the discard pile (storm cards included) and lay a new storm card.
            self.draw = self.discard
            self.rng.shuffle(self.draw)
            self.discard = []
            if self.storms_aside:
                self.storms_aside -= 1
                self.discard.append(STORM)
        card = self.draw.pop()
        seat = self.cur
        if card == STORM:
            self.kind[self.pos[seat]] = OGS_BROKEN  # the storm also ends replenishing
            self.discard.append(STORM)
            self._next_turn()
            return
        slots = self.slots[seat]
        slots[slots.index(EMPTY)] = card
        # the reshuffle happens "right before you replenish"; a draw pile emptied
        # while drawing ends the replenish (no second reshuffle).
        if EMPTY not in slots or not self.draw:
            self._next_turn()

    # ----- hooks: information -----------------------------------------------------

    def _observation(self, seat: int) -> dict[str, Any]:
        return observe(self, seat)

    def _result(self) -> dict[str, Any]:
        score = self.team_score()
        n = self.num_players
        return {
            "ranks": [1] * n,
            "scores": [score] * n,
            "outcome": self.outcome,
            "team_score": score,
            "target": self.target,
            "progress": round(self.progress(), 4),
        }

    def resample_hidden(self, seat: int, rng: random.Random) -> MoonAdventureState:
        """Re-draw which unseen chips are broken (per area) and the draw pile's order."""
        other = self.clone()
        for area in RULES.areas:
            ids = [cid for cid, a in enumerate(other.area) if a == area and not other.revealed[cid]]
            flags = [other.broken[cid] for cid in ids]
            rng.shuffle(flags)
            for cid, flag in zip(ids, flags, strict=True):
                other.broken[cid] = flag
        rng.shuffle(other.draw)
        other.rng = random.Random(rng.getrandbits(64))
        return other

    @classmethod
    def from_observation(
        cls, game: Game, observation: dict[str, Any], rng: random.Random
    ) -> MoonAdventureState:
        """A state that shows `observation` to its seat, hidden parts drawn with `rng`."""
        return rebuild(cls, game, observation, rng)

    def clone(self) -> MoonAdventureState:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.actions = list(self.actions)
        new._legal_cache = None
        for name in (
            "broken",
            "kind",
            "chip",
            "route",
            "revealed",
            "abandoned",
            "pos",
            "returned",
            "discard",
            "draw",
            "dice",
            "roles",
            "moved_mine",
            "moved_theirs",
        ):
            setattr(new, name, list(getattr(self, name)))
        new.slots = [list(s) for s in self.slots]
        return new
