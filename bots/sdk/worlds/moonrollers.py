"""Moonrollers: a full table consistent with one seat's observation.

Shown: the whole table and turn, the seat's own hazard tokens (and the two it is
choosing between), every seat's token count, the pile's and the deck's sizes.
Hidden, and drawn here: the kinds of other seats' tokens (until the game ends), the
tokens another seat drew, the pile's contents (all dealt uniformly from the tokens
the seat has not seen) and the crew deck (every crew not on the table, uniformly
ordered). A few turn flags the observation does not show are worked out from the
ones it does (see `_turn`).
"""

from __future__ import annotations

import random
from typing import Any

from engine.core.registry import get_game
from engine.games.moonrollers.abilities import REROLL_ANY
from engine.games.moonrollers.cards import (
    CREW,
    CREW_INDEX,
    FACE_INDEX,
    FACES,
    FACTION_INDEX,
    FACTIONS,
    HAZARD_BY_PRESTIGE,
    HAZARD_KINDS,
)
from engine.games.moonrollers.phases import (
    COMMIT,
    CREW_CHOICE,
    LOCK,
    PHASES,
    PLACE,
    RETURN,
    SELECT,
    START,
)
from engine.games.moonrollers.state import MoonrollersState


def world(
    observation: dict[str, Any],
    seat: int,
    rng: random.Random,
    *,
    options: dict[str, Any] | None = None,
    history: Any = None,
) -> MoonrollersState:
    """A Moonrollers state whose `observation(seat)` is `observation`; hidden parts from `rng`."""
    num_players = len(observation["players"])
    # The set-up's own draws are thrown away; the seed only has to come from `rng`.
    world = get_game("moonrollers").new_state(num_players, rng.getrandbits(64), options)
    assert isinstance(world, MoonrollersState)
    _table(world, observation)
    _turn(world, observation)
    _tokens(world, observation, seat, rng)
    _deck(world, observation, rng)
    world.over = observation["to_move"] is None
    world.end_reason = observation.get("end_reason", "")
    world.actions = []
    world._rig_dice = []
    world._rig_tokens = []
    world._legal_cache = None
    # Future dice and draws: never the referee's RNG, only `rng`.
    world.rng = random.Random(rng.getrandbits(64))
    return world


def _table(world: MoonrollersState, obs: dict[str, Any]) -> None:
    players = obs["players"]
    world.prestige = [p["prestige"] for p in players]
    world.stacks = [
        [[CREW_INDEX[c] for c in p["crew"].get(f, [])] for f in FACTIONS] for p in players
    ]
    world.abil = [{CREW[s[0]].id for s in stacks if s} for stacks in world.stacks]
    world.display = [CREW_INDEX[d["crew"]] for d in obs["display"]]
    world.marks = [
        [-1 if r["token"] is None else r["token"] for r in d["requirements"]]
        for d in obs["display"]
    ]
    assert all(
        CREW[c].faction == FACTION_INDEX[d["faction"]]
        for c, d in zip(world.display, obs["display"], strict=True)
    )
    world.supply = obs["supply"]


def _turn(world: MoonrollersState, obs: dict[str, Any]) -> None:
    turn = obs["turn"]
    world.cur = turn["player"]
    world.phase = PHASES.index(turn["phase"])
    world.slot = -1 if turn["crew"] is None else world.display.index(CREW_INDEX[turn["crew"]])
    world.req = -1 if turn["committed"] is None else turn["committed"]
    world.need = turn["need"]
    world.pool = [turn["pool"][f] for f in FACES]
    world.rolled = [turn["rolled"][f] for f in FACES]
    world.conv = turn["treated_as_extra"]
    world.saved = turn["saved_wild"]
    world.locked = turn["locked"]
    world.first = turn["first_roll"]
    world.progress = turn["locked_this_roll"]
    world.safe = turn["safe"]
    world.safe_next = turn["safe_next_roll"]
    world.avari = turn["avari_bonus"]
    world.used = set(turn["used_abilities"])
    world.placed = list(turn["completed_this_turn"])
    world.target = 0
    world.fresh = False
    if world.req >= 0:
        requirement = CREW[world.display[world.slot]].requirements[world.req]
        world.target = requirement.face
        # "Committed on this roll" is not shown. It is certain on the turn's first roll,
        # and impossible once this requirement took dice on an earlier roll; left open
        # only after a safe roll without a lock (rare): committed this roll is assumed.
        world.fresh = not world.progress and (world.first or world.need == requirement.count)
    # The "any amount" re-roll window closes at the first lock or other ability of the
    # roll; Kary Powalk (repeatable, so not in `used`) shows as an Extra Die too many.
    conversions = sum(name in world.used for name in ("ft_1000", "myla_dystra"))
    world.ropen = not (
        world.phase == START  # no roll yet this turn: the window opens with it
        or world.progress
        or any(name not in REROLL_ANY for name in world.used)
        or world.conv > conversions
    )
    world.sel = [0] * 6
    world.sel_cap = 0
    world.sel_exact = False
    world.sel_back = LOCK
    if world.phase == SELECT:
        world.sel = [turn["selected"][f] for f in FACES]
        world.sel_cap = turn["select_limit"]
        world.sel_exact = turn["select_exactly"]
        # A re-roll started before the crew was chosen, before committing (right after
        # a roll: nothing locked yet) or in the lock step (after a completion: progress).
        if world.slot < 0:
            world.sel_back = CREW_CHOICE
        elif world.req < 0 and not world.progress:
            world.sel_back = COMMIT
    world.hire = world.display[world.slot] if world.phase in (PLACE, RETURN) else -1
    assert set(turn["pool"]) == set(FACE_INDEX)


def _tokens(world: MoonrollersState, obs: dict[str, Any], seat: int, rng: random.Random) -> None:
    """Known tokens where they are; every token the seat has not seen dealt at random."""
    players = obs["players"]
    turn = obs["turn"]
    kinds = len(HAZARD_KINDS)
    unseen = [k.count for k in HAZARD_KINDS]
    world.hz = [[0] * kinds for _ in players]
    known = [seat] if obs["to_move"] is not None else range(len(players))
    for p in known:
        tokens = obs["my_hazard_tokens"] if p == seat else players[p]["hazard_kinds"]
        for value in tokens:
            world.hz[p][HAZARD_BY_PRESTIGE[value]] += 1
            unseen[HAZARD_BY_PRESTIGE[value]] -= 1
    world.drawn = []
    foreign_draw = turn["drawn_count"] if "drawn" not in turn else 0
    if "drawn" in turn:
        world.drawn = [HAZARD_BY_PRESTIGE[v] for v in turn["drawn"]]
        for kind in world.drawn:
            unseen[kind] -= 1
    pool = [kind for kind, count in enumerate(unseen) for _ in range(count)]
    rng.shuffle(pool)
    for p, player in enumerate(players):
        if p not in known:
            size = player["hazard_tokens"]
            take, pool = pool[:size], pool[size:]
            world.hz[p] = [take.count(k) for k in range(kinds)]
    world.drawn += pool[:foreign_draw]
    pool = pool[foreign_draw:]
    if len(pool) != obs["hazard_pile"]:
        raise ValueError("hazard tokens do not add up: not an observation of this game")
    world.pile = [pool.count(k) for k in range(kinds)]


def _deck(world: MoonrollersState, obs: dict[str, Any], rng: random.Random) -> None:
    """Every crew not on the table is in the deck, in an order the seat cannot know."""
    on_table = set(world.display)
    for stacks in world.stacks:
        for stack in stacks:
            on_table.update(stack)
    deck = [c.index for c in CREW if c.index not in on_table]
    if len(deck) != obs["deck_size"]:
        raise ValueError("crew do not add up: not an observation of this game")
    rng.shuffle(deck)
    world.deck = deck
