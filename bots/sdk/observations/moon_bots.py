"""Moon-Bots (`moon_bots`): the observation and the legal actions, as types.

    from bots.sdk.observations.moon_bots import Action, Observation, my_robots

Field by field this follows engine/games/moon_bots/views.py; the README of that package
and docs/bot-authors/games/moon-bots.md explain what each field means. Robots are
numbered (2 players: robots 0-1 are seat 0's, 2-3 seat 1's; else robot i is seat i's);
market slots are 0-5 (slot = row * 2 + column, row 0 costs 0); dice are indexes into
`observation["dice"]`.
"""

from typing import Literal, NamedTuple, TypedDict, get_args

BodySlot = Literal["head", "torso", "left_arm", "right_arm", "left_leg", "right_leg"]
# What activates a part: one die showing one of `values`, or two dice that are doubles,
# total 7, total less than 4 or total more than 10.
Condition = Literal["one", "doubles", "total7", "total_lt4", "total_gt10"]
HitType = Literal["fist", "missile"]
UpgradeKind = Literal[
    "extra_die", "reroll", "fist_bonus", "missile_bonus", "fist_protection", "missile_protection"
]
WeaponKind = Literal[
    "dodge", "shock_absorber", "deflection", "energy_stock", "computer_virus", "rest",
    "black_market", "supermarket", "spare_part_search", "adjustment", "stronger", "energy_pump",
]  # fmt: skip
# Part keys ("P01" ... "P24"), upgrade kinds and weapon kinds name every card.
CardKey = str


class BoardAbility(TypedDict):
    """A robot's built-in ability (activated as the part "board")."""

    key: str  # "board1" ... "board4"
    slot: Literal["board"]
    name: str
    condition: Condition
    values: list[int]  # die values for condition "one"
    dice: int  # dice it takes: 1 or 2
    fists: int  # hits of each type it deals
    missiles: int
    energy: int  # energy gained (or lost, below 0) by its robot


class Part(TypedDict):
    """A robot part: installed, or offered by Spare Part Search (`search_choices`)."""

    category: Literal["part"]
    key: CardKey
    name: str
    slot: BodySlot
    condition: Condition
    values: list[int]
    dice: int
    fists: int
    missiles: int
    energy: int
    cost_mark: int  # the +1 cost mark


class Parts(TypedDict):
    head: Part | None
    torso: Part | None
    left_arm: Part | None
    right_arm: Part | None
    left_leg: Part | None
    right_leg: Part | None


class Robot(TypedDict):
    robot: int
    owner: int  # its seat
    board: int  # 1-4
    energy: int
    alive: bool
    targets: list[int]  # the robots its attacks hit (its neighbours)
    board_ability: BoardAbility
    parts: Parts
    upgrades: list[UpgradeKind]
    dice: int
    secret_weapon_count: int
    secret_weapons: list[WeaponKind] | None  # only for this seat's own robots
    eliminated_event: int  # order of its elimination, -1 while alive


class MarketPart(TypedDict):
    """A part for sale; `slot` here is the market slot (the body slot follows from `key`)."""

    category: Literal["part"]
    key: CardKey
    name: str
    slot: int
    row: int
    cost: int  # the row's price plus the cost mark
    cost_mark: int
    condition: Condition
    values: list[int]
    dice: int
    fists: int
    missiles: int
    energy: int


class MarketUpgrade(TypedDict):
    category: Literal["upgrade"]
    key: UpgradeKind
    name: str
    slot: int
    row: int
    cost: int
    cost_mark: int


class MarketWeapon(TypedDict):
    """A secret weapon for sale: face down, only its price shows."""

    category: Literal["secret"]
    face_down: bool
    slot: int
    row: int
    cost: int


class TurnStep(TypedDict):
    """The active robot's own step: buying, searching, Black Market, assigning dice."""

    kind: Literal["buy", "spare_part_search", "black_market", "assign", "end"]
    robot: int


class WeaponWindow(TypedDict):
    """An opponent may play a weapon at the start of a turn or after a roll."""

    kind: Literal["start_of_turn", "after_roll"]
    robot: int  # the robot asked
    active: int  # the robot whose turn it is


class Split(TypedDict):
    """The attacker shares its hits between its two neighbours."""

    kind: Literal["split"]
    robot: int
    type: HitType
    hits: int
    left: int
    right: int


class Defend(TypedDict):
    """The robot hit may play a defence weapon."""

    kind: Literal["defend"]
    robot: int
    attacker: int
    type: HitType
    hits: int


class EnergyPump(TypedDict):
    """Another player's robot gained energy: Energy Pump may follow."""

    kind: Literal["energy_pump"]
    robot: int
    gainer: int


Decision = TurnStep | WeaponWindow | Split | Defend | EnergyPump


class LastAttack(TypedDict):
    attacker: int
    type: HitType
    targets: list[int]


class LastRoll(TypedDict):
    robot: int
    dice: list[int]


class Observation(TypedDict):
    two_player: bool  # two robots per seat
    my_robots: list[int]
    robots: list[Robot]  # by robot number
    market: list[MarketPart | MarketUpgrade | MarketWeapon | None]  # by slot; None: empty
    deck_size: int
    deck_top: Literal["secret", "ability"] | None  # the back of the pile's top card
    used_secret_weapons: list[WeaponKind]  # every weapon played, in order
    pile_weapons_seen: list[list[WeaponKind]]  # per own Spare Part Search
    face_down_discards: int
    removed_unseen: int
    active_robot: int
    decision: Decision | None  # None once the game is over
    turn: int
    turn_limit: int
    dice: list[int]  # the active robot's dice (values 1-6)
    dice_used: list[bool]  # per die
    parts_used: list[BodySlot | Literal["board"]]  # activated this turn
    energy_gained_this_turn: int
    buys_left: int
    rerolled: bool
    rested: bool
    last_attack: LastAttack | None
    eliminated_robots: list[int]  # in order of elimination
    search_choices: list[Part] | None  # during a Spare Part Search: the parts that fit
    search_pile: list[CardKey] | None  # the searcher only: every card in the pile
    last_roll: LastRoll | None
    seat: int  # this observation's seat
    to_move: int | None  # None once the game is over


# A legal action is a word or a list whose first item says what it does:
#   "roll" "done" "pass"
#   ["buy", slot]  ["take", slot] (Black Market)  ["part", key] (Spare Part Search)
#   ["use", part, die] / ["use", part, die, die]  (part: a body slot or "board")
#   ["reroll", die] / ["reroll", die, die]
#   ["split", hits_to_left, hits_to_right]
#   ["sw", weapon, ...]: ["sw", "deflection", robot], ["sw", "stronger", robot],
#       ["sw", "adjustment", die, +1 | -1], every other weapon alone
Word = Literal["roll", "done", "pass"]
Verb = Literal["buy", "take", "part", "use", "reroll", "split", "sw"]
Action = Word | list[str | int]


class Move(NamedTuple):
    """An action taken apart (`parse_action`); fields an action lacks are None/empty."""

    verb: Word | Verb
    name: str | None = None  # use: body slot or "board"; sw: weapon; part: part key
    numbers: tuple[int, ...] = ()  # slots, dice, hits, robot or +1/-1, in order


def parse_action(action: Action) -> Move:
    """`["use", "torso", 0, 2]` -> Move("use", "torso", (0, 2))."""
    if isinstance(action, str):
        word = next((w for w in _WORDS if action == w), None)
        if word is None:
            raise ValueError(f"not a Moon-Bots action: {action!r}")
        return Move(word)
    head, *rest = action
    verb = next((v for v in _VERBS if head == v), None)
    name = rest[0] if rest and isinstance(rest[0], str) else None
    numbers = rest[1:] if name is not None else rest
    if verb is None or not all(type(n) is int for n in numbers):
        raise ValueError(f"not a Moon-Bots action: {action!r}")
    return Move(verb, name, tuple(int(n) for n in numbers))


def my_robots(observation: Observation) -> list[Robot]:
    """This seat's robots (two with 2 players), eliminated ones included."""
    return [observation["robots"][i] for i in observation["my_robots"]]


def deciding_robot(observation: Observation) -> Robot | None:
    """The robot the current decision is for, or None once the game is over."""
    decision = observation["decision"]
    return None if decision is None else observation["robots"][decision["robot"]]


_WORDS: tuple[Word, ...] = get_args(Word)
_VERBS: tuple[Verb, ...] = get_args(Verb)
