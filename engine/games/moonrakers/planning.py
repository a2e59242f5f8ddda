"""Planning: the Mission Leader's turn start, Stay at Base, choosing a contract,
negotiating with invited Allies (A-9) and joining Head to Head contracts.

Negotiation (A-9) is a series of single-seat decisions: the ML invites one
player at a time and builds an offer field by field (Prestige, Credits, Bonus
cards, Hazard dice, each out of what the contract still has unassigned), then
the invitee accepts or declines. Each invitee can receive at most 4 proposals
(the first plus 3 revisions). Accepted deals are binding and paid on success.
"""

from __future__ import annotations

from typing import Any

from engine.games.moonrakers import objectives
from engine.games.moonrakers.cards import CONTRACTS, RULES
from engine.games.moonrakers.machine import Op, auto, choice, resolves
from engine.games.moonrakers.setup import clear_contract
from engine.games.moonrakers.table import Table

ALL = -1
PROPOSALS = RULES["negotiation"]["proposals_per_invitee"]
MERC_REVEAL = RULES["merc_deck"]["reveal"]
WIN = RULES["win_prestige"]["value"]
SOLO_TURNS = RULES["solo_turns"]["value"]
FIELDS = ("p", "c", "b", "h")


def draw_contract(st: Table) -> str | None:
    if not st.cdeck and st.cdiscard:
        # an exhausted contract deck is reshuffled from the discard.
        st.cdeck = st.cdiscard
        st.cdiscard = []
        st.rng.shuffle(st.cdeck)
        st.cmask = [0] * len(st.cdeck)
    return st.pop_top(st.cdeck, st.cmask)


def replace_slot(st: Table, slot: int) -> None:
    """Send the contract in `slot` to the bottom of the deck and deal a new one."""
    old = st.row[slot]
    st.row[slot] = draw_contract(st)
    if old is not None:
        st.put_bottom(st.cdeck, st.cmask, old, ALL)


@auto("start_turn")
def _start_turn(st: Table, seat: int) -> None:
    st.ml = seat
    st.replaced = False
    st.armory_discards = 0
    clear_contract(st)
    if st.num_players <= 2:
        # each Planning phase reveals 5 Mercenary cards. E-moonrakers-20: the
        # previous ones go under the (shuffled once) Merc deck, the next 5 come up.
        deck, mask = st.merc_deck, st.merc_mask
        for card in st.merc_row:
            if card is not None:
                st.put_bottom(deck, mask, card, ALL)
        st.merc_row = [st.pop_top(deck, mask) for _ in range(min(MERC_REVEAL, len(deck)))]
    st.push("plan", seat)


@choice("plan")
def _plan_options(st: Table, op: Op) -> list[Any]:
    opts: list[Any] = ["base"]
    slots = [i for i, c in enumerate(st.row) if c is not None]
    opts.extend(["contract", i] for i in slots)
    if not st.replaced and st.credits[op[1]] >= 1 and (st.cdeck or st.cdiscard):
        opts.extend(["replace", i] for i in slots)
    return opts


@resolves("plan")
def _plan(st: Table, op: Op, action: Any) -> None:
    ml = op[1]
    if action == "base":
        for step in reversed(
            (
                ("draw_objectives", ml),
                ("keep_objective", ml),
                ("gain_credits", ml, 1),
                ("free_replace", ml),
                ("refresh_hand", ml),
                ("buy_start", ml),
            )
        ):
            st.push(*step)
        return
    kind, slot = action
    if kind == "replace":
        st.credits[ml] -= 1
        st.replaced = True
        replace_slot(st, slot)
        st.push("plan", ml)
        return
    cid = st.row[slot]
    rec = CONTRACTS[cid]
    st.contract = cid
    st.slot = slot
    st.row[slot] = None
    st.h2h = rec.mode == "h2h"
    st.counts = rec.counts
    st.participants = [ml]
    if st.h2h:
        # Everyone may join without an invitation; nobody is an Ally.
        st.push("exec_start", ml)
        for i in range(st.num_players - 1, 0, -1):
            st.push("join", (ml + i) % st.num_players)
    else:
        st.rem = dict(rec.req)
        st.proposals = [PROPOSALS if s != ml else 0 for s in range(st.num_players)]
        st.push("negotiate", ml)


# ----- Stay at Base ---------------------------------------------------------------------


@auto("draw_objectives")
def _draw_objectives(st: Table, seat: int) -> None:
    for _ in range(RULES["objectives"]["stay_draw"]):
        card = st.pop_top(st.obj_deck, st.obj_mask)
        if card is not None:
            st.obj_pick[seat].append(card)


@choice("keep_objective")
def _keep_options(st: Table, op: Op) -> list[Any]:
    picks = st.obj_pick[op[1]]
    if len(picks) < 2:
        return ["keep_all"]
    return [["keep", o] for o in picks]


@resolves("keep_objective")
def _keep(st: Table, op: Op, action: Any) -> None:
    seat = op[1]
    picks = st.obj_pick[seat]
    if action != "keep_all":
        kept = action[1]
        picks.remove(kept)
        for other in picks:
            st.put_bottom(st.obj_deck, st.obj_mask, other, 1 << seat)
        picks.clear()
        picks.append(kept)
    st.objs[seat].extend(picks)
    picks.clear()


@auto("gain_credits")
def _gain_credits(st: Table, seat: int, amount: int) -> None:
    st.credits[seat] += amount


@choice("free_replace")
def _free_replace_options(st: Table, op: Op) -> list[Any]:
    if not (st.cdeck or st.cdiscard):
        return []
    opts: list[Any] = ["no_replace"]
    opts.extend(["replace", i] for i, c in enumerate(st.row) if c is not None)
    return opts


@resolves("free_replace")
def _free_replace(st: Table, op: Op, action: Any) -> None:
    if action != "no_replace":
        replace_slot(st, action[1])


@auto("refresh_hand")
def _refresh_hand(st: Table, seat: int) -> None:
    """A-11: discard the whole hand and draw a fresh one."""
    st.discard[seat].extend(st.hand[seat])
    st.hand[seat] = []
    st.known[seat] = []
    st.draw_cards(seat, st.hand_limit(seat))


# ----- Negotiation (A-9) -------------------------------------------------------------------


def _available(st: Table) -> tuple[int, int, int, int]:
    rec = CONTRACTS[st.cid]
    p, c, b, h = rec.prestige, rec.credits, rec.bonus, rec.hazard_dice
    for deal in st.deals.values():
        p -= deal[0]
        c -= deal[1]
        b -= deal[2]
        h -= deal[3]
    return p, c, b, h


@choice("negotiate")
def _negotiate_options(st: Table, op: Op) -> list[Any]:
    ml = op[1]
    opts: list[Any] = ["go"]
    for i in range(1, st.num_players):
        s = (ml + i) % st.num_players
        if s not in st.deals and st.proposals[s] > 0:
            opts.append(["invite", s])
    return opts


@resolves("negotiate")
def _negotiate(st: Table, op: Op, action: Any) -> None:
    ml = op[1]
    if action == "go":
        st.push("exec_start", ml)
        return
    invitee = action[1]
    st.invitee = invitee
    st.offer = [0, 0, 0, 0]
    st.push("answer", invitee)
    for field in (3, 2, 1, 0):
        st.push("offer", ml, field)


@choice("offer")
def _offer_options(st: Table, op: Op) -> list[Any]:
    field = op[2]
    avail = _available(st)[field]
    name = FIELDS[field]
    return [[name, k] for k in range(avail + 1)]


@resolves("offer")
def _offer(st: Table, op: Op, action: Any) -> None:
    assert st.offer is not None
    st.offer[op[2]] = action[1]


@choice("answer")
def _answer_options(st: Table, op: Op) -> list[Any]:
    return ["accept", "decline"]


@resolves("answer")
def _answer(st: Table, op: Op, action: Any) -> None:
    seat = op[1]
    if action == "accept":
        offer = st.offer
        assert offer is not None
        st.deals[seat] = (offer[0], offer[1], offer[2], offer[3])
        st.participants.append(seat)
        order = st.ml
        st.participants.sort(key=lambda s: (s - order) % st.num_players)
    else:
        st.proposals[seat] -= 1
    st.offer = None
    st.invitee = None
    st.push("negotiate", st.ml)


# ----- Head to Head -----------------------------------------------------------------------


@choice("join")
def _join_options(st: Table, op: Op) -> list[Any]:
    return ["join", "pass"]


@resolves("join")
def _join(st: Table, op: Op, action: Any) -> None:
    if action == "join":
        st.participants.append(op[1])


# ----- end of turn ---------------------------------------------------------------------------


@auto("end_turn")
def _end_turn(st: Table, ml: int) -> None:
    objectives.check_turn_end(st)
    st.turns += 1
    n = st.num_players
    best = max(st.prestige)
    if best >= WIN:
        # The first player with 10 Prestige at the end of any turn wins; A-13: the
        # highest Prestige, then the current Mission Leader, breaks a tie.
        leaders = [s for s in range(n) if st.prestige[s] == best]
        st.winner = ml if ml in leaders else (leaders[0] if len(leaders) == 1 else None)
        st.over = True
        st.end_reason = "prestige"
        return
    cap = SOLO_TURNS if n == 1 else st.round_cap * n
    if st.turns >= cap:
        # E-moonrakers-1 (A-17 for solo): the game stops; Prestige decides.
        st.over = True
        st.end_reason = "turn_limit"
        return
    st.push("start_turn", (ml + 1) % n)
