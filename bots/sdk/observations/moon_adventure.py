"""Moon Adventure (`moon_adventure`): the observation and the legal actions, as types.

    from bots.sdk.observations.moon_adventure import Action, Observation, parse_action

Field by field this follows engine/games/moon_adventure/views.py; the README of that
package and docs/bot-authors/games/moon-adventure.md explain what each field means.
The track is one list of spaces: index 0 is the Base, the last one is where the Rover
waits; `+` in an action is away from the Base, `-` toward it.
"""

from typing import Literal, NamedTuple, TypedDict, final, get_args

Phase = Literal["choose_role", "robot", "oxygen", "act", "share", "replenish", "over"]
Role = Literal[
    "engineer", "carrier", "mood_maker", "mechanic", "inspector", "inventor", "veteran",
    "flight_surgeon", "athlete", "rookie",
]  # fmt: skip


class SupplySpace(TypedDict):
    """A face-down (or turned) supply chip still in the line."""

    kind: Literal["supply"]
    route: bool  # a route piece lies on it
    area: int  # 3, 4 or 5
    broken: bool | None  # None until the chip is turned face up
    abandoned: bool  # it lies in a space Abandon Supplies inserted


class OtherSpace(TypedDict):
    kind: Literal["base", "collected", "ogs", "ogs_broken", "rover_spot"]
    route: bool


Space = SupplySpace | OtherSpace


@final  # closed, so `"area" in item` tells a chip from an oxygen card
class OxygenCard(TypedDict):
    oxygen: Literal[2, 3]


@final
class SupplyChip(TypedDict):
    area: int
    broken: bool | None  # None while face down (its owner does not know either)


# One container slot: empty (None), an oxygen card or a supply chip.
Container = OxygenCard | SupplyChip | None


class Pile(TypedDict):
    """A pile of oxygen and storm cards: its composition is public, its order is not."""

    size: int
    oxygen2: int
    oxygen3: int
    storms: int


class UsedPowers(TypedDict):
    """Once-per-turn role powers already used this turn."""

    mechanic: bool
    inventor: bool
    inspector: bool
    flight_surgeon: bool


# "with" is a Python keyword, hence the call form.
Share = TypedDict(
    "Share",
    {
        "with": int,  # the other seat of the exchange
        "moved_mine": list[bool],  # per slot of the acting seat: moved in this exchange
        "moved_theirs": list[bool],
    },
)


class Observation(TypedDict):
    phase: Phase
    current: int  # the seat deciding
    roles: list[Role | None]  # by seat; None until chosen (option roles="chosen")
    target: int  # undamaged supplies the team must bring home
    track: list[Space]
    crew: list[int]  # by seat: the track index of its crew piece
    returned: list[bool]  # by seat: back on the Base for good
    robot: int | None  # the Engineer's robot's track index
    rover: int  # the Rover's track index
    rider: int | None  # the seat riding the Rover
    containers: list[list[Container]]  # by seat, by slot (5, or 6 for the Carrier)
    draw_pile: Pile
    discard_pile: Pile
    storms_aside: int
    routes_left: int
    ogs_left: int
    ap: int  # action points left this turn
    dice: list[int]
    used: UsedPowers
    can_reroll: bool  # the Rookie's reroll is still open
    share: Share | None  # the open container exchange
    outcome: Literal["success", "failure"] | None  # once the mission ends
    team_score: int | None  # once the mission ends
    seat: int  # this observation's seat
    to_move: int | None  # None once the game is over


# Every action is a string (README "Action encoding"):
#   "role:<role>"  "robot0" "robot+1" "robot+2" "robot-1" "robot-2"  "oxygen2" "oxygen3"
#   "move+" "move-" "move1+" "move1-" "walk+" "walk-" "ogs+" "ogs-" "route+" "route-"
#   "gather+" "gather-" "share:<seat>" "abandon:<slot>+" "abandon:<slot>-"
#   "inspect:<slot>" "reroll" "end"
#   "give:<my slot>" "take:<their slot>" "swap:<my slot>:<their slot>" "done"
#   "draw" "stop"
Action = str
Verb = Literal[
    "role", "robot", "oxygen", "move", "move1", "walk", "ogs", "route", "gather", "share",
    "abandon", "inspect", "reroll", "end", "give", "take", "swap", "done", "draw", "stop",
]  # fmt: skip


class Move(NamedTuple):
    """An action taken apart (`parse_action`)."""

    verb: Verb
    direction: Literal[1, -1, 0]  # +1 away from the Base, -1 toward it, 0 for neither
    numbers: tuple[int, ...] = ()  # seat, slot(s), robot steps, oxygen card value
    role: Role | None = None  # "role:<role>"


def parse_action(action: Action) -> Move:
    """`"abandon:2-"` -> Move("abandon", -1, (2,)); `"robot+2"` -> Move("robot", 1, (2,))."""
    text = action
    direction: Literal[1, -1, 0] = 0
    if text.endswith(("+", "-")) and not text.startswith("robot"):
        direction = 1 if text[-1] == "+" else -1
        text = text[:-1]
    head, *args = text.split(":")
    if head.startswith("robot") and head != "robot" and not args:
        steps = int(head[5:])  # "robot0", "robot+2", "robot-1"
        head, args, direction = "robot", [str(abs(steps))], 1 if steps > 0 else -1 if steps else 0
    elif head in ("oxygen2", "oxygen3"):
        head, args = "oxygen", [head[6:]]
    verb = next((v for v in _VERBS if head == v), None)
    if verb is None:
        raise ValueError(f"not a Moon Adventure action: {action!r}")
    if verb == "role":
        role = next((r for r in _ROLES if args == [r]), None)
        if role is None:
            raise ValueError(f"not a Moon Adventure role: {action!r}")
        return Move(verb, 0, role=role)
    if not all(a.isdigit() for a in args):
        raise ValueError(f"not a Moon Adventure action: {action!r}")
    return Move(verb, direction, tuple(int(a) for a in args))


def my_containers(observation: Observation) -> list[Container]:
    """This seat's container slots."""
    return observation["containers"][observation["seat"]]


def supplies_held(containers: list[Container]) -> list[SupplyChip]:
    """The supply chips among some container slots (oxygen cards and empty slots left out)."""
    return [item for item in containers if item is not None and "area" in item]


_VERBS: tuple[Verb, ...] = get_args(Verb)
_ROLES: tuple[Role, ...] = get_args(Role)
