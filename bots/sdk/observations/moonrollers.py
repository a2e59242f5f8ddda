"""Moonrollers (`moonrollers`): the observation and the legal actions, as types.

    from bots.sdk.observations.moonrollers import Action, Observation, my_player

Field by field this follows engine/games/moonrollers/views.py; the README of that
package and docs/bot-authors/games/moonrollers.md explain what each field means.
"""

from typing import Literal, NamedTuple, NotRequired, TypedDict, get_args

Face = Literal["damage", "shield", "thruster", "reactor", "wild", "extra"]
Faction = Literal["TECH", "PALADIN", "MERC", "AGENT", "PILOT"]
Phase = Literal["start", "crew", "commit", "lock", "select", "hazard", "place", "return", "namari"]
EndReason = Literal["one_of_each_faction", "three_of_one_faction", "crew_deck_exhausted"]
# Crew are named by id ("namari", "at_0k", "redacted" ...); a crew's ability has its id.
CrewId = str
# Hazard tokens are named by their prestige: 1 (no hazard symbol), 2 (one), 5 (two).
HazardToken = int


class Player(TypedDict):
    prestige: int
    hazard_tokens: int  # how many; the kinds are hidden until the game ends
    crew: dict[Faction, list[CrewId]]  # hired crew by faction, the top of each stack first
    abilities: list[CrewId]  # the abilities of the top cards, sorted
    hazard_kinds: NotRequired[list[HazardToken]]  # once the game is over: every seat's tokens


class Requirement(TypedDict):
    face: Face  # "wild" is a Wild (x2) requirement: any face, double prestige
    count: int  # dice needed (and the prestige it pays)
    hazard: bool  # completing it draws 2 hazard tokens, one is kept
    x2: bool  # a Wild (x2) requirement
    token: int | None  # the seat whose token fills it, or None while open


class DisplayCrew(TypedDict):
    crew: CrewId
    faction: Faction
    requirements: list[Requirement]  # top to bottom; actions name them by index


class Turn(TypedDict):
    player: int  # the seat whose turn it is
    phase: Phase
    crew: CrewId | None  # the crew worked on this turn, once chosen
    committed: int | None  # index of the committed requirement
    need: int  # dice (value) the committed requirement still needs
    pool: dict[Face, int]  # the rolling pool, dice by face
    treated_as_extra: int  # pool dice an ability made Extra Dice (never lockable)
    saved_wild: int  # Meg Gallak's Wild kept for the next roll
    locked: int  # dice locked this turn
    rolled: dict[Face, int]  # what this roll showed (rules "if you roll ...")
    first_roll: bool
    locked_this_roll: bool  # "roll" and "stop" need a lock on this roll (or a safe roll)
    safe: bool  # this roll cannot bust
    safe_next_roll: bool
    avari_bonus: bool
    used_abilities: list[CrewId]  # used on this roll
    completed_this_turn: list[int]  # requirement indices, lost on a bust
    drawn_count: int  # hazard tokens drawn, waiting for a "keep"
    drawn: NotRequired[list[HazardToken]]  # their kinds, for the drawing seat only
    selected: NotRequired[dict[Face, int]]  # phase "select": dice picked for the re-roll
    select_limit: NotRequired[int]
    select_exactly: NotRequired[bool]  # Vila Noir: exactly select_limit dice


class Observation(TypedDict):
    players: list[Player]  # by seat
    my_hazard_tokens: list[HazardToken]  # this seat's tokens, smallest first
    display: list[DisplayCrew]
    deck_size: int
    hazard_pile: int  # tokens left (drawn at random: the pile has no order)
    supply: int  # dice not yet rolled this turn
    turn: Turn
    end_reason: NotRequired[EndReason]  # once the game is over
    seat: int  # this observation's seat
    to_move: int | None  # None once the game is over


# A legal action is a word or a short list whose first item says what it does:
#   "roll" "stop" "bust" "reroll" "no_return" "pass"
#   ["crew", crew_id]  ["commit", requirement_index]  ["pick", face]
#   ["lock", face, dice]  ["lock", face, dice, ability]  (ability: a lock counting double or as a Wild)
#   ["use", ability]  ["use", "myla_dystra", face]
#   ["keep", token]  ["return", token]  ["place", "top" | "bottom"]
Word = Literal["roll", "stop", "bust", "reroll", "no_return", "pass"]
Verb = Literal["crew", "commit", "pick", "lock", "use", "keep", "return", "place"]
Action = Word | list[str | int]


class Move(NamedTuple):
    """An action taken apart (`parse_action`); fields an action lacks are None."""

    verb: Word | Verb
    face: Face | None = None  # lock, pick, and Myla Dystra's face
    number: int | None = None  # lock: dice; commit: requirement; keep/return: token
    name: str | None = None  # crew: the crew; lock/use: the ability; place: top/bottom


_FACES: tuple[Face, ...] = get_args(Face)
_WORDS: tuple[Word, ...] = get_args(Word)
_VERBS: tuple[Verb, ...] = get_args(Verb)


def parse_action(action: Action) -> Move:
    """`["lock", "wild", 2, "aponi"]` -> Move("lock", face="wild", number=2, name="aponi")."""
    if isinstance(action, str):
        for word in _WORDS:
            if action == word:
                return Move(word)
        raise ValueError(f"not a Moonrollers action: {action!r}")
    head, *rest = action
    verb = next((v for v in _VERBS if head == v), None)
    if verb == "lock" and len(rest) in (2, 3):
        face, dice, *ability = rest
        return Move(verb, _face(face), _int(dice), _str(ability[0]) if ability else None)
    if verb == "pick" and len(rest) == 1:
        return Move(verb, face=_face(rest[0]))
    if verb in ("commit", "keep", "return") and len(rest) == 1:
        return Move(verb, number=_int(rest[0]))
    if verb in ("crew", "place") and len(rest) == 1:
        return Move(verb, name=_str(rest[0]))
    if verb == "use" and len(rest) in (1, 2):
        return Move(verb, face=_face(rest[1]) if len(rest) == 2 else None, name=_str(rest[0]))
    raise ValueError(f"not a Moonrollers action: {action!r}")


def my_player(observation: Observation) -> Player:
    """This seat's entry of `players`."""
    return observation["players"][observation["seat"]]


def committed_requirement(observation: Observation) -> Requirement | None:
    """The committed requirement of the crew worked on, or None before committing."""
    turn = observation["turn"]
    index = turn["committed"]
    for crew in observation["display"]:
        if crew["crew"] == turn["crew"] and index is not None:
            return crew["requirements"][index]
    return None


def _face(value: str | int) -> Face:
    for face in _FACES:
        if value == face:
            return face
    raise ValueError(f"not a die face: {value!r}")


def _int(value: str | int) -> int:
    if type(value) is not int:
        raise ValueError(f"expected a number, got {value!r}")
    return value


def _str(value: str | int) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a name, got {value!r}")
    return value
