"""What a Moonrollers player may do with the dice of one roll: locking and crew abilities.

`lock_actions` lists every way to lock dice into the committed requirement;
`ability_actions` lists the crew abilities that apply to the current roll; and
`use_ability` carries one out. The turn flow itself (rolling, completing,
busting, hiring) lives in `turn.py`.

General ability rules (Crew Ability Appendix), and how they are kept here:
- abilities that re-roll "any amount" of dice (Salatar, Lila Al Bindar) come
  before anything else on a roll: the state's `ropen` flag closes at the first
  lock or other ability. Vila Noir re-rolls exactly 2 dice, so the rule does not
  cover it: it stays usable all roll long (and closes the window like any other);
- "actual die rolled": conditions read `rolled`, the faces the roll produced
  (after re-rolls, plus dice Ryan Rogal / Saghari add); a die an ability made a
  Wild or an Extra Die never counts as that face for another ability (A-3);
- every ability is optional: it is only ever offered as an action;
- you only bust once no lock is possible and you chose not to use (or had no)
  abilities: see `MoonrollersState._gen_lock`.
"""

from __future__ import annotations

from typing import Any

from engine.games.moonrollers.cards import (
    DAMAGE,
    DOUBLERS,
    EXTRA,
    EXTRA_AS_TWO,
    FACE_INDEX,
    FACES,
    REACTOR,
    SHIELD,
    SINGLE_AS_WILD,
    THRUSTER,
    WILD,
)
from engine.games.moonrollers.turn import Turn

# "Abilities that allow you to re-roll any amount of dice must be used before other abilities."
REROLL_ANY = frozenset({"salatar", "lila_al_bindar"})
# E-moonrollers-10: usable before choosing the crew or committing, since they change the
# rolling pool itself (Ryan Rogal's and Saghari's dice are "immediately available").
BEFORE_COMMIT = ("vila_noir", "ryan_rogal", "saghari")
# Lock variants that count each die as 2 toward the requirement.
TWO_PER_DIE = frozenset(DOUBLERS.values()) | frozenset(EXTRA_AS_TWO.values())
# Abilities usable once per roll (Kary Powalk converts one die per use, as often as it applies).
REPEATABLE = frozenset({"kary_powalk"})


def reroll_actions(st: Turn) -> list[Any]:
    """ "Any amount" re-roll abilities still open on this roll (before any lock or other ability)."""
    out: list[Any] = []
    if not st.ropen:
        return out
    ab = st.abil[st.cur]
    used = st.used
    if "salatar" in ab and st.first and not used:
        out.append(["use", "salatar"])
    if "lila_al_bindar" in ab and st.rolled[REACTOR] >= 2 and "lila_al_bindar" not in used:
        out.append(["use", "lila_al_bindar"])
    return out


def before_commit_actions(st: Turn) -> list[Any]:
    """Abilities offered while choosing the crew or a requirement (E-moonrollers-10)."""
    out = reroll_actions(st)
    ab = st.abil[st.cur]
    for name in BEFORE_COMMIT:
        if name in ab:
            _OFFERS[name](st, out)
    return out


def lock_actions(st: Turn) -> list[Any]:
    """Every legal way to lock dice into the committed requirement now.

    ["lock", face, n] locks n dice showing `face`; ["lock", face, n, ability]
    does so through an ability (each die counting as 2, or as a Wild). A-4: never
    more dice than the requirement still needs.
    """
    need = st.need
    pool = st.pool
    target = st.target
    out: list[Any] = []
    if target != WILD:
        name = FACES[target]
        for n in range(1, min(pool[target], need) + 1):
            out.append(["lock", name, n])
    for n in range(1, min(pool[WILD], need) + 1):
        out.append(["lock", "wild", n])
    ab = st.abil[st.cur]
    if not ab:
        return out
    rolled = st.rolled
    if target != WILD:
        half = (need + 1) // 2
        doubler = DOUBLERS[target]
        if doubler in ab and need >= 2 and 1 <= sum(rolled) <= 3:
            for n in range(1, min(pool[target], half) + 1):
                out.append(["lock", FACES[target], n, doubler])
            for n in range(1, min(pool[WILD], half) + 1):
                out.append(["lock", "wild", n, doubler])
        extra_two = EXTRA_AS_TWO[target]
        if extra_two in ab:
            for n in range(1, min(pool[EXTRA], half) + 1):
                out.append(["lock", "extra", n, extra_two])
    if target == WILD and not st.wild_fill:
        return out  # A-3 off: an ability-made Wild never fills a Wild (x2) requirement
    for face, name in SINGLE_AS_WILD:
        if name in ab and face != target and rolled[face] == 1 and pool[face]:
            out.append(["lock", FACES[face], 1, name])
    if "sella_pelleon" in ab and rolled[EXTRA] == 1 and pool[EXTRA]:
        out.append(["lock", "extra", 1, "sella_pelleon"])
    if "vanta_sae" in ab and rolled[EXTRA] == 0 and "vanta_sae" not in st.used:
        for face in range(6):
            if pool[face] and face != target and face != WILD:
                out.append(["lock", FACES[face], 1, "vanta_sae"])
    return out


def lock_value(action: list[Any]) -> int:
    """How much one die of this lock action counts toward the requirement."""
    return 2 if len(action) > 3 and action[3] in TWO_PER_DIE else 1


def ability_actions(st: Turn) -> list[Any]:
    """Non-lock abilities that apply to the current roll (re-rolls first while open)."""
    out = reroll_actions(st)
    ab = st.abil[st.cur]
    if not ab:
        return out
    # In the table's order, never the set's: a set of strings iterates in an order that
    # changes with the interpreter's hash seed, and so would the legal actions' order.
    for name, offer in _OFFERS.items():
        if name in ab:
            offer(st, out)
    return out


def _vila_noir(st: Turn, out: list[Any]) -> None:
    # "re-roll 2 of the dice": exactly two, so the pool must hold two.
    if st.rolled[REACTOR] == 0 and "vila_noir" not in st.used and sum(st.pool) >= 2:
        out.append(["use", "vila_noir"])


def _ryan_rogal(st: Turn, out: list[Any]) -> None:
    if st.rolled[DAMAGE] >= 2 and st.supply > 0 and "ryan_rogal" not in st.used:
        out.append(["use", "ryan_rogal"])


def _saghari(st: Turn, out: list[Any]) -> None:
    if st.rolled[DAMAGE] == 0 and st.supply > 0 and "saghari" not in st.used:
        out.append(["use", "saghari"])


def _imdar_shade(st: Turn, out: list[Any]) -> None:
    if st.rolled[SHIELD] == 0 and "imdar_shade" not in st.used and sum(st.pile) > 0:
        out.append(["use", "imdar_shade"])


def _kary_powalk(st: Turn, out: list[Any]) -> None:
    if st.first and st.pool[DAMAGE]:
        out.append(["use", "kary_powalk"])


def _ft_1000(st: Turn, out: list[Any]) -> None:
    if st.rolled[WILD] == 1 and st.pool[WILD] and "ft_1000" not in st.used:
        out.append(["use", "ft_1000"])


def _myla_dystra(st: Turn, out: list[Any]) -> None:
    if st.rolled[THRUSTER] >= 2 and "myla_dystra" not in st.used:
        pool = st.pool
        for face in range(5):  # an Extra Die face already is one
            if pool[face]:
                out.append(["use", "myla_dystra", FACES[face]])


def _meg_gallak(st: Turn, out: list[Any]) -> None:
    if st.first and st.pool[WILD] and not st.saved and "meg_gallak" not in st.used:
        out.append(["use", "meg_gallak"])


def _avari(st: Turn, out: list[Any]) -> None:
    rolled = st.rolled
    if rolled[WILD] and rolled[WILD] == sum(rolled) and "avari" not in st.used:
        out.append(["use", "avari"])


def _at_0k(st: Turn, out: list[Any]) -> None:
    if st.rolled[SHIELD] >= 2 and "at_0k" not in st.used:
        out.append(["use", "at_0k"])


def _moro_mada(st: Turn, out: list[Any]) -> None:
    rolled = st.rolled
    if rolled[EXTRA] and 1 <= sum(rolled) <= 3 and not st.safe and "moro_mada" not in st.used:
        out.append(["use", "moro_mada"])


def _b3_ar(st: Turn, out: list[Any]) -> None:
    # Committed before this roll, or committed on it and already locked a die.
    if (
        st.rolled[THRUSTER] >= 3
        and st.req >= 0
        and (st.progress or not st.fresh)
        and "b3_ar" not in st.used
    ):
        out.append(["use", "b3_ar"])


_OFFERS = {
    "vila_noir": _vila_noir,
    "ryan_rogal": _ryan_rogal,
    "saghari": _saghari,
    "imdar_shade": _imdar_shade,
    "kary_powalk": _kary_powalk,
    "ft_1000": _ft_1000,
    "myla_dystra": _myla_dystra,
    "meg_gallak": _meg_gallak,
    "avari": _avari,
    "at_0k": _at_0k,
    "moro_mada": _moro_mada,
    "b3_ar": _b3_ar,
}


def use_ability(st: Turn, action: list[Any]) -> None:
    """Carry out ["use", name] or ["use", "myla_dystra", face] (already known legal)."""
    name = action[1]
    if name not in REPEATABLE:
        st.used.add(name)
    if name not in REROLL_ANY:
        st.ropen = False
    pool = st.pool
    if name == "salatar":
        n = sum(pool)
        st.pool = pool = st.roll(n)
        st.rolled = pool[:]
    elif name == "lila_al_bindar":
        st.start_select(99, exact=False)
    elif name == "vila_noir":
        st.start_select(2, exact=True)
    elif name == "ryan_rogal":
        # Roll 2 supply dice; the Wilds join the pool, the others go back.
        wilds = st.roll(min(2, st.supply))[WILD]
        st.supply -= wilds
        pool[WILD] += wilds
        st.rolled[WILD] += wilds
    elif name == "saghari":
        die = st.roll(1)
        for face in (WILD, EXTRA):
            if die[face]:
                st.supply -= 1
                pool[face] += 1
                st.rolled[face] += 1
    elif name == "imdar_shade":
        for kind in st.draw_tokens(1):
            st.hz[st.cur][kind] += 1
    elif name == "kary_powalk":
        pool[DAMAGE] -= 1
        st.conv += 1
    elif name == "ft_1000":
        pool[WILD] -= 1
        st.conv += 1
    elif name == "myla_dystra":
        pool[FACE_INDEX[action[2]]] -= 1
        st.conv += 1
    elif name == "meg_gallak":
        pool[WILD] -= 1
        st.saved = 1
    elif name == "avari":
        st.avari = True
    elif name == "at_0k":
        st.safe_next = True
    elif name == "moro_mada":
        st.safe = True
    elif name == "b3_ar":
        st.progress = True
        st.complete_requirement()
    elif name == "kal_damar":
        st.first_roll(6)
    elif name == "namari":
        st.prestige[st.cur] += 2
        st.end_turn()
    else:  # pragma: no cover - legal_actions never offers anything else
        raise AssertionError(name)
