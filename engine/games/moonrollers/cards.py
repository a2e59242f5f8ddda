"""Moonrollers components: dice faces, factions, the 30 crew and the hazard tokens.

The crew and hazard data live in `data/*.json` beside this module and are loaded
once, at import, into frozen dataclasses. Everything here is read-only; the
game state refers to crew by their index in `CREW`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

_DATA = Path(__file__).with_name("data")

# Die faces, by index. Each of the 12 dice has exactly one of each (DATA.md 1.1).
DAMAGE, SHIELD, THRUSTER, REACTOR, WILD, EXTRA = range(6)
FACES = ("damage", "shield", "thruster", "reactor", "wild", "extra")
FACE_INDEX = {name: i for i, name in enumerate(FACES)}
NUM_DICE = 12
START_DICE = 5

# faction ids (the colours of S1/S2 mapped to the Moonrakers crew classes).
FACTIONS = ("TECH", "PALADIN", "MERC", "AGENT", "PILOT")
FACTION_INDEX = {name: i for i, name in enumerate(FACTIONS)}

# A-3 (DATA.md 1.6 unknown 4): a die an ability lets you "lock as a Wild" counts as a
# Wild for every requirement, Wild (x2) requirements included; it never counts as a
# real Wild face for abilities that name a face (Aponi & co. doubling, Avari, FT-1000
# ...). This is the default of the game option of the same name (the flag A-3 asks for).
ABILITY_WILD_FILLS_WILD_REQUIREMENT = True

# Display size by player count (rulebook "Table Setup").
DISPLAY_SIZE = {2: 4, 3: 5, 4: 6, 5: 6}


@dataclass(frozen=True)
class Requirement:
    face: int  # index into FACES; WILD means a Wild (x2) requirement
    count: int  # dice needed, and the prestige it pays (doubled for Wild)
    hazard: bool  # completing it draws 2 hazard tokens, keep 1

    @property
    def prestige(self) -> int:
        return self.count * 2 if self.face == WILD else self.count


@dataclass(frozen=True)
class Crew:
    index: int
    id: str  # also the id of its ability
    name: str
    faction: int  # index into FACTIONS
    starter: bool
    requirements: tuple[Requirement, ...]
    ability: str  # rules text from the Crew Ability Appendix


@dataclass(frozen=True)
class HazardKind:
    prestige: int
    hazard: int  # hazard symbols on the token
    count: int  # tokens of this kind in the game


def _load_crew() -> tuple[Crew, ...]:
    raw = json.loads((_DATA / "crew.json").read_text(encoding="utf-8"))
    crew = []
    for index, rec in enumerate(raw["crew"]):
        reqs = tuple(
            Requirement(FACE_INDEX[r["face"]], int(r["count"]), bool(r["hazard"]))
            for r in rec["requirements"]
        )
        crew.append(
            Crew(
                index=index,
                id=rec["id"],
                name=rec["name"],
                faction=FACTION_INDEX[rec["faction"]],
                starter=bool(rec["starter"]),
                requirements=reqs,
                ability=rec["ability"],
            )
        )
    return tuple(crew)


def _load_hazards() -> tuple[HazardKind, ...]:
    raw = json.loads((_DATA / "hazards.json").read_text(encoding="utf-8"))
    return tuple(HazardKind(t["prestige"], t["hazard"], t["count"]) for t in raw["tokens"])


CREW: tuple[Crew, ...] = _load_crew()
CREW_INDEX = {c.id: c.index for c in CREW}
HAZARD_KINDS: tuple[HazardKind, ...] = _load_hazards()
# Tokens are named by their prestige value in actions and observations (1, 2, 5).
HAZARD_PRESTIGE = tuple(k.prestige for k in HAZARD_KINDS)
HAZARD_SYMBOLS = tuple(k.hazard for k in HAZARD_KINDS)
HAZARD_BY_PRESTIGE = {k.prestige: i for i, k in enumerate(HAZARD_KINDS)}
STARTERS = tuple(c.index for c in CREW if c.starter)

# Abilities grouped by what they do (ids = crew ids).
DOUBLERS = {REACTOR: "aponi", DAMAGE: "dr_umbrage", THRUSTER: "sol_forst", SHIELD: "redacted"}
EXTRA_AS_TWO = {
    REACTOR: "ada_massa",
    DAMAGE: "dana_powalki",
    THRUSTER: "nella_van_daval",
    SHIELD: "ryle_al_wren",
}
# "If you roll exactly 1 <face>, that <face> may be locked as a Wild."
SINGLE_AS_WILD = (
    (SHIELD, "bill_bendo"),
    (REACTOR, "lee_van_cribb"),
    (DAMAGE, "tantin_al_vale"),
    (THRUSTER, "zek_zarag"),
)

assert len(CREW) == 30 and len(STARTERS) == len(FACTIONS)
assert sorted(CREW[i].faction for i in STARTERS) == list(range(len(FACTIONS)))
assert sum(k.count for k in HAZARD_KINDS) == 45
