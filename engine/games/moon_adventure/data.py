"""Moon Adventure's fixed data, loaded once from `data/moon_adventure.json`.

Numbers that are defaults rather than known facts keep their DATA.md assumption
id (`A-25` ... `A-31`) beside them in the JSON file and in `Rules.assumptions`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

DATA_FILE = Path(__file__).with_name("data") / "moon_adventure.json"


@dataclass(frozen=True)
class Role:
    id: str
    name: str
    effect: str


@dataclass(frozen=True)
class Rules:
    areas: tuple[int, ...]
    chips_per_area: int
    undamaged_per_area: dict[int, int]
    oxygen_cards: dict[int, int]
    oxygen_per_player: int
    storm_cards: int
    dice_faces: tuple[int, ...]
    containers: int
    carrier_containers: int
    route_pieces: int
    ogs_chips: int
    costs: dict[str, int]
    rover_spaces_per_ap: int
    success: dict[int, int]
    beginner_easing: int
    roles: tuple[Role, ...]
    assumptions: dict[str, str]

    @property
    def role_ids(self) -> tuple[str, ...]:
        return tuple(role.id for role in self.roles)

    def target(self, players: int, beginner: bool) -> int:
        """Undamaged supplies the table must bring back for a successful mission."""
        return self.success[players] - (self.beginner_easing if beginner else 0)


def load(path: Path = DATA_FILE) -> Rules:
    raw = json.loads(path.read_text(encoding="utf-8"))
    track, oxygen = raw["track"], raw["oxygen"]
    return Rules(
        areas=tuple(track["areas"]),
        chips_per_area=track["chips_per_area"],
        undamaged_per_area={int(k): v for k, v in track["undamaged_per_area"].items()},
        oxygen_cards={int(k): v for k, v in oxygen["cards"].items()},
        oxygen_per_player=oxygen["deal_per_player"],
        storm_cards=raw["storm_cards"],
        dice_faces=tuple(raw["dice_faces"]),
        containers=raw["containers"],
        carrier_containers=raw["carrier_containers"],
        route_pieces=raw["route_pieces"],
        ogs_chips=raw["ogs_chips"],
        costs=dict(raw["costs"]),
        rover_spaces_per_ap=raw["rover_spaces_per_ap"]["value"],
        success={int(k): v for k, v in raw["success"].items()},
        beginner_easing=raw["beginner_easing"]["value"],
        roles=tuple(Role(r["id"], r["name"], r["effect"]) for r in raw["roles"]),
        assumptions={
            "chips": track["assumption"],
            "oxygen": oxygen["assumption"],
            "rover": raw["rover_spaces_per_ap"]["assumption"],
            "beginner_easing": raw["beginner_easing"]["assumption"],
        },
    )


RULES = load()
