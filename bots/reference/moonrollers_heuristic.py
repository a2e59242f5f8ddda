"""A Moonrollers heuristic bot: greedy dice locking with a bust-odds stopping rule.

Standard library only; it reads nothing but the observation and the legal actions.

- crew / commit: the requirement it can lock the most of right now, preferring
  ones it can finish this roll and the last open requirement of a crew (hiring);
- lock: always the lock that counts most toward the committed requirement;
- abilities: uses the ones that only add (extra dice, safety, B3-Ar ...), turns
  dice that cannot be locked into Extra Dice, re-rolls useless dice;
- roll or stop: keeps rolling while the chance to bust is low for what it would
  lose (the requirements completed this turn);
- hazards: keeps the richest token unless that would likely make it the player
  with the most hazard symbols (2 players: 3 more than the opponent).
"""

from __future__ import annotations

FACES = ("damage", "shield", "thruster", "reactor", "wild", "extra")
AVG_SYMBOLS_PER_TOKEN = 35 / 45  # A-1 pile: 20 x 0, 15 x 1, 10 x 2 symbols
SYMBOLS = {1: 0, 2: 1, 5: 2}

# Abilities that can only help when offered.
ALWAYS_USE = {
    "kal_damar",
    "namari",
    "ryan_rogal",
    "saghari",
    "avari",
    "at_0k",
    "moro_mada",
    "b3_ar",
}
# How much a crew's ability is worth on top of its faction stack (default 2).
ABILITY_RANK = {
    "kal_damar": 6,
    "at_0k": 5,
    "moro_mada": 4,
    "salatar": 4,
    "ryan_rogal": 4,
    "lila_al_bindar": 4,
    "b3_ar": 4,
    "vanta_sae": 4,
    "meg_gallak": 3,
    "saghari": 3,
    "vila_noir": 3,
    "namari": 3,
}


def act(observation, legal_actions):
    if len(legal_actions) == 1:
        return legal_actions[0]
    phase = observation["turn"]["phase"]
    handler = {
        "start": _start,
        "crew": _crew,
        "commit": _commit,
        "lock": _lock_phase,
        "select": _select,
        "hazard": _hazard,
        "place": _place,
        "return": _return,
        "namari": _namari,
    }.get(phase)
    choice = handler(observation, legal_actions) if handler else None
    return choice if choice in legal_actions else legal_actions[0]


# ----- reading the observation ----------------------------------------------------------


def _pool(obs):
    return obs["turn"]["pool"]


def _crew_card(obs, crew_id):
    for card in obs["display"]:
        if card["crew"] == crew_id:
            return card
    return None


def _lockable(pool, face):
    """Dice of the pool that fit a requirement of `face` without any ability."""
    if face == "wild":
        return pool["wild"]
    return pool[face] + pool["wild"]


def _requirement_score(card, index, pool):
    reqs = card["requirements"]
    req = reqs[index]
    have = min(_lockable(pool, req["face"]), req["count"])
    if have == 0:
        return -1.0
    value = req["count"] * (2 if req["x2"] else 1)
    open_reqs = sum(1 for r in reqs if r["token"] is None)
    if have >= req["count"]:
        score = 2.0 * value + (6.0 if open_reqs == 1 else 0.0)
    else:
        score = value * have / req["count"]
    if req["hazard"]:
        score += 1.0
    return score


def _best_requirement(obs, card):
    pool = _pool(obs)
    best, best_score = None, -2.0
    for index, req in enumerate(card["requirements"]):
        if req["token"] is None:
            score = _requirement_score(card, index, pool)
            if score > best_score:
                best, best_score = index, score
    return best, best_score


# ----- phases --------------------------------------------------------------------------


def _start(obs, legal):
    return ["use", "kal_damar"]


def _crew(obs, legal):
    # Dice from the supply only add to the pool: take them before choosing (E-moonrollers-10).
    for name in ("ryan_rogal", "saghari"):
        if ["use", name] in legal:
            return ["use", name]
    best, best_score = None, -2.0
    for action in legal:
        if action[0] != "crew":
            continue
        _, score = _best_requirement(obs, _crew_card(obs, action[1]))
        if score > best_score:
            best, best_score = action, score
    if best_score <= 0 and ["use", "salatar"] in legal:
        return ["use", "salatar"]
    return best


def _commit(obs, legal):
    card = _crew_card(obs, obs["turn"]["crew"])
    index, _ = _best_requirement(obs, card)
    return ["commit", index]


def _target(obs):
    turn = obs["turn"]
    if turn["committed"] is None:
        return None
    return _crew_card(obs, turn["crew"])["requirements"][turn["committed"]]["face"]


def _lock_phase(obs, legal):
    turn = obs["turn"]
    target = _target(obs)
    pool = _pool(obs)
    # Re-roll abilities come first: re-roll the dice that cannot help.
    useless = [f for f in FACES[:4] if f != target and pool[f]]
    for name in ("lila_al_bindar", "vila_noir"):
        if ["use", name] in legal and target is not None and useless:
            return ["use", name]
    locks = [a for a in legal if isinstance(a, list) and a[0] == "lock"]
    if locks:
        return max(locks, key=lambda a: (a[2] * (2 if _doubles(a) else 1), -len(a)))
    for action in legal:
        if isinstance(action, list) and action[0] == "use" and action[1] in ALWAYS_USE:
            return action
    if ["use", "imdar_shade"] in legal and not _hazard_risky(obs, 2):
        return ["use", "imdar_shade"]
    for face in useless:
        if ["use", "myla_dystra", face] in legal:
            return ["use", "myla_dystra", face]
    if ["use", "kary_powalk"] in legal and target != "damage":
        return ["use", "kary_powalk"]
    if ["use", "meg_gallak"] in legal and turn["committed"] is None:
        return ["use", "meg_gallak"]
    if ["use", "ft_1000"] in legal and turn["committed"] is None:
        return ["use", "ft_1000"]
    if "roll" in legal and "stop" in legal:
        return "roll" if _should_roll(obs) else "stop"
    for action in ("stop", "roll", "bust"):
        if action in legal:
            return action
    return legal[0]


def _doubles(action):
    return len(action) > 3 and action[3] in {
        "aponi",
        "dr_umbrage",
        "sol_forst",
        "redacted",
        "ada_massa",
        "dana_powalki",
        "nella_van_daval",
        "ryle_al_wren",
    }


def _should_roll(obs):
    turn = obs["turn"]
    if turn["safe_next_roll"]:
        return True
    pool = _pool(obs)
    extras = pool["extra"] + turn["treated_as_extra"] + (3 if turn["avari_bonus"] else 0)
    dice = sum(pool.values()) + turn["treated_as_extra"] + turn["saved_wild"]
    dice += min(extras, obs["supply"])
    if dice == 0:
        return False
    card = _crew_card(obs, turn["crew"])
    reqs = card["requirements"]
    at_risk = sum(
        reqs[i]["count"] * (2 if reqs[i]["x2"] else 1) for i in turn["completed_this_turn"]
    )
    if turn["committed"] is not None:
        faces = {reqs[turn["committed"]]["face"]}
    else:
        faces = {r["face"] for r in reqs if r["token"] is None}
    good = len({f for f in faces if f != "wild"}) + 1  # plus the Wild face
    p_bust = ((6 - good) / 6) ** dice
    if turn["saved_wild"]:
        p_bust = 0.0
    if at_risk == 0:
        return True
    return p_bust * at_risk < 1.2 * (1 - p_bust) and p_bust < 0.4


def _select(obs, legal):
    target = _target(obs)
    for face in FACES[:4]:
        if face != target and ["pick", face] in legal:
            return ["pick", face]
    if "reroll" in legal:
        return "reroll"
    # Vila Noir re-rolls exactly 2 dice: give up the least useful die left.
    for face in ("extra", target, "wild"):
        if ["pick", face] in legal:
            return ["pick", face]
    return legal[0]


def _my_symbols(obs):
    return sum(SYMBOLS[t] for t in obs["my_hazard_tokens"])


def _hazard_risky(obs, extra_symbols):
    """Would `extra_symbols` more likely make this seat the one with the most symbols?"""
    mine = _my_symbols(obs) + extra_symbols
    seat = obs["seat"]
    others = [
        p["hazard_tokens"] * AVG_SYMBOLS_PER_TOKEN
        for i, p in enumerate(obs["players"])
        if i != seat
    ]
    if len(obs["players"]) == 2:
        return mine >= others[0] + 3
    return mine > max(others) + 0.5


def _hazard(obs, legal):
    mine = sum(obs["my_hazard_tokens"])

    def value(action):
        prestige = action[1]
        if _hazard_risky(obs, SYMBOLS[prestige]):
            return (0, -SYMBOLS[prestige])
        return (mine + prestige, -SYMBOLS[prestige])

    return max(legal, key=value)


def _place(obs, legal):
    turn = obs["turn"]
    new = turn["crew"]
    me = obs["players"][obs["seat"]]
    card = _crew_card(obs, new)
    top = me["crew"].get(card["faction"], [None])[0] if card else None
    if card is None or top is None:
        return ["place", "top"]
    if ABILITY_RANK.get(new, 2) > ABILITY_RANK.get(top, 2):
        return ["place", "top"]
    return ["place", "bottom"]


def _return(obs, legal):
    if _hazard_risky(obs, 0):
        returns = [a for a in legal if isinstance(a, list)]
        if returns:
            return max(returns, key=lambda a: SYMBOLS[a[1]])
    return "no_return"


def _namari(obs, legal):
    return ["use", "namari"]
