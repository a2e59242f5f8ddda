"""Moon-Bots: a full table consistent with one seat's observation.

Shown: every robot (energy, parts, upgrades, how many weapons it holds), the face-up
market, the weapons played, the pile's size and the back of its top card, the turn
and the pending decision; the seat's own weapons; while the seat searches the pile,
every card in it. Hidden, and drawn here: which weapons are where among the places
the seat cannot see (the 5 removed at set-up, the face-down discards, face-down
market cards, other players' hands, the pile) - dealt uniformly from the weapons it
has not seen - and the pile's order below a top card of the shown back. Parts and
upgrades in the pile are known by elimination.

Not shown, so rebuilt as far as the observation allows (see `_agenda`): the steps
still queued behind the current decision.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core.registry import get_game
from engine.games.moon_bots.cards import BOARDS, CARDS, IS_SECRET, KEY, SECRET, SLOTS
from engine.games.moon_bots.robots import HIT_TYPES, Robot
from engine.games.moon_bots.rules import (
    A_ASK_PUMP,
    A_ASK_ROLL,
    A_ASK_START,
    A_ENERGY,
    A_HIT,
    ABILITY,
    ACTIVATORS,
    D_DEFEND,
    D_PUMP,
    D_ROLL,
    D_SPLIT,
    D_START,
    DUEL_PARTNER,
    PH_ASSIGN,
    PH_BUY,
    PH_END,
)
from engine.games.moon_bots.state import MoonBotsState
from engine.games.moon_bots.views import PHASE_NAMES

_DECISIONS = {"start_of_turn": D_START, "after_roll": D_ROLL, "energy_pump": D_PUMP}


def world(
    observation: dict[str, Any],
    seat: int,
    rng: random.Random,
    *,
    options: dict[str, Any] | None = None,
    history: Any = None,
) -> MoonBotsState:
    """A Moon-Bots state whose `observation(seat)` is `observation`; hidden parts from `rng`."""
    robots_seen = observation["robots"]
    num_players = 2 if observation["two_player"] else len(robots_seen)
    rounds = observation["turn_limit"] // len(robots_seen)
    world = get_game("moon_bots").new_state(
        num_players, rng.getrandbits(64), {**(options or {}), "max_rounds": rounds}
    )
    assert isinstance(world, MoonBotsState)
    cards = _CardPool(num_players)
    world.removed_marked = [c.id for c in CARDS if num_players == 3 and c.three_player]
    world.robots = [_robot(view, seat, cards) for view in robots_seen]
    world.market = [
        -2 if cell is None else -3 if cell["category"] == SECRET else cards.take(cell["key"])
        for cell in observation["market"]
    ]
    world.used = [cards.take(key) for key in observation["used_secret_weapons"]]
    world.searches = [
        (seat, tuple(next(c.id for c in CARDS if c.key == key) for key in seen))
        for seen in observation["pile_weapons_seen"]
    ]
    _deal_hidden(world, observation, seat, cards, rng)
    _turn(world, observation)
    world.actions = []
    world._legal_cache = None
    world._assign_cache = None
    # Future dice and draws: never the referee's RNG, only `rng`.
    world.rng = random.Random(rng.getrandbits(64))
    return world


class _CardPool:
    """The cards of this table by key, handed out as the observation places them."""

    def __init__(self, num_players: int) -> None:
        self.free: dict[str, list[int]] = {}
        for card in CARDS:
            if not (num_players == 3 and card.three_player):
                self.free.setdefault(card.key, []).append(card.id)

    def take(self, key: str) -> int:
        if not self.free.get(key):
            raise ValueError(f"more {key!r} cards than the game has")
        return self.free[key].pop()

    def rest(self, secret: bool) -> list[int]:
        return sorted(c for ids in self.free.values() for c in ids if IS_SECRET[c] == secret)


def _robot(view: dict[str, Any], seat: int, cards: _CardPool) -> Robot:
    robot = Robot(view["owner"], view["board"], view["energy"])
    for slot in SLOTS:
        part = view["parts"][slot]
        if part is not None:
            robot.install(cards.take(part["key"]))
    for key in view["upgrades"]:
        robot.install(cards.take(key))
    if view["secret_weapons"] is not None:
        robot.secrets = [cards.take(key) for key in view["secret_weapons"]]
    robot.alive = view["alive"]
    robot.out_event = view["eliminated_event"]
    return robot


def _deal_hidden(
    world: MoonBotsState,
    obs: dict[str, Any],
    seat: int,
    cards: _CardPool,
    rng: random.Random,
) -> None:
    """Place every weapon the seat has not seen at random; build the pile."""
    abilities = cards.rest(secret=False)  # parts and upgrades off the table: all in the pile
    unseen = cards.rest(secret=True)
    deck_size = obs["deck_size"]
    pile_weapons = deck_size - len(abilities)
    if pile_weapons < 0:
        raise ValueError("the pile is smaller than the cards it must hold")
    known_pile: list[int] = []
    if obs["search_pile"] is not None:
        # Searching: the seat is looking through the whole pile.
        for key in obs["search_pile"]:
            if IS_SECRET[next(c.id for c in CARDS if c.key == key)]:
                card = next(c for c in unseen if KEY[c] == key)
                unseen.remove(card)
                known_pile.append(card)
    rng.shuffle(unseen)

    def deal(count: int) -> list[int]:
        nonlocal unseen
        if count > len(unseen):
            raise ValueError("more hidden weapons than the game has")
        dealt, unseen = unseen[:count], unseen[count:]
        return dealt

    world.removed_unseen = deal(obs["removed_unseen"])
    world.facedown_discard = deal(obs["face_down_discards"])
    world.market = [deal(1)[0] if c == -3 else -1 if c == -2 else c for c in world.market]
    for robot in world.robots:
        if robot.owner != seat:
            robot.secrets = deal(obs["robots"][world.robots.index(robot)]["secret_weapon_count"])
    pile = abilities + known_pile + deal(pile_weapons - len(known_pile))
    if unseen:
        raise ValueError("weapons left over: not an observation of this game")
    rng.shuffle(pile)
    if pile:
        # Everyone sees the back of the pile's top card: put a card with that back there.
        top_is_secret = obs["deck_top"] == "secret"
        index = next(i for i in range(len(pile) - 1, -1, -1) if IS_SECRET[pile[i]] == top_is_secret)
        pile[index], pile[-1] = pile[-1], pile[index]
    world.deck = pile


def _turn(world: MoonBotsState, obs: dict[str, Any]) -> None:
    world.over = obs["to_move"] is None
    world.active = obs["active_robot"]
    world.dice = obs["dice"][:]
    world.dice_used = obs["dice_used"][:]
    world.parts_used = [name in obs["parts_used"] for name in ACTIVATORS]
    world.gained = obs["energy_gained_this_turn"]
    world.buys_left = obs["buys_left"]
    world.rerolled = obs["rerolled"]
    world.skipped = obs["rested"]
    world.eliminated = obs["eliminated_robots"][:]
    world.event = max([rb.out_event for rb in world.robots] + [0])
    last_roll = obs["last_roll"]
    world.last_roll = None if last_roll is None else (last_roll["robot"], last_roll["dice"][:])
    attack = obs["last_attack"]
    world.last_attack = (
        None
        if attack is None
        else (attack["attacker"], HIT_TYPES.index(attack["type"]), tuple(attack["targets"]))
    )
    world._compute_targets()
    owners_alive = {rb.owner for rb in world.robots if rb.alive}
    world.capped = world.over and len(owners_alive) > 1
    world.turns = world.turn_limit + 1 if world.capped else obs["turn"]
    targets = world.targets[world.active]
    world.turn_opponent = -1
    if world.two_player:
        world.turn_opponent = targets[0] if targets else DUEL_PARTNER[world.active]
    world.decision = None
    world.agenda = []
    decision = obs["decision"]
    world.phase = PH_ASSIGN if world.dice else PH_BUY
    if world.skipped:
        world.phase = PH_END
    if decision is None:
        return
    kind = decision["kind"]
    if kind in PHASE_NAMES:
        world.phase = PHASE_NAMES.index(kind)
        return
    robot = decision["robot"]
    if kind == "split":
        hit_type = HIT_TYPES.index(decision["type"])
        world.decision = (
            D_SPLIT,
            robot,
            hit_type,
            decision["hits"],
            decision["left"],
            decision["right"],
        )
    elif kind == "defend":
        hit_type = HIT_TYPES.index(decision["type"])
        world.decision = (D_DEFEND, robot, decision["attacker"], hit_type, decision["hits"])
    elif kind == "energy_pump":
        world.decision = (D_PUMP, robot, decision["gainer"])
    else:
        world.decision = (_DECISIONS[kind], robot)
    world.agenda = _agenda(world)


def _agenda(world: MoonBotsState) -> list[tuple[Any, ...]]:
    """The steps queued behind the current decision, as far as the observation shows them.

    Shown: which window is open and for whom, so the windows still to come for the other
    robots (in turn order) are queued again. Not shown, and so left out: the window an
    Energy Stock or Virus interrupted (the player's turn at it resumes after the pumps),
    and the split of an attack's hits when the seat did not split it. The part's energy
    after its attack is queued when the used parts leave a single candidate.
    """
    d = world.decision
    assert d is not None
    kind, robot = d[0], d[1]
    active = world.active
    order = world._order_after(active)
    if kind in (D_START, D_ROLL):
        owner = world.robots[active].owner
        later = order[order.index(robot) + 1 :]
        item = A_ASK_START if kind == D_START else A_ASK_ROLL
        return [
            (item, x)
            for x in reversed(later)
            if world.robots[x].owner != owner and world._can_react(x)
        ]
    if kind == D_PUMP:
        gainer = d[2]
        owner = world.robots[gainer].owner
        turn = (*order, active)
        later = turn[turn.index(robot) + 1 :]
        return [
            (A_ASK_PUMP, x, gainer)
            for x in reversed(later)
            if world.robots[x].owner != owner and world._can_react(x)
        ]
    agenda: list[tuple[Any, ...]] = []
    attacker = robot if kind == D_SPLIT else d[2]
    if attacker != active:
        return agenda  # a deflection: what the first attack left queued is not shown
    energy = _energy_after_attack(world, d[3 if kind == D_DEFEND else 2])
    if energy:
        agenda.append((A_ENERGY, active, energy))
    attack = world.last_attack
    if kind == D_DEFEND and attack is not None and len(attack[2]) == 2 and attack[2][0] == robot:
        # The left target defends first; the right one's hits wait below.
        total = _attack_hits(world, d[3])
        if total is not None:
            left = d[4] + world.robots[robot].protection[d[3]]
            if total > left:
                agenda.append((A_HIT, active, attack[2][1], d[3], total - left, True))
    return agenda


def _candidates(world: MoonBotsState, hit_type: int) -> list[Any]:
    robot = world.robots[world.active]
    found = []
    for s, used in enumerate(world.parts_used):
        if not used:
            continue
        ability = ABILITY[robot.parts[s]] if s < len(SLOTS) else BOARDS[robot.board]
        if (ability.fists, ability.missiles)[hit_type]:
            found.append(ability)
    return found


def _energy_after_attack(world: MoonBotsState, hit_type: int) -> int:
    energies = {a.energy for a in _candidates(world, hit_type)}
    return energies.pop() if len(energies) == 1 else 0


def _attack_hits(world: MoonBotsState, hit_type: int) -> int | None:
    bonus = world.robots[world.active].bonus[hit_type]
    hits = {(a.fists, a.missiles)[hit_type] + bonus for a in _candidates(world, hit_type)}
    return hits.pop() if len(hits) == 1 else None
