"""A Moon Adventure starter bot: gather close to the base, always keep oxygen to get home.

Standard library only. `act(observation, legal_actions)` is called each time it is your
seat's decision; it must return one element of `legal_actions`, unchanged. The game's
page in the guide shows a real observation with every field explained.

The game is cooperative: every seat of the team runs this same file and shares the
result. `observation["phase"]` says what is being decided:
- oxygen: burn a 2xO2 card first, keeping the 3xO2 cards (more dice) for the way home;
- act: walk out and gather supplies while the oxygen left can still bring us home,
  then walk home (gathering on the way when the AP allow);
- replenish (ending a turn on an OGS): draw oxygen; anything else: the first action.
"""

# Action points we count on from one oxygen card, kept low so that we come home: two
# dice give 3 or more 35 times in 36, three dice 5 or more 49 times in 50.
SAFE_AP = {2: 3, 3: 5}
GATHER_AP = 3  # what "gather" costs (2 for the Veteran: observation["roles"])
MIN_AREA = 3  # gather chips of this area or farther out (area 3: 3 of 7 are undamaged)
KEEP_OXYGEN = 4  # oxygen cards to hold after a replenish; the other slots hold supplies


def oxygen_cards(observation):
    # Our container slots: None (empty), {"oxygen": 2 or 3}, or a supply chip {"area": ...}.
    slots = observation["containers"][observation["seat"]]
    return [slot["oxygen"] for slot in slots if slot and "oxygen" in slot]


def act(observation, legal_actions):
    if len(legal_actions) == 1:
        return legal_actions[0]
    phase = observation["phase"]
    if phase == "oxygen":  # "oxygen2" or "oxygen3": the card to burn this turn
        choice = "oxygen2"
    elif phase == "act":
        choice = choose_action(observation, legal_actions)
    elif phase == "replenish":  # "draw" a card from the draw pile, or "stop"
        choice = "draw" if len(oxygen_cards(observation)) < KEEP_OXYGEN else "stop"
    else:
        choice = None
    return choice if choice in legal_actions else legal_actions[0]


def choose_action(observation, legal_actions):
    seat = observation["seat"]
    position = observation["crew"][seat]  # our space on the track; the base is 0
    ap = observation["ap"]  # action points left this turn
    oxygen = oxygen_cards(observation)
    free_slots = observation["containers"][seat].count(None)
    gather_ap = 2 if observation["roles"][seat] == "veteran" else GATHER_AP
    # Walking home costs at most one AP a space (crew and routes are jumped for free).
    reach_later = sum(SAFE_AP[card] for card in oxygen)

    if not oxygen or position > reach_later:
        # Last oxygen card in use (or too far out): home now, picking up what we can.
        can_gather = free_slots and ap - gather_ap >= position - 1
        if can_gather and "gather-" in legal_actions and chip_toward_base(observation):
            return "gather-"
        return "move-" if "move-" in legal_actions else "end"
    # Short of oxygen: build an OGS (Oxygen Generation System) next to us and end the turn
    # on it, where we replenish (phase "replenish"); the Mechanic builds one for 1 AP.
    track = observation["track"]  # each space: {"kind": "supply" | "ogs" | ..., ...}
    beyond = track[position + 1] if position + 1 < len(track) else {"kind": "end"}
    mechanic = observation["roles"][seat] == "mechanic" and not observation["used"]["mechanic"]
    ogs_ap = 1 if mechanic else 3
    on_ogs = track[position]["kind"] == "ogs"
    if len(oxygen) <= 1 and position > 0 and not on_ogs:
        if beyond["kind"] == "ogs" and "move+" in legal_actions:
            return "move+"
        if ap >= ogs_ap + 1 and observation["ogs_left"] and "ogs+" in legal_actions:
            return "ogs+"
    # Gather the chip beyond us (the track's next space), else walk on.
    if free_slots and ap >= gather_ap and "gather+" in legal_actions and worth(beyond):
        return "gather+"
    if on_ogs and len(oxygen) <= 1:
        return "end"  # stay to replenish
    if ap >= 1 and position + 1 <= reach_later and "move+" in legal_actions:
        return "move+"
    return "end"


def worth(space):
    """Is this space a chip worth gathering? Area N holds N undamaged chips of 7."""
    return space["kind"] == "supply" and space["area"] >= MIN_AREA and not space["broken"]


def chip_toward_base(observation):
    """Is the space between us and the base a supply chip (gather- takes it)?"""
    space = observation["track"][observation["crew"][observation["seat"]] - 1]
    # Each space: {"kind": "supply" | "collected" | "ogs" | "base" | ..., "route": bool, ...}
    return space["kind"] == "supply"
