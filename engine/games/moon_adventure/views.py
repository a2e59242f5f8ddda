"""What a seat sees of a Moon Adventure table, and a table rebuilt from what it saw.

`observe` is the state's `observation` (everything is public except whether a
face-down supply chip is broken and the draw pile's order); `rebuild` is
`MoonAdventureState.from_observation`, which draws those hidden parts at random.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, TypeVar

from engine.games.moon_adventure.data import RULES
from engine.games.moon_adventure.pieces import (
    CHIP,
    EMPTY,
    KIND_NAMES,
    PHASE_NAMES,
    SHARE,
    STORM,
    SUPPLY,
)
from engine.games.moon_adventure.table import Table

if TYPE_CHECKING:
    from engine.core.game import Game

AnyTable = TypeVar("AnyTable", bound=Table)


def _item(st: Table, item: int, show_all: bool) -> dict[str, Any] | None:
    if item == EMPTY:
        return None
    if item < CHIP:
        return {"oxygen": item}
    cid = item - CHIP
    known = show_all or st.revealed[cid]
    return {"area": st.area[cid], "broken": st.broken[cid] if known else None}


def observe(st: Table, seat: int) -> dict[str, Any]:
    """What `seat` sees: the whole table but face-down chips and the draw pile's order."""
    show_all = st.outcome is not None  # supplies are turned face up at the end
    track = []
    for q, kind in enumerate(st.kind):
        space: dict[str, Any] = {"kind": KIND_NAMES[kind], "route": st.route[q]}
        if kind == SUPPLY:
            cid = st.chip[q]
            space["area"] = st.area[cid]
            space["broken"] = st.broken[cid] if show_all or st.revealed[cid] else None
            space["abandoned"] = st.abandoned[cid]
        track.append(space)
    return {
        "phase": PHASE_NAMES[st.phase],
        "current": st.cur,
        "roles": list(st.roles),
        "target": st.target,
        "track": track,
        "crew": list(st.pos),
        "returned": list(st.returned),
        "robot": st.robot if st.robot >= 0 else None,
        "rover": st.rover,
        "rider": st.rider if st.rider >= 0 else None,
        "containers": [[_item(st, i, show_all) for i in slots] for slots in st.slots],
        "draw_pile": _pile(st.draw),
        "discard_pile": _pile(st.discard),
        "storms_aside": st.storms_aside,
        "routes_left": st.routes_left,
        "ogs_left": st.ogs_left,
        "ap": st.ap,
        "dice": list(st.dice),
        "used": {
            "mechanic": st.used_mechanic,
            "inventor": st.used_inventor,
            "inspector": st.used_inspector,
            "flight_surgeon": st.used_surgeon,
        },
        "can_reroll": st.can_reroll,
        "share": (
            {
                "with": st.partner,
                "moved_mine": list(st.moved_mine),
                "moved_theirs": list(st.moved_theirs),
            }
            if st.phase == SHARE
            else None
        ),
        "outcome": st.outcome,
        "team_score": st.team_score() if st.outcome is not None else None,
    }


def rebuild(
    cls: type[AnyTable], game: Game, observation: dict[str, Any], rng: random.Random
) -> AnyTable:
    """A state that shows `observation` to its seat, hidden parts drawn with `rng`.

    Only what the observation shows is used: unseen chips get broken flags dealt at
    random within their area (keeping each area's count of undamaged chips), the draw
    pile gets the public composition in a random order, and the copy gets its own RNG.
    Chip ids are renumbered (track first, then containers seat by seat).
    """
    obs = observation
    new = object.__new__(cls)
    new.game = game
    new.num_players = len(obs["crew"])
    new.seed = 0
    new.options = {}
    new.rng = random.Random(rng.getrandbits(64))
    new.actions = []
    new._legal_cache = None
    new.area, new.broken, new.revealed, new.abandoned = [], [], [], []
    unseen: dict[int, list[int]] = {area: [] for area in RULES.areas}

    def add_chip(shown: dict[str, Any]) -> int:
        cid = len(new.area)
        new.area.append(shown["area"])
        new.abandoned.append(shown.get("abandoned", False))
        known = shown["broken"] is not None
        new.broken.append(bool(shown["broken"]))
        new.revealed.append(known)
        if not known:
            unseen[shown["area"]].append(cid)
        return cid

    new.kind, new.chip, new.route = [], [], []
    for space in obs["track"]:
        kind = KIND_NAMES.index(space["kind"])
        new.kind.append(kind)
        new.chip.append(add_chip(space) if kind == SUPPLY else -1)
        new.route.append(space["route"])
    new.slots = []
    for shown_slots in obs["containers"]:
        slots = []
        for item in shown_slots:
            if item is None:
                slots.append(EMPTY)
            elif "oxygen" in item:
                slots.append(item["oxygen"])
            else:
                slots.append(CHIP + add_chip(item))
        new.slots.append(slots)
    for area, ids in unseen.items():
        seen_good = sum(
            1
            for cid, a in enumerate(new.area)
            if a == area and new.revealed[cid] and not new.broken[cid]
        )
        good = max(0, RULES.undamaged_per_area[area] - seen_good)
        flags = [False] * min(good, len(ids)) + [True] * max(0, len(ids) - good)
        rng.shuffle(flags)
        for cid, flag in zip(ids, flags, strict=True):
            new.broken[cid] = flag
    new.draw = _cards(obs["draw_pile"])
    rng.shuffle(new.draw)
    new.discard = _cards(obs["discard_pile"])
    new.storms_aside = obs["storms_aside"]
    new.routes_left = obs["routes_left"]
    new.ogs_left = obs["ogs_left"]
    new.target = obs["target"]
    new.outcome = obs["outcome"]
    new.rover = obs["rover"]
    new.rider = -1 if obs["rider"] is None else obs["rider"]
    new.robot = -1 if obs["robot"] is None else obs["robot"]
    new.pos = list(obs["crew"])
    new.returned = list(obs["returned"])
    new.roles = list(obs["roles"])
    new.cur = obs["current"]
    new.phase = PHASE_NAMES.index(obs["phase"])
    new.ap = obs["ap"]
    new.dice = list(obs["dice"])
    role = new.roles[new.cur]
    new.bonus = 2 if role == "athlete" and new._on_active_ogs(new.cur) else 0
    used = obs["used"]
    new.used_mechanic = used["mechanic"]
    new.used_inventor = used["inventor"]
    new.used_inspector = used["inspector"]
    new.used_surgeon = used["flight_surgeon"]
    new.can_reroll = obs["can_reroll"]
    share = obs["share"]
    new.partner = share["with"] if share else -1
    new.moved_mine = list(share["moved_mine"]) if share else []
    new.moved_theirs = list(share["moved_theirs"]) if share else []
    return new


def _cards(pile: dict[str, int]) -> list[int]:
    """A pile with the shown composition, in no particular order."""
    return [2] * pile["oxygen2"] + [3] * pile["oxygen3"] + [STORM] * pile["storms"]


def _pile(cards: list[int]) -> dict[str, int]:
    return {
        "size": len(cards),
        "oxygen2": cards.count(2),
        "oxygen3": cards.count(3),
        "storms": cards.count(STORM),
    }
