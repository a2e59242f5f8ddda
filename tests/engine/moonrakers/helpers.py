"""Helpers for Moonrakers rules tests: rig exact hands, parts, dice and contracts."""

from __future__ import annotations

from typing import Any

import engine
from engine.games.moonrakers.cards import CONTRACTS, PARTS
from engine.games.moonrakers.setup import clear_contract
from engine.games.moonrakers.state import MoonrakersState

GAME = engine.get_game("moonrakers")


def new(players: int = 2, seed: int = 0, overload: bool = True, **options: Any) -> MoonrakersState:
    """A fresh game, past the set-up objective choices, at the first `plan` decision."""
    opts = {"expansions": ["overload"] if overload else [], **options}
    st = GAME.new_state(players, seed, opts)
    while st.stack and st.stack[-1][0] == "drop_objective":
        st.apply(st.legal_actions()[0])
    return st


def set_parts(
    st: MoonrakersState, seat: int, parts: list[str], io: dict[str, int] | None = None
) -> None:
    st.parts[seat] = list(parts)
    st.io[seat] = {p: 0 for p in parts if PARTS[p].io}
    st.io[seat].update(io or {})
    st.predator = any("predator-mk1" in p for p in st.parts)


def rig(
    st: MoonrakersState,
    contract: str,
    participants: list[int],
    hands: dict[int, list[str]],
    parts: dict[int, list[str]] | None = None,
    dice: dict[int, list[int]] | None = None,
    deals: dict[int, tuple[int, int, int, int]] | None = None,
    draws: dict[int, list[str]] | None = None,
    io: dict[int, dict[str, int]] | None = None,
    actions: dict[int, int] | None = None,
) -> MoonrakersState:
    """Start Execution of `contract` with exact hands / parts / dice.

    `dice[seat]` lists the values that seat's hazard dice will show, in roll order
    (missing rolls show 0). `draws[seat]` is the draw pile, top card first.
    """
    ml = participants[0]
    st.ml = ml
    clear_contract(st)
    rec = CONTRACTS[contract]
    st.contract = contract
    st.slot = 0
    st.row[0] = None
    st.h2h = rec.mode == "h2h"
    st.counts = rec.counts
    st.rem = {} if st.h2h else dict(rec.req)
    st.participants = list(participants)
    st.deals = dict(deals or {})
    for seat, cards in hands.items():
        st.hand[seat] = list(cards)
        st.known[seat] = []
    for seat, cards in (draws or {}).items():
        st.draw[seat] = list(reversed(cards))
        st.top_known[seat] = st.top_public[seat] = 0
    for seat, plist in (parts or {}).items():
        set_parts(st, seat, plist, (io or {}).get(seat))
    queue = {seat: list(values) for seat, values in (dice or {}).items()}

    def fake_roll(seat: int, index: int | None = None) -> int:
        values = queue.get(seat)
        value = values.pop(0) if values else 0
        px = st.px[seat]
        if index is None:
            px.dice.append(value)
            px.rolled += 1
        else:
            px.dice[index] = value
        return value

    st.roll_die = fake_roll  # type: ignore[method-assign]
    st.stack = [("exec_start", ml)]
    st.cur_opts = None
    st._legal_cache = None
    st._run()
    for seat, count in (actions or {}).items():
        st.px[seat].actions = count
    st.cur_opts = None
    st._legal_cache = None
    return st


def act(st: MoonrakersState, action: Any) -> None:
    legal = st.legal_actions()
    assert action in legal, f"{action!r} not in {legal!r}"
    st.apply(action)


def pending(st: MoonrakersState) -> str:
    return st.stack[-1][0] if st.stack else ""


def finish_execution(st: MoonrakersState) -> None:
    """Everyone passes until Execution is over (bonus/cleanup choices take the first option)."""
    while st.px is not None and st.stack:
        name = pending(st)
        if name == "step":
            st.apply("pass")
        else:
            st.apply(st.legal_actions()[0])


def px(st: MoonrakersState, seat: int):  # noqa: ANN201
    return st.px[seat]
