"""A Moonrakers (+ Overload) heuristic bot.

It reads only the observation and the legal actions, plus the public card data
of the engine package (contract numbers, card kinds, part brands). One file: the
sandbox gives a bot its own file and the engine, nothing else. It reads in three parts:

- Game knowledge: what cards, parts and objectives are worth and what they do (the
  tables a stronger bot would tune first), and small readers of the observation.
- Evaluation: what a contract (playouts of the hands that would play it), a step of
  Execution and a purchase are worth.
- Move choice: `act`, and one handler for each decision the game asks for; `HANDLERS`,
  at the end, maps each pending decision to its handler.

What it does in each phase of the game:

- Planning: for every face-up contract, a few quick playouts of its own hand
  (drawing from what it knows of its deck), of each possible Ally's hand
  (sampled from the starter deck plus the cards their parts added) and of the
  affordable Mercenaries estimate the chance of completing it alone and with
  everyone's help; the value weighs that chance against the reward share, the
  hazard icons it would lose (nothing below 0 Prestige) and the secret
  objectives it would claim. It takes the best contract worth more than Staying
  at Base (a Credit, an objective, a new hand). When nothing is worth it and it
  has objectives enough, it pays a Credit to replace the least useful contract
  and looks again; Staying at Base, it replaces that contract for free.
- Negotiation: invites the others when it needs help (or when a player with no
  Prestige can carry the hazard dice), offering a share of the Credits; as an
  invitee it accepts offers worth more than their hazard risk, never one that
  hands the Mission Leader the win.
- Execution: scores every legal step (requirements filled, hazards blocked,
  useful Actions and draws, cards towards held "play N" objectives) and takes
  the best; passes when nothing helps.
- Buying: parts that lower every contract's requirements or add Actions first,
  parts towards held brand objectives, then strong crew and Advanced cards;
  keeps 8 Credits when it holds Money Bags.
"""

from __future__ import annotations

import random

from engine.games.moonrakers.cards import ACTION, CONTRACTS, CREW, PARTS
from engine.games.moonrakers.objectives import BRAND_GOALS

# ----- Game knowledge: what the cards, parts and objectives are worth and do ------------------

ORDER = ("R", "T", "S", "D", "C", "F")
CARD_VALUE = {
    "M": -1.0,
    "D1": 1.0,
    "R": 1.5,
    "T": 1.5,
    "S": 1.2,
    "D2": 2.0,
    "D3": 3.0,
    "R+": 2.5,
    "Rx": 2.5,
    "T+": 2.5,
    "Tx": 2.5,
    "S+": 2.0,
    "Sx": 2.0,
    "D+": 2.8,
}
PART_VALUE = {
    "sapphire-mk2": 5,
    "titan-3000": 4.5,
    "twin-jets-e4": 4.5,
    "gatling-laser": 5,
    "daburu-mk1": 5,
    "flash": 4,
    "cloaking-device": 4,
    "accelerator-mk3": 3,
    "dauntless": 3.5,
    "emulator-mk2": 3,
    "mg-support-core": 3,
    "mg-warp": 3,
    "mg2-quad-laser": 3,
    "vector-jets-e3": 3,
    "duo-1000": 3,
    "quantum-driver": 3,
    "mg-overcharger": 3,
    "aclimator-6050": 3,
    "devotion-3050": 4,
    "absorption-k2": 2.5,
    "barrier-a3": 2.5,
    "escape-jets-e1": 2.5,
    "mg1-rail-gun": 2.5,
    "mg-charge-core": 2.5,
    "pursuer": 2.5,
    "catalyzer-mk2": 2.5,
    "inverter-mk2": 2.5,
    "augmentor-2050": 2.5,
    "staged-burst-e3": 2.5,
    "mg-upgrade-core": 2.5,
    "mg1-kinetic": 1,
    "swarm-mk1": 1.5,
    "multi-stage-m1": 1,
    "leech": 2,
    "jump-jets-e2": 1.5,
    "pulsor-mk1": 1.5,
}
GOOD_CREW = {
    "moro-mada": 2,
    "ada-massa": 2,
    "dana-powalki": 2,
    "meg-gallak": 1.5,
    "sella-pelleon": 1.5,
    "dae-arum": 1.5,
    "ft-1000": 1.5,
    "grinar-flok": 1,
    "crusse-parke": 1.5,
    "ryan-rogal": 1,
    "nella-van-daval": 1,
    "miska-rose": 1,
}
OBJECTIVE_EASE = {
    "money-bags": 5,
    "santa-maria": 4,
    "quick-run": 4,
    "gun-for-hire": 4,
    "youre-my-hero": 4,
    "ace": 4,
    "barrage": 3.5,
    "chain-reaction": 3,
    "quick-strike": 3,
    "shield-wall": 3,
    "tactical": 3,
    "daredevil": 3.5,
    "efficiency": 3.5,
    "fire-support": 3,
    "specialist": 2,
    "saboteur": 2,
    "tinker": 2,
    "weird-flex": 2.5,
    "arsenal": 2,
    "junker": 2,
}
SOLO_GOALS = {
    "santa-maria": "Explore",
    "quick-run": "Delivery",
    "gun-for-hire": "Kill",
    "youre-my-hero": "Rescue",
}

# Objectives met by playing cards of one category on a contract (count needed).
PLAY_GOALS = {
    "chain-reaction": ("R", 4),
    "quick-strike": ("T", 3),
    "shield-wall": ("S", 3),
    "natural-leader": ("C", 3),
    "tactical": ("S", 2),
}

# What a card does for the planner's playout: requirement filled ("A" = the largest
# open one), Actions gained, cards drawn, hazard icons blocked.
CARD_MODEL = {
    kind: (
        {kind_rec.cat: kind_rec.req} if kind_rec.req else {},
        kind_rec.actions,
        kind_rec.draw,
        kind_rec.block,
    )
    for kind, kind_rec in ACTION.items()
}
CREW_MODEL = {
    "ada-massa": ({"R": 1}, 3, 0, 0),
    "b3-ar": ({}, 1, 0, 0),
    "bill-bendo": ({"S": 1}, 1, 0, 1),
    "crusse-parke": ({"D": 4}, 0, 0, 0),
    "dana-powalki": ({"D": 3}, 1, 0, 0),
    "kal-damar": ({}, 0, 2, 0),
    "kary-powalk": ({}, 1, 0, 0),
    "lee-van-cribb": ({}, 1, 1, 0),
    "lila-al-bindar": ({}, 1, 0, 0),
    "meg-gallak": ({"A": 2}, 1, 0, 0),
    "moro-mada": ({"A": 2}, 0, 0, 0),
    "myla-dystra": ({}, 1, 0, 0),
    "nella-van-daval": ({"T": 1}, 0, 3, 0),
    "redacted": ({"S": 1}, 0, 0, 1),
    "ryan-rogal": ({"D": 2}, 0, 2, 0),
    "ryle-al-wren": ({"S": 2}, 0, 0, 0),
    "sella-pelleon": ({"A": 1}, 1, 1, 0),
    "tantin-al-vale": ({"D": 2}, 0, 0, 0),
    "zek-zarag": ({}, 1, 1, 0),
    "anka-kramer": ({}, 0, 1, 0),
    "armitage": ({"S": 1}, 1, 0, 1),
    "dae-arum": ({"A": 3}, 0, 0, 0),
    "domi": ({}, 1, 0, 0),
    "ft-1000": ({"A": 2}, 0, 0, 0),
    "grinar-flok": ({"D": 4}, 0, 0, 0),
    "ha-kun": ({}, 1, 0, 0),
    "io-l1-on": ({}, 0, 1, 0),
    "io-mk8": ({}, 1, 0, 0),
    "io-mg21": ({"D": 2}, 0, 0, 0),
    "io-wraith-3000": ({}, 0, 0, 1),
    "ivan-guyril": ({"A": 2}, 0, 0, 0),
    "kurt-bilar": ({}, 2, 0, 0),
    "lyntoba-ga": ({}, 0, 0, 3),
    "miska-rose": ({"C": 1}, 1, 0, 0),
    "oleg-ali": ({}, 0, 3, 0),
    "pat-nungar": ({}, 1, 1, 0),
}

# Ship Parts that lower a requirement on every contract their owner joins, or add Actions.
PASSIVE_REDUCTION = {
    "sapphire-mk2": "R",
    "titan-3000": "S",
    "twin-jets-e4": "T",
    "gatling-laser": "D",
}
STARTER = ("R", "R", "R", "T", "T", "S", "S", "D1", "D1", "M")


def _crew_model(card):
    fills, acts, draws, block = CREW_MODEL.get(card, ({}, 0, 0, 0))
    fills = dict(fills)
    fills["C"] = fills.get("C", 0) + 1
    return (tuple(fills.items()), acts, draws, block)


# (fills as ((category, amount), ...), Actions, draws, blocks) for every card.
MODELS = {card: (tuple(m[0].items()), *m[1:]) for card, m in CARD_MODEL.items()}
MODELS.update((card, _crew_model(card)) for card in CREW)


def _me(obs):
    return obs["players"][obs["seat"]]


def _my_exec(obs):
    seat = obs["seat"]
    for s, info in obs["contract"]["execution"]:
        if s == seat:
            return info
    return None


def _installed(player):
    return [p for p, _io in player["parts"]]


def _cat(card):
    kind = ACTION.get(card)
    return kind.cat if kind is not None else "C"


def _card_value(card):
    if card in CREW:
        return CREW[card].cost / 2 + GOOD_CREW.get(card, 0)
    return CARD_VALUE.get(card, 1.0)


def _part_value(part):
    return PART_VALUE.get(part, 2.0)


def _price(card):
    if card in PARTS:
        return PARTS[card].cost
    if card in CREW:
        return CREW[card].cost
    return 3  # an Advanced card


# ----- Evaluation: what a contract, a step and a purchase are worth ---------------------------

PLAYOUTS = 8  # sampled playouts per contract when planning
WIN = 10
CREDIT_WEIGHT = 0.5  # a Credit against a Prestige worth 3
ICON_COST = 3.0  # an unblocked hazard icon costs a Prestige


# Contracts: playouts of the hands that would play one, and what its reward is worth.
def _gain(fills, rem):
    total = 0
    for cat, amount in fills:
        need = max(rem.values(), default=0) if cat == "A" else rem.get(cat, 0) or rem.get("F", 0)
        total += amount if amount < need else need
    return total


def _fill(rem, fills):
    for cat, amount in fills:
        if cat == "A":
            cat = max(rem, key=rem.get) if rem else "F"
        elif not rem.get(cat) and rem.get("F"):
            cat = "F"
        left = rem.get(cat)
        if left:
            rem[cat] = left - amount if left > amount else 0


def _playout(hand, rem, acts, pool, rng):
    """One greedy play of `hand` (drawing from `pool`) into `rem`; returns icons blocked.

    Action makers go first while useful cards outnumber the Actions, like `_step`.
    """
    models = [MODELS[c] for c in hand if c != "M"]
    blocked = 0
    while acts > 0 and models:
        gains = [_gain(m[0], rem) for m in models]
        useful = sum(1 for g in gains if g > 0)
        best, best_key = -1, None
        if useful == 0 or useful > acts:
            # Action makers (and drawers) first.
            for i, m in enumerate(models):
                if m[1] > 0 or m[2] > 0:
                    key = (m[1], gains[i], m[2])
                    if best_key is None or key > best_key:
                        best, best_key = i, key
        if best < 0:
            for i, m in enumerate(models):
                if gains[i] > 0:
                    key = (gains[i], m[1])
                    if best_key is None or key > best_key:
                        best, best_key = i, key
        if best < 0:
            break
        model = models.pop(best)
        acts += model[1] - 1
        _fill(rem, model[0])
        blocked += model[3]
        for _ in range(model[2]):
            if pool:
                drawn = pool.pop(rng.randrange(len(pool)))
                if drawn != "M":
                    models.append(MODELS[drawn])
    # Spare Actions play leftover Shields for their blocks.
    for model in models:
        if acts <= 0:
            break
        if model[3]:
            blocked += model[3]
            acts -= 1
    return blocked


def _deck_guess(player, extra=()):
    """A player's deck as far as the table can tell: the starter deck plus part cards."""
    cards = list(STARTER)
    for part in _installed(player):
        cards.extend(PARTS[part].adds)
    cards.extend(extra)
    return cards


def _start_actions(parts, allies):
    acts = 1
    if "daburu-mk1" in parts:
        acts += 1
    if "leech" in parts:
        acts += allies
    return acts


def _estimate(obs, cid, allies, rng):
    """Playouts of `cid` with `allies`: (chance of completing it, expected icons I
    block, expected Credits paid to Mercenaries out of my reward)."""
    rec = CONTRACTS[cid]
    players = obs["players"]
    me = _me(obs)
    base = dict(rec.req)
    team = [obs["seat"], *allies]
    for seat in team:
        for part in _installed(players[seat]):
            cat = PASSIVE_REDUCTION.get(part)
            if cat and base.get(cat):
                base[cat] -= 1
    hand = obs["hand"]
    my_pool = _deck_guess(me, [c for c in obs["discard"] if c in CREW])
    for card in hand:
        if card in my_pool:
            my_pool.remove(card)
    my_parts = _installed(me)
    pulsor = any("pulsor-mk1" in _installed(players[s]) for s in team)
    # 1-2 players: basic Mercenaries fill requirements for 1, 2, 3, ... Credits of the
    # reward; only what the Credits left to me can pay.
    mercs = [c for c in obs["mercs"] if c is not None and c in ACTION]
    budget = rec.credits - rec.credits // (len(allies) + 1) * len(allies)
    successes = blocked = paid = 0
    for _ in range(PLAYOUTS):
        rem = dict(base)
        blocked += _playout(hand, rem, _start_actions(my_parts, len(allies)), list(my_pool), rng)
        for seat in allies:
            pool = _deck_guess(players[seat])
            rng.shuffle(pool)
            acts = _start_actions(_installed(players[seat]), len(allies)) + pulsor
            _playout(pool[:5], rem, acts, pool[5:], rng)
        cost = hired = 0
        for card in mercs:
            if not any(v > 0 for v in rem.values()):
                break
            fills = MODELS[card][0]
            if _gain(fills, rem) and cost + hired + 1 <= budget:
                hired += 1
                cost += hired
                _fill(rem, fills)
        done = not any(v > 0 for v in rem.values())
        successes += done
        paid += cost if done else 0
    return successes / PLAYOUTS, blocked / PLAYOUTS, paid / PLAYOUTS


def _likely_allies(obs, rec):
    """Who would join: everyone, unless the contract could make me the winner."""
    me = _me(obs)
    if me["prestige"] + rec.prestige >= WIN:
        return []
    seat = obs["seat"]
    return [q for q in range(len(obs["players"])) if q != seat]


def _hazard_cost(prestige, icons):
    # Prestige never drops below 0: with none, hazards cost (almost) nothing.
    return min(icons, prestige) * ICON_COST + max(0.0, icons - prestige) * 0.2


def _contract_value(obs, cid, rng):
    rec = CONTRACTS[cid]
    me = _me(obs)
    hand = obs["hand"]
    if rec.mode == "h2h":
        score = sum(ACTION[c].req if c in ACTION else 1 for c in hand if _cat(c) in rec.counts)
        return (rec.prestige * 3 + rec.credits * 0.5) * 0.6 - 1 if score >= 4 else -5
    dice = rec.hazard_dice - (1 if "cloaking-device" in _installed(me) and rec.hazard_dice else 0)
    solo, chance = _team_value(obs, rec, [], dice, rng)
    allies = _likely_allies(obs, rec)
    carrier = dice and any(obs["players"][q]["prestige"] == 0 for q in allies)
    if not allies or (chance == 1.0 and not carrier):
        return solo  # sure alone, and no Ally to carry the dice: sharing only costs
    team, _chance = _team_value(obs, rec, allies, dice, rng)
    # Allies may decline or play badly: then it is the solo attempt.
    trust = min(_trust(obs, q) for q in allies)
    return max(solo, trust * team + (1 - trust) * solo)


def _team_value(obs, rec, team, dice, rng):
    """(worth to me of attempting `rec` with `team`, chance of completing it)."""
    me = _me(obs)
    chance, blocks, mercs = _estimate(obs, rec.id, team, rng)
    # Credits build the ship; close to the end only Prestige counts.
    credit = CREDIT_WEIGHT if me["prestige"] < 5 else CREDIT_WEIGHT / 2
    # Allies take a share of the Credits; an ally with no Prestige takes the dice.
    share = rec.credits // (len(team) + 1) * len(team)
    my_dice = 0 if any(obs["players"][q]["prestige"] == 0 for q in team) else dice
    hazards = _hazard_cost(me["prestige"], max(0.0, my_dice - blocks * 0.8))
    reward = rec.prestige * 3 + (rec.credits - share - mercs) * credit + rec.bonus * 1.2
    reward += 3 * _objectives_done(obs, rec, team, my_dice)
    return chance * reward - hazards, chance


def _trust(obs, seat):
    """How far to count on `seat` as an Ally: a player who never scored, well into the
    game, is probably not playing to win (and will not help)."""
    player = obs["players"][seat]
    if player["prestige"] > 0 or player["claimed"]:
        return 0.9
    return 0.8 if obs["turn"] < 2 * len(obs["players"]) else 0.4


def _objectives_done(obs, rec, team, my_dice):
    """How many of my secret objectives completing `rec` with `team` would claim."""
    solo = not team
    everyone = bool(team) and len(team) == len(obs["players"]) - 1
    return sum(
        (solo and (SOLO_GOALS.get(goal) == rec.type or goal == "weird-flex" and rec.mode == "flex"))
        or (goal == "ace" and my_dice >= 2)
        or (goal == "utopia" and everyone)
        for goal in obs["objectives"]
    )


def _base_value(obs):
    held = _me(obs)["objectives_held"]
    return 0.5 + (1.2 if held < 3 else 0.4)


def _wants_allies(obs):
    rec = CONTRACTS[obs["contract"]["id"]]
    rng = random.Random(obs["turn"] * 7 + obs["seat"])
    chance, _blocks, _mercs = _estimate(obs, rec.id, [], rng)
    return chance < 0.8 and bool(_likely_allies(obs, rec))


# Steps of Execution: requirements filled, hazards blocked, objectives served.
def _fills(card, rem, h2h, counts, flex=False):
    kind = ACTION.get(card)
    cat = kind.cat if kind is not None else "C"
    amount = kind.req if kind is not None else 1
    if cat == "M":
        return 0
    if h2h:
        return amount if cat in counts else 0
    if flex:
        return min(amount, rem.get("F", 0))
    if rem.get(cat):
        return min(amount, rem[cat])
    return min(amount, rem.get("F", 0))


def _goal_bonus(obs, card):
    """Extra worth of playing `card` towards a held "play N of a kind" objective."""
    info = _my_exec(obs)
    if info is None:
        return 0.0
    cat = _cat(card)
    bonus = 0.0
    for goal in obs["objectives"]:
        want = PLAY_GOALS.get(goal)
        if want is not None and want[0] == cat:
            have = sum(1 for c in info["played"] if _cat(c) == cat)
            if have < want[1]:
                bonus += 0.8
    return bonus


def _score_step(obs, action, rem, h2h, counts, uncovered, actions, useful):
    kind = action[0]
    if kind == "play":
        card = action[1]
        modes = action[2:]
        score = _fills(card, rem, h2h, counts, flex="F" in modes) * 1.0 + _goal_bonus(obs, card)
        k = ACTION.get(card)
        if k is None:
            crew_bonus = 1.5 + GOOD_CREW.get(card, 0)
            return score + crew_bonus
        if "x2" in modes:
            score += _fills(card, rem, h2h, counts)
        if k.block:
            score += min(k.block, uncovered) * 1.5
        extra = k.actions
        if extra:
            spare_after = actions - 1 + extra
            score += min(extra, max(0, useful - (actions - 1))) * 0.9
            if spare_after > 0 and k.draw:
                score += k.draw * 0.4
        elif k.draw:
            score += k.draw * (0.6 if actions > 1 else 0.25)
        if not any(rem.values()) and not h2h and not k.block:
            return 0.0
        return score
    if kind == "ability":
        return _score_ability(action, rem, h2h, counts, uncovered)
    if kind == "merc":
        return 0.6 if any(rem.values()) else 0.0
    return 0.0


def _score_ability(action, rem, h2h, counts, uncovered):
    part = action[1]
    open_need = sum(rem.values()) if not h2h else 3
    if part in CREW:  # IO crew
        return 1.0 if open_need or uncovered else 0.0
    tail = action[2:] if len(action) > 2 else []
    if "spend" in tail:
        return 1.2 if open_need or uncovered else 0.0
    if part in ("dark-matter-mk3", "mg2-laser-turrets", "mg-charge-core", "quantum-driver"):
        return 3.0 if rem.get("D") or h2h and "D" in counts else 0.0
    if part in ("aclimator-6050", "clone-bay", "tributor", "io-gen-mk1"):
        return 1.0 if open_need else 0.0
    if part in ("symbiote-9000", "io-cache-3050") and uncovered:
        return 1.3 if any(c == "M" for c in tail) or not tail else 0.8
    if part in ("augmentor-2050", "inverter-mk2", "staged-burst-e3", "mg-upgrade-core"):
        return 0.5
    if part in ("mill", "twin-probe-e2", "io-exhaust-e1", "pursuer"):
        return 0.4
    if tail and all(c == "M" for c in tail if isinstance(c, str)):
        return 0.5  # trading Miss cards for IOspheres
    return 0.0


# Purchases: parts towards held brand objectives.
def _brand_bonus(obs, installed, part):
    """Prestige-worth of a part towards held brand objectives (or Generalist, Tinker)."""
    brand = PARTS[part].brand
    brands = [PARTS[p].brand for p in installed]
    bonus = 0.0
    for goal in obs["objectives"]:
        want = BRAND_GOALS.get(goal)
        if want is not None and want[0] == brand:
            bonus += 3.0 if brands.count(brand) + 1 >= want[1] else 1.0
        elif goal == "generalist" and brand not in brands and brand != "Sorelia":
            bonus += 1.0
        elif goal == "tinker" and len(installed) >= 4:
            bonus += 3.0
    return bonus


# ----- Move choice: `act`, and one handler for each decision the game asks for ----------------


def act(observation, legal_actions):
    if len(legal_actions) == 1:
        return legal_actions[0]
    name = observation["pending"][0] if observation["pending"] else ""
    handler = HANDLERS.get(name)
    if handler is not None:
        choice = handler(observation, legal_actions)
        if choice in legal_actions:
            return choice
    return _default(legal_actions)


def _default(legal):
    for safe in ("pass", "keep", "none", "done", "end", "no_replace", "decline"):
        if safe in legal:
            return safe
    return legal[0]


# Objectives (the set-up's keep-2-of-3).
def _drop_objective(obs, legal):
    return min(legal, key=lambda a: OBJECTIVE_EASE.get(a[1], 1))


def _keep_objective(obs, legal):
    if "keep_all" in legal:
        return "keep_all"
    return max(legal, key=lambda a: OBJECTIVE_EASE.get(a[1], 1))


# Planning: a contract to attempt, or one to replace; negotiating with Allies.
def _plan(obs, legal):
    rng = random.Random(obs["turn"] * 7 + obs["seat"])
    base = _base_value(obs)
    best, best_value = "base", base
    worst, worst_value = None, None
    for action in legal:
        if isinstance(action, list) and action[0] == "contract":
            value = _contract_value(obs, obs["contracts"][action[1]], rng)
            if value > best_value:
                best, best_value = action, value
            if worst_value is None or value < worst_value:
                worst, worst_value = action[1], value
    # Nothing worth doing (and no objective to gain at base): a Credit buys another
    # look at a fresh contract.
    if best == "base" and ["replace", worst] in legal and _me(obs)["credits"] >= 2 and base < 1.5:
        return ["replace", worst]
    return best


def _free_replace(obs, legal):
    """Staying at Base: swap the contract least worth doing for a fresh one."""
    rng = random.Random(obs["turn"] * 7 + obs["seat"] + 1)
    slots = [a for a in legal if isinstance(a, list)]
    if not slots:
        return "no_replace"
    return min(slots, key=lambda a: _contract_value(obs, obs["contracts"][a[1]], rng))


def _negotiate(obs, legal):
    contract = obs["contract"]
    left = contract["proposals_left"]
    players = obs["players"]
    need_help = _wants_allies(obs)
    for action in legal:
        # Solo-able: still hand the hazard dice to a player with nothing to lose.
        if (
            isinstance(action, list)
            and action[0] == "invite"
            and left[action[1]] == 4
            and (need_help or players[action[1]]["prestige"] == 0)
        ):
            return action
    return "go"


def _offer(obs, legal):
    field = legal[0][0]
    top = max(a[1] for a in legal)
    rec = CONTRACTS[obs["contract"]["id"]]
    invitee = obs["contract"]["invitee"]
    allies = max(1, len(_likely_allies(obs, rec)))
    if field == "c":
        return [field, min(top, max(1, rec.credits // (allies + 1)))]
    if field == "h" and obs["players"][invitee]["prestige"] == 0:
        return [field, top]
    return [field, 0]


def _answer(obs, legal):
    contract = obs["contract"]
    p, c, b, h = contract["offer"]
    leader = obs["mission_leader"]
    rec = CONTRACTS[contract["id"]]
    me = _me(obs)
    if obs["players"][leader]["prestige"] + rec.prestige - p >= WIN > me["prestige"] + p:
        return "decline"  # never help another player to the win
    shields = sum(MODELS[card][3] for card in obs["hand"])
    risk = _hazard_cost(me["prestige"], max(0.0, h - shields * 0.8))
    value = 0.6 * (p * 3 + c * 0.5 + b * 1.2) - risk
    return "accept" if value >= 0 else "decline"


def _join(obs, legal):
    rec = CONTRACTS[obs["contract"]["id"]]
    useful = sum(1 for c in obs["hand"] if _cat(c) in rec.counts)
    return "join" if useful >= 2 else "pass"


# Execution: the best step, and the choices cards and abilities ask for.
def _step(obs, legal):
    contract = obs["contract"]
    info = _my_exec(obs)
    if info is None:
        return "pass"
    rem = contract["remaining"]
    h2h = contract["scores"] is not None
    counts = CONTRACTS[contract["id"]].counts
    uncovered = max(0, sum(info["dice"]) - info["blocked"])
    actions = info["actions"]
    hand = obs["hand"]
    useful_in_hand = sum(1 for c in hand if _fills(c, rem, h2h, counts) > 0)
    best, best_score = "pass", 0.15
    for action in legal:
        if not isinstance(action, list):
            continue
        score = _score_step(obs, action, rem, h2h, counts, uncovered, actions, useful_in_hand)
        if score > best_score:
            best, best_score = action, score
    return best


def _req_any(obs, legal):
    rem = obs["contract"]["remaining"] if obs["contract"] else {}
    return max(legal, key=lambda a: rem.get(a[1], 0))


def _choose(obs, legal):
    labels = [a[1] for a in legal]
    info = _my_exec(obs) if obs["contract"] else None
    uncovered = max(0, sum(info["dice"]) - info["blocked"]) if info else 0
    rem = obs["contract"]["remaining"] if obs["contract"] else {}
    if "block" in labels and uncovered >= 2:
        return ["opt", "block"]
    if "shield" in labels and rem.get("S", 0) >= 1 and "trash" not in labels:
        return ["opt", "shield"]
    if "trash" in labels and rem.get("S", 0) >= 3:
        return ["opt", "trash"]
    if "D2" in labels:
        return ["opt", "D2"] if rem.get("D") else ["opt", "S"]
    if "draw" in labels:
        return ["opt", "draw"]
    return legal[0]


def _worst_card_action(legal, verb):
    cards = [a for a in legal if isinstance(a, list) and a[0] == verb]
    if not cards:
        return legal[0]
    return min(cards, key=lambda a: _card_value(a[-1]))


def _trash(obs, legal):
    if ["trash", "M"] in legal:
        return ["trash", "M"]
    if "none" in legal:
        return "none"
    return _worst_card_action(legal, "trash")


def _discard_some(obs, legal):
    if ["discard", "M"] in legal:
        return ["discard", "M"]
    if "done" in legal:
        return "done"
    return _worst_card_action(legal, "discard")


def _best_take(obs, legal):
    return max(legal, key=lambda a: _card_value(a[-1]) if isinstance(a, list) else -9)


def _give_self(obs, legal):
    return min(legal, key=lambda a: obs["players"][a[1]]["prestige"])


def _reroll(obs, legal):
    return ["reroll", 2] if ["reroll", 2] in legal else "done"


def _pat(obs, legal):
    info = _my_exec(obs)
    uncovered = max(0, sum(info["dice"]) - info["blocked"]) if info else 0
    return ["pat", "draw", "block"] if uncovered else ["pat", "act", "draw"]


def _magnet_give(obs, legal):
    return ["give", "M"] if ["give", "M"] in legal else "pass"


def _magnet_keep(obs, legal):
    return "trash" if obs["pending"][-1] == "M" else "keep"


def _give_back(obs, legal):
    return _worst_card_action(legal, "give")


def _tuner(obs, legal):
    return "redraw" if obs["looking"] and obs["looking"][-1] == "M" else "keep"


def _probe(obs, legal):
    return "discard" if obs["draw_top"] and obs["draw_top"][0] == "M" else "keep"


def _tractor(obs, legal):
    return ["tractor", "pass"] if obs["pending"][-1] == "M" else ["tractor", "take"]


def _reformer(obs, legal):
    if ["reformer", "trash", "M"] in legal:
        return ["reformer", "trash", "M"]
    return ["reformer", "miss"]


def _tesselator(obs, legal):
    best = max(legal, key=lambda a: _card_value(a[1]) if isinstance(a, list) else 0)
    return best if isinstance(best, list) and _card_value(best[1]) >= 2.5 else "none"


# Buying.
def _bonus(obs, legal):
    if ["bonus", "part"] in legal and len(_me(obs)["parts"]) < 4:
        return ["bonus", "part"]
    for kind in ("Rx", "D+", "T+", "S+"):
        if ["bonus", kind] in legal:
            return ["bonus", kind]
    return legal[0]


def _buy(obs, legal):
    me = _me(obs)
    installed = [p for p, _io in me["parts"]]
    weakest = min((_part_value(p) for p in installed), default=0)
    best, best_value = "end", 0.0
    # Money Bags: 8 Credits at the end of my turn is a Prestige.
    floor = 8 if "money-bags" in obs["objectives"] and me["credits"] >= 8 else 0
    for action in legal:
        if not isinstance(action, list) or action[0] != "buy":
            continue
        card = action[1]
        if me["credits"] - _price(card) < floor:
            continue
        if card in PARTS:
            value = _part_value(card)
            if len(installed) >= 4:
                value -= weakest + 1
            value *= 1.0 if PARTS[card].cost <= 5 else 0.9
            value += _brand_bonus(obs, installed, card)
        elif card in CREW:
            value = 0.5 + GOOD_CREW.get(card, 0) + (0.5 if CREW[card].cost >= 3 else 0)
        else:
            value = 1.2 if card in ("Rx", "D+", "T+") else 0.8
        if value > best_value and (card not in PARTS or value >= 2.0):
            best, best_value = action, value
    return best


def _remove_part(obs, legal):
    return min(legal, key=lambda a: _part_value(a[1]))


def _substitute(obs, legal):
    return max(legal, key=lambda a: _card_value(a[1]))


HANDLERS = {
    "drop_objective": _drop_objective,
    "keep_objective": _keep_objective,
    "plan": _plan,
    "free_replace": _free_replace,
    "negotiate": _negotiate,
    "offer": _offer,
    "answer": _answer,
    "join": _join,
    "step": _step,
    "req_any": _req_any,
    "choose": _choose,
    "trash": _trash,
    "myla": _discard_some,
    "discard_upto": _discard_some,
    "discard_n": lambda obs, legal: _worst_card_action(legal, "discard"),
    "lee_pick": _best_take,
    "zek": _best_take,
    "letyba": _best_take,
    "b3ar": lambda obs, legal: legal[0],
    "give_self": _give_self,
    "reroll_any": _reroll,
    "pat": _pat,
    "magnet_give": _magnet_give,
    "magnet_keep": _magnet_keep,
    "modulator_back": _give_back,
    "tuner_pick": _tuner,
    "probe": _probe,
    "tractor": _tractor,
    "reformer": _reformer,
    "tesselator": _tesselator,
    "bonus": _bonus,
    "free_discard": lambda obs, legal: "keep",
    "buy": _buy,
    "remove_part": _remove_part,
    "substitute": _substitute,
    "domi": lambda obs, legal: next((a for a in legal if a[2] == 1), legal[0]),
    "hakun": _best_take,
}
