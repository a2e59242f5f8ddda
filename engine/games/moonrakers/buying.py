"""Buying (Mission Leader only): Armory purchases, Advanced cards (A-15),
installing Ship Parts (4 slots; a 5th replaces one), and discarding from the
Armory (base: once for 1 Credit; Overload: 1 free at the start of the phase,
then a second for 1 Credit, never a third).
"""

from __future__ import annotations

from typing import Any

from engine.games.moonrakers import objectives
from engine.games.moonrakers.cards import ADVANCED_KINDS, ALL, CREW, PARTS, RULES
from engine.games.moonrakers.machine import Op, auto, choice, resolves
from engine.games.moonrakers.table import Table

MAX_PARTS = RULES["max_parts"]["value"]
ADV_PRICE = RULES["advanced_price"]["value"]


def take_from_armory(st: Table, card: str) -> None:
    """Remove `card` from the face-up Armory and refill its slot from its deck."""
    if card in CREW:
        row, deck, mask = st.armory_crew, st.crew_deck, st.crew_mask
    else:
        row, deck, mask = st.armory_parts, st.part_deck, st.part_mask
    slot = row.index(card)
    row[slot] = st.pop_top(deck, mask)


def install(st: Table, seat: int, part: str, bought: bool) -> None:
    if part is None:
        return
    if len(st.parts[seat]) >= MAX_PARTS:
        st.push("remove_part", seat, part, 1 if bought else 0)
        return
    _attach(st, seat, part)


def _attach(st: Table, seat: int, part: str) -> None:
    st.parts[seat].append(part)
    if part == "predator-mk1":
        st.predator = True
    # The Action cards shown on the part go to the discard pile (in reverse so the
    # first listed card is gained first when substitutions are asked for).
    for card in reversed(PARTS[part].adds):
        st.push("gain", seat, part, card, "discard")
    objectives.check_parts(st, seat)


@choice("remove_part")
def _remove_options(st: Table, op: Op) -> list[Any]:
    return [["remove", p] for p in st.parts[op[1]]]


@resolves("remove_part")
def _remove(st: Table, op: Op, action: list[Any]) -> None:
    seat, new, bought = op[1], op[2], op[3]
    old = action[1]
    # The replaced part leaves the game; the Action cards it added stay.
    st.parts[seat].remove(old)
    st.io[seat].pop(old, None)
    if old == "predator-mk1":
        st.predator = any("predator-mk1" in p for p in st.parts)
    if bought:
        objectives.on_tinker(st, seat)
    _attach(st, seat, new)


@auto("buy_start")
def _buy_start(st: Table, ml: int) -> None:
    st.armory_discards = 0
    st.push("buy", ml)
    if st.ovl:
        st.push("free_discard", ml)


def _armory_cards(st: Table) -> list[str]:
    return [c for c in st.armory_crew + st.armory_parts if c is not None]


@choice("free_discard")
def _free_discard_options(st: Table, op: Op) -> list[Any]:
    return ["keep", *(["discard", c] for c in _armory_cards(st))]


@resolves("free_discard")
def _free_discard(st: Table, op: Op, action: Any) -> None:
    if action != "keep":
        _discard_armory(st, action[1])


def _discard_armory(st: Table, card: str) -> None:
    st.armory_discards += 1
    take_from_armory(st, card)
    if card in CREW:
        st.put_bottom(st.crew_deck, st.crew_mask, card, ALL)
    else:
        st.put_bottom(st.part_deck, st.part_mask, card, ALL)


def can_buy_part(st: Table, seat: int, part: str) -> bool:
    if PARTS[part].cost > st.credits[seat]:
        return False
    if part == "devotion-3050":
        henko = sum(1 for p in st.parts[seat] if PARTS[p].brand == "Henko")
        return henko >= 2
    return True


@choice("buy")
def _buy_options(st: Table, op: Op) -> list[Any]:
    seat = op[1]
    money = st.credits[seat]
    opts: list[Any] = ["end"]
    for c in st.armory_crew:
        if c is not None and CREW[c].cost <= money:
            opts.append(["buy", c])
    for p in st.armory_parts:
        if p is not None and can_buy_part(st, seat, p):
            opts.append(["buy", p])
    if st.adv is not None and money >= ADV_PRICE:
        opts.extend(["buy", k] for k in ADVANCED_KINDS if st.adv[k] > 0)
    paid_discard_allowed = st.armory_discards == (1 if st.ovl else 0)
    if paid_discard_allowed and money >= 1:
        opts.extend(["discard", c] for c in _armory_cards(st))
    return opts


@resolves("buy")
def _buy(st: Table, op: Op, action: Any) -> None:
    seat = op[1]
    if action == "end":
        st.push("end_turn", seat)
        return
    st.push("buy", seat)
    kind, card = action
    if kind == "discard":
        st.credits[seat] -= 1
        _discard_armory(st, card)
    elif card in ADVANCED_KINDS:
        st.credits[seat] -= ADV_PRICE
        st.gain(seat, card)
    elif card in CREW:
        st.credits[seat] -= CREW[card].cost
        take_from_armory(st, card)
        st.discard[seat].append(card)
    else:
        st.credits[seat] -= PARTS[card].cost
        take_from_armory(st, card)
        install(st, seat, card, bought=True)
