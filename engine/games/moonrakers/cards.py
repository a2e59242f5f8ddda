"""Moonrakers card data: loaded once from `data/*.json` into frozen dataclasses.

Card identities used everywhere in the engine are short strings: Action cards
by kind ("R", "T+", "D1", ...), Crew, Ship Parts, Contracts and Objectives by
slug ("moro-mada", "duo-1000", "black-hole", "money-bags").
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# A deck position's mask value when every seat knows the card there (table.py's masks).
ALL = -1

DATA = Path(__file__).with_name("data")


def _load(name: str) -> Any:
    with open(DATA / name, encoding="utf-8") as handle:
        return json.load(handle)


def _freeze(value: Any) -> Any:
    """JSON lists -> tuples (recursively) so op lists in frozen records stay immutable."""
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return {k: _freeze(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class ActionKind:
    id: str
    name: str
    cat: str  # R, T, S, D or M
    req: int
    actions: int
    draw: int
    block: int
    basic: bool


@dataclass(frozen=True)
class Contract:
    id: str
    name: str
    set: str
    type: str  # Kill, Explore, Rescue, Delivery
    mode: str  # normal, flex, h2h
    prestige: int
    credits: int
    bonus: int
    req: dict[str, int]
    hazard_dice: int
    counts: tuple[str, ...] = ()
    second_credits: int = 0


@dataclass(frozen=True)
class Crew:
    id: str
    name: str
    set: str
    cls: str
    cost: int
    ops: tuple[Any, ...]
    io: bool
    io_ability: tuple[Any, ...]
    text: str


@dataclass(frozen=True)
class Part:
    id: str
    name: str
    set: str
    brand: str
    cost: int
    adds: tuple[str, ...]
    start: tuple[Any, ...]
    ability: bool
    passive: bool
    io: bool
    text: str


@dataclass(frozen=True)
class Objective:
    id: str
    name: str
    set: str
    check: str  # contract, parts, io, turn_end, buy
    text: str


_actions = _load("action_cards.json")
ACTION: dict[str, ActionKind] = {
    c["id"]: ActionKind(
        c["id"], c["name"], c["cat"], c["req"], c["actions"], c["draw"], c["block"], c["basic"]
    )
    for c in _actions["cards"]
}
# Virtual kinds only ever "played as" by a Crew (never a physical card).
for _v in _actions["virtual"]:
    ACTION[_v["id"]] = ActionKind(_v["id"], _v["id"], _v["cat"], _v["req"], 0, 0, 0, False)
BASIC_KINDS = ("R", "T", "S", "D1", "D2", "D3", "M")
ADVANCED_KINDS = ("R+", "Rx", "T+", "Tx", "S+", "Sx", "D+")
DAMAGE_KINDS = ("D1", "D2", "D3", "D+")
DAMAGE_UPGRADES: dict[str, tuple[str, ...]] = {
    k: tuple(v) for k, v in _actions["damage_upgrades"].items() if not k.startswith("_")
}
# Cards of the same type, for the Overload substitution rule ("any other card of the same type").
SAME_TYPE: dict[str, tuple[str, ...]] = {
    "R": ("R", "R+", "Rx"),
    "T": ("T", "T+", "Tx"),
    "S": ("S", "S+", "Sx"),
    "D": ("D1", "D2", "D3", "D+"),
}
ADVANCED_OF: dict[str, tuple[str, ...]] = {
    "R": ("R+", "Rx"),
    "T": ("T+", "Tx"),
    "S": ("S+", "Sx"),
    "D": ("D+",),
}

CONTRACTS: dict[str, Contract] = {}
for _c in _load("contracts.json")["contracts"]:
    CONTRACTS[_c["id"]] = Contract(
        _c["id"],
        _c["name"],
        _c["set"],
        _c["type"],
        _c["mode"],
        _c["prestige"],
        _c["credits"],
        _c["bonus"],
        dict(_c["req"]),
        _c["hazard_dice"],
        tuple(_c.get("counts", ())),
        _c.get("second_credits", 0),
    )

CREW: dict[str, Crew] = {
    c["id"]: Crew(
        c["id"],
        c["name"],
        c["set"],
        c["class"],
        c["cost"],
        _freeze(c["ops"]),
        c["io"],
        _freeze(c.get("io_ability", [])),
        c["text"],
    )
    for c in _load("crew.json")["crew"]
}

PARTS: dict[str, Part] = {
    p["id"]: Part(
        p["id"],
        p["name"],
        p["set"],
        p["brand"],
        p["cost"],
        tuple(p["adds"]),
        _freeze(p["start"]),
        p["ability"],
        p["passive"],
        p["io"],
        p["text"],
    )
    for p in _load("parts.json")["parts"]
}

OBJECTIVES: dict[str, Objective] = {
    o["id"]: Objective(o["id"], o["name"], o["set"], o["check"], o["text"])
    for o in _load("objectives.json")["objectives"]
}

RULES: dict[str, Any] = _load("rules.json")


def category(card: str) -> str:
    """R, T, S, D, M for Action cards, C for Crew."""
    kind = ACTION.get(card)
    return kind.cat if kind is not None else "C"


def is_crew(card: str) -> bool:
    return card in CREW


def ids_for(sets: tuple[str, ...], table: dict[str, Any]) -> list[str]:
    return [key for key, rec in table.items() if rec.set in sets]
