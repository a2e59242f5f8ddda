"""A Moonrakers (+ Overload) heuristic bot.

It reads only the observation and the legal actions, plus the public card data
of the engine package (contract numbers, card kinds, part brands).

- Planning: estimates, from the cards in hand and its installed parts, which
  face-up contract it can complete alone; takes the most valuable one that looks
  feasible, otherwise Stays at Base.
- Negotiation: invites every other player once, offering 1 Credit for all of
  the hazard dice; as an invitee it accepts offers worth more than their dice,
  unless the deal would let the Mission Leader reach 10 Prestige.
- Execution: scores every legal step (requirements filled, hazards blocked,
  useful Actions and draws) and takes the best; passes when nothing helps.
- Buying: parts that lower every contract's requirements or add Actions first,
  then strong crew and Advanced cards; keeps Credits when nothing is worth it.
"""

from __future__ import annotations

from engine.games.moonrakers.cards import ACTION, CONTRACTS, CREW, PARTS

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


def _me(obs):
    return obs["players"][obs["seat"]]


def _cat(card):
    kind = ACTION.get(card)
    return kind.cat if kind is not None else "C"


def _card_value(card):
    if card in CREW:
        return CREW[card].cost / 2 + GOOD_CREW.get(card, 0)
    return CARD_VALUE.get(card, 1.0)


# ----- objectives -----------------------------------------------------------------------------


def _drop_objective(obs, legal):
    return min(legal, key=lambda a: OBJECTIVE_EASE.get(a[1], 1))


def _keep_objective(obs, legal):
    if "keep_all" in legal:
        return "keep_all"
    return max(legal, key=lambda a: OBJECTIVE_EASE.get(a[1], 1))


# ----- planning -------------------------------------------------------------------------------


PASSIVE_REDUCTION = (
    ("sapphire-mk2", "R"),
    ("titan-3000", "S"),
    ("twin-jets-e4", "T"),
    ("gatling-laser", "D"),
)
CREW_DAMAGE = {"dana-powalki": 3, "grinar-flok": 4, "crusse-parke": 4, "tantin-al-vale": 2}
CREW_ACTIONS = {"ada-massa": 3, "kurt-bilar": 2}


def _simulate(hand, req, parts):
    """Greedy solo play of the hand against `req`: what is left unfilled."""
    rem = dict(req)
    for part, cat in PASSIVE_REDUCTION:
        if part in parts and rem.get(cat):
            rem[cat] -= 1
    acts = 1 + (1 if "daburu-mk1" in parts else 0)
    cards = [c for c in hand if c != "M"]
    draws = 0.0

    def fill(cat, amount):
        if rem.get(cat, 0) > 0:
            rem[cat] = max(0, rem[cat] - amount)
            return
        if rem.get("F", 0) > 0:
            rem["F"] = max(0, rem["F"] - amount)

    # Action makers first, then whatever fills the most.
    cards.sort(key=lambda c: -(ACTION[c].actions if c in ACTION else CREW_ACTIONS.get(c, 0)))
    while cards and acts >= 1:
        best, best_gain = None, 0.0
        for card in cards:
            kind = ACTION.get(card)
            if kind is None:
                gain = 1.0 if rem.get("C") or rem.get("F") else 0.3
                gain += 0.8 if CREW_DAMAGE.get(card) and rem.get("D") else 0
                gain += 0.5 * CREW_ACTIONS.get(card, 0)
            else:
                need = rem.get(kind.cat, 0) or rem.get("F", 0)
                gain = min(kind.req, need) + 0.45 * kind.actions + 0.3 * kind.draw
            if gain > best_gain:
                best, best_gain = card, gain
        if best is None:
            break
        cards.remove(best)
        acts -= 1
        kind = ACTION.get(best)
        if kind is None:
            fill("C", 1)
            if CREW_DAMAGE.get(best):
                fill("D", CREW_DAMAGE[best])
            acts += CREW_ACTIONS.get(best, 0)
        else:
            fill(kind.cat, kind.req)
            acts += kind.actions
            draws += kind.draw
    # Cards drawn by Thrusters: on average about half a requirement each, if playable.
    left = sum(rem.values())
    return max(0.0, left - min(draws, max(0, acts)) * 0.5)


def _missing(obs, cid):
    parts = [p for p, _io in _me(obs)["parts"]]
    return _simulate(obs["hand"], CONTRACTS[cid].req, parts)


def _contract_value(obs, cid):
    rec = CONTRACTS[cid]
    me = _me(obs)
    parts = [p for p, _io in me["parts"]]
    hand = obs["hand"]
    if rec.mode == "h2h":
        score = sum(ACTION[c].req if c in ACTION else 1 for c in hand if _cat(c) in rec.counts)
        return (rec.prestige * 3 + rec.credits * 0.5) * 0.6 - 1 if score >= 4 else -5
    missing = _missing(obs, cid)
    hazards = rec.hazard_dice * (1.0 if me["prestige"] > 0 else 0.3)
    if "cloaking-device" in parts and rec.hazard_dice:
        hazards -= 1.0 if me["prestige"] > 0 else 0.3
    reward = rec.prestige * 3 + rec.credits * 0.6 + rec.bonus * 1.5
    if missing < 0.01:
        return reward - hazards
    if missing <= 1.01 and rec.hazard_dice <= 1:
        return 0.45 * reward - hazards
    if len(obs["players"]) >= 2 and missing <= 3.01 and rec.prestige >= 2:
        # Worth sharing: Allies bring their hands (they get half the Credits).
        return 0.4 * (rec.prestige * 3 + rec.credits * 0.3) - hazards
    return -5


def _plan(obs, legal):
    best, best_value = "base", 1.5
    for action in legal:
        if isinstance(action, list) and action[0] == "contract":
            cid = obs["contracts"][action[1]]
            value = _contract_value(obs, cid)
            if value > best_value:
                best, best_value = action, value
    return best


def _negotiate(obs, legal):
    contract = obs["contract"]
    left = contract["proposals_left"]
    for action in legal:
        if isinstance(action, list) and action[0] == "invite" and left[action[1]] == 4:
            return action
    return "go"


def _offer(obs, legal):
    field = legal[0][0]
    top = max(a[1] for a in legal)
    rec = CONTRACTS[obs["contract"]["id"]]
    if _missing(obs, rec.id) < 0.01:
        # We can do it alone: Allies are welcome to carry the hazard dice for a Credit.
        return [field, {"c": min(1, top), "h": top}.get(field, 0)]
    # We need help: a fair share of the Credits, no hazard dice, no Prestige.
    return [field, {"c": min(top, rec.credits // 2)}.get(field, 0)]


def _answer(obs, legal):
    contract = obs["contract"]
    p, c, b, h = contract["offer"]
    leader = obs["mission_leader"]
    rec = CONTRACTS[contract["id"]]
    if obs["players"][leader]["prestige"] + rec.prestige - p >= 8:
        return "decline"
    # Rewards come only if the contract succeeds; hazard dice hurt either way.
    risk = h * (1.0 if _me(obs)["prestige"] > 0 else 0.3)
    value = 0.5 * (p * 3 + c * 0.5 + b * 1.5) - risk
    return "accept" if value >= 0 else "decline"


def _join(obs, legal):
    rec = CONTRACTS[obs["contract"]["id"]]
    useful = sum(1 for c in obs["hand"] if _cat(c) in rec.counts)
    return "join" if useful >= 2 else "pass"


# ----- execution --------------------------------------------------------------------------------


def _my_exec(obs):
    seat = obs["seat"]
    for s, info in obs["contract"]["execution"]:
        if s == seat:
            return info
    return None


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


def _score_step(obs, action, rem, h2h, counts, uncovered, actions, useful):
    kind = action[0]
    if kind == "play":
        card = action[1]
        mode = action[2] if len(action) > 2 else None
        score = _fills(card, rem, h2h, counts, flex=mode == "F") * 1.0
        k = ACTION.get(card)
        if k is None:
            crew_bonus = 1.5 + GOOD_CREW.get(card, 0)
            return score + crew_bonus
        if mode == "x2":
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


# ----- buying --------------------------------------------------------------------------------------


def _part_value(part):
    return PART_VALUE.get(part, 2.0)


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
    for action in legal:
        if not isinstance(action, list) or action[0] != "buy":
            continue
        card = action[1]
        if card in PARTS:
            value = _part_value(card)
            if len(installed) >= 4:
                value -= weakest + 1
            value *= 1.0 if PARTS[card].cost <= 5 else 0.9
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
    "free_replace": lambda obs, legal: "no_replace",
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
