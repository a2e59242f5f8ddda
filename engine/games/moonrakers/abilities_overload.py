"""Activated abilities of the Overload expansion's Ship Parts (see abilities.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.games.moonrakers.abilities import (
    ABILITY_DO,
    ABILITY_OPTIONS,
    _cat,
    _does,
    _options,
    _uncovered,
    pairs,
)
from engine.games.moonrakers.cards import ACTION, CREW
from engine.games.moonrakers.machine import Op, choice, resolves
from engine.games.moonrakers.playing import card_effect, play_crew
from engine.games.moonrakers.table import PX, Table


@_options("aclimator-6050")
def _aclimator_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if "aclimator-6050" in px.used or st.h2h:
        return
    for t in ("R", "T", "D", "C"):
        if st.rem.get(t):
            opts.append(["ability", "aclimator-6050", t])


@_does("aclimator-6050")
def _aclimator(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("aclimator-6050")
    t = action[2]
    st.rem["S"] = st.rem.get("S", 0) + st.rem[t]
    st.rem[t] = 0


def _charge_pairs(
    st: Table,
    seat: int,
    part: str,
    opts: list[Any],
    keep: Callable[[str], bool] | None = None,
) -> None:
    if st.io_free() > 0:
        for a, b in pairs(st.hand[seat], keep):
            opts.append(["ability", part, a, b])


@_options("arbiter")
def _arbiter_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    _charge_pairs(st, seat, "arbiter", opts)
    if st.io[seat].get("arbiter", 0) >= 3:
        for card in sorted({c for c in st.hand[seat] if c in ACTION}):
            opts.append(["ability", "arbiter", "copy", card])


@_does("arbiter")
def _arbiter(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    if action[2] == "copy":
        st.io_spend(seat, "arbiter", 3)
        st.gain(seat, action[3])
        return
    st.discard_from_hand(seat, action[2])
    st.discard_from_hand(seat, action[3])
    st.io_add(seat, "arbiter", 1)


def _upgrade(part: str, basic: str, advanced: str) -> None:
    """Once per contract: trash a basic card from hand, gain an Advanced one."""

    def options(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
        if part not in px.used and basic in st.hand[seat]:
            opts.append(["ability", part])

    def do(st: Table, seat: int, px: PX, action: list[Any]) -> None:
        px.used.add(part)
        st.trash_from_hand(seat, basic)
        st.gain(seat, advanced)

    ABILITY_OPTIONS[part] = options
    ABILITY_DO[part] = do


_upgrade("augmentor-2050", "S", "S+")
_upgrade("inverter-mk2", "R", "R+")
_upgrade("staged-burst-e3", "T", "T+")


@_options("contributor-mk2")
def _contributor_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if "contributor-mk2" not in px.used:
        for q in st.allies_of(seat):
            opts.append(["ability", "contributor-mk2", q, "R"])
            opts.append(["ability", "contributor-mk2", q, "T"])


@_does("contributor-mk2")
def _contributor(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("contributor-mk2")
    st.gain(action[2], action[3], "hand")


@_options("eternal")
def _eternal_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if "eternal" not in px.used and st.io_free() > 0:
        for card in sorted(set(st.hand[seat])):
            opts.append(["ability", "eternal", card])
    if st.io[seat].get("eternal", 0) >= 4:
        opts.append(["ability", "eternal", "spend"])


@_does("eternal")
def _eternal(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    if action[2] == "spend":
        st.io_spend(seat, "eternal", 4)
        st.prestige[seat] += 1
        return
    px.used.add("eternal")
    st.trash_from_hand(seat, action[2])
    st.io_add(seat, "eternal", 1)


def _io_part(
    part: str,
    charge_card: str | None,
    spend_cost: int,
    usable: Callable[[Table, int, PX], bool],
    effect: Callable[[Table, int, PX], None],
) -> None:
    """IO parts of the form: discard a `charge_card` -> +1 IOsphere; spend N -> effect."""

    def options(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
        if charge_card is not None and charge_card in st.hand[seat] and st.io_free() > 0:
            opts.append(["ability", part, "charge"])
        if st.io[seat].get(part, 0) >= spend_cost and usable(st, seat, px):
            opts.append(["ability", part, "spend"])

    def do(st: Table, seat: int, px: PX, action: list[Any]) -> None:
        if action[2] == "charge":
            assert charge_card is not None
            st.discard_from_hand(seat, charge_card)
            st.io_add(seat, part, 1)
        else:
            st.io_spend(seat, part, spend_cost)
            effect(st, seat, px)

    ABILITY_OPTIONS[part] = options
    ABILITY_DO[part] = do


_io_part(
    "io-buffer-2050",
    "S",
    1,
    lambda st, seat, px: st.useful("S"),
    lambda st, seat, px: st.reduce(seat, "S", 1),
)
_io_part(
    "io-hub-mk2",
    "R",
    3,
    lambda st, seat, px: True,
    lambda st, seat, px: st.gain(seat, "R+"),
)
_io_part(
    "io-spark-mk1",
    "R",
    1,
    lambda st, seat, px: True,
    lambda st, seat, px: setattr(px, "actions", px.actions + 1),
)
_io_part(
    "io-surge-e2",
    "T",
    1,
    lambda st, seat, px: True,
    lambda st, seat, px: st.draw_cards(seat, 1),
)
_io_part(
    "mg-io-charge",
    None,
    2,
    lambda st, seat, px: st.useful("D"),
    lambda st, seat, px: st.deal_damage(seat, 1),
)
_io_part(
    "mg-io-overkill",
    None,
    4,
    lambda st, seat, px: px.dmg > 0,
    lambda st, seat, px: st.deal_damage(seat, px.dmg),
)


@_options("io-cache-3050")
def _cache_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    _charge_pairs(st, seat, "io-cache-3050", opts)
    if st.io[seat].get("io-cache-3050", 0) >= 2 and _uncovered(st, px):
        opts.append(["ability", "io-cache-3050", "spend"])


@_does("io-cache-3050")
def _cache(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    if action[2] == "spend":
        st.io_spend(seat, "io-cache-3050", 2)
        st.block(seat, 1)
        return
    st.discard_from_hand(seat, action[2])
    st.discard_from_hand(seat, action[3])
    st.io_add(seat, "io-cache-3050", 1)


@_options("mg-io-core")
def _core_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    _charge_pairs(st, seat, "mg-io-core", opts, lambda c: _cat(c) == "D")
    if st.io[seat].get("mg-io-core", 0) >= 1 and st.useful("D"):
        opts.append(["ability", "mg-io-core", "spend"])


@_does("mg-io-core")
def _core(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    if action[2] == "spend":
        st.io_spend(seat, "mg-io-core", 1)
        st.deal_damage(seat, 1)
        return
    st.discard_from_hand(seat, action[2])
    st.discard_from_hand(seat, action[3])
    st.io_add(seat, "mg-io-core", 1)


@_options("io-exhaust-e1")
def _exhaust_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if st.io_free() > 0:
        opts.append(["ability", "io-exhaust-e1"])


@_does("io-exhaust-e1")
def _exhaust(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    st.io_add(seat, "io-exhaust-e1", 1)
    st.draw_cards(seat, 1)


@_options("io-gen-mk1")
def _gen_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if st.io[seat].get("io-gen-mk1", 0) >= 3 and px.actions >= 1:
        for card in sorted(set(st.hand[seat])):
            if card != "M":
                opts.append(["ability", "io-gen-mk1", card])


@_does("io-gen-mk1")
def _gen(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    st.io_spend(seat, "io-gen-mk1", 3)
    px.actions -= 1
    card = action[2]
    st.hand_remove(seat, card)
    px.cards += 1
    if card in CREW:
        play_crew(st, seat, card, None, times=2)
    else:
        px.played.append(card)
        card_effect(st, seat, card, times=2)


@_options("io-hotshot-1050")
def _hotshot_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if px.hotshot < 2:
        opts.append(["ability", "io-hotshot-1050", "roll"])
    if st.io[seat].get("io-hotshot-1050", 0) >= 1:
        for t in st.open_types():
            opts.append(["ability", "io-hotshot-1050", t])


@_does("io-hotshot-1050")
def _hotshot(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    if action[2] == "roll":
        px.hotshot += 1
        st.roll_die(seat)
        st.io_add(seat, "io-hotshot-1050", 1)
        return
    st.io_spend(seat, "io-hotshot-1050", 1)
    st.reduce(seat, action[2], 1)


@_options("io-pivot-h2")
def _pivot_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    # "Spend 1 → re-roll one of your hazard dice": no per-contract limit, like the
    # other IO parts; each re-roll costs an IOsphere.
    if st.io[seat].get("io-pivot-h2", 0) >= 1:
        for v in sorted({v for v in px.dice if v > 0}):
            opts.append(["ability", "io-pivot-h2", v])


@_does("io-pivot-h2")
def _pivot(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    st.io_spend(seat, "io-pivot-h2", 1)
    st.roll_die(seat, px.dice.index(action[2]))


@_options("magnetite-m1")
def _magnetite_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if "magnetite-m1" not in px.used and st.allies_of(seat):
        opts.append(["ability", "magnetite-m1"])


@_does("magnetite-m1")
def _magnetite(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("magnetite-m1")
    for q in reversed(st.allies_of(seat)):
        st.push("magnet_give", q, seat)


@choice("magnet_give")
def _magnet_give_options(st: Table, op: Op) -> list[Any]:
    hand = st.hand[op[1]]
    if not hand:
        return []
    return ["pass", *(["give", c] for c in sorted(set(hand)))]


@resolves("magnet_give")
def _magnet_give(st: Table, op: Op, action: Any) -> None:
    if action == "pass":
        return
    st.hand_remove(op[1], action[1])
    st.push("magnet_keep", op[2], action[1])


@choice("magnet_keep")
def _magnet_keep_options(st: Table, op: Op) -> list[Any]:
    return ["keep", "trash"]


@resolves("magnet_keep")
def _magnet_keep(st: Table, op: Op, action: str) -> None:
    if action == "keep":
        st.to_hand(op[1], op[2])
    else:
        st.trashed(op[1], op[2])


@_options("mg-upgrade-core")
def _mg_upgrade_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if "mg-upgrade-core" not in px.used:
        for card in sorted({c for c in st.hand[seat] if _cat(c) == "D"}):
            opts.append(["ability", "mg-upgrade-core", card])


@_does("mg-upgrade-core")
def _mg_upgrade(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("mg-upgrade-core")
    st.trash_from_hand(seat, action[2])
    st.gain(seat, "D+")


@_options("mill")
def _mill_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if "mill" not in px.used and (st.draw[seat] or st.discard[seat]):
        opts.append(["ability", "mill"])


@_does("mill")
def _mill(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("mill")
    card, _public = st._pop_draw(seat)
    if card is None:
        return
    st.discard[seat].append(card)
    if card not in CREW:
        st.gain(seat, card)


def _give_card_opts(part: str) -> Callable[..., None]:
    def options(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
        if part in px.used:
            return
        allies = st.allies_of(seat)
        if not allies:
            return
        for card in sorted(set(st.hand[seat])):
            for q in allies:
                opts.append(["ability", part, q, card])

    return options


ABILITY_OPTIONS["modulator-t3"] = _give_card_opts("modulator-t3")
ABILITY_OPTIONS["phase-drive-mk3"] = _give_card_opts("phase-drive-mk3")


@_does("phase-drive-mk3")
def _phase_drive(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("phase-drive-mk3")
    st.hand_remove(seat, action[3])
    st.to_hand(action[2], action[3])


@_does("modulator-t3")
def _modulator(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("modulator-t3")
    st.hand_remove(seat, action[3])
    st.to_hand(action[2], action[3])
    st.push("modulator_back", action[2], seat)


@choice("modulator_back")
def _modulator_back_options(st: Table, op: Op) -> list[Any]:
    return [["give", c] for c in sorted(set(st.hand[op[1]]))]


@resolves("modulator_back")
def _modulator_back(st: Table, op: Op, action: list[Any]) -> None:
    st.hand_remove(op[1], action[1])
    st.to_hand(op[2], action[1])


@_options("tributor")
def _tributor_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if "tributor" not in px.used and st.open_types():
        for a, b in pairs(st.hand[seat]):
            opts.append(["ability", "tributor", a, b])


@_does("tributor")
def _tributor(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("tributor")
    st.trash_from_hand(seat, action[2])
    st.trash_from_hand(seat, action[3])
    st.push("req_any", seat, "tributor", 3)


@_options("twin-probe-e2")
def _probe_opts(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    if "twin-probe-e2" not in px.used and st.draw[seat]:
        opts.append(["ability", "twin-probe-e2"])


@_does("twin-probe-e2")
def _probe(st: Table, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("twin-probe-e2")
    st.top_known[seat] = max(st.top_known[seat], 1)
    st.push("probe", seat)


@choice("probe")
def _probe_choice_options(st: Table, op: Op) -> list[Any]:
    return ["keep", "discard"]


@resolves("probe")
def _probe_choice(st: Table, op: Op, action: str) -> None:
    if action == "discard":
        seat = op[1]
        card, _public = st._pop_draw(seat)
        if card is not None:
            st.discard[seat].append(card)
