"""Card effect ops: the vocabulary Crew cards (data/crew.json "ops") and Ship
Part start effects are written in, plus shared choices (trash, substitute,
Tractor Beam).

Every op is `(name, seat, src, *args)` where `src` is the card that caused it.
Part abilities used during a step live in `abilities.py`.
"""

from __future__ import annotations

from typing import Any

from engine.games.moonrakers.buying import take_from_armory
from engine.games.moonrakers.cards import (
    ACTION,
    ADVANCED_KINDS,
    ADVANCED_OF,
    CREW,
    PARTS,
    SAME_TYPE,
)
from engine.games.moonrakers.machine import Op, auto, choice, resolves
from engine.games.moonrakers.playing import card_effect, play_crew
from engine.games.moonrakers.table import PX, Table

PAT_OPTIONS = ("act", "draw", "block", "trash")


def distinct(cards: list[str]) -> list[str]:
    return sorted(set(cards))


def play_free(st: Table, seat: int, card: str) -> None:
    """Play a card without spending an Action (Lee van Cribb, Zek Zarag)."""
    px = st.px[seat]
    px.cards += 1
    if card in CREW:
        play_crew(st, seat, card, None)
    else:
        px.played.append(card)
        if card != "M":
            card_effect(st, seat, card)


def io_crew_ability(st: Table, seat: int, px: PX, crew: str) -> None:
    """Once per contract: remove 1 IOsphere from an IO crew in play for its effect."""
    px.used.add(crew)
    st.io_spend(seat, crew, 1)
    st.push_ops(seat, crew, CREW[crew].io_ability)


# ----- simple automatic ops ------------------------------------------------------------------


@auto("act")
def _act(st: Table, seat: int, src: str, amount: int) -> None:
    st.px[seat].actions += amount


@auto("draw")
def _draw(st: Table, seat: int, src: str, amount: int) -> None:
    st.draw_cards(seat, amount)


@auto("block")
def _block(st: Table, seat: int, src: str, amount: int) -> None:
    st.block(seat, amount)


@auto("req")
def _req(st: Table, seat: int, src: str, cat: str, amount: int) -> None:
    st.reduce(seat, cat, amount)


@auto("damage")
def _damage(st: Table, seat: int, src: str, amount: int) -> None:
    st.deal_damage(seat, amount)


@auto("as")
def _as(st: Table, seat: int, src: str, kind: str) -> None:
    card_effect(st, seat, kind)


@auto("gain")
def _gain(st: Table, seat: int, src: str, card: str, dest: str) -> None:
    st.gain(seat, card, dest)


@auto("credits")
def _credits(st: Table, seat: int, src: str, amount: int) -> None:
    st.credits[seat] += amount


@auto("prestige")
def _prestige(st: Table, seat: int, src: str, amount: int) -> None:
    st.prestige[seat] = max(0, st.prestige[seat] + amount)


@auto("kary")
def _kary(st: Table, seat: int, src: str) -> None:
    st.kary += 1


@auto("trash_top")
def _trash_top(st: Table, seat: int, src: str) -> None:
    card, _public = st._pop_draw(seat)
    if card is not None:
        st.trashed(seat, card)


@auto("hazard_die")
def _hazard_die(st: Table, seat: int, src: str) -> None:
    st.roll_die(seat)


@auto("io_self")
def _io_self(st: Table, seat: int, src: str, amount: int) -> None:
    if src in st.inplay[seat]:
        st.io_add(seat, src, amount)
        if st.io[seat].get(src, 0) <= 0:
            # No IOsphere left in the supply: the crew cannot stay in play.
            st.io[seat].pop(src, None)
            st.inplay[seat].remove(src)
            st.px[seat].played.append(src)


@auto("kurt")
def _kurt(st: Table, seat: int, src: str) -> None:
    if st.px[seat].basic_r >= 2:
        st.draw_cards(seat, 2)


@auto("oleg")
def _oleg(st: Table, seat: int, src: str) -> None:
    for q in range(st.num_players):
        if q not in st.participants:
            st.draw_cards(q, 1)


@auto("at0k")
def _at0k(st: Table, seat: int, src: str) -> None:
    dice = st.px[seat].dice
    if dice:
        value = max(dice)  # E-moonrakers-10: the best die is chosen for you
        dice.remove(value)
        st.deal_damage(seat, value)


@auto("trash_self")
def _trash_self(st: Table, seat: int, src: str) -> None:
    played = st.px[seat].played
    if src in played:
        played.remove(src)
        st.trashed(seat, src)


@auto("ryan")
def _ryan(st: Table, seat: int, src: str) -> None:
    hand = st.hand[seat]
    before = len(hand)
    st.draw_cards(seat, 2)
    drawn = [c for c in hand[before:] if c in ACTION and ACTION[c].cat == "D"]
    if not drawn:
        return
    card = min(drawn, key=lambda c: (ACTION[c].req, c))  # E-moonrakers-10
    st.hand_remove(seat, card)
    px = st.px[seat]
    px.played.append(card)
    px.cards += 1
    card_effect(st, seat, "D5")


@auto("lee")
def _lee(st: Table, seat: int, src: str) -> None:
    for _ in range(3):
        card, _public = st._pop_draw(seat)
        if card is None:
            break
        st.looking[seat].append(card)
    st.push("lee_pick", seat, src)


@choice("lee_pick")
def _lee_options(st: Table, op: Op) -> list[Any]:
    return [["play", c] for c in distinct(st.looking[op[1]])]


@resolves("lee_pick")
def _lee_pick(st: Table, op: Op, action: list[Any]) -> None:
    seat = op[1]
    looking = st.looking[seat]
    looking.remove(action[1])
    st.discard[seat].extend(looking)
    looking.clear()
    play_free(st, seat, action[1])


# ----- choices ---------------------------------------------------------------------------------


@choice("choose")
def _choose_options(st: Table, op: Op) -> list[Any]:
    seat, src, branches = op[1], op[2], op[3]
    # "… OR trash it" (Armitage) needs the card itself on the table: not a Mercenary
    # (it goes back to the Crew deck, E-moonrakers-20) nor a card already trashed by
    # its first resolution (The Clone Bay, IO Gen mk1). E-moonrakers-42.
    return [
        ["opt", label]
        for label, ops in branches.items()
        if ops[0][0] != "trash_self" or src in st.px[seat].played
    ]


@resolves("choose")
def _choose(st: Table, op: Op, action: list[Any]) -> None:
    st.push_ops(op[1], op[2], op[3][action[1]])


@choice("trash")
def _trash_options(st: Table, op: Op) -> list[Any]:
    hand = st.hand[op[1]]
    if not hand:
        return []
    opts: list[Any] = [["trash", c] for c in distinct(hand)]
    if op[3] == "may":
        opts.insert(0, "none")
    return opts


@resolves("trash")
def _trash(st: Table, op: Op, action: Any) -> None:
    if action != "none":
        st.trash_from_hand(op[1], action[1])
        if len(op) > 4:
            # "Must trash a hand card; <effect>": the effect is what the trash pays
            # for, so with no hand card to trash it never happens (E-moonrakers-45).
            st.push_ops(op[1], op[2], op[4])


@choice("req_any")
def _req_any_options(st: Table, op: Op) -> list[Any]:
    return [["req", t] for t in st.open_types()]


@resolves("req_any")
def _req_any(st: Table, op: Op, action: list[Any]) -> None:
    st.reduce(op[1], action[1], op[3])


@choice("give_self")
def _give_options(st: Table, op: Op) -> list[Any]:
    seat = op[1]
    if op[2] not in st.px[seat].played:
        return []
    return [["give", q] for q in range(st.num_players) if q != seat]


@resolves("give_self")
def _give_self(st: Table, op: Op, action: list[Any]) -> None:
    st.px[op[1]].played.remove(op[2])
    st.discard[action[1]].append(op[2])


@choice("b3ar")
def _b3ar_options(st: Table, op: Op) -> list[Any]:
    seat, src = op[1], op[2]
    found = [c for c in st.px[seat].played if c in CREW and c != src]
    found.extend(c for c in st.discard[seat] if c in CREW)
    return [["return", c] for c in distinct(found)]


@resolves("b3ar")
def _b3ar(st: Table, op: Op, action: list[Any]) -> None:
    seat, card = op[1], action[1]
    played = st.px[seat].played
    if card in played:
        played.remove(card)
    else:
        st.discard[seat].remove(card)
    st.to_hand(seat, card)


@choice("myla")
def _myla_options(st: Table, op: Op) -> list[Any]:
    opts: list[Any] = ["done"]
    opts.extend(["discard", c] for c in distinct(st.hand[op[1]]))
    return opts


@resolves("myla")
def _myla(st: Table, op: Op, action: Any) -> None:
    seat, src, count = op[1], op[2], op[3] if len(op) > 3 else 0
    if action == "done":
        st.draw_cards(seat, count)
        return
    st.discard_from_hand(seat, action[1])
    st.push("myla", seat, src, count + 1)


@choice("reroll_any")
def _reroll_options(st: Table, op: Op) -> list[Any]:
    mask = op[3] if len(op) > 3 else 0
    dice = st.px[op[1]].dice
    values = sorted({v for i, v in enumerate(dice) if v > 0 and not mask >> i & 1})
    if not values:
        return []
    return ["done", *(["reroll", v] for v in values)]


@resolves("reroll_any")
def _reroll_any(st: Table, op: Op, action: Any) -> None:
    if action == "done":
        return
    seat, src = op[1], op[2]
    mask = op[3] if len(op) > 3 else 0
    dice = st.px[seat].dice
    index = next(i for i, v in enumerate(dice) if v == action[1] and not mask >> i & 1)
    # "Re-roll any of your hazard dice once": the mask marks the dice already re-rolled.
    st.roll_die(seat, index)
    st.push("reroll_any", seat, src, mask | 1 << index)


@choice("zek")
def _zek_options(st: Table, op: Op) -> list[Any]:
    return [["take", c] for c in distinct(st.draw[op[1]])]


@resolves("zek")
def _zek(st: Table, op: Op, action: list[Any]) -> None:
    seat = op[1]
    pile = st.draw[seat]
    pile.remove(action[1])
    st.rng.shuffle(pile)
    st.top_known[seat] = 0
    st.top_public[seat] = 0
    play_free(st, seat, action[1])


@choice("discard_n")
def _discard_n_options(st: Table, op: Op) -> list[Any]:
    return [["discard", c] for c in distinct(st.hand[op[1]])]


@resolves("discard_n")
def _discard_n(st: Table, op: Op, action: list[Any]) -> None:
    seat, src, left = op[1], op[2], op[3]
    st.discard_from_hand(seat, action[1])
    if left > 1:
        st.push("discard_n", seat, src, left - 1)


@choice("domi")
def _domi_options(st: Table, op: Op) -> list[Any]:
    seat = op[1]
    free = st.io_free()
    opts: list[Any] = []
    for part in st.parts[seat]:
        if PARTS[part].io:
            if free > 0:
                opts.append(["io", part, 1])
            if st.io[seat].get(part, 0) > 0:
                opts.append(["io", part, -1])
    return opts


@resolves("domi")
def _domi(st: Table, op: Op, action: list[Any]) -> None:
    seat, part, delta = op[1], action[1], action[2]
    if delta > 0:
        st.io_add(seat, part, 1)
    else:
        st.io[seat][part] -= 1


@choice("hakun")
def _hakun_options(st: Table, op: Op) -> list[Any]:
    cheap = [c for c in st.armory_crew if c is not None and CREW[c].cost <= 2]
    if not cheap:
        return []
    return ["none", *(["take", c] for c in sorted(cheap))]


@resolves("hakun")
def _hakun(st: Table, op: Op, action: Any) -> None:
    if action == "none":
        return
    take_from_armory(st, action[1])
    st.discard[op[1]].append(action[1])


@choice("letyba")
def _letyba_options(st: Table, op: Op) -> list[Any]:
    opts: list[Any] = []
    for card in distinct(st.hand[op[1]]):
        kind = ACTION.get(card)
        if kind is None or not kind.basic or kind.cat == "M":
            continue
        targets = [k for k in ADVANCED_OF[kind.cat] if st.adv is not None and st.adv[k] > 0]
        if not targets:
            # Overload substitution: any other card of the same type.
            targets = [k for k in SAME_TYPE[kind.cat] if k != card and k not in ADVANCED_KINDS]
        opts.extend(["letyba", card, t] for t in targets)
    return opts


@resolves("letyba")
def _letyba(st: Table, op: Op, action: list[Any]) -> None:
    seat = op[1]
    st.trash_from_hand(seat, action[1])
    st.gain(seat, action[2], "hand")


@choice("pat")
def _pat_options(st: Table, op: Op) -> list[Any]:
    out = []
    for i, a in enumerate(PAT_OPTIONS):
        for b in PAT_OPTIONS[i + 1 :]:
            out.append(["pat", a, b])
    return out


@resolves("pat")
def _pat(st: Table, op: Op, action: list[Any]) -> None:
    seat, src = op[1], op[2]
    ops: list[tuple[Any, ...]] = []
    for label in action[1:]:
        if label == "act":
            ops.append(("act", 1))
        elif label == "draw":
            ops.append(("draw", 1))
        elif label == "block":
            ops.append(("block", 1))
        else:
            ops.append(("trash", "must"))
    st.push_ops(seat, src, tuple(ops))


@auto("io_move")
def _io_move(st: Table, seat: int, src: str) -> None:
    st.push("io_move_to", seat, src)


@choice("io_move_to")
def _io_move_options(st: Table, op: Op) -> list[Any]:
    seat, src = op[1], op[2]
    targets = [p for p in st.parts[seat] if PARTS[p].io]
    targets.extend(c for c in st.inplay[seat] if c != src)
    return [["io_to", t] for t in targets]


@resolves("io_move_to")
def _io_move_to(st: Table, op: Op, action: list[Any]) -> None:
    st.io_add(op[1], action[1], 1)


# ----- supply and reactions -----------------------------------------------------------------------


@choice("substitute")
def _substitute_options(st: Table, op: Op) -> list[Any]:
    card = op[2]
    cat = ACTION[card].cat
    # "… you *may* take any other card of the same type instead": declining is legal.
    opts: list[Any] = ["none"]
    opts.extend(
        ["take", k]
        for k in SAME_TYPE[cat]
        if k != card and (k not in ADVANCED_KINDS or (st.adv is not None and st.adv[k] > 0))
    )
    return opts


@resolves("substitute")
def _substitute(st: Table, op: Op, action: Any) -> None:
    if action != "none":
        st.gain(op[1], action[1], op[3])


@choice("tractor")
def _tractor_options(st: Table, op: Op) -> list[Any]:
    return [["tractor", "take"], ["tractor", "pass"]]


@resolves("tractor")
def _tractor(st: Table, op: Op, action: list[Any]) -> None:
    if action[1] == "take":
        st.discard[op[1]].append(op[2])
