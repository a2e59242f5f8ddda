"""Playing a card: what it costs, an Action card's effect (and what parts add to it), a
Crew's ops, and the Thrust Tuner's look at the top card.

A step of Execution (execution.py) plays a card from the hand here; a Crew effect
(effects.py) or a Ship Part's ability (abilities.py) plays one "as" another through the
same functions.
"""

from __future__ import annotations

from typing import Any

from engine.games.moonrakers.cards import ACTION, ADVANCED_KINDS, CREW, DAMAGE_KINDS
from engine.games.moonrakers.machine import Op, auto, choice, resolves
from engine.games.moonrakers.table import PX, Table


def play_cost(st: Table, seat: int, px: PX, card: str) -> int:
    kind = ACTION.get(card)
    if kind is None:
        return 1
    if card == "D1" and st.predator:
        return 0
    cat = kind.cat
    if cat == "S" and not px.shield_seen and "emulator-mk2" in st.parts[seat]:
        return 0
    if cat == "D" and not px.dmg_seen and "mg-support-core" in st.parts[seat]:
        return 0
    return 1


def play_from_hand(st: Table, seat: int, card: str, modes: list[str]) -> None:
    """Play `card`; `modes` may hold "x2" (MG Overcharger) and "F" (into Flex)."""
    px = st.px[seat]
    double = "x2" in modes
    cost = play_cost(st, seat, px, card) + (1 if double else 0)
    px.actions -= cost
    st.hand_remove(seat, card)
    px.cards += 1
    flex = True if "F" in modes else None
    if card in CREW:
        play_crew(st, seat, card, flex)
        return
    px.played.append(card)
    if double:
        px.used.add("mg-overcharger")
    card_effect(st, seat, card, flex, double=double)


def play_crew(st: Table, seat: int, card: str, flex: bool | None, times: int = 1) -> None:
    rec = CREW[card]
    px = st.px[seat]
    if rec.io:
        if card not in st.inplay[seat]:
            st.inplay[seat].append(card)
        if card not in px.io_played:
            px.io_played.append(card)
    elif card not in px.played:
        px.played.append(card)
    for _ in range(times):
        px.n["C"] += 1
        px.last_cat = "C"
        st.reduce(seat, "C", 1, flex)
        st.push_ops(seat, card, rec.ops)


def card_effect(
    st: Table,
    seat: int,
    kind_id: str,
    flex: bool | None = None,
    double: bool = False,
    times: int = 1,
) -> None:
    """Resolve an Action card (or a card "played as" one) for `seat`."""
    kind = ACTION[kind_id]
    cat = kind.cat
    px = st.px[seat]
    parts = st.parts[seat]
    if cat == "S" and not px.shield_seen:
        px.shield_seen = True
        if "duo-1000" in parts:
            # Duo 1000: the first Shield of any type counts twice.
            times *= 2
    for _ in range(times):
        px.n[cat] += 1
        if kind_id in ADVANCED_KINDS:
            px.advkinds.add(kind_id)
        if kind_id == "R":
            px.basic_r += 1
        if kind.actions:
            px.actions += kind.actions
        if kind.req:
            value = kind.req
            if cat == "D":
                if double:
                    value *= 2
                value += st.kary
                if kind_id in DAMAGE_KINDS:
                    # Arsenal counts Damage card kinds; the Damage 4 / Damage 5 a Crew
                    # plays as are not cards (E-moonrakers-41).
                    px.dkinds.add(kind_id)
                st.deal_damage(seat, value, flex)
            else:
                st.reduce(seat, cat, value, flex)
        if kind.block:
            st.block(seat, kind.block)
        if cat == "R":
            if not px.react_seen:
                px.react_seen = True
                if "accelerator-mk3" in parts:
                    px.actions += 1
            if px.n["R"] == 2 and "mg-phase-core" in parts:
                st.reduce(seat, "D", 1)
            if px.last_cat == "R" and "catalyzer-mk2" in parts and "catalyzer-mk2" not in px.used:
                px.used.add("catalyzer-mk2")
                st.draw_cards(seat, 2)
        elif cat == "S":
            if "dauntless" in parts:
                st.reduce(seat, "D", 1)
        elif cat == "D":
            if not px.dmg_seen:
                px.dmg_seen = True
                if "mg-warp" in parts:
                    st.draw_cards(seat, 2)
            if kind_id == "D2" and "mg-io-overkill" in parts:
                st.io_add(seat, "mg-io-overkill", 1)
        px.last_cat = cat
        if kind.draw:
            # "When playing a *basic* Thruster" (E-moonrakers-36: basic = that card).
            if kind_id == "T" and "thrust-tuner-e2" in parts:
                st.push("tuner", seat, kind.draw)
            else:
                st.draw_cards(seat, kind.draw)


@auto("tuner")
def _tuner(st: Table, seat: int, count: int) -> None:
    card, _public = st._pop_draw(seat)
    if card is None:
        return
    st.looking[seat].append(card)
    st.push("tuner_pick", seat, count)


@choice("tuner_pick")
def _tuner_options(st: Table, op: Op) -> list[Any]:
    return ["keep", "redraw"]


@resolves("tuner_pick")
def _tuner_pick(st: Table, op: Op, action: str) -> None:
    seat, count = op[1], op[2]
    card = st.looking[seat].pop()
    if action == "keep":
        st.hand[seat].append(card)
    else:
        st.discard[seat].append(card)
        st.draw_cards(seat, 1)
    st.draw_cards(seat, count - 1)
