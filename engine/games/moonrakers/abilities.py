"""Activated Ship Part abilities, used as a step of Execution.

For each part with an ability, `ABILITY_OPTIONS[part](state, seat, px, opts)`
appends its legal `["ability", part, ...]` actions and `ABILITY_DO[part]`
resolves one. Card selections are part of the action itself, so that no
follow-up choice can depend on hidden cards. Abilities cost no Action unless
the card says so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.games.moonrakers.cards import ACTION, CREW
from engine.games.moonrakers.machine import Op, choice, resolves

if TYPE_CHECKING:
    from engine.games.moonrakers.state import PX, MoonrakersState

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


def _uncovered(st: MoonrakersState, px: PX) -> bool:
    return sum(px.dice) > px.blocked


def _play_as(st: MoonrakersState, seat: int, px: PX, card: str, as_kind: str) -> None:
    from engine.games.moonrakers.execution import card_effect

    st.hand_remove(seat, card)
    px.played.append(card)
    px.cards += 1
    card_effect(st, seat, as_kind)


# ----- base game ----------------------------------------------------------------------------------


@_options("clone-bay")
def _clone_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if "clone-bay" in px.used or px.actions < 1:
        return
    # Any Crew played on this contract and still on the table, IO crew included (they
    # stay in play rather than among the played cards).
    crew = {c for c in px.played if c in CREW}
    crew.update(c for c in px.io_played if c in st.inplay[seat])
    for card in sorted(crew):
        opts.append(["ability", "clone-bay", card])


@_does("clone-bay")
def _clone(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("clone-bay")
    px.actions -= 1
    crew = action[2]
    px.n["C"] += 1
    px.last_cat = "C"
    st.reduce(seat, "C", 1)
    st.push_ops(seat, crew, CREW[crew].ops)


@_options("dark-matter-mk3")
def _dark_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    hand = st.hand[seat]
    if px.actions >= 1 and "D1" in hand and "D2" in hand:
        opts.append(["ability", "dark-matter-mk3"])


@_does("dark-matter-mk3")
def _dark(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    px.actions -= 1
    st.discard_from_hand(seat, "D1")
    st.discard_from_hand(seat, "D2")
    st.deal_damage(seat, 5)


@_options("defender-5000")
def _defender_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if px.actions >= 1:
        for a, b in pairs(st.hand[seat], lambda c: _cat(c) != "S"):
            opts.append(["ability", "defender-5000", a, b])


@_does("defender-5000")
def _defender(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    from engine.games.moonrakers.execution import card_effect

    px.actions -= 1
    st.discard_from_hand(seat, action[2])
    st.discard_from_hand(seat, action[3])
    px.cards += 1  # plays a Shield (Parasite)
    card_effect(st, seat, "S")


@_options("mg-charge-core")
def _charge_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if px.actions >= 1 and "D1" in st.hand[seat]:
        opts.append(["ability", "mg-charge-core"])


@_does("mg-charge-core")
def _charge(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    px.actions -= 1
    _play_as(st, seat, px, "D1", "D3")
    st.gain(seat, "M")


@_options("mg2-laser-turrets")
def _turrets_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if px.actions >= 1 and st.hand[seat].count("D1") >= 2:
        opts.append(["ability", "mg2-laser-turrets"])


@_does("mg2-laser-turrets")
def _turrets(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    px.actions -= 1
    st.discard_from_hand(seat, "D1")
    st.discard_from_hand(seat, "D1")
    st.deal_damage(seat, 4)


@_options("multi-stage-m1")
def _multi_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if "multi-stage-m1" not in px.used and st.hand[seat] and st.allies_of(seat):
        opts.append(["ability", "multi-stage-m1"])


@_does("multi-stage-m1")
def _multi(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("multi-stage-m1")
    st.push("discard_upto", seat, "multi-stage-m1", 3, 0, "allies")


@_options("pursuer")
def _pursuer_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if "pursuer" not in px.used and st.hand[seat]:
        opts.append(["ability", "pursuer"])


@_does("pursuer")
def _pursuer(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("pursuer")
    st.push("discard_upto", seat, "pursuer", 3, 0, "self")


@choice("discard_upto")
def _discard_upto_options(st: MoonrakersState, op: Op) -> list[Any]:
    opts: list[Any] = ["done"]
    if op[3] > 0:
        opts.extend(["discard", c] for c in sorted(set(st.hand[op[1]])))
    return opts


@resolves("discard_upto")
def _discard_upto(st: MoonrakersState, op: Op, action: Any) -> None:
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
def _quantum_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    from engine.games.moonrakers.execution import play_cost

    if (
        "quantum-driver" not in px.used
        and "D1" in st.hand[seat]
        and px.actions >= play_cost(st, seat, px, "D1")
    ):
        opts.append(["ability", "quantum-driver"])


@_does("quantum-driver")
def _quantum(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    from engine.games.moonrakers.execution import play_cost

    px.used.add("quantum-driver")
    px.actions -= play_cost(st, seat, px, "D1")
    _play_as(st, seat, px, "D1", "D3")


@_options("replicator-mk1")
def _replicator_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if px.actions < 1:
        return
    for a, b in pairs(st.hand[seat]):
        if a == b:
            for kind in ("S", "T", "R", "D1"):
                opts.append(["ability", "replicator-mk1", a, kind])


@_does("replicator-mk1")
def _replicator(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    from engine.games.moonrakers.execution import card_effect

    px.actions -= 1
    st.discard_from_hand(seat, action[2])
    st.discard_from_hand(seat, action[2])
    px.cards += 1  # "play as" a basic card (Parasite)
    card_effect(st, seat, action[3])


@_options("symbiote-9000")
def _symbiote_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if "symbiote-9000" not in px.used and _uncovered(st, px):
        for card in sorted(set(st.hand[seat])):
            opts.append(["ability", "symbiote-9000", card])


@_does("symbiote-9000")
def _symbiote(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("symbiote-9000")
    st.trash_from_hand(seat, action[2])
    st.block(seat, 1)


# ----- Overload ---------------------------------------------------------------------------------


@_options("aclimator-6050")
def _aclimator_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if "aclimator-6050" in px.used or st.h2h:
        return
    for t in ("R", "T", "D", "C"):
        if st.rem.get(t):
            opts.append(["ability", "aclimator-6050", t])


@_does("aclimator-6050")
def _aclimator(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("aclimator-6050")
    t = action[2]
    st.rem["S"] = st.rem.get("S", 0) + st.rem[t]
    st.rem[t] = 0


def _charge_pairs(
    st: MoonrakersState,
    seat: int,
    part: str,
    opts: list[Any],
    keep: Callable[[str], bool] | None = None,
) -> None:
    if st.io_free() > 0:
        for a, b in pairs(st.hand[seat], keep):
            opts.append(["ability", part, a, b])


@_options("arbiter")
def _arbiter_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    _charge_pairs(st, seat, "arbiter", opts)
    if st.io[seat].get("arbiter", 0) >= 3:
        for card in sorted({c for c in st.hand[seat] if c in ACTION}):
            opts.append(["ability", "arbiter", "copy", card])


@_does("arbiter")
def _arbiter(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    if action[2] == "copy":
        st.io_spend(seat, "arbiter", 3)
        st.gain(seat, action[3])
        return
    st.discard_from_hand(seat, action[2])
    st.discard_from_hand(seat, action[3])
    st.io_add(seat, "arbiter", 1)


def _upgrade(part: str, basic: str, advanced: str) -> None:
    """Once per contract: trash a basic card from hand, gain an Advanced one."""

    def options(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
        if part not in px.used and basic in st.hand[seat]:
            opts.append(["ability", part])

    def do(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
        px.used.add(part)
        st.trash_from_hand(seat, basic)
        st.gain(seat, advanced)

    ABILITY_OPTIONS[part] = options
    ABILITY_DO[part] = do


_upgrade("augmentor-2050", "S", "S+")
_upgrade("inverter-mk2", "R", "R+")
_upgrade("staged-burst-e3", "T", "T+")


@_options("contributor-mk2")
def _contributor_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if "contributor-mk2" not in px.used:
        for q in st.allies_of(seat):
            opts.append(["ability", "contributor-mk2", q, "R"])
            opts.append(["ability", "contributor-mk2", q, "T"])


@_does("contributor-mk2")
def _contributor(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("contributor-mk2")
    st.gain(action[2], action[3], "hand")


@_options("eternal")
def _eternal_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if "eternal" not in px.used and st.io_free() > 0:
        for card in sorted(set(st.hand[seat])):
            opts.append(["ability", "eternal", card])
    if st.io[seat].get("eternal", 0) >= 4:
        opts.append(["ability", "eternal", "spend"])


@_does("eternal")
def _eternal(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
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
    usable: Callable[[MoonrakersState, int, PX], bool],
    effect: Callable[[MoonrakersState, int, PX], None],
) -> None:
    """IO parts of the form: discard a `charge_card` -> +1 IOsphere; spend N -> effect."""

    def options(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
        if charge_card is not None and charge_card in st.hand[seat] and st.io_free() > 0:
            opts.append(["ability", part, "charge"])
        if st.io[seat].get(part, 0) >= spend_cost and usable(st, seat, px):
            opts.append(["ability", part, "spend"])

    def do(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
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
def _cache_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    _charge_pairs(st, seat, "io-cache-3050", opts)
    if st.io[seat].get("io-cache-3050", 0) >= 2 and _uncovered(st, px):
        opts.append(["ability", "io-cache-3050", "spend"])


@_does("io-cache-3050")
def _cache(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    if action[2] == "spend":
        st.io_spend(seat, "io-cache-3050", 2)
        st.block(seat, 1)
        return
    st.discard_from_hand(seat, action[2])
    st.discard_from_hand(seat, action[3])
    st.io_add(seat, "io-cache-3050", 1)


@_options("mg-io-core")
def _core_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    _charge_pairs(st, seat, "mg-io-core", opts, lambda c: _cat(c) == "D")
    if st.io[seat].get("mg-io-core", 0) >= 1 and st.useful("D"):
        opts.append(["ability", "mg-io-core", "spend"])


@_does("mg-io-core")
def _core(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    if action[2] == "spend":
        st.io_spend(seat, "mg-io-core", 1)
        st.deal_damage(seat, 1)
        return
    st.discard_from_hand(seat, action[2])
    st.discard_from_hand(seat, action[3])
    st.io_add(seat, "mg-io-core", 1)


@_options("io-exhaust-e1")
def _exhaust_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if st.io_free() > 0:
        opts.append(["ability", "io-exhaust-e1"])


@_does("io-exhaust-e1")
def _exhaust(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    st.io_add(seat, "io-exhaust-e1", 1)
    st.draw_cards(seat, 1)


@_options("io-gen-mk1")
def _gen_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if st.io[seat].get("io-gen-mk1", 0) >= 3 and px.actions >= 1:
        for card in sorted(set(st.hand[seat])):
            if card != "M":
                opts.append(["ability", "io-gen-mk1", card])


@_does("io-gen-mk1")
def _gen(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    from engine.games.moonrakers.execution import card_effect, play_crew

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
def _hotshot_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if px.hotshot < 2:
        opts.append(["ability", "io-hotshot-1050", "roll"])
    if st.io[seat].get("io-hotshot-1050", 0) >= 1:
        for t in st.open_types():
            opts.append(["ability", "io-hotshot-1050", t])


@_does("io-hotshot-1050")
def _hotshot(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    if action[2] == "roll":
        px.hotshot += 1
        st.roll_die(seat)
        st.io_add(seat, "io-hotshot-1050", 1)
        return
    st.io_spend(seat, "io-hotshot-1050", 1)
    st.reduce(seat, action[2], 1)


@_options("io-pivot-h2")
def _pivot_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    # "Spend 1 → re-roll one of your hazard dice": no per-contract limit, like the
    # other IO parts; each re-roll costs an IOsphere.
    if st.io[seat].get("io-pivot-h2", 0) >= 1:
        for v in sorted({v for v in px.dice if v > 0}):
            opts.append(["ability", "io-pivot-h2", v])


@_does("io-pivot-h2")
def _pivot(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    st.io_spend(seat, "io-pivot-h2", 1)
    st.roll_die(seat, px.dice.index(action[2]))


@_options("magnetite-m1")
def _magnetite_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if "magnetite-m1" not in px.used and st.allies_of(seat):
        opts.append(["ability", "magnetite-m1"])


@_does("magnetite-m1")
def _magnetite(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("magnetite-m1")
    for q in reversed(st.allies_of(seat)):
        st.push("magnet_give", q, seat)


@choice("magnet_give")
def _magnet_give_options(st: MoonrakersState, op: Op) -> list[Any]:
    hand = st.hand[op[1]]
    if not hand:
        return []
    return ["pass", *(["give", c] for c in sorted(set(hand)))]


@resolves("magnet_give")
def _magnet_give(st: MoonrakersState, op: Op, action: Any) -> None:
    if action == "pass":
        return
    st.hand_remove(op[1], action[1])
    st.push("magnet_keep", op[2], action[1])


@choice("magnet_keep")
def _magnet_keep_options(st: MoonrakersState, op: Op) -> list[Any]:
    return ["keep", "trash"]


@resolves("magnet_keep")
def _magnet_keep(st: MoonrakersState, op: Op, action: str) -> None:
    if action == "keep":
        st.to_hand(op[1], op[2])
    else:
        st.trashed(op[1], op[2])


@_options("mg-upgrade-core")
def _mg_upgrade_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if "mg-upgrade-core" not in px.used:
        for card in sorted({c for c in st.hand[seat] if _cat(c) == "D"}):
            opts.append(["ability", "mg-upgrade-core", card])


@_does("mg-upgrade-core")
def _mg_upgrade(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("mg-upgrade-core")
    st.trash_from_hand(seat, action[2])
    st.gain(seat, "D+")


@_options("mill")
def _mill_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if "mill" not in px.used and (st.draw[seat] or st.discard[seat]):
        opts.append(["ability", "mill"])


@_does("mill")
def _mill(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("mill")
    card, _public = st._pop_draw(seat)
    if card is None:
        return
    st.discard[seat].append(card)
    if card not in CREW:
        st.gain(seat, card)


def _give_card_opts(part: str) -> Callable[..., None]:
    def options(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
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
def _phase_drive(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("phase-drive-mk3")
    st.hand_remove(seat, action[3])
    st.to_hand(action[2], action[3])


@_does("modulator-t3")
def _modulator(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("modulator-t3")
    st.hand_remove(seat, action[3])
    st.to_hand(action[2], action[3])
    st.push("modulator_back", action[2], seat)


@choice("modulator_back")
def _modulator_back_options(st: MoonrakersState, op: Op) -> list[Any]:
    return [["give", c] for c in sorted(set(st.hand[op[1]]))]


@resolves("modulator_back")
def _modulator_back(st: MoonrakersState, op: Op, action: list[Any]) -> None:
    st.hand_remove(op[1], action[1])
    st.to_hand(op[2], action[1])


@_options("tributor")
def _tributor_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if "tributor" not in px.used and st.open_types():
        for a, b in pairs(st.hand[seat]):
            opts.append(["ability", "tributor", a, b])


@_does("tributor")
def _tributor(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("tributor")
    st.trash_from_hand(seat, action[2])
    st.trash_from_hand(seat, action[3])
    st.push("req_any", seat, "tributor", 3)


@_options("twin-probe-e2")
def _probe_opts(st: MoonrakersState, seat: int, px: PX, opts: list[Any]) -> None:
    if "twin-probe-e2" not in px.used and st.draw[seat]:
        opts.append(["ability", "twin-probe-e2"])


@_does("twin-probe-e2")
def _probe(st: MoonrakersState, seat: int, px: PX, action: list[Any]) -> None:
    px.used.add("twin-probe-e2")
    st.top_known[seat] = max(st.top_known[seat], 1)
    st.push("probe", seat)


@choice("probe")
def _probe_choice_options(st: MoonrakersState, op: Op) -> list[Any]:
    return ["keep", "discard"]


@resolves("probe")
def _probe_choice(st: MoonrakersState, op: Op, action: str) -> None:
    if action == "discard":
        seat = op[1]
        card, _public = st._pop_draw(seat)
        if card is not None:
            st.discard[seat].append(card)
