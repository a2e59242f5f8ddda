"""Objectives: secret goals worth +1 Prestige each, claimed automatically (A-16).

Conditions are tested where they can become true: after each Execution step
(IOsphere goals), at the end of each contract, when a part is installed, and at
the end of every turn.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.games.moonrakers.cards import CONTRACTS, PARTS
from engine.games.moonrakers.table import PX, Table

BRAND_GOALS = {
    "megaton": ("Magnomi", 3),
    "over-9000": ("Komek", 3),
    "specialist": ("Sorelia", 2),
    "speed-demon": ("Ventus", 3),
    "tank": ("Henko", 3),
}


def claim(st: Table, seat: int, obj: str) -> None:
    st.objs[seat].remove(obj)
    st.claimed[seat].append(obj)
    st.prestige[seat] += 1


def _parts_goal(st: Table, seat: int, obj: str) -> bool:
    brands = [PARTS[p].brand for p in st.parts[seat]]
    if obj == "generalist":
        return all(b in brands for b in ("Magnomi", "Henko", "Komek", "Ventus"))
    brand, count = BRAND_GOALS[obj]
    return brands.count(brand) >= count


def _io_goal(st: Table, seat: int, obj: str) -> bool:
    values = [v for v in st.io[seat].values() if v > 0]
    if obj == "io-adopter":
        return len(values) >= 2
    return sum(values) >= 6  # io-hoard


def check_parts(st: Table, seat: int) -> None:
    for obj in list(st.objs[seat]):
        if (obj in BRAND_GOALS or obj == "generalist") and _parts_goal(st, seat, obj):
            claim(st, seat, obj)


def check_io(st: Table, seat: int) -> None:
    for obj in list(st.objs[seat]):
        if obj in ("io-adopter", "io-hoard") and _io_goal(st, seat, obj):
            claim(st, seat, obj)


def check_live(st: Table) -> None:
    """After every Execution step: the IOsphere goals of the participants."""
    for seat in st.participants:
        if st.objs[seat] and st.io[seat]:
            check_io(st, seat)


def on_tinker(st: Table, seat: int) -> None:
    if "tinker" in st.objs[seat]:
        claim(st, seat, "tinker")


def check_turn_end(st: Table) -> None:
    ml = st.ml
    if "money-bags" in st.objs[ml] and st.credits[ml] >= 8:
        claim(st, ml, "money-bags")
    for seat in range(st.num_players):
        check_parts(st, seat)
        check_io(st, seat)


def _solo(st: Table, seat: int) -> bool:
    return not st.h2h and st.participants == [seat]


ContractGoal = Callable[["Table", int, "PX", bool, bool, str], bool]

CONTRACT_GOALS: dict[str, ContractGoal] = {
    "ace": lambda st, s, px, done, failed, typ: done and px.rolled >= 2,
    "barrage": lambda st, s, px, done, failed, typ: px.dmg >= 5,
    "chain-reaction": lambda st, s, px, done, failed, typ: px.n["R"] >= 4,
    "daredevil": lambda st, s, px, done, failed, typ: done and typ == "Rescue" and not px.n["S"],
    "efficiency": lambda st, s, px, done, failed, typ: done and typ == "Delivery" and not px.n["T"],
    "fire-support": lambda st, s, px, done, failed, typ: done and typ == "Kill" and not px.n["D"],
    "gun-for-hire": lambda st, s, px, done, failed, typ: done and typ == "Kill" and _solo(st, s),
    "natural-leader": lambda st, s, px, done, failed, typ: px.n["C"] >= 3,
    "quick-run": lambda st, s, px, done, failed, typ: done and typ == "Delivery" and _solo(st, s),
    "quick-strike": lambda st, s, px, done, failed, typ: px.n["T"] >= 3,
    "saboteur": lambda st, s, px, done, failed, typ: failed and not st.h2h and s != st.ml,
    "santa-maria": lambda st, s, px, done, failed, typ: done and typ == "Explore" and _solo(st, s),
    "shield-wall": lambda st, s, px, done, failed, typ: px.n["S"] >= 3,
    "utopia": lambda st, s, px, done, failed, typ: (
        done
        and not st.h2h
        and s == st.ml
        and st.num_players >= 2
        and len(st.participants) == st.num_players
    ),
    "youre-my-hero": lambda st, s, px, done, failed, typ: done and typ == "Rescue" and _solo(st, s),
    "arsenal": lambda st, s, px, done, failed, typ: len(px.dkinds) >= 3,
    "io-power": lambda st, s, px, done, failed, typ: px.io_spent >= 3,
    "junker": lambda st, s, px, done, failed, typ: px.trashed >= 2,
    "parasite": lambda st, s, px, done, failed, typ: done and px.cards == 0,
    "tactical": lambda st, s, px, done, failed, typ: px.n["S"] >= 2 and px.n["D"] >= 2,
    "technologic": lambda st, s, px, done, failed, typ: len(px.advkinds) >= 3,
    "untouchable": lambda st, s, px, done, failed, typ: px.block_eff >= 2 and not px.n["S"],
    "weird-flex": lambda st, s, px, done, failed, typ: (
        done and _solo(st, s) and CONTRACTS[st.cid].mode == "flex"
    ),
}


def check_contract(st: Table) -> None:
    completed, failed, _success = st.outcome
    typ = CONTRACTS[st.cid].type
    for seat in st.participants:
        px = st.px[seat]
        done = seat in completed
        lost = seat in failed
        for obj in list(st.objs[seat]):
            goal = CONTRACT_GOALS.get(obj)
            if goal is not None and goal(st, seat, px, done, lost, typ):
                claim(st, seat, obj)
        check_parts(st, seat)
        check_io(st, seat)
