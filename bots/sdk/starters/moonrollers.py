"""A Moonrollers starter bot: hire crew by locking the dice you already rolled.

Standard library only. `act(observation, legal_actions)` is called each time it is your
seat's decision; it must return one element of `legal_actions`, unchanged. The game's
page in the guide shows a real observation with every field explained.

The plan, phase by phase (`observation["turn"]["phase"]`):
- crew / commit: take the requirement the current dice fill the most of;
- lock: lock as many dice as one action allows;
- roll or stop: stop once a requirement was completed this turn and busting is likely;
- hazard: keep the token worth most, unless it adds symbols and we already hold many;
- anything else (abilities, placing crew): the first legal action.
"""

# Symbols on a hazard token, by its prestige (1: none, 2: one, 5: two).
SYMBOLS = {1: 0, 2: 1, 5: 2}


def act(observation, legal_actions):
    if len(legal_actions) == 1:
        return legal_actions[0]
    turn = observation["turn"]  # this turn: whose it is, the phase, the dice
    phase = turn["phase"]
    if phase == "crew":
        choice = choose_crew(observation, legal_actions)
    elif phase == "commit":
        card = find_crew(observation, turn["crew"])
        choice = ["commit", best_requirement(card, turn["pool"])[0]]
    elif phase == "lock":
        choice = choose_lock(observation, legal_actions)
    elif phase == "hazard":
        choice = choose_hazard(observation, legal_actions)
    else:
        choice = None
    # Whatever we computed, only ever answer with a legal action.
    return choice if choice in legal_actions else legal_actions[0]


def find_crew(observation, crew_id):
    """The display card of a crew: {"crew", "faction", "requirements": [...]}."""
    for card in observation["display"]:
        if card["crew"] == crew_id:
            return card
    return None


def lockable(pool, face):
    """How many dice of the rolling pool fit a requirement of `face` (Wilds fit all)."""
    # pool is a count per face: {"damage": 1, "shield": 0, ..., "wild": 2, "extra": 0}
    return pool["wild"] if face == "wild" else pool[face] + pool["wild"]


def best_requirement(card, pool):
    """(index, score) of the card's free requirement the pool fills best."""
    best, best_score = None, -1.0
    for index, requirement in enumerate(card["requirements"]):
        if requirement["token"] is not None:  # a marker on it: already done
            continue
        have = min(lockable(pool, requirement["face"]), requirement["count"])
        # Share of the requirement filled now; a whole one counts double.
        score = have / requirement["count"] * (2 if have == requirement["count"] else 1)
        if score > best_score:
            best, best_score = index, score
    return best, best_score


def choose_crew(observation, legal_actions):
    pool = observation["turn"]["pool"]
    best, best_score = None, -2.0
    for action in legal_actions:
        if isinstance(action, list) and action[0] == "crew":  # ["crew", crew_id]
            _, score = best_requirement(find_crew(observation, action[1]), pool)
            if score > best_score:
                best, best_score = action, score
    return best


def choose_lock(observation, legal_actions):
    turn = observation["turn"]
    # ["lock", face, n] or ["lock", face, n, ability]: lock the most dice at once.
    locks = [a for a in legal_actions if isinstance(a, list) and a[0] == "lock"]
    if locks:
        return max(locks, key=lambda action: action[2])
    if "roll" in legal_actions and "stop" in legal_actions:
        if not turn["completed_this_turn"]:
            return "roll"  # nothing to lose yet
        # Dice left to roll; each misses with about 4 chances in 6 (target face or Wild).
        dice = sum(turn["pool"].values())
        bust_chance = (4 / 6) ** dice
        return "roll" if bust_chance < 0.25 else "stop"
    for action in ("stop", "roll", "bust"):
        if action in legal_actions:
            return action
    return None


def choose_hazard(observation, legal_actions):
    # My own tokens are listed by prestige; others' only as a count.
    mine = sum(SYMBOLS[p] for p in observation["my_hazard_tokens"])
    others = [
        player["hazard_tokens"]
        for seat, player in enumerate(observation["players"])
        if seat != observation["seat"]
    ]
    # ["keep", prestige]: while we hold few symbols, keep the richest token.
    if mine + 2 <= max(others, default=0):
        return max(legal_actions, key=lambda action: action[1])
    return min(legal_actions, key=lambda action: SYMBOLS[action[1]])
