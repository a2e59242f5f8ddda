"""Moonrakers set-up: decks, Armory, Dispatch (8 contracts), starting decks, objectives.

Overload adds its cards to every deck, sets aside Head to Head and >2-hazard-die
contracts while dealing the 8 face-up contracts, and (1-2 players) removes Head
to Head contracts and keeps IO crew out of the Mercenary deck.
"""

from __future__ import annotations

from typing import Any

from engine.games.moonrakers.cards import (
    ADVANCED_KINDS,
    CONTRACTS,
    CREW,
    OBJECTIVES,
    PARTS,
    RULES,
    ids_for,
)
from engine.games.moonrakers.machine import Op, auto, choice, resolves
from engine.games.moonrakers.table import Table

ALL = -1


def setup(st: Table) -> None:
    n = st.num_players
    rng = st.rng
    st.ovl = "overload" in st.options["expansions"]
    sets = ("base", "overload") if st.ovl else ("base",)
    st.hand_size = RULES["hand_size"]["value"]
    st.round_cap = st.options["max_rounds"]
    st.over = False
    st.winner = None
    st.end_reason = ""
    st.turns = 0
    st.stack = []
    st.last = None
    st.predator = False
    st.ml_share = (0, 0)
    st.outcome = ([], [], False)

    # Contracts (Dispatch board).
    contracts = ids_for(sets, CONTRACTS)
    if n <= 2:
        contracts = [c for c in contracts if CONTRACTS[c].mode != "h2h"]
    rng.shuffle(contracts)
    st.cdeck = contracts
    st.cmask = [0] * len(contracts)
    st.cdiscard = []
    limit = RULES["face_up_contracts"]["setup_max_hazard_dice"]
    row: list[str | None] = []
    aside: list[str] = []
    while len(row) < RULES["face_up_contracts"]["value"] and st.cdeck:
        cid = st.pop_top(st.cdeck, st.cmask)
        assert cid is not None
        rec = CONTRACTS[cid]
        if rec.mode == "h2h" or rec.hazard_dice > limit:
            aside.append(cid)
        else:
            row.append(cid)
    st.cdeck.extend(aside)
    rng.shuffle(st.cdeck)
    st.cmask = [0] * len(st.cdeck)
    st.row = row

    # Armory.
    crew = ids_for(sets, CREW)
    parts = ids_for(sets, PARTS)
    rng.shuffle(crew)
    rng.shuffle(parts)
    st.crew_deck, st.crew_mask = crew, [0] * len(crew)
    st.part_deck, st.part_mask = parts, [0] * len(parts)
    st.merc_deck = []
    st.merc_row = []
    if n <= 2:
        # the Mercenary deck (basic cards + 3 crew; no IO crew with Overload).
        st.merc_deck = list(RULES["merc_deck"]["basic"])
        for _ in range(RULES["merc_deck"]["crew"]):
            pick = merc_crew_from_deck(st)
            if pick is not None:
                st.merc_deck.append(pick)
        rng.shuffle(st.merc_deck)
    st.merc_mask = [0] * len(st.merc_deck)
    st.armory_crew = [
        st.pop_top(st.crew_deck, st.crew_mask) for _ in range(RULES["armory"]["crew"])
    ]
    st.armory_parts = [
        st.pop_top(st.part_deck, st.part_mask) for _ in range(RULES["armory"]["parts"])
    ]
    st.adv = {k: RULES["advanced_supply"]["per_kind"] for k in ADVANCED_KINDS} if st.ovl else None

    # Players.
    start_credits = RULES["starting_credits"]["value"]
    st.credits = [start_credits] * n
    st.prestige = [0] * n
    st.hand, st.draw, st.discard, st.known, st.looking = [], [], [], [], []
    for _ in range(n):
        deck = list(RULES["starting_deck"]["value"])
        rng.shuffle(deck)
        st.draw.append(deck)
        st.hand.append([])
        st.discard.append([])
        st.known.append([])
        st.looking.append([])
    st.top_known = [0] * n
    st.top_public = [0] * n
    st.parts = [[] for _ in range(n)]
    st.io = [{} for _ in range(n)]
    st.inplay = [[] for _ in range(n)]
    for seat in range(n):
        st.draw_cards(seat, st.hand_size)

    # Objectives: deal 3, keep 2 (the third goes to the bottom of the deck).
    objectives = ids_for(sets, OBJECTIVES)
    rng.shuffle(objectives)
    st.obj_deck, st.obj_mask = objectives, [0] * len(objectives)
    st.objs = [[] for _ in range(n)]
    st.claimed = [[] for _ in range(n)]
    st.obj_pick = [[] for _ in range(n)]
    for seat in range(n):
        for _ in range(RULES["objectives"]["deal"]):
            card = st.pop_top(st.obj_deck, st.obj_mask)
            if card is not None:
                st.obj_pick[seat].append(card)

    # Turn and contract bookkeeping.
    st.first = rng.randrange(n)  # E-moonrakers-3: random first Mission Leader
    st.ml = st.first
    clear_contract(st)
    st.replaced = False
    st.armory_discards = 0
    st.push("start_turn", st.first)
    for i in reversed(range(n)):
        st.push("drop_objective", (st.first + i) % n)


def clear_contract(st: Table) -> None:
    st.contract = None
    st.slot = -1
    st.h2h = False
    st.counts = ()
    st.participants = []
    st.allies = []
    st.deals = {}
    st.proposals = [0] * st.num_players
    st.offer = None
    st.invitee = None
    st.rem = {}
    st.score = [0] * st.num_players
    st.kary = 0
    st.px = None
    st.xi = 0
    st.passes = 0


def merc_crew_from_deck(st: Table) -> str | None:
    """The first non-IO crew from the top of the Crew deck (A-17, Overload 1-2 players)."""
    for i in range(len(st.crew_deck) - 1, -1, -1):
        card = st.crew_deck[i]
        if not CREW[card].io:
            del st.crew_deck[i]
            del st.crew_mask[i]
            return card
    return None


@choice("drop_objective")
def _drop_options(st: Table, op: Op) -> list[Any]:
    picks = st.obj_pick[op[1]]
    return [["drop", o] for o in picks] if len(picks) > 2 else ["keep"]


@resolves("drop_objective")
def _drop(st: Table, op: Op, action: Any) -> None:
    seat = op[1]
    picks = st.obj_pick[seat]
    if action != "keep":
        picks.remove(action[1])
        st.put_bottom(st.obj_deck, st.obj_mask, action[1], 1 << seat)
    st.objs[seat].extend(picks)
    picks.clear()


@auto("noop")
def _noop(st: Table, seat: int) -> None:
    return None
