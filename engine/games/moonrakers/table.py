"""Moonrakers' table: every field of a game in progress, and the moves of cards and
requirements that every rule module makes on it.

`Table` holds the zones (decks with who knows each card, hands, draw and discard piles,
parts, IOspheres), the contract in play and the stack of ops, with the helpers the rule
modules call (draw, discard, trash, gain, reduce, block, IOspheres); `PX` one
participant's bookkeeping during Execution. The rule modules (setup, planning, execution,
playing, effects, abilities, buying, objectives, mercenaries), the view and the redeal
all work on a `Table`; `state.MoonrakersState` is the only module that assembles them.
"""

from __future__ import annotations

from typing import Any

from engine.core.state import State
from engine.games.moonrakers.cards import ADVANCED_KINDS, ALL, CREW, RULES

HAZARD_FACES: tuple[int, ...] = tuple(RULES["hazard_die"]["faces"])
STEP_CAP: int = RULES["step_cap"]["value"]  # E-moonrakers-2
IO_SUPPLY: int = RULES["io_supply"]["value"]


class PX:
    """One participant's bookkeeping for the contract being executed."""

    __slots__ = (
        "actions",
        "steps",
        "dice",
        "blocked",
        "block_eff",
        "played",
        "n",
        "basic_r",
        "dmg",
        "dkinds",
        "advkinds",
        "trashed",
        "io_spent",
        "cards",
        "shield_seen",
        "dmg_seen",
        "react_seen",
        "last_cat",
        "used",
        "hotshot",
        "merc_basic",
        "merc_credits",
        "merc_prestige",
        "unblocked",
        "rolled",
        "io_played",
    )

    actions: int
    steps: int
    dice: list[int]
    blocked: int
    block_eff: int
    played: list[str]
    n: dict[str, int]
    basic_r: int
    dmg: int
    dkinds: set[str]
    advkinds: set[str]
    trashed: int
    io_spent: int
    cards: int
    shield_seen: bool
    dmg_seen: bool
    react_seen: bool
    last_cat: str
    used: set[str]
    hotshot: int
    merc_basic: int
    merc_credits: int
    merc_prestige: int
    unblocked: int
    rolled: int
    io_played: list[str]

    def __init__(self) -> None:
        self.actions = 1
        self.steps = 0
        self.dice: list[int] = []
        self.blocked = 0  # hazard icons blocked or ignored (raw)
        self.block_eff = 0  # of which actually covered a rolled icon
        self.played: list[str] = []
        self.n = {"R": 0, "T": 0, "S": 0, "D": 0, "C": 0, "M": 0}
        self.basic_r = 0
        self.dmg = 0
        self.dkinds: set[str] = set()
        self.advkinds: set[str] = set()
        self.trashed = 0
        self.io_spent = 0
        self.cards = 0  # cards played (for Parasite)
        self.shield_seen = False
        self.dmg_seen = False
        self.react_seen = False
        self.last_cat = ""
        self.used: set[str] = set()
        self.hotshot = 0
        self.merc_basic = 0
        self.merc_credits = 0
        self.merc_prestige = 0
        self.unblocked = 0
        self.rolled = 0  # hazard dice rolled (targeting this player)
        self.io_played: list[str] = []  # IO crew played on this contract

    def copy(self) -> PX:
        c = PX.__new__(PX)
        for name in PX.__slots__:
            setattr(c, name, getattr(self, name))
        c.dice = list(self.dice)
        c.played = list(self.played)
        c.n = dict(self.n)
        c.dkinds = set(self.dkinds)
        c.advkinds = set(self.advkinds)
        c.used = set(self.used)
        c.io_played = list(self.io_played)
        return c

    def public(self) -> dict[str, Any]:
        return {
            "actions": self.actions,
            "played": list(self.played),
            "dice": list(self.dice),
            "blocked": self.blocked,
            "damage": self.dmg,
            "used": sorted(self.used),
        }


class Table(State):
    """The fields of one Moonrakers game and the helpers every rule module uses."""

    # Set up in setup.py; listed here so every module sees their types.
    ovl: bool
    hand_size: int
    round_cap: int
    over: bool
    winner: int | None
    end_reason: str
    turns: int
    stack: list[tuple[Any, ...]]
    cur_opts: list[Any] | None
    last: dict[str, Any] | None
    predator: bool
    ml_share: tuple[int, int]
    outcome: tuple[list[int], list[int], bool]
    row: list[str | None]
    cdeck: list[str]
    cmask: list[int]
    cdiscard: list[str]
    crew_deck: list[str]
    crew_mask: list[int]
    part_deck: list[str]
    part_mask: list[int]
    armory_crew: list[str | None]
    armory_parts: list[str | None]
    obj_deck: list[str]
    obj_mask: list[int]
    merc_deck: list[str]
    merc_mask: list[int]
    merc_row: list[str | None]
    adv: dict[str, int] | None
    credits: list[int]
    prestige: list[int]
    hand: list[list[str]]
    draw: list[list[str]]
    discard: list[list[str]]
    known: list[list[str]]
    looking: list[list[str]]
    top_known: list[int]
    top_public: list[int]
    parts: list[list[str]]
    io: list[dict[str, int]]
    inplay: list[list[str]]
    objs: list[list[str]]
    claimed: list[list[str]]
    obj_pick: list[list[str]]
    first: int
    ml: int
    replaced: bool
    armory_discards: int
    contract: str | None
    slot: int
    h2h: bool
    counts: tuple[str, ...]
    participants: list[int]
    allies: list[int]
    deals: dict[int, tuple[int, int, int, int]]
    proposals: list[int]
    offer: list[int] | None
    invitee: int | None
    rem: dict[str, int]
    score: list[int]
    kary: int
    px: Any  # list[PX | None] during Execution, else None
    xi: int
    passes: int

    # ----- the stack of ops (state.py runs it) -------------------------------------------

    def push(self, *op: Any) -> None:
        self.stack.append(op)

    def push_ops(self, seat: int, src: str, ops: tuple[Any, ...]) -> None:
        """Queue a card's op list (data form `[name, *args]`) so the first runs first."""
        for op in reversed(ops):
            self.stack.append((op[0], seat, src, *op[1:]))

    # ----- small queries ----------------------------------------------------------------

    def has(self, seat: int, part: str) -> bool:
        return part in self.parts[seat]

    def hand_limit(self, seat: int) -> int:
        return self.hand_size + (1 if "flash" in self.parts[seat] else 0)

    def io_free(self) -> int:
        used = 0
        for table in self.io:
            for v in table.values():
                used += v
        return IO_SUPPLY - used

    def allies_of(self, seat: int) -> list[int]:
        if self.h2h or self.px is None:
            return []
        return [q for q in self.participants if q != seat]

    @property
    def cid(self) -> str:
        """The id of the contract in play (only asked for while there is one)."""
        assert self.contract is not None
        return self.contract

    # ----- card movement --------------------------------------------------------------

    def _pop_draw(self, seat: int) -> tuple[str | None, bool]:
        """Take the top card of a draw pile (reshuffling the discard when empty).

        Also says whether every seat knew that card (a publicly known top card).
        """
        pile = self.draw[seat]
        if not pile:
            disc = self.discard[seat]
            if not disc:
                return None, False
            pile.extend(disc)
            disc.clear()
            self.rng.shuffle(pile)
            self.top_known[seat] = 0
            self.top_public[seat] = 0
        card = pile.pop()
        public = self.top_public[seat] > 0
        if public:
            self.top_public[seat] -= 1
        if self.top_known[seat] > 0:
            self.top_known[seat] -= 1
        return card, public

    def draw_cards(self, seat: int, count: int) -> None:
        hand = self.hand[seat]
        for _ in range(count):
            card, public = self._pop_draw(seat)
            if card is None:
                return
            hand.append(card)
            if public:
                self.known[seat].append(card)

    def hand_remove(self, seat: int, card: str) -> None:
        hand = self.hand[seat]
        hand.remove(card)
        known = self.known[seat]
        if known and card in known and hand.count(card) < known.count(card):
            known.remove(card)

    def to_hand(self, seat: int, card: str) -> None:
        """A card enters a hand in public view (given, gained from the supply)."""
        self.hand[seat].append(card)
        self.known[seat].append(card)

    def discard_from_hand(self, seat: int, card: str) -> None:
        self.hand_remove(seat, card)
        self.discard[seat].append(card)
        px = self.px[seat] if self.px is not None else None
        if px is not None and card == "D1" and "swarm-mk1" in self.parts[seat]:
            px.actions += 2

    def trash_from_hand(self, seat: int, card: str) -> None:
        self.hand_remove(seat, card)
        self.trashed(seat, card, from_hand=True)

    def trashed(self, seat: int, card: str, from_hand: bool = False) -> None:
        """A card of `seat` leaves the game (or goes to a Tractor Beam owner)."""
        px = self.px[seat] if self.px is not None else None
        if px is not None:
            px.trashed += 1
        if "reclaimer" in self.parts[seat]:
            self.credits[seat] += 2
        if from_hand and card == "D1" and "mg1-kinetic" in self.parts[seat] and px is not None:
            self.reduce(seat, "D", 3)
        for other in range(self.num_players):
            if other != seat and "mg-tractor-beam" in self.parts[other]:
                self.push("tractor", other, card)

    def gain(self, seat: int, card: str, dest: str = "discard") -> None:
        """Take `card` from the supply; an exhausted Advanced kind asks for a substitute."""
        if card in ADVANCED_KINDS:
            if self.adv is None or self.adv[card] <= 0:
                self.push("substitute", seat, card, dest)
                return
            self.adv[card] -= 1
        if dest == "hand":
            self.to_hand(seat, card)
        else:
            self.discard[seat].append(card)

    def put_bottom(self, deck: list[str], mask: list[int], card: str, knower: int) -> None:
        deck.insert(0, card)
        mask.insert(0, knower)

    def pop_top(self, deck: list[str], mask: list[int]) -> str | None:
        if not deck:
            return None
        mask.pop()
        return deck.pop()

    # ----- contract effects ------------------------------------------------------------

    def deal_damage(self, seat: int, amount: int, flex: bool | None = None) -> None:
        """Damage a card or ability plays ("Damage 2", "counts as 4 Damage", "→ 5 Damage").

        Only this is "played Damage" (Barrage, MG IO Overkill); a "Damage requirement −N"
        is a plain `reduce` and is not (E-moonrakers-39).
        """
        if amount > 0:
            self.px[seat].dmg += amount
            self.reduce(seat, "D", amount, flex)

    def reduce(self, seat: int, cat: str, amount: int, flex: bool | None = None) -> None:
        """Reduce requirement `cat` by `amount` (Head to Head: add to `seat`'s score).

        flex None: the own type if still open, else Flex (abilities, virtual plays);
        True: Flex only; False: the own type only. One reduction never fills both.
        """
        if amount <= 0:
            return
        if self.h2h:
            if cat in self.counts:
                self.score[seat] += amount
            return
        rem = self.rem
        key = cat
        if flex or cat == "F" or (flex is None and not rem.get(cat) and rem.get("F")):
            key = "F"
        left = rem.get(key, 0)
        if left:
            rem[key] = left - amount if left > amount else 0

    def useful(self, cat: str) -> bool:
        """Would a reduction of `cat` change anything on this contract?"""
        if self.h2h:
            return cat in self.counts
        return bool(self.rem.get(cat) or self.rem.get("F"))

    def open_types(self) -> list[str]:
        if self.h2h:
            return list(self.counts[:1])
        return [k for k in ("R", "T", "S", "D", "C", "F") if self.rem.get(k)]

    def icons(self, seat: int) -> int:
        return sum(self.px[seat].dice)

    def block(self, seat: int, amount: int) -> None:
        px = self.px[seat]
        uncovered = sum(px.dice) - px.block_eff
        eff = min(amount, max(0, uncovered))
        px.blocked += amount
        px.block_eff += eff
        if eff and "mg-io-charge" in self.parts[seat]:
            self.io_add(seat, "mg-io-charge", eff)

    def roll_die(self, seat: int, index: int | None = None) -> int:
        """Roll a new hazard die at `seat`, or re-roll its die at `index` in place.

        A re-roll is the same die again: it does not count as another die targeting
        the player (Ace, E-moonrakers-40).
        """
        value = HAZARD_FACES[self.rng.randrange(len(HAZARD_FACES))]
        px = self.px[seat]
        if index is None:
            px.dice.append(value)
            px.rolled += 1
        else:
            px.dice[index] = value
        return value

    def io_add(self, seat: int, card: str, amount: int) -> None:
        amount = min(amount, self.io_free())
        if amount <= 0:
            return
        table = self.io[seat]
        table[card] = table.get(card, 0) + amount
        if card == "io-exhaust-e1" and table[card] >= 4:
            # The part leaves the ship for the bottom of the Ship Part deck.
            del table[card]
            self.parts[seat].remove(card)
            self.put_bottom(self.part_deck, self.part_mask, card, ALL)

    def io_spend(self, seat: int, card: str, amount: int) -> None:
        table = self.io[seat]
        table[card] -= amount
        if self.px is not None and self.px[seat] is not None:
            self.px[seat].io_spent += amount
        if table[card] <= 0 and card in CREW:
            # An IO crew is discarded only when its last IOsphere is removed.
            del table[card]
            self.inplay[seat].remove(card)
            self.discard[seat].append(card)
