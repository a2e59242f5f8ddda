"""Moonrakers game state: the stack machine that runs the rules, scoring, observation,
copies and resampling.

This is the one module that assembles the game. The table (table.py) holds the fields
and the zone helpers; the rules for each phase live in their own modules (setup,
planning, execution, playing, effects, abilities, abilities_overload, buying,
objectives, mercenaries), which register their ops in `machine` when imported here and
work on the table, never on this class; views.py and hidden.py read and redeal a table.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core.ranking import ranks_from_keys

# Importing the rule modules registers their ops (and the Ship Parts' abilities).
from engine.games.moonrakers import (  # noqa: F401
    abilities,
    abilities_overload,
    buying,
    effects,
    execution,
    hidden,
    machine,
    objectives,
    planning,
    playing,
    views,
)
from engine.games.moonrakers import setup as setup_module
from engine.games.moonrakers.cards import ACTION, ALL, PARTS
from engine.games.moonrakers.table import PX, Table

_OPTIONS_GET = machine.OPTIONS.get


_LIST_FIELDS = (
    "row",
    "cdeck",
    "cmask",
    "cdiscard",
    "crew_deck",
    "crew_mask",
    "part_deck",
    "part_mask",
    "armory_crew",
    "armory_parts",
    "obj_deck",
    "obj_mask",
    "merc_deck",
    "merc_mask",
    "merc_row",
    "credits",
    "prestige",
    "top_known",
    "top_public",
    "participants",
    "allies",
    "proposals",
    "score",
    "stack",
)
_NESTED_FIELDS = (
    "hand",
    "draw",
    "discard",
    "known",
    "looking",
    "parts",
    "inplay",
    "objs",
    "claimed",
    "obj_pick",
)


class MoonrakersState(Table):
    """Moonrakers (base game, optionally with Overload)."""

    # ----- set-up --------------------------------------------------------------------

    def setup(self) -> None:
        self.cur_opts = None
        setup_module.setup(self)
        self._run()

    # ----- the stack machine ----------------------------------------------------------

    def _run(self) -> None:
        stack = self.stack
        options_of = _OPTIONS_GET
        auto = machine.AUTO
        resolve = machine.RESOLVE
        while stack:
            top = stack[-1]
            make = options_of(top[0])
            if make is None:
                stack.pop()
                auto[top[0]](self, *top[1:])
                continue
            opts = make(self, top)
            if len(opts) > 1:
                self.cur_opts = opts
                return
            stack.pop()
            if opts:
                resolve[top[0]](self, top, opts[0])
        self.cur_opts = None

    def _to_move(self) -> int | None:
        return self.stack[-1][1] if self.stack else None

    def _legal_actions(self) -> list[Any]:
        if self.cur_opts is None:
            top = self.stack[-1]
            # Only reachable in a resampled world: a choice whose options depended on
            # hidden cards may have none there; "skip" keeps the state playable.
            self.cur_opts = machine.OPTIONS[top[0]](self, top) or ["skip"]
        return self.cur_opts

    def _apply(self, action: Any) -> None:
        top = self.stack.pop()
        self.cur_opts = None
        if action != "skip":
            machine.RESOLVE[top[0]](self, top, action)
        self._run()

    def _is_terminal(self) -> bool:
        return self.over

    def _result(self) -> dict[str, Any]:
        keys = []
        for seat in range(self.num_players):
            keys.append((self.prestige[seat], 1 if seat == self.winner else 0))
        return {
            "ranks": ranks_from_keys(keys),
            "scores": list(self.prestige),
            "winner": self.winner,
            "reason": self.end_reason,
            "turns": self.turns,
        }

    # ----- observation (views.py) and resampling (hidden.py) -------------------------------

    def _observation(self, seat: int) -> dict[str, Any]:
        return views.observation(self, seat)

    # ----- copying and resampling ----------------------------------------------------------

    def clone(self) -> MoonrakersState:
        c = MoonrakersState.__new__(MoonrakersState)
        d = c.__dict__
        d.update(self.__dict__)
        for name in _LIST_FIELDS:
            d[name] = list(d[name])
        for name in _NESTED_FIELDS:
            d[name] = [list(x) for x in d[name]]
        d["io"] = [dict(x) for x in self.io]
        d["rem"] = dict(self.rem)
        d["deals"] = dict(self.deals)
        d["adv"] = dict(self.adv) if self.adv is not None else None
        d["offer"] = list(self.offer) if self.offer is not None else None
        d["px"] = [p.copy() if p is not None else None for p in self.px] if self.px else self.px
        d["actions"] = list(self.actions)
        d["last"] = self.last
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        d["rng"] = rng
        return c

    def resample_hidden(self, seat: int, rng: random.Random) -> MoonrakersState:
        c = self.clone()
        hidden.redeal(c, seat, rng)
        return c


__all__ = ["ACTION", "ALL", "PARTS", "PX", "MoonrakersState"]
