"""Activated Ship Part abilities, used as a step of Execution.

For each part with an ability, `ABILITY_OPTIONS[part](state, seat, px, opts)`
appends its legal `["ability", part, ...]` actions and `ABILITY_DO[part]`
resolves one. Card selections are part of the action itself, so that no
follow-up choice can depend on hidden cards. Abilities cost no Action unless
the card says so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.games.moonrakers.cards import ACTION, CREW
from engine.games.moonrakers.machine import Op, choice, resolves
from engine.games.moonrakers.playing import card_effect, play_cost
from engine.games.moonrakers.table import PX, Table

ABILITY_OPTIONS: dict[str, Callable[..., None]] = {}
ABILITY_DO: dict[str, Callable[..., None]] = {}


def _options(part: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def register(fn: Callable[..., None]) -> Callable[..., None]:
        ABILITY_OPTIONS[part] = fn
        return fn

    return register


def _does(part: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def register(fn: Callable[..., None]) -> Callable[..., None]:
        ABILITY_DO[part] = fn
        return fn

    return register


def _cat(card: str) -> str:
    kind = ACTION.get(card)
    return kind.cat if kind is not None else "C"


def pairs(hand: list[str], keep: Callable[[str], bool] | None = None) -> list[tuple[str, str]]:
    """Every unordered pair of hand cards (ids sorted), optionally filtered."""
    counts: dict[str, int] = {}
    for card in hand:
        if keep is None or keep(card):
            counts[card] = counts.get(card, 0) + 1
    keys = sorted(counts)
    out = []
    for i, a in enumerate(keys):
        if counts[a] >= 2:
            out.append((a, a))
        for b in keys[i + 1 :]:
            out.append((a, b))
    return out


def _uncovered(st: Table, px: PX) -> bool:
    return sum(px.dice) > px.blocked


def _play_as(st: Table, seat: int, px: PX, card: str, as_kind: str) -> None:
    st.hand_remove(seat, card)
    px.played.append(card)
    px.cards += 1
    card_effect(st, seat, as_kind)


# ----- base game ----------------------------------------------------------------------------------


@_options("clone-bay")
def _clone_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if "clone-bay" in px.used or px.actions < 1:
        return
    # Any Crew played on this contract and still on the table, IO crew included (they
    # stay in play rather than among the played cards).
    crew = {c for c in px.played if c in CREW}
    crew.update(c for c in px.io_played if c in st.inplay[seat])
    for card in sorted(crew):
        opts.append(["ability", "clone-bay", card])


@_does("clone-bay")
def _clone(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("clone-bay")
    px.actions -= 1
    crew = action[2]
    px.n["C"] += 1
    px.last_cat = "C"
    st.reduce(seat, "C", 1)
    st.push_ops(seat, crew, CREW[crew].ops)


@_options("dark-matter-mk3")
def _dark_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    hand = st.hand[seat]
    if px.actions >= 1 and "D1" in hand and "D2" in hand:
        opts.append(["ability", "dark-matter-mk3"])


@_does("dark-matter-mk3")
def _dark(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.actions -= 1
    st.discard_from_hand(seat, "D1")
    st.discard_from_hand(seat, "D2")
    st.deal_damage(seat, 5)


@_options("defender-5000")
def _defender_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if px.actions >= 1:
        for a, b in pairs(st.hand[seat], lambda c: _cat(c) != "S"):
            opts.append(["ability", "defender-5000", a, b])


@_does("defender-5000")
def _defender(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.actions -= 1
    st.discard_from_hand(seat, action[2])
    st.discard_from_hand(seat, action[3])
    px.cards += 1  # plays a Shield (Parasite)
    card_effect(st, seat, "S")


@_options("mg-charge-core")
def _charge_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if px.actions >= 1 and "D1" in st.hand[seat]:
        opts.append(["ability", "mg-charge-core"])


@_does("mg-charge-core")
def _charge(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.actions -= 1
    _play_as(st, seat, px, "D1", "D3")
    st.gain(seat, "M")


@_options("mg2-laser-turrets")
def _turrets_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if px.actions >= 1 and st.hand[seat].count("D1") >= 2:
        opts.append(["ability", "mg2-laser-turrets"])


@_does("mg2-laser-turrets")
def _turrets(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.actions -= 1
    st.discard_from_hand(seat, "D1")
    st.discard_from_hand(seat, "D1")
    st.deal_damage(seat, 4)


@_options("multi-stage-m1")
def _multi_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if "multi-stage-m1" not in px.used and st.hand[seat] and st.allies_of(seat):
        opts.append(["ability", "multi-stage-m1"])


@_does("multi-stage-m1")
def _multi(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("multi-stage-m1")
    st.push("discard_upto", seat, "multi-stage-m1", 3, 0, "allies")


@_options("pursuer")
def _pursuer_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if "pursuer" not in px.used and st.hand[seat]:
        opts.append(["ability", "pursuer"])


@_does("pursuer")
def _pursuer(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("pursuer")
    st.push("discard_upto", seat, "pursuer", 3, 0, "self")


@choice("discard_upto")
def _discard_upto_options(st: Table, op: Op) -> list[Any]:
    opts: list[Any] = ["done"]
    if op[3] > 0:
        opts.extend(["discard", c] for c in sorted(set(st.hand[op[1]])))
    return opts


@resolves("discard_upto")
def _discard_upto(st: Table, op: Op, action: Any) -> None:
    _, seat, src, left, done, who = op
    if action != "done":
        st.discard_from_hand(seat, action[1])
        st.push("discard_upto", seat, src, left - 1, done + 1, who)
        return
    if who == "self":
        st.draw_cards(seat, done)
    else:
        for q in st.allies_of(seat):
            st.draw_cards(q, done)


@_options("quantum-driver")
def _quantum_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if (
        "quantum-driver" not in px.used
        and "D1" in st.hand[seat]
        and px.actions >= play_cost(st, seat, px, "D1")
    ):
        opts.append(["ability", "quantum-driver"])


@_does("quantum-driver")
def _quantum(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("quantum-driver")
    px.actions -= play_cost(st, seat, px, "D1")
    _play_as(st, seat, px, "D1", "D3")


@_options("replicator-mk1")
def _replicator_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if px.actions < 1:
        return
    for a, b in pairs(st.hand[seat]):
        if a == b:
            for kind in ("S", "T", "R", "D1"):
                opts.append(["ability", "replicator-mk1", a, kind])


@_does("replicator-mk1")
def _replicator(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.actions -= 1
    st.discard_from_hand(seat, action[2])
    st.discard_from_hand(seat, action[2])
    px.cards += 1  # "play as" a basic card (Parasite)
    card_effect(st, seat, action[3])


@_options("symbiote-9000")
def _symbiote_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if "symbiote-9000" not in px.used and _uncovered(st, px):
        for card in sorted(set(st.hand[seat])):
            opts.append(["ability", "symbiote-9000", card])


@_does("symbiote-9000")
def _symbiote(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("symbiote-9000")
    st.trash_from_hand(seat, action[2])
    st.block(seat, 1)
