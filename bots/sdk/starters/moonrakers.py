"""A Moonrakers starter bot: lead contracts your hand can meet, then play to meet them.

`act(observation, legal_actions)` is called each time it is your seat's decision; it must
return one element of `legal_actions`, unchanged. The game's page in the guide shows a
real observation with every field explained.

Contracts and cards appear by id only (`"claim-bounty"`, `"R+"`): what they ask and give
is public card data, which a bot may import from the engine (the arena's sandbox has it).

`observation["pending"]` is the decision: its name, the seat deciding, then arguments,
such as ["step", 1] or ["offer", 0, 1]. The plan:
- plan: the face-up contract with the best reward that the hand in sight can meet;
- negotiate / offer / answer: go alone, offer allies little, accept every invitation;
- step: Reactors first (each gives actions back), then what the contract still needs;
- buy: advanced action cards (Rx, R+, D+, ...) with the credits earned.
Every other decision takes the first legal action.
"""

from engine.games.moonrakers.cards import ACTION, CONTRACTS, CREW

# Advanced action cards, best first for a small deck: more actions, then more damage.
ADVANCED = ("D+", "Rx", "R+", "T+", "S+", "Tx", "Sx")


def act(observation, legal_actions):
    if len(legal_actions) == 1:
        return legal_actions[0]
    decision = observation["pending"][0]
    if decision == "plan":  # "base", ["contract", slot] or ["replace", slot]
        choice = choose_contract(observation, legal_actions)
    elif decision == "negotiate":  # "go" alone, or ["invite", seat] to ask for an ally
        choice = "go"
    elif decision == "offer":  # ["p", n], ["c", n], ...: the invitee's share; give least
        choice = min(legal_actions, key=lambda action: action[1])
    elif decision == "answer":  # another leader invites us as an ally
        choice = "accept"
    elif decision == "step":
        choice = choose_step(observation, legal_actions)
    elif decision == "buy":
        choice = choose_buy(observation, legal_actions)
    else:
        choice = None
    return choice if choice in legal_actions else legal_actions[0]


def hand_power(hand):
    """What the hand can meet, by requirement type: {"R": 2, "D": 3, "C": 1, ...}."""
    power = {}
    for card in hand:
        kind = ACTION.get(card)  # None: a crew card, which meets a Crew ("C") requirement
        category, amount = (kind.cat, kind.req) if kind else ("C", 1)
        power[category] = power.get(category, 0) + amount
    return power


def missing(requirements, hand):
    """Roughly how much of the requirements ({"R": 3, "F": 4, ...}) the hand cannot meet."""
    power = hand_power(hand)
    short = sum(max(0, n - power.get(t, 0)) for t, n in requirements.items() if t != "F")
    spare = sum(power.values()) - sum(n for t, n in requirements.items() if t != "F")
    # "F" (Flex) takes any card; each Thruster draws two more cards.
    short += max(0, requirements.get("F", 0) - max(spare, 0)) - power.get("T", 0)
    # Each card played costs one action: we start with one, Reactors give more back.
    actions = 1 + sum(ACTION[c].actions - 1 for c in hand if c in ACTION and ACTION[c].actions)
    plain = sum(1 for c in hand if not (c in ACTION and ACTION[c].actions) and c != "M")
    return short + max(0, min(plain, sum(requirements.values())) - actions)


def choose_contract(observation, legal_actions):
    hand = observation["hand"]  # your hand: only you see it
    best, best_value = "base", 0.0
    for action in legal_actions:
        if not (isinstance(action, list) and action[0] == "contract"):
            continue
        contract = CONTRACTS[observation["contracts"][action[1]]]  # slot -> id -> data
        # contract.req: what it asks, such as {"R": 3, "D": 3}; its reward and risk.
        short = missing(contract.req, hand)
        value = 3 * contract.prestige + contract.credits - 8 * short - contract.hazard_dice
        if value > best_value:
            best, best_value = action, value
    return best


def choose_step(observation, legal_actions):
    contract = observation["contract"]
    remaining = contract["remaining"]  # still needed: {"R": 2, "D": 3}
    # execution: [seat, {"actions": left, "played": [...], "dice": [...], ...}] per participant
    actions = dict(contract["execution"])[observation["seat"]]["actions"]
    best, best_value = "pass", 0.0
    for action in legal_actions:
        # ["play", card] plays a hand card; longer forms (Flex, abilities) are left to you.
        if not (isinstance(action, list) and action[0] == "play" and len(action) == 2):
            continue
        kind = ACTION.get(action[1])
        category, amount = (kind.cat, kind.req) if kind else ("C", 1)
        need = remaining.get(category, 0) or remaining.get("F", 0)
        value = min(amount, need) * 10.0
        gain = kind.actions - 1 if kind else -1  # a card costs one action, some give more
        if any(remaining.values()):
            value += 15 * max(gain, 0)  # action-givers first: more cards get played
            if kind and kind.draw and actions + gain > 0:
                value += 4 * kind.draw  # draw while there are actions left to play them
        if value > best_value:
            best, best_value = action, value
    return best


def choose_buy(observation, legal_actions):
    # ["buy", card]: only what the credits pay for is offered; "end" stops buying.
    me = observation["players"][observation["seat"]]
    deck = observation["hand"] + observation["discard"]  # the cards we know we own
    crew = [a for a in legal_actions if isinstance(a, list) and a[0] == "buy" and a[1] in CREW]
    # Crew cards meet Crew ("C") requirements: keep about one for every six cards.
    if crew and sum(card in CREW for card in deck) * 6 < len(deck) + me["draw_size"]:
        return max(crew, key=lambda action: CREW[action[1]].cost)
    for card in ADVANCED:
        if ["buy", card] in legal_actions:
            return ["buy", card]
    return "end"
