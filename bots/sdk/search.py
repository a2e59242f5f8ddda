"""Information-set Monte Carlo tree search over worlds sampled from one observation.

A bot sees only its observation, so it cannot search the real game. Instead it samples
worlds consistent with what it saw (`bots.sdk.worlds.world_from_observation`) and searches
all of them with one tree: single-observer IS-MCTS (Cowling, Powley and Whitehouse, 2012).
Each iteration takes the next world, descends the tree by the actions legal *in that
world* (a child's statistics count how often it was available, so actions legal only in
some worlds are not favoured), adds one node, plays the world out with a playout policy and
credits every node on the path with the result of the seat that chose it.

Dice and draws are not branched: each iteration replays the world from its own RNG, so an
action's value averages over chance as it is met (open-loop).

Time comes from the match's limits (`MoveBudget`): at most half of `move_seconds` a move,
and less when the CPU time or match time left, shared over the decisions still to come,
would not cover it. `playouts=N` searches a fixed number of iterations instead, which with
the same seed chooses the same action every time (tests and benchmarks).

    from bots.sdk.search import SearchBot

    class Bot(SearchBot):
        game = "moonrollers"
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from bots.sdk.worlds import world_from_observation
from engine.core.state import State

# Defaults of the arena's limits (workers/sandbox/limits.py), for a start message that
# leaves a limit out.
DEFAULT_LIMITS = {"move_seconds": 1.0, "cpu_seconds": 120.0, "match_seconds": 600.0}
MOVE_SHARE = 0.5  # of move_seconds: the rest is the margin for a loaded host
MATCH_SHARE = 0.6  # of cpu_seconds and match_seconds a search may spend in one match
MIN_SECONDS = 0.005
MAX_PLAYOUT_DECISIONS = 3000
MIN_DECISIONS_LEFT = 10  # the decisions a budget keeps time for when no playout ends

GUIDE_BIAS = 1.0  # the guide's action's extra UCB value at the root, fading with visits
GUIDE_SHARE = 0.15  # of the iterations: the visits another action needs beyond the guide's

Reward = Callable[[State], list[float]]
Evaluate = Callable[[State], list[float]]
Policy = Callable[[State, list[Any], random.Random], Any]
Guide = Callable[[dict[str, Any], list[Any]], Any]


def action_key(action: Any) -> Any:
    """A hashable name of an action, equal for equal JSON values."""
    if isinstance(action, str | int):
        return action
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def rank_reward(state: State) -> list[float]:
    """1 for first, 0 for last, shared ranks shared; a tenth of a point for the score
    against the table's best, so a close second beats a distant one. A cooperative game
    (a result with an `outcome`) gives every seat the team's: 1 for a success, else at
    most 0.8 by how far the team got (`progress`, 0 to 1)."""
    result = state.result()
    ranks = result["ranks"]
    players = len(ranks)
    if "outcome" in result:
        team = 1.0 if result["outcome"] == "success" else 0.8 * float(result.get("progress", 0))
        return [team] * players
    if players == 1:
        return [1.0 if ranks[0] == 1 else 0.0]
    scores = result.get("scores") or [0] * players
    best = max(abs(s) for s in scores) or 1
    return [
        (players - rank) / (players - 1) * 0.9 + 0.1 * (score / best if best else 0)
        for rank, score in zip(ranks, scores, strict=True)
    ]


def standing_reward(values: list[float], scale: float = 1.0) -> list[float]:
    """A reward per seat, 0 to 1, for a game not yet over, from each seat's estimated
    standing (a number per seat, higher is better): the mean over the other seats of a
    logistic in the difference, `scale` apart counting as about 73% to 27%. Equal
    standings get 0.5 each; a lone seat gets 1."""
    players = len(values)
    if players == 1:
        return [1.0]
    rewards = []
    for seat, value in enumerate(values):
        total = 0.0
        for other, against in enumerate(values):
            if other != seat:
                total += 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, (against - value) / scale))))
        rewards.append(total / (players - 1))
    return rewards


def random_policy(state: State, legal: list[Any], rng: random.Random) -> Any:
    return legal[rng.randrange(len(legal))]


def heuristic_policy(act: Guide) -> Policy:
    """A playout policy playing a heuristic's `act(observation, legal_actions)` for
    whoever is to move, from that seat's observation: playouts that look like real play."""

    def policy(state: State, legal: list[Any], rng: random.Random) -> Any:
        seat = state.to_move()
        if seat is None:  # no seat to ask: a world between turns
            return random_policy(state, legal, rng)
        return act(state.observation(seat), legal)

    return policy


class MoveBudget:
    """The seconds one move may search, from the match's limits and what it has used.

    The CPU limit is per match; a search bot counts its own CPU per match (its `act`
    calls only), so interleaved matches of a set never share one account."""

    def __init__(self, limits: dict[str, Any] | None = None, decisions_guess: float = 60) -> None:
        given = {**DEFAULT_LIMITS, **{k: v for k, v in (limits or {}).items() if v}}
        self.move_seconds = float(given["move_seconds"])
        self.cpu_seconds = float(given["cpu_seconds"])
        self.match_seconds = float(given["match_seconds"])
        self.cpu_used = 0.0
        self.wall_used = 0.0
        self.decisions_left = decisions_guess

    def seconds(self) -> float:
        per_move = self.move_seconds * MOVE_SHARE
        left = max(1.0, self.decisions_left)
        cpu_share = (self.cpu_seconds * MATCH_SHARE - self.cpu_used) / left
        wall_share = (self.match_seconds * MATCH_SHARE - self.wall_used) / left
        return max(MIN_SECONDS, min(per_move, cpu_share, wall_share))

    def charge(self, cpu: float, wall: float) -> None:
        self.cpu_used += cpu
        self.wall_used += wall


class _Node:
    __slots__ = ("children", "visits", "total", "available", "seat")

    def __init__(self, seat: int | None) -> None:
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.seat = seat  # who chose the action leading here


class InformationSetSearch:
    """One seat's search. `choose` takes the observation and returns one legal action."""

    def __init__(
        self,
        game: str,
        seat: int,
        *,
        options: dict[str, Any] | None = None,
        worlds: int = 16,
        exploration: float = 0.7,
        policy: Policy = random_policy,
        reward: Reward = rank_reward,
        guide: Guide | None = None,
        evaluate: Evaluate | None = None,
        playout_depth: int | None = None,
        guide_share: float = GUIDE_SHARE,
        tree_depth: int | None = None,
        horizon: Callable[[State], int] | None = None,
        horizon_span: int = 1,
        seed: Any = 0,
    ) -> None:
        self.game = game
        self.seat = seat
        self.options = options
        self.worlds = worlds
        self.exploration = exploration
        self.policy = policy
        self.reward = reward
        # A heuristic's choice from the observation: searched first and kept unless the
        # search finds better by a clear margin (progressive bias), so a search with too
        # little time to tell actions apart plays the heuristic's move, not noise.
        self.guide = guide
        self.guide_share = guide_share  # of the iterations: another action's visits needed
        self.guided: Any = None
        # A static evaluation of an unfinished world (a reward per seat, like `reward`'s):
        # with it a playout stops after `playout_depth` decisions with a choice and the
        # evaluation scores the world where it stopped.
        self.evaluate = evaluate
        self.playout_depth = playout_depth if evaluate is not None else None
        # How many decisions deep the tree grows (None: without a limit). At 1 only the
        # root's choices are searched and the policy plays every later decision: the
        # search then asks which first move, followed by the policy, does best (a rollout
        # improvement of the policy), and needs far fewer iterations to tell.
        self.tree_depth = tree_depth
        # A count that grows as the game goes on (turns, rounds): with it (and
        # `evaluate`) a playout stops once the count is `horizon_span` past its value at
        # the root, and the evaluation scores the world there, so playouts end at the
        # same point of the game whatever path they took.
        self.horizon = horizon if evaluate is not None else None
        self.horizon_span = horizon_span
        self.rng = random.Random(f"search:{seed}:{seat}")
        self.decisions_seen: list[int] = []  # this seat's decisions per playout, last move
        self.last_iterations = 0
        self.last_root: _Node | None = None

    def sample_worlds(
        self, observation: dict[str, Any], history: list[dict[str, Any]]
    ) -> list[State]:
        return [
            world_from_observation(
                self.game, observation, self.seat, self.rng, options=self.options, history=history
            )
            for _ in range(self.worlds)
        ]

    def choose(
        self,
        observation: dict[str, Any],
        legal_actions: list[Any],
        *,
        history: list[dict[str, Any]] | None = None,
        seconds: float | None = None,
        playouts: int | None = None,
    ) -> Any:
        """The most visited legal action after `playouts` iterations, or as many as
        `seconds` of CPU (and wall) time allow."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        started_cpu, started_wall = time.process_time(), time.perf_counter()
        worlds = self.sample_worlds(observation, history or [])
        self.guided = None
        if self.guide is not None:
            suggested = self.guide(observation, legal_actions)
            if suggested in legal_actions:
                self.guided = action_key(suggested)
        root = _Node(None)
        self.decisions_seen = []
        iterations = 0
        longest = last_cpu = 0.0
        while True:
            if playouts is not None:
                if iterations >= playouts:
                    break
            elif iterations:
                # Stop when one more iteration as long as the longest so far would overrun.
                cpu = time.process_time()
                longest = max(longest, cpu - last_cpu)
                last_cpu = cpu
                if cpu - started_cpu + longest >= (
                    seconds or 0
                ) or time.perf_counter() - started_wall >= 2 * (seconds or 0):
                    break
            else:
                last_cpu = time.process_time()
            self._iterate(root, worlds[iterations % len(worlds)].clone())
            iterations += 1
        self.last_iterations = iterations
        self.last_root = root  # the tree's statistics, for an author's look (and tests)
        keys = {action_key(a): a for a in legal_actions}
        margin = self.guide_share * iterations
        searched = [
            (
                child.visits + (margin if key == self.guided else 0),
                child.total / max(1, child.visits),
                key,
            )
            for key, child in root.children.items()
            if key in keys
        ]
        if not searched:
            # No world offered one of the real choices at the root (a world rebuilt a
            # step inexactly, and there was time for a single iteration): the guide's
            # choice, else the first. Said on stderr, where the author reads it.
            print(
                f"search: no sampled world offered these {len(keys)} choices after "
                f"{iterations} iteration(s); playing the guide's or the first",
                file=sys.stderr,
            )
            return keys[self.guided] if self.guided in keys else legal_actions[0]
        return keys[max(searched)[2]]

    def expected_decisions(self) -> float | None:
        """This seat's mean decisions (with a choice) left in the last move's playouts that
        reached the end (none when every playout was cut short)."""
        if not self.decisions_seen:
            return None
        return sum(self.decisions_seen) / len(self.decisions_seen)

    def _iterate(self, root: _Node, world: State) -> None:
        end = None if self.horizon is None else self.horizon(world) + self.horizon_span
        node = root
        path = [root]
        mine = 0
        expanded = False
        while not world.is_terminal():
            legal = world.legal_actions()
            mover = world.to_move()
            if len(legal) == 1:
                world.apply(legal[0])
                continue
            if mover == self.seat:
                mine += 1
            if expanded or (self.tree_depth is not None and len(path) > self.tree_depth):
                break
            keyed = [(action_key(a), a) for a in legal]
            children = node.children
            untried = [pair for pair in keyed if pair[0] not in children]
            for key, _ in keyed:
                child = children.get(key)
                if child is not None:
                    child.available += 1
            if untried:
                guided = [pair for pair in untried if pair[0] == self.guided and node is root]
                key, action = guided[0] if guided else untried[self.rng.randrange(len(untried))]
                child = children[key] = _Node(mover)
                child.available = 1
                expanded = True
            else:
                bias = self.guided if node is root else None
                key, action = max(
                    keyed, key=lambda pair: self._ucb(children[pair[0]], pair[0] == bias)
                )
                child = children[key]
            world.apply(action)
            node = child
            path.append(child)
        mine += self._play_out(world, end)
        if world.is_terminal():
            self.decisions_seen.append(mine)
            rewards = self.reward(world)
        elif self.evaluate is not None:
            rewards = self.evaluate(world)
        else:
            rewards = [0.5] * world.num_players
        for visited in path[1:]:
            visited.visits += 1
            if visited.seat is not None:
                visited.total += rewards[visited.seat]

    def _ucb(self, child: _Node, guided: bool = False) -> float:
        if child.visits == 0:
            return math.inf
        mean = child.total / child.visits
        explore = self.exploration * math.sqrt(math.log(max(1, child.available)) / child.visits)
        return mean + explore + (GUIDE_BIAS / (1 + child.visits) if guided else 0.0)

    def _play_out(self, world: State, end: int | None = None) -> int:
        """Play to the end (or the cap, or `playout_depth` decisions with a choice, or the
        horizon's `end`); this seat's decisions with a choice on the way."""
        mine = 0
        depth = self.playout_depth
        policy, rng, seat, horizon = self.policy, self.rng, self.seat, self.horizon
        for _ in range(MAX_PLAYOUT_DECISIONS):
            if world.is_terminal():
                break
            if horizon is not None and end is not None and horizon(world) >= end:
                break
            legal = world.legal_actions()
            if len(legal) == 1:
                world.apply(legal[0])
                continue
            if depth is not None:
                if depth <= 0:
                    break
                depth -= 1
            if world.to_move() == seat:
                mine += 1
            world.apply(policy(world, legal, rng))
        return mine


class SearchBot:
    """A bot class for the runner: one instance per match, IS-MCTS on every decision.

    Subclasses set `game`, and may set `policy`, `reward`, `guide` (a heuristic's
    `act(observation, legal_actions)` the search starts from; `guide_share`, the share of
    the iterations another action needs beyond it; `trust_guide(observation)`, true for
    the decisions left to the guide unsearched), `evaluate` with
    `playout_depth` (playouts cut short and scored by a static evaluation), `tree_depth`
    (how many decisions deep the tree grows; the policy plays below it), `worlds`,
    `exploration` and `playouts` (a fixed number of iterations a move, for reproducible
    play)."""

    game = ""
    policy: Policy = staticmethod(random_policy)
    reward: Reward = staticmethod(rank_reward)
    guide: Guide | None = None
    evaluate: Evaluate | None = None
    playout_depth: int | None = None
    tree_depth: int | None = None
    horizon: Callable[[State], int] | None = None
    horizon_span = 1
    guide_share = GUIDE_SHARE
    # Decisions the search leaves to the guide: when this says so of an observation, the
    # bot plays the guide's move without searching (for decisions whose payoff lies
    # beyond what the playouts see).
    trust_guide: Callable[[dict[str, Any]], bool] | None = None
    worlds = 16
    exploration = 0.7
    playouts: int | None = None
    decisions_guess = 60.0

    def __init__(self) -> None:
        self.history: list[dict[str, Any]] = []
        self.search: InformationSetSearch | None = None
        self.budget = MoveBudget(None, self.decisions_guess)

    def setup(self, info: dict[str, Any]) -> None:
        limits = info.get("limits") or {}
        self.budget = MoveBudget(limits, self.decisions_guess)
        self.search = InformationSetSearch(
            self.game,
            int(info.get("seat", 0)),
            options=info.get("options") or {},
            worlds=self.worlds,
            exploration=self.exploration,
            policy=self.policy,
            reward=self.reward,
            guide=self.guide,
            evaluate=self.evaluate,
            playout_depth=self.playout_depth,
            guide_share=self.guide_share,
            tree_depth=self.tree_depth,
            horizon=self.horizon,
            horizon_span=self.horizon_span,
            seed=f"{info.get('seed', 0)}:{info.get('match', 0)}",
        )

    def act(self, observation: Any, legal_actions: list[Any]) -> Any:
        if self.search is None:
            self.setup({})
        assert self.search is not None
        observation = dict(observation)
        if (
            self.guide is not None
            and self.trust_guide is not None
            and self.trust_guide(observation)
        ):
            self.history.append(observation)
            guided = self.guide(observation, legal_actions)
            if guided in legal_actions:
                return guided
            self.history.pop()
        started_cpu, started_wall = time.process_time(), time.perf_counter()
        try:
            action = self.search.choose(
                observation,
                legal_actions,
                history=self.history,
                seconds=self.budget.seconds(),
                playouts=self.playouts,
            )
        finally:
            self.history.append(observation)
            self.budget.charge(
                time.process_time() - started_cpu, time.perf_counter() - started_wall
            )
        expected = self.search.expected_decisions()
        if expected is not None:
            self.budget.decisions_left = expected
        else:  # playouts cut short: count down from the guess, keeping a reserve
            self.budget.decisions_left = max(MIN_DECISIONS_LEFT, self.budget.decisions_left - 1)
        return action
