"""The Moonrakers rule steps waiting under a seat's pending decision (for `world`).

The observation names the pending decision (`pending`: the op's name, its seat and its
plain arguments) but not the stack of ops under it. These are rebuilt from the phase:
planning, negotiation, Head to Head joins, Execution, Bonus cards still owed, clean-up
and buying each leave a fixed pattern; inside a Crew's effect the rest of that effect
comes from the card data.
"""

from __future__ import annotations

from typing import Any

from engine.games.moonrakers.cards import CONTRACTS, CREW
from engine.games.moonrakers.state import MoonrakersState


def waiting_steps(
    st: MoonrakersState, obs: dict[str, Any], history: list[dict[str, Any]]
) -> list[tuple[Any, ...]]:
    """The stack of ops: the pending decision on top of what the phase leaves under it."""
    pending = obs["pending"]
    if not pending:
        return []
    name, who = pending[0], pending[1]
    n = st.num_players
    ml = st.ml
    top = tuple(pending)
    if name == "drop_objective":
        choosing = [
            (ml + i) % n
            for i in reversed(range(n))
            if obs["players"][(ml + i) % n]["objectives_choosing"]
        ]
        return [("start_turn", ml)] + [("drop_objective", q) for q in choosing]
    if name in ("plan", "negotiate", "step", "buy", "answer"):
        return [top]
    if name == "offer":
        field = pending[2]
        return [("answer", st.invitee)] + [("offer", ml, f) for f in range(3, field, -1)] + [top]
    if name == "free_discard":
        return [("buy", ml), top]
    if name == "keep_objective":
        return [
            ("buy_start", ml),
            ("refresh_hand", ml),
            ("free_replace", ml),
            ("gain_credits", ml, 1),
            top,
        ]
    if name == "free_replace":
        return [("buy_start", ml), ("refresh_hand", ml), top]
    if name == "join":
        rest = [(ml + i) % n for i in range(n - 1, 0, -1)]
        return [("exec_start", ml)] + [("join", q) for q in rest[: rest.index(who)]] + [top]
    if name == "tesselator":
        parts = st.participants
        later = parts[parts.index(who) + 1 :] if who in parts else []
        return (
            [("buy_start", ml), ("finish_contract", ml)]
            + [("cleanup", q) for q in reversed(later)]
            + [("draw_hand", who), top]
        )
    if name == "bonus":
        return [("post_contract", ml)] + _bonuses_left(st, obs, history)
    if name == "reformer":
        return [("exec_turn", ml), top]
    if st.contract is None:
        # Buying: a fifth part to remove, a sold-out Advanced card to substitute.
        return [("buy", ml), top]
    if st.px is not None and st.passes >= len(st.participants):
        # Execution is over (everyone passed): rewards are being paid.
        return [("post_contract", ml), top]
    # A choice inside a card's effect during Execution: the rest of the Crew's effect,
    # then Execution resumes.
    effect_top, effect_rest = _effect(pending)
    return [("exec_next", ml), *effect_rest, effect_top]


def _bonuses_left(
    st: MoonrakersState, obs: dict[str, Any], history: list[dict[str, Any]]
) -> list[tuple[Any, ...]]:
    """The Bonus cards still to take after a successful contract, the pending one on top.

    The deals say who gets how many; the decider's own earlier Bonus decisions this turn
    (in `history`) say how many of its own it took already.
    """
    who = obs["pending"][1]
    rec = CONTRACTS[st.cid]
    parts = st.participants
    owed = []
    left = rec.bonus
    for s, deal in st.deals.items():
        owed.extend([s] * deal[2])
        left -= deal[2]
    owed.extend([st.ml] * left)
    owed.sort(key=lambda s: parts.index(s), reverse=True)
    later = [s for s in owed if parts.index(s) > parts.index(who)]
    mine = owed.count(who)
    if who == obs.get("seat"):
        for earlier in reversed(history):
            if earlier["turn"] != obs["turn"]:
                break
            if earlier["pending"][:2] == ["bonus", who]:
                mine -= 1
    return [("bonus", s) for s in later] + [("bonus", who)] * max(1, mine)


def _effect(pending: list[Any]) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
    """The pending op of a Crew's effect in full, and the ops of the effect after it.

    The card data holds the effect as a list of ops (`CREW[card].ops`; a `choose` or a
    "must trash" op holds lists of its own); the pending op is the first of them with
    its name (or whose op asks that choice, `lee` -> `lee_pick`). Effects of Ship Parts
    and reactions keep only the pending op.
    """
    top = tuple(pending)
    name, seat = pending[0], pending[1]
    card = pending[2] if len(pending) > 2 else None
    if card not in CREW:
        return top, []
    for ops in _op_lists(CREW[card].ops):
        for i, op in enumerate(ops):
            if op[0] == name:
                shown = [a for a in op[1:] if isinstance(a, int | str)]
                if shown == list(pending[3:]):
                    top = (name, seat, card, *op[1:])
            elif not name.startswith(op[0] + "_"):
                continue
            return top, [(o[0], seat, card, *o[1:]) for o in reversed(ops[i + 1 :])]
    return top, []


def _op_lists(ops: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """`ops` and every list of ops nested in their arguments, outermost first."""
    found = [ops]
    for op in ops:
        for arg in op[1:]:
            nested = arg.values() if isinstance(arg, dict) else [arg]
            for value in nested:
                if _is_op_list(value):
                    found.extend(_op_lists(value))
    return found


def _is_op_list(value: Any) -> bool:
    return (
        isinstance(value, tuple)
        and bool(value)
        and all(isinstance(op, tuple) and op and isinstance(op[0], str) for op in value)
    )
