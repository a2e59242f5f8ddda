"""Moon-Bots reference heuristic: build a robot that fires often, then hit the weakest.

Reads only the observation (cards there describe themselves), standard library
only. The idea, decision by decision:

* buy: value each card as "expected damage and energy per turn it adds, over a
  few turns" minus its price, keep a safety margin of energy;
* assign: search every way to give the rolled dice to parts (at most 4 dice)
  and play the first step of the best plan; re-roll or adjust useless dice;
* split: concentrate hits where they kill or where no protection absorbs them;
* weapons: protections against big attacks, Rest on an opponent's turn, Energy
  Stock/Pump when energy is low, Stronger at once, Virus when it hurts others more.
"""

from __future__ import annotations

from functools import cache
from itertools import product

HORIZON = 6.0  # turns over which a bought card is expected to pay back
ENERGY_VALUE = 0.7  # one energy gained, in hits
SAFETY = 5  # never buy below this much energy left
WEAPON_VALUE = 1.8  # a face-down secret weapon, in energy
PLAN_WEIGHT = 0.7  # a part's worth with one more die, discounted
DIE_PROMISE = 1.0  # an extra die's worth beyond today's parts, while under 3 dice
LATE = 0.3  # share of the turn cap after which a game counts as stalling
LATE_WEAPON_BONUS = 2.0  # weapons' extra worth in a stalling game


# ----- probabilities ------------------------------------------------------------------


def _accepts(condition, values, a, b=None):
    if condition == "one":
        return b is None and a in values
    if b is None:
        return False
    if condition == "doubles":
        return a == b
    if condition == "total7":
        return a + b == 7
    if condition == "total_lt4":
        return a + b < 4
    return a + b > 10  # total_gt10


@cache
def chance(condition, values, dice):
    """Probability that `dice` fresh dice can activate this condition."""
    if dice <= 0:
        return 0.0
    hits = 0
    outcomes = list(product(range(1, 7), repeat=dice))
    for roll in outcomes:
        if condition == "one":
            ok = any(v in values for v in roll)
        else:
            ok = any(
                _accepts(condition, values, roll[i], roll[j])
                for i in range(dice)
                for j in range(i + 1, dice)
            )
        hits += ok
    return hits / len(outcomes)


def hit_type(card):
    return "fist" if card.get("fists") else "missile" if card.get("missiles") else None


def part_worth(card, robot, dice=None, shield=None):
    """Expected value per turn of a part (or board ability) on this robot.

    `shield`: the share of the robot's targets protected against each hit type
    (a protection stops one hit of every attack)."""
    dice = robot["dice"] if dice is None else dice
    p = chance(card["condition"], tuple(card["values"]), dice)
    hits = card.get("fists", 0) + card.get("missiles", 0)
    kind = hit_type(card)
    if kind and f"{kind}_bonus" in robot["upgrades"]:
        hits += 1
    if kind and shield:
        hits -= shield.get(kind, 0.0)
    energy = card.get("energy", 0)
    gain = ENERGY_VALUE * energy if energy > 0 else 1.0 * energy
    return p * (hits + gain)


def robot_worth(robot, dice=None, extra=None):
    dice = robot["dice"] if dice is None else dice
    cards = [c for c in robot["parts"].values() if c] + [robot["board_ability"]]
    if extra is not None:
        cards.append(extra)
    values = sorted((part_worth(c, robot, dice) for c in cards), reverse=True)
    # Each die fires at most one part: only the best few parts really count.
    return sum(values[: dice + 1])


# ----- the view -----------------------------------------------------------------------


class View:
    def __init__(self, obs):
        self.obs = obs
        self.robots = obs["robots"]
        self.mine = set(obs["my_robots"])
        self.decision = obs["decision"] or {}
        self.me = self.decision.get("robot", obs["active_robot"])

    @property
    def robot(self):
        return self.robots[self.me]

    def enemies(self):
        return [r for r in self.robots if r["alive"] and r["robot"] not in self.mine]

    def shields(self, robot):
        """Share of the robot's targets protected against fists and missiles."""
        targets = [self.robots[t] for t in robot["targets"]] or self.enemies()
        if not targets:
            return {}
        return {
            kind: sum(f"{kind}_protection" in t["upgrades"] for t in targets) / len(targets)
            for kind in ("fist", "missile")
        }

    def card_value(self, card, robot=None):
        """Worth of acquiring a market card for the robot (before its price)."""
        robot = robot or self.robot
        category = card.get("category")
        if category == "secret":
            # A long game is a stalemate in the making (protections absorbing single
            # hits, energy parts healing): weapons (Stronger, Virus, ...) break it.
            late = self.obs["turn"] > LATE * self.obs["turn_limit"]
            return WEAPON_VALUE + (LATE_WEAPON_BONUS if late else 0.0)
        if category == "part":
            if robot["parts"].get(card["slot"]) is not None:
                return -99.0
            shield = self.shields(robot)
            now = part_worth(card, robot, shield=shield)
            # Extra dice come: a two-dice part is worth buying before the second die.
            later = PLAN_WEIGHT * part_worth(card, robot, min(robot["dice"] + 1, 4), shield)
            return HORIZON * max(now, later)
        key = card["key"]
        if key == "extra_die":
            gain = HORIZON * (robot_worth(robot, robot["dice"] + 1) - robot_worth(robot))
            # A die also opens the two-dice parts still to come.
            return gain + 0.5 + (DIE_PROMISE if robot["dice"] < 3 else 0.0)
        if key == "reroll":
            return 0.25 * HORIZON * robot_worth(robot) + 0.3
        if key.endswith("_bonus"):
            kind = key.split("_")[0]
            cards = [c for c in robot["parts"].values() if c] + [robot["board_ability"]]
            rate = sum(
                chance(c["condition"], tuple(c["values"]), robot["dice"])
                for c in cards
                if hit_type(c) == kind
            )
            return HORIZON * rate + 0.3
        # protection: worth more the more attacks of that kind the enemies carry
        kind = key.split("_")[0]
        threat = 0.0
        for enemy in self.enemies():
            if self.me not in enemy["targets"]:
                continue
            for c in [c for c in enemy["parts"].values() if c] + [enemy["board_ability"]]:
                if hit_type(c) == kind:
                    threat += chance(c["condition"], tuple(c["values"]), enemy["dice"])
        return HORIZON * 0.6 * threat + 0.6


# ----- decisions ----------------------------------------------------------------------


def choose_buy(view, legal):
    robot = view.robot
    energy = robot["energy"]
    market = view.obs["market"]
    best, best_net = None, 0.4
    for action in legal:
        if isinstance(action, list) and action[0] == "buy":
            card = market[action[1]]
            cost = card["cost"]
            if cost and energy - cost < SAFETY:
                continue
            net = view.card_value(card) - cost * (1.6 if energy < 10 else 1.0)
            if net > best_net:
                best, best_net = action, net
    if best is None:
        # Nothing pays: still take a free card that fits, so the market moves on and
        # new cards come (a market nobody buys from never changes: stalled games).
        free = [
            a
            for a in legal
            if isinstance(a, list)
            and a[0] == "buy"
            and market[a[1]]["cost"] <= (2 if energy >= 14 else 1 if energy >= 10 else 0)
            and view.card_value(market[a[1]]) > -1
        ]
        if free:
            best = max(free, key=lambda a: view.card_value(market[a[1]]))
    weapons = {a[1]: a for a in legal if isinstance(a, list) and a[0] == "sw"}
    if "energy_stock" in weapons and energy <= 13:
        return weapons["energy_stock"]
    if "black_market" in weapons:
        top = max(
            (view.card_value(c) for c in market if c and c.get("category") != "secret"),
            default=0,
        )
        if top > 2.5:
            return weapons["black_market"]
    if "spare_part_search" in weapons and any(v is None for v in robot["parts"].values()):
        return weapons["spare_part_search"]
    if "supermarket" in weapons and best is not None and view.obs["buys_left"] == 1:
        return weapons["supermarket"]
    if "computer_virus" in weapons and virus_pays(view):
        return weapons["computer_virus"]
    return best if best is not None else "roll"


def virus_pays(view):
    mine = others = 0
    for r in view.robots:
        if not r["alive"] or not r["targets"]:
            continue
        count = r["secret_weapon_count"]
        if r["robot"] in view.mine:
            count -= 1 if r["robot"] == view.me else 0  # the Virus itself no longer counts
            if count >= r["energy"]:
                return False
            mine += count
        else:
            others += count
    return others >= mine + 2


def plan_value(view, moves, dice, used, parts_used, gained, energy, depth=0):
    """Best total value of the remaining activations (a small exhaustive search)."""
    best = 0.0
    robot = view.robot
    cards = dict(robot["parts"])
    cards["board"] = robot["board_ability"]
    for move in moves(dice, used, parts_used):
        _, slot, *idx = move
        card = cards[slot]
        value, new_gained, new_energy = activation_value(view, card, gained, energy)
        if new_energy <= 0:
            continue
        new_used = list(used)
        for i in idx:
            new_used[i] = True
        rest = plan_value(
            view, moves, dice, new_used, parts_used | {slot}, new_gained, new_energy, depth + 1
        )
        best = max(best, value + rest)
    return best


def activation_value(view, card, gained, energy):
    hits = card.get("fists", 0) + card.get("missiles", 0)
    kind = hit_type(card)
    value = 0.0
    if hits:
        hits += 1 if f"{kind}_bonus" in view.robot["upgrades"] else 0
        targets = [view.robots[t] for t in view.robot["targets"]]
        best = 0.0
        for t in targets:
            eff = hits - (1 if f"{kind}_protection" in t["upgrades"] else 0)
            eff = max(eff, 0)
            kill = 4.0 if eff >= t["energy"] else 0.0
            best = max(best, min(eff, t["energy"]) + kill)
        value += best
    e = card.get("energy", 0)
    if e > 0:
        gain = max(0, min(e, 2 - gained, 18 - energy))
        value += ENERGY_VALUE * gain * (1.5 if energy < 8 else 1.0)
        gained += gain
        energy += gain
    elif e < 0:
        value += 1.2 * e
        energy += e
    return value, gained, energy


def possible_uses(robot):
    cards = dict(robot["parts"])
    cards["board"] = robot["board_ability"]

    def moves(dice, used, parts_used):
        free = [i for i in range(len(dice)) if not used[i]]
        out = []
        for slot, card in cards.items():
            if card is None or slot in parts_used:
                continue
            values = tuple(card["values"])
            if card["dice"] == 1:
                seen = set()
                for i in free:
                    if dice[i] in values and dice[i] not in seen:
                        seen.add(dice[i])
                        out.append(["use", slot, i])
            else:
                seen = set()
                for a, i in enumerate(free):
                    for j in free[a + 1 :]:
                        pair = tuple(sorted((dice[i], dice[j])))
                        if pair not in seen and _accepts(card["condition"], values, *pair):
                            seen.add(pair)
                            out.append(["use", slot, i, j])
        return out

    return moves


def choose_assign(view, legal):
    obs = view.obs
    robot = view.robot
    weapons = {}
    for a in legal:
        if isinstance(a, list) and a[0] == "sw":
            weapons.setdefault(a[1], []).append(a)
    if "stronger" in weapons:
        return min(weapons["stronger"], key=lambda a: view.robots[a[2]]["energy"])
    if "energy_stock" in weapons and robot["energy"] <= 12:
        return weapons["energy_stock"][0]
    if "computer_virus" in weapons and virus_pays(view):
        return weapons["computer_virus"][0]
    dice, used = obs["dice"], obs["dice_used"]
    parts_used = set(obs["parts_used"])
    gained, energy = obs["energy_gained_this_turn"], robot["energy"]
    moves = possible_uses(robot)
    cards = dict(robot["parts"])
    cards["board"] = robot["board_ability"]
    best, best_value = None, 0.05
    for action in legal:
        if not (isinstance(action, list) and action[0] == "use"):
            continue
        _, slot, *idx = action
        value, g2, e2 = activation_value(view, cards[slot], gained, energy)
        if e2 <= 0:
            continue
        new_used = list(used)
        for i in idx:
            new_used[i] = True
        value += plan_value(view, moves, dice, new_used, parts_used | {slot}, g2, e2)
        if value > best_value:
            best, best_value = action, value
    if best is not None:
        return best
    rerolls = [a for a in legal if isinstance(a, list) and a[0] == "reroll"]
    if rerolls:
        return max(rerolls, key=len)
    if "adjustment" in weapons:
        for action in weapons["adjustment"]:
            adjusted = list(dice)
            adjusted[action[2]] += action[3]
            if plan_value(view, moves, adjusted, used, parts_used, gained, energy) > 0.9:
                return action
    return "done"


def choose_split(view, legal):
    d = view.decision
    kind = d["type"]

    def score(action):
        total = 0.0
        for target, n in ((d["left"], action[1]), (d["right"], action[2])):
            t = view.robots[target]
            eff = max(0, n - (1 if n and f"{kind}_protection" in t["upgrades"] else 0))
            total += min(eff, t["energy"]) + (5.0 if eff >= t["energy"] else 0.0)
            total += 0.01 * n * (18 - t["energy"])  # lean on the weaker robot
        return total

    return max(legal, key=score)


def choose_defence(view, legal):
    d = view.decision
    hits, energy = d["hits"], view.robot["energy"]
    options = {a[1]: a for a in legal if isinstance(a, list) and a[0] == "sw"}
    lethal = hits >= energy
    if (hits >= 2 or lethal) and "dodge" in options:
        return options["dodge"]
    if hits >= 2 and "shock_absorber" in options:
        return options["shock_absorber"]
    deflects = [a for a in legal if isinstance(a, list) and a[1] == "deflection"]
    if hits >= 2 and deflects:
        enemies = [a for a in deflects if a[2] not in view.mine]
        if enemies:
            return min(enemies, key=lambda a: view.robots[a[2]]["energy"])
    if lethal and "energy_stock" in options:
        return options["energy_stock"]
    if lethal and "dodge" in options:
        return options["dodge"]
    return "pass"


def choose_window(view, legal):
    options = {a[1]: a for a in legal if isinstance(a, list) and a[0] == "sw"}
    energy = view.robot["energy"]
    if "energy_pump" in options and energy < 18:
        return options["energy_pump"]
    if "rest" in options:
        active = view.robots[view.decision.get("active", view.obs["active_robot"])]
        if active["robot"] not in view.mine and view.me in active["targets"]:
            return options["rest"]
    if "energy_stock" in options and energy <= 13:
        return options["energy_stock"]
    if "computer_virus" in options and virus_pays(view):
        return options["computer_virus"]
    return "pass"


def choose_card(view, legal):
    """Black Market (any card, free) or Spare Part Search (a part from the pile)."""
    if legal[0][0] == "take":
        market = view.obs["market"]
        return max(legal, key=lambda a: view.card_value(market[a[1]]))
    views = {c["key"]: c for c in view.obs.get("search_choices") or []}
    return max(legal, key=lambda a: view.card_value(views[a[1]]) if a[1] in views else 0.0)


def act(observation, legal_actions):
    if len(legal_actions) == 1:
        return legal_actions[0]
    view = View(observation)
    kind = view.decision.get("kind")
    try:
        if kind == "buy":
            choice = choose_buy(view, legal_actions)
        elif kind == "assign":
            choice = choose_assign(view, legal_actions)
        elif kind == "split":
            choice = choose_split(view, legal_actions)
        elif kind == "defend":
            choice = choose_defence(view, legal_actions)
        elif kind in ("start_of_turn", "after_roll", "energy_pump"):
            choice = choose_window(view, legal_actions)
        else:
            choice = choose_card(view, legal_actions)
    except (KeyError, IndexError, TypeError, ValueError):
        choice = None
    return choice if choice in legal_actions else legal_actions[0]
