"""Moon-Bots card data: loaded once from data/cards.toml into frozen dataclasses.

Card instances are numbered 0..64 in a fixed order (parts, upgrades, secret
weapons), so a state can hold plain integers. Activation conditions are
pre-computed into lookup tables indexed by die value (1..6).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).with_name("data") / "cards.toml"

SLOTS = ("head", "torso", "left_arm", "right_arm", "left_leg", "right_leg")
BOARD = "board"  # the built-in ability's slot name in actions and observations

PART, UPGRADE, SECRET = "part", "upgrade", "secret"
FIST, MISSILE = "fist", "missile"

CONDITION_KINDS = ("one", "doubles", "total7", "total_lt4", "total_gt10")


@dataclass(frozen=True)
class Condition:
    """An activation condition. `dice` is 1 (one die) or 2 (a pair of dice)."""

    kind: str
    values: tuple[int, ...] = ()

    @property
    def dice(self) -> int:
        return 1 if self.kind == "one" else 2

    def accepts(self, a: int, b: int | None = None) -> bool:
        kind = self.kind
        if kind == "one":
            return b is None and a in self.values
        if b is None:
            return False
        if kind == "doubles":
            return a == b
        if kind == "total7":
            return a + b == 7
        if kind == "total_lt4":
            return a + b < 4
        if kind == "total_gt10":
            return a + b > 10
        raise ValueError(kind)

    def describe(self) -> str:
        if self.kind == "one":
            return "one die in " + ",".join(map(str, self.values))
        return {
            "doubles": "two dice showing the same number",
            "total7": "two dice totalling 7",
            "total_lt4": "two dice totalling less than 4",
            "total_gt10": "two dice totalling more than 10",
        }[self.kind]


@dataclass(frozen=True)
class Ability:
    """What a robot part (or a board's built-in ability) does when activated."""

    key: str
    slot: str
    name: str
    condition: Condition
    fists: int
    missiles: int
    energy: int  # + gain / - loss for the owner
    assumption: str
    # Pre-computed for the hot path: single[v] for one-die conditions,
    # pair[a][b] for two-dice conditions (index 0 unused).
    single: tuple[bool, ...]
    pair: tuple[tuple[bool, ...], ...]
    pairs: tuple[tuple[int, int], ...]  # accepted (a, b) with a <= b

    @property
    def hit_type(self) -> str | None:
        if self.fists:
            return FIST
        if self.missiles:
            return MISSILE
        return None

    @property
    def hits(self) -> int:
        return self.fists + self.missiles

    def describe(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "slot": self.slot,
            "name": self.name,
            "condition": self.condition.kind,
            "values": list(self.condition.values),
            "dice": self.condition.dice,
            "fists": self.fists,
            "missiles": self.missiles,
            "energy": self.energy,
        }


@dataclass(frozen=True)
class Card:
    """One physical Abilities card."""

    id: int
    category: str  # PART, UPGRADE or SECRET
    key: str  # part key ("P01"), upgrade kind ("extra_die") or weapon kind ("dodge")
    name: str
    cost_mark: int  # the +1 cost mark
    three_player: bool  # removed from a 3-player game
    assumption: str
    ability: Ability | None = None  # robot parts only


@dataclass(frozen=True)
class Rules:
    start_energy: tuple[int, ...]
    start_energy_two_player: tuple[int, ...]
    max_energy: int
    turn_gain_cap: int
    row_costs: tuple[int, ...]
    market_columns: int
    secret_weapons_removed: int
    max_upgrades: int
    max_extra_dice: int
    start_dice: int
    reroll_dice: int
    energy_stock_gain: int
    energy_pump_gain: int
    stronger_hits: int
    shock_absorber_hits: int
    deflection_hits: int
    max_rounds: int


def _condition(raw: dict[str, Any]) -> Condition:
    kind = raw["kind"]
    if kind not in CONDITION_KINDS:
        raise ValueError(f"unknown activation condition {kind!r}")
    values = tuple(raw.get("values", ()))
    if kind == "one" and not values:
        raise ValueError("a one-die condition needs values")
    return Condition(kind, values)


def _ability(raw: dict[str, Any], slot: str, key: str) -> Ability:
    cond = _condition(raw["condition"])
    single = tuple(v in cond.values for v in range(7)) if cond.kind == "one" else (False,) * 7
    pair = tuple(
        tuple(cond.dice == 2 and a > 0 and b > 0 and cond.accepts(a, b) for b in range(7))
        for a in range(7)
    )
    fists, missiles = raw.get("fists", 0), raw.get("missiles", 0)
    if fists and missiles:
        raise ValueError(f"{key}: one attack type per ability")
    return Ability(
        key=key,
        slot=slot,
        name=raw.get("name", key),
        condition=cond,
        fists=fists,
        missiles=missiles,
        energy=raw.get("energy", 0),
        assumption=raw.get("assumption", ""),
        single=single,
        pair=pair,
        pairs=tuple((a, b) for a in range(1, 7) for b in range(a, 7) if pair[a][b]),
    )


def _load() -> tuple[Rules, tuple[Card, ...], dict[int, Ability]]:
    with DATA_FILE.open("rb") as handle:
        data = tomllib.load(handle)
    raw_rules = data["rules"]
    fields: dict[str, Any] = {
        k: tuple(v) if isinstance(v, list) else v for k, v in raw_rules.items()
    }
    rules = Rules(**fields)
    cards: list[Card] = []
    for raw in data["part"]:
        if raw["slot"] not in SLOTS:
            raise ValueError(f"{raw['key']}: unknown slot {raw['slot']!r}")
        cards.append(
            Card(
                id=len(cards),
                category=PART,
                key=raw["key"],
                name=raw["name"],
                cost_mark=raw.get("cost_mark", 0),
                three_player=raw.get("three_player", False),
                assumption=raw["assumption"],
                ability=_ability(raw, raw["slot"], raw["key"]),
            )
        )
    for section, category in (("upgrade", UPGRADE), ("secret", SECRET)):
        for raw in data[section]:
            marked = raw.get("three_player", 0)
            for copy in range(raw["count"]):
                cards.append(
                    Card(
                        id=len(cards),
                        category=category,
                        key=raw["key"],
                        name=raw["name"],
                        cost_mark=raw.get("cost_mark", 0),
                        three_player=copy < marked,
                        assumption=raw["assumption"],
                    )
                )
    boards = {raw["board"]: _ability(raw, BOARD, f"board{raw['board']}") for raw in data["board"]}
    return rules, tuple(cards), boards


RULES, CARDS, BOARDS = _load()

PART_IDS = tuple(c.id for c in CARDS if c.category == PART)
SECRET_IDS = tuple(c.id for c in CARDS if c.category == SECRET)
SECRET_KINDS = tuple(dict.fromkeys(CARDS[i].key for i in SECRET_IDS))
UPGRADE_KINDS = tuple(dict.fromkeys(c.key for c in CARDS if c.category == UPGRADE))
# Fast lookups used by the state: card id -> fields.
CATEGORY = tuple(c.category for c in CARDS)
KEY = tuple(c.key for c in CARDS)
SLOT_INDEX = tuple(SLOTS.index(c.ability.slot) if c.ability else -1 for c in CARDS)
IS_SECRET = tuple(c.category == SECRET for c in CARDS)


def card_view(card_id: int) -> dict[str, Any]:
    """A face-up card as observations show it (self-describing, so bots need no data)."""
    card = CARDS[card_id]
    view: dict[str, Any] = {"category": card.category, "key": card.key, "name": card.name}
    if card.ability is not None:
        view.update(card.ability.describe())
    view["cost_mark"] = card.cost_mark
    return view
