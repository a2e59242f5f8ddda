"""Moon Adventure's table: every field of a mission in progress, and the queries of it
that both the rules and a seat's view ask.

`state.MoonAdventureState` sets the fields up and plays on them; `views.py` reads them
and rebuilds a table from an observation. Both import this module, so neither imports
the other back.
"""

from __future__ import annotations

from engine.core.state import State
from engine.games.moon_adventure.pieces import CHIP, OGS


class Table(State):
    """The fields of one Moon Adventure mission (set up in `MoonAdventureState.setup`)."""

    # The track: one list of spaces, the Base board first, the Rover's space last.
    kind: list[int]  # per space: BASE, SUPPLY, OGS... (pieces.py)
    chip: list[int]  # per space: its chip id, or -1
    route: list[bool]  # per space: a route piece lies on it
    # Supply chips, by chip id.
    area: list[int]  # public
    broken: list[bool]  # hidden until revealed
    revealed: list[bool]
    abandoned: list[bool]  # lies in the line because it was abandoned (an inserted space)
    # Pieces.
    pos: list[int]  # per seat: its space
    returned: list[bool]  # per seat: back on the Base
    robot: int  # the robot's space, or -1
    rover: int  # the Rover's space
    rider: int  # the seat riding the Rover, or -1
    # Cards: containers per seat (EMPTY, 2/3 oxygen, CHIP + id), the draw and discard piles.
    slots: list[list[int]]
    draw: list[int]
    discard: list[int]
    storms_aside: int
    routes_left: int
    ogs_left: int
    # The mission.
    roles: list[str | None]
    target: int
    outcome: str | None
    # The turn.
    cur: int  # the seat whose turn it is
    phase: int  # CHOOSE, ROBOT, OXYGEN... (pieces.py)
    ap: int
    dice: list[int]
    bonus: int
    used_mechanic: bool
    used_inventor: bool
    used_inspector: bool
    used_surgeon: bool
    can_reroll: bool
    partner: int  # the seat shared with, or -1
    moved_mine: list[bool]
    moved_theirs: list[bool]

    def _on_active_ogs(self, seat: int) -> bool:
        """The crew piece stands on an active OGS (a rider's piece is on the Rover)."""
        return self.kind[self.pos[seat]] == OGS and self.rider != seat

    def progress(self) -> float:
        """How far the team got toward the mission, 0..1 (E-moon_adventure-14).

        The mean of the rulebook's two end conditions, each as a fraction: the crew back
        on the Base, and the undamaged supplies there against the target (capped at it).
        1 exactly when the mission succeeds.
        """
        home = sum(self.returned) / self.num_players
        supplies = min(self.team_score(), self.target) / self.target if self.target > 0 else 1.0
        return (home + supplies) / 2

    def team_score(self) -> int:
        """Undamaged supplies in the containers of crew back on the Base (E-moon_adventure-8)."""
        broken = self.broken
        return sum(
            1
            for seat, slots in enumerate(self.slots)
            if self.returned[seat]
            for item in slots
            if item >= CHIP and not broken[item - CHIP]
        )
