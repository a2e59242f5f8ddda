"""A Moon-Bots starter bot: buy parts that hit, fire everything, finish the weakest.

Standard library only. `act(observation, legal_actions)` is called each time it is your
seat's decision; it must return one element of `legal_actions`, unchanged. The game's
page in the guide shows a real observation with every field explained.

`observation["decision"]["kind"]` says what is being decided:
- buy: the market card that adds the most hits per turn for its price, else roll;
- assign: give dice to the part that hits hardest (never one that would kill us);
- split: put the hits on the robot they eliminate, or else the weakest one;
- defend and the other windows: dodge a big hit if we can, otherwise pass.
"""

KEEP_ENERGY = 6  # never spend energy below this: energy is also our life


def act(observation, legal_actions):
    if len(legal_actions) == 1:
        return legal_actions[0]
    decision = observation["decision"] or {}  # {"kind": "buy", "robot": 3, ...}
    kind = decision.get("kind")
    # The robot deciding: in a two-player game each seat has two (observation["my_robots"]).
    me = observation["robots"][decision.get("robot", observation["active_robot"])]
    if kind == "buy":
        choice = choose_buy(observation, me, legal_actions)
    elif kind == "assign":
        choice = choose_assign(observation, me, legal_actions)
    elif kind == "split":
        choice = choose_split(observation, decision, legal_actions)
    elif kind == "defend" and decision.get("hits", 0) >= 2:
        choice = ["sw", "dodge"]  # a secret weapon play, if we hold one
    else:
        choice = "pass"
    return choice if choice in legal_actions else legal_actions[0]


def chance(card, dice):
    """Rough probability that `dice` dice activate a part (its condition and values)."""
    if dice < card["dice"]:  # a two-dice part needs two dice
        return 0.0
    if card["condition"] == "one":  # one die showing any of card["values"]
        return 1 - (1 - len(card["values"]) / 6) ** dice
    return 0.2 * (dice - 1)  # pairs (doubles, total 7, ...): roughly one in five


def hits(card):
    return card.get("fists", 0) + card.get("missiles", 0)


def choose_buy(observation, me, legal_actions):
    # Six market slots (None when empty); each card describes itself, with its "cost".
    market = observation["market"]
    best, best_value = "roll", 0.5
    for action in legal_actions:
        if not (isinstance(action, list) and action[0] == "buy"):
            continue
        card = market[action[1]]  # ["buy", slot]
        if card["cost"] and me["energy"] - card["cost"] < KEEP_ENERGY:
            continue
        # Only cards that fit are offered: a part's body slot on the robot is free.
        if card["category"] == "part":
            per_turn = hits(card) + 0.5 * card["energy"]
            value = 5 * chance(card, max(me["dice"], card["dice"])) * per_turn
        elif card["category"] == "upgrade" and card["key"] == "extra_die":
            value = 3.0  # more dice fire more parts
        else:
            value = 0.0  # other upgrades and secret weapons: left for you to value
        if value - card["cost"] > best_value:
            best, best_value = action, value - card["cost"]
    return best


def choose_assign(observation, me, legal_actions):
    parts = dict(me["parts"], board=me["board_ability"])  # "board": the built-in ability
    best, best_value = "done", 0.0
    for action in legal_actions:
        if not (isinstance(action, list) and action[0] == "use"):
            continue
        card = parts[action[1]]  # ["use", part, die] or ["use", part, die, die]
        if me["energy"] + card["energy"] <= 0:  # a part that costs energy could kill us
            continue
        value = hits(card) + 0.5 * max(card["energy"], 0) - 0.1 * len(action)
        if value > best_value:
            best, best_value = action, value
    return best


def choose_split(observation, decision, legal_actions):
    # ["split", to_left, to_right]: the attack's hits between decision["left"] and ["right"].
    left = observation["robots"][decision["left"]]["energy"]
    right = observation["robots"][decision["right"]]["energy"]

    def damage(action):
        _, to_left, to_right = action
        kills = (to_left >= left) + (to_right >= right)
        # Prefer kills, then hits on the weaker robot.
        return kills, to_left if left <= right else to_right

    return max(legal_actions, key=damage)
