"""A Moon Adventure search bot: the team plan chosen each turn by simulating the mission.

The heuristic plays every seat with one of two team plans (`heuristic.PLANS`): bold (go
far, gather the Area-5 chips, delay reshuffles) or steady (stay closer, keep crew alive),
fixed by the table's size. Which one brings a mission home depends on where the crew
are, the oxygen they hold and the storms in the piles, so this bot decides it by search:
at the start of each of its turns it samples worlds consistent with its observation
(`bots.sdk.worlds`), plays every world to the end of the mission once with each plan for
every seat (the same world and dice for both: paired), scores each finished mission by
its chance of success, and plays the turn with the plan that scored best. This is policy
switching over a portfolio (Chang, Givan and Chong, 2004): with exact estimates it does at
least as well as the better plan played throughout, and better where the better plan
changes during a mission.

A finished mission scores 0 if a crew member ran out of oxygen, otherwise the chance that
the chips the team brought home hold enough undamaged ones, averaged over which chips are
broken: less noisy than the world's own success or failure.

The search spends the move budget of the match's limits (`MoveBudget`, at most half of
`move_seconds`) only at the first decision of a turn; every other decision follows the
chosen plan at once; with less time than a world takes, it keeps the heuristic's plan for
the table's size. `playouts=N` plays N worlds a plan instead (reproducible tests)."""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from bots.reference import moon_adventure_heuristic as heuristic
from bots.reference.moon_adventure_heuristic import undamaged_chance
from bots.sdk.search import MoveBudget
from bots.sdk.worlds import world_from_observation

GAME = "moon_adventure"
TURN_START_PHASES = ("robot", "oxygen", "act")
DECISIONS_GUESS = 15.0  # turns a seat plays in a mission: the searched decisions


def mission_score(state: Any) -> float:
    """A finished mission's chance of success: 0 if a crew member is not home, otherwise
    the chance that the chips home hold `target` undamaged ones, each area's chips a
    uniform draw from its chips (so the broken flags the world happened to deal add no
    noise to the comparison of plans)."""
    end = state.observation(0)
    if not all(end["returned"]):
        return 0.0
    held = Counter(
        item["area"] for slots in end["containers"] for item in slots if item and "area" in item
    )
    areas = sorted(heuristic.UNDAMAGED)
    return undamaged_chance(
        tuple(held[area] for area in areas),
        tuple(heuristic.UNDAMAGED[area] for area in areas),
        (heuristic.CHIPS_PER_AREA,) * len(areas),
        end["target"],
    )


def own_plan(observation: dict[str, Any]) -> str:
    """The name of the heuristic's plan for this table's size."""
    plan = heuristic.plan_for(len(observation["crew"]))
    return next(name for name, known in heuristic.PLANS.items() if known is plan)


def play_mission(world: Any, plan: heuristic.TeamPlan | None) -> None:
    """Every seat plays `plan` (None: the heuristic's own for the table) until the mission
    ends."""
    team = heuristic.Bot(plan)
    while not world.is_terminal():
        legal = world.legal_actions()
        if len(legal) == 1:
            world.apply(legal[0])
            continue
        choice = team.act(world.observation(world.to_move()), legal)
        world.apply(choice if choice in legal else legal[0])


class PlanSearch:
    """One seat's choice of team plan from an observation."""

    def __init__(self, seat: int, options: dict[str, Any], seed: str) -> None:
        self.seat = seat
        self.options = options
        self.rng = random.Random(seed)
        self.last_scores: dict[str, float] = {}
        self.last_worlds = 0
        self.world_seconds = 0.0  # what playing one world with every plan took last time

    def choose(self, observation: dict[str, Any], seconds: float, playouts: int | None) -> str:
        """The name of the plan whose missions scored best from here. With less time than
        one world has taken so far, the heuristic's own plan, unsearched."""
        default = own_plan(observation)
        self.last_worlds = 0
        self.last_scores = {}
        if playouts is None and seconds < self.world_seconds:
            return default
        totals = dict.fromkeys(heuristic.PLANS, 0.0)
        started = time.perf_counter()
        deadline = started + seconds
        worlds = 0

        def more() -> bool:
            return worlds < playouts if playouts is not None else time.perf_counter() < deadline

        while more():
            world = world_from_observation(
                GAME, observation, self.seat, self.rng, options=self.options
            )
            for name, plan in heuristic.PLANS.items():
                copy = world.clone()  # the same hidden cards and dice for every plan
                play_mission(copy, plan)
                totals[name] += mission_score(copy)
            worlds += 1
        if not worlds:
            return default
        self.world_seconds = (time.perf_counter() - started) / worlds
        self.last_worlds = worlds
        self.last_scores = {name: total / worlds for name, total in totals.items()}
        if self.last_scores[default] >= max(self.last_scores.values()):
            return default  # ties keep the heuristic's own plan
        return max(self.last_scores, key=self.last_scores.__getitem__)


class Bot:
    """One per match (the runner makes one for each match of a set)."""

    playouts: int | None = None

    def __init__(self) -> None:
        self.search = PlanSearch(0, {}, "0")
        self.budget = MoveBudget(None, DECISIONS_GUESS)
        # One heuristic per plan for the real moves: each keeps its own turn plans.
        self.players = {name: heuristic.Bot(plan) for name, plan in heuristic.PLANS.items()}
        self.plan = "steady"
        self.turn: tuple[int, int] | None = None

    def setup(self, info: dict[str, Any]) -> None:
        self.budget = MoveBudget(info.get("limits") or {}, DECISIONS_GUESS)
        self.search = PlanSearch(
            int(info.get("seat", 0)),
            info.get("options") or {},
            f"{info.get('seed', 0)}:{info.get('match', 0)}",
        )

    def act(self, observation: dict[str, Any], legal_actions: list[Any]) -> Any:
        if len(legal_actions) == 1:
            return legal_actions[0]
        phase = observation.get("phase")
        if phase in TURN_START_PHASES and not observation["returned"][observation["seat"]]:
            turn = self._turn(observation)
            if turn != self.turn:
                self.turn = turn
                self.plan = self._search(observation)
        elif self.turn is None:
            self.plan = own_plan(observation)
        return self.players[self.plan].act(observation, legal_actions)

    @staticmethod
    def _turn(observation: dict[str, Any]) -> tuple[int, int]:
        """The same for every decision of one turn, different from the seat's last turn:
        the oxygen card burnt at the start of a turn goes onto the discard pile, and only
        a replenish (the end of a turn) changes the piles otherwise."""
        before_burning = observation["phase"] in ("robot", "oxygen")
        return (
            observation["discard_pile"]["size"] + before_burning,
            observation["draw_pile"]["size"],
        )

    def _search(self, observation: dict[str, Any]) -> str:
        started_cpu, started_wall = time.process_time(), time.perf_counter()
        try:
            return self.search.choose(observation, self.budget.seconds(), self.playouts)
        finally:
            self.budget.charge(
                time.process_time() - started_cpu, time.perf_counter() - started_wall
            )
            self.budget.decisions_left = max(1.0, self.budget.decisions_left - 1)
