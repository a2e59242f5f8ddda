"""Moonrakers (`moonrakers`): the observation and the legal actions, as types.

    from bots.sdk.observations.moonrakers import Action, Observation, decision, my_player

Field by field this follows engine/games/moonrakers/views.py; the README of that
package and docs/bot-authors/games/moonrakers.md explain what each field means. Cards,
contracts, parts and objectives are named by id: Action cards `R T S D1 D2 D3 M` and
`R+ Rx T+ Tx S+ Sx D+`, everything else by slug (`moro-mada`, `duo-1000`, `black-hole`).
"""

from typing import Literal, NotRequired, TypedDict, get_args

CardId = str
# The seven Advanced Action card kinds (the Overload expansion's supply).
AdvancedKind = Literal["R+", "Rx", "T+", "Tx", "S+", "Sx", "D+"]
# Contract requirement types: Reactor, Thruster, Shield, Damage, Crew, Flex.
RequirementType = Literal["R", "T", "S", "D", "C", "F"]
# The decision waiting (`pending[0]`): one of the game's choice steps.
Decision = Literal[
    "drop_objective", "plan", "keep_objective", "free_replace", "negotiate", "offer",
    "answer", "join", "step", "bonus", "tesselator", "free_discard", "buy", "remove_part",
    "substitute", "choose", "trash", "req_any", "give_self", "b3ar", "discard_n",
    "discard_upto", "reroll_any", "zek", "lee_pick", "domi", "io_move_to", "letyba", "pat",
    "tuner_pick", "probe", "reformer", "hakun", "myla", "tractor", "magnet_give",
    "magnet_keep", "modulator_back",
]  # fmt: skip


class Player(TypedDict):
    credits: int
    prestige: int
    parts: list[list[str | int]]  # installed Ship Parts: [part id, IOspheres on it]
    in_play: list[list[str | int]]  # IO crew in play: [crew id, IOspheres on it]
    hand_size: int
    known_hand: list[CardId]  # hand cards everyone saw arrive (given, gained to hand)
    draw_size: int
    draw_top_known: list[CardId]  # known top cards of the draw pile, the top first
    discard_size: int
    discard_top: CardId | None
    looking_size: int  # cards this player is looking at
    objectives_held: int
    objectives_choosing: int
    claimed: list[str]  # objectives claimed (public)


class Participant(TypedDict):
    """One participant's Execution so far (contract `execution`)."""

    actions: int  # actions left
    played: list[CardId]
    dice: list[int]  # hazard dice rolled at this participant (0, 1 or 2 icons)
    blocked: int
    damage: int  # Damage played (Barrage, MG IO Overkill)
    used: list[str]  # part and IO crew abilities used on this contract


class Contract(TypedDict):
    """The contract being negotiated or executed (`execution`, `passes` from Execution on)."""

    id: str
    participants: list[int]  # seats, in turn order from the Mission Leader
    deals: list[list[int | list[int]]]  # [seat, [prestige, credits, bonus, hazard dice]]
    proposals_left: list[int]  # per seat
    offer: list[int] | None  # [prestige, credits, bonus, hazard dice] being proposed
    invitee: int | None
    remaining: dict[RequirementType, int]  # requirement left by type
    scores: list[int] | None  # Head to Head: per participant
    damage_bonus: int  # Kary Powalk: +1 per Damage card
    execution: NotRequired[list[list[int | Participant]]]  # [seat, Participant] per participant
    passes: NotRequired[int]  # participants who passed in a row


class LastContract(TypedDict):
    contract: str
    participants: list[int]
    success: bool
    first: int | None  # Head to Head: the seat placed first
    second: int | None
    scores: list[int] | None  # Head to Head: per participant
    hazards_lost: list[int]  # per participant: unblocked hazard icons


class Observation(TypedDict):
    game: Literal["moonrakers"]
    overload: bool  # the Overload expansion is in play
    turn: int
    mission_leader: int
    pending: list[str | int]  # [decision, seat, public arguments...]; [] once over
    contracts: list[str | None]  # the 8 face-up contract slots
    contract_deck: int
    contract_discard: int
    armory_crew: list[CardId | None]
    armory_parts: list[CardId | None]
    crew_deck: int
    part_deck: int
    objective_deck: int
    advanced_supply: dict[AdvancedKind, int] | None  # None without Overload
    iospheres_supply: int
    mercs: list[CardId | None]  # Mercenary row (1-2 players)
    players: list[Player]  # by seat
    hand: list[CardId]  # this seat's hand, sorted
    discard: list[CardId]  # this seat's whole discard pile, the top last
    objectives: list[str]  # this seat's secret objectives
    objective_choices: list[str]  # objectives to choose from (set-up, Stay at Base)
    looking: list[CardId]  # cards this seat is looking at
    draw_top: list[CardId]  # this seat's known top cards of its draw pile, the top first
    replaced_this_turn: bool
    armory_discards: int
    contract: Contract | None
    last_contract: LastContract | None  # how the last contract ended
    seat: int  # this observation's seat
    to_move: int | None  # None once the game is over


# A legal action is a word or a list whose first item says what it does (the README's
# table, engine/games/moonrakers/README.md, lists them by decision):
#   words: "pass" "base" "go" "accept" "decline" "join" "none" "done" "keep" "redraw"
#          "discard" "trash" "end" "no_replace" "keep_all"
#   lists: ["contract", slot] ["replace", slot] ["invite", seat] ["p"|"c"|"b"|"h", n]
#          ["play", card] ["play", card, "F"] ["play", card, "x2"] ["play", card, "x2", "F"]
#          ["ability", part, ...] ["merc", index] ["buy", card] ["discard", card] ...
Word = Literal[
    "pass", "base", "go", "accept", "decline", "join", "none", "done", "keep", "redraw",
    "discard", "trash", "end", "no_replace", "keep_all",
]  # fmt: skip
Action = Word | list[str | int]


def my_player(observation: Observation) -> Player:
    """This seat's entry of `players`."""
    return observation["players"][observation["seat"]]


def decision(observation: Observation) -> Decision | None:
    """The decision waiting (`pending[0]`), or None once the game is over."""
    pending = observation["pending"]
    if not pending:
        return None
    for name in _DECISIONS:
        if pending[0] == name:
            return name
    raise ValueError(f"unknown Moonrakers decision {pending[0]!r}")


def installed_parts(player: Player) -> dict[str, int]:
    """A player's Ship Parts: part id -> IOspheres on it."""
    return {str(part): int(io) for part, io in player["parts"]}


def execution(contract: Contract) -> dict[int, Participant]:
    """Each participant's Execution (seat -> Participant); {} before Execution."""
    out: dict[int, Participant] = {}
    for seat, view in contract.get("execution", []):
        if isinstance(seat, int) and isinstance(view, dict):
            out[seat] = view
    return out


_DECISIONS: tuple[Decision, ...] = get_args(Decision)
