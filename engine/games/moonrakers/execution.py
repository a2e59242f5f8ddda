"""Execution: hazard dice, contract-start effects, the round of steps (A-10),
Mercenaries (A-17), and the end of a contract (hazards, rewards, Head to Head placing,
clean-up, A-11 / A-12). Playing a card itself is playing.py's.

Each step a participant plays one card, uses one ability or passes; Execution
ends when every participant has passed in a row (A-10). A participant may take
at most STEP_CAP non-pass steps per contract (E-moonrakers-2).
"""

from __future__ import annotations

from typing import Any

from engine.games.moonrakers import objectives
from engine.games.moonrakers.abilities import ABILITY_DO, ABILITY_OPTIONS
from engine.games.moonrakers.buying import install
from engine.games.moonrakers.cards import ACTION, ADVANCED_KINDS, CONTRACTS, CREW, PARTS
from engine.games.moonrakers.effects import io_crew_ability
from engine.games.moonrakers.machine import Op, auto, choice, resolves
from engine.games.moonrakers.mercenaries import merc_options, ml_share, use_merc
from engine.games.moonrakers.planning import draw_contract
from engine.games.moonrakers.playing import play_from_hand
from engine.games.moonrakers.setup import clear_contract
from engine.games.moonrakers.table import PX, STEP_CAP, Table

# ----- start ------------------------------------------------------------------------------


@auto("exec_start")
def _exec_start(st: Table, ml: int) -> None:
    rec = CONTRACTS[st.cid]
    st.px = [None] * st.num_players
    for p in st.participants:
        st.px[p] = PX()
    if not st.h2h:
        taken = sum(d[3] for d in st.deals.values())
        for p in st.participants:
            count = st.deals[p][3] if p in st.deals else rec.hazard_dice - taken
            if "cloaking-device" in st.parts[p]:
                count -= 1
            for _ in range(max(0, count)):
                st.roll_die(p)
    st.xi = 0
    st.passes = 0
    st.ml_share = ml_share(st) if st.merc_row and not st.h2h else (0, 0)
    st.push("exec_turn", ml)
    for p in reversed(st.participants):
        for part in reversed(st.parts[p]):
            ops = PARTS[part].start
            if ops:
                st.push_ops(p, part, ops)


@auto("ml_draw")
def _ml_draw(st: Table, seat: int, src: str, count: int) -> None:
    if seat == st.ml:
        st.draw_cards(seat, count)


@auto("draw_if_none")
def _draw_if_none(st: Table, seat: int, src: str, cat: str, count: int) -> None:
    for card in st.hand[seat]:
        kind = ACTION.get(card)
        if kind is not None and kind.cat == cat:
            return
    st.draw_cards(seat, count)


@auto("draw_per_die")
def _draw_per_die(st: Table, seat: int, src: str) -> None:
    st.draw_cards(seat, len(st.px[seat].dice))


@auto("precari")
def _precari(st: Table, seat: int, src: str) -> None:
    if len(st.px[seat].dice) >= 2:
        st.credits[seat] += 1


@auto("draw_if_miss")
def _draw_if_miss(st: Table, seat: int, src: str, count: int) -> None:
    if "M" in st.hand[seat]:
        st.draw_cards(seat, count)


@auto("allies_draw")
def _allies_draw(st: Table, seat: int, src: str, count: int) -> None:
    for q in st.allies_of(seat):
        st.draw_cards(q, count)


@auto("allies_act")
def _allies_act(st: Table, seat: int, src: str, count: int) -> None:
    for q in st.allies_of(seat):
        st.px[q].actions += count


@auto("leech")
def _leech(st: Table, seat: int, src: str) -> None:
    if not st.h2h:
        st.px[seat].actions += sum(1 for q in st.participants if q != st.ml)


@choice("reformer")
def _reformer_options(st: Table, op: Op) -> list[Any]:
    opts: list[Any] = [["reformer", "miss"]]
    opts.extend(["reformer", "trash", c] for c in sorted(set(st.hand[op[1]])))
    return opts


@resolves("reformer")
def _reformer(st: Table, op: Op, action: list[Any]) -> None:
    seat = op[1]
    if action[1] == "miss":
        st.gain(seat, "M")
    else:
        st.trash_from_hand(seat, action[2])


# ----- steps ------------------------------------------------------------------------------


@auto("exec_turn")
def _exec_turn(st: Table, ml: int) -> None:
    if st.passes >= len(st.participants):
        st.push("exec_end", ml)
    else:
        st.push("step", st.participants[st.xi])


@auto("exec_next")
def _exec_next(st: Table, ml: int) -> None:
    parts = st.participants
    st.xi = (st.xi + 1) % len(parts)
    if st.ovl:
        objectives.check_live(st)
    if st.passes >= len(parts):
        st.push("exec_end", ml)
    else:
        st.push("step", parts[st.xi])


@choice("step")
def step_options(st: Table, op: Op) -> list[Any]:
    seat = op[1]
    px = st.px[seat]
    opts: list[Any] = ["pass"]
    if px.steps >= STEP_CAP:
        return opts
    acts = px.actions
    hand = st.hand[seat]
    parts = st.parts[seat]
    free_d1 = st.predator
    free_s = not px.shield_seen and "emulator-mk2" in parts
    free_d = not px.dmg_seen and "mg-support-core" in parts
    if hand and (acts > 0 or free_d1 or free_s or free_d):
        rem = st.rem
        flex_open = not st.h2h and rem.get("F", 0) > 0
        over = "mg-overcharger" in parts and "mg-overcharger" not in px.used
        seen = set()
        for card in hand:
            if card in seen or card == "M":
                continue
            seen.add(card)
            kind = ACTION.get(card)
            if kind is None:
                cat = "C"
                cost = 1
            else:
                cat = kind.cat
                cost = (
                    0
                    if (free_d1 and card == "D1")
                    or (free_s and cat == "S")
                    or (free_d and cat == "D")
                    else 1
                )
            if acts < cost:
                continue
            opts.append(["play", card])
            into_flex = flex_open and rem.get(cat, 0) > 0
            if into_flex:
                opts.append(["play", card, "F"])
            if over and cat == "D" and acts > cost:
                opts.append(["play", card, "x2"])
                if into_flex:
                    # A doubled card may go to Flex like any other (E-moonrakers-6).
                    opts.append(["play", card, "x2", "F"])
    for part in parts:
        fn = ABILITY_OPTIONS.get(part)
        if fn is not None:
            fn(st, seat, px, opts)
    io = st.io[seat]
    for crew in st.inplay[seat]:
        if crew not in px.used and io.get(crew, 0) > 0:
            opts.append(["ability", crew])
    if st.merc_row and seat == st.ml and not st.h2h:
        merc_options(st, seat, px, opts)
    return opts


@resolves("step")
def _step(st: Table, op: Op, action: Any) -> None:
    seat = op[1]
    px = st.px[seat]
    stack = st.stack
    depth = len(stack)
    if action == "pass":
        st.passes += 1
    else:
        st.passes = 0
        px.steps += 1
        kind = action[0]
        if kind == "play":
            play_from_hand(st, seat, action[1], action[2:])
        elif kind == "ability":
            if action[1] in CREW:
                io_crew_ability(st, seat, px, action[1])
            else:
                ABILITY_DO[action[1]](st, seat, px, action)
        else:
            use_merc(st, seat, px, action[1])
    if len(stack) == depth:
        _exec_next(st, st.ml)
    else:
        # The step's own effects run first, then the turn passes on.
        stack.insert(depth, ("exec_next", st.ml))


# ----- end of the contract -------------------------------------------------------------------


@auto("exec_end")
def _exec_end(st: Table, ml: int) -> None:
    rec = CONTRACTS[st.cid]
    parts = st.participants
    for p in parts:
        if "mg1-rail-gun" in st.parts[p] and st.px[p].n["S"] == 0:
            st.reduce(p, "D", 2)
    first = second = None
    if st.h2h:
        order = sorted(parts, key=lambda s: (-st.score[s], parts.index(s)))
        placed = [s for s in order if st.score[s] > 0]
        first = placed[0] if placed else None
        second = placed[1] if len(placed) > 1 else None
        completed = [first] if first is not None else []
        failed = [s for s in parts if s not in (first, second)]
        success = first is not None
    else:
        success = all(v <= 0 for v in st.rem.values())
        completed = list(parts) if success else []
        failed = [] if success else list(parts)
    # Hazards: every unblocked icon costs its roller 1 Prestige (A-13: never below 0).
    for p in parts:
        px = st.px[p]
        lost = max(0, sum(px.dice) - px.blocked)
        px.unblocked = lost
        st.prestige[p] = max(0, st.prestige[p] - lost)
    bonus: list[int] = []
    if st.h2h:
        if first is not None:
            st.prestige[first] += rec.prestige
            st.credits[first] += rec.credits
        if second is not None:
            st.credits[second] += rec.second_credits
    elif success:
        prestige, credits = ml_share(st)
        b_left = rec.bonus
        for s, deal in st.deals.items():
            st.prestige[s] += deal[0]
            st.credits[s] += deal[1]
            bonus.extend([s] * deal[2])
            b_left -= deal[2]
        px = st.px[ml]
        st.prestige[ml] += prestige - px.merc_prestige
        st.credits[ml] += credits - px.merc_credits
        bonus.extend([ml] * b_left)
    for p in completed:
        if "io-gen-mk1" in st.parts[p]:
            st.io_add(p, "io-gen-mk1", 1)
        if "io-pivot-h2" in st.parts[p]:
            st.io_add(p, "io-pivot-h2", st.px[p].unblocked)
    for p in failed:
        if "underwriter-1050" in st.parts[p]:
            st.credits[p] += 3
    st.outcome = (completed, failed, success)
    st.last = {
        "contract": st.contract,
        "participants": list(parts),
        "success": success,
        "first": first,
        "second": second,
        "scores": [st.score[s] for s in parts] if st.h2h else None,
        "hazards_lost": [st.px[s].unblocked for s in parts],
    }
    st.push("post_contract", ml)
    bonus.sort(key=lambda s: parts.index(s), reverse=True)
    for s in bonus:
        st.push("bonus", s)


@choice("bonus")
def _bonus_options(st: Table, op: Op) -> list[Any]:
    opts: list[Any] = []
    if st.crew_deck:
        opts.append(["bonus", "crew"])
    if st.part_deck:
        opts.append(["bonus", "part"])
    if st.adv is not None:
        opts.extend(["bonus", k] for k in ADVANCED_KINDS if st.adv[k] > 0)
    return opts


@resolves("bonus")
def _bonus(st: Table, op: Op, action: list[Any]) -> None:
    seat = op[1]
    what = action[1]
    if what == "crew":
        crew = st.pop_top(st.crew_deck, st.crew_mask)
        assert crew is not None
        st.discard[seat].append(crew)
    elif what == "part":
        part = st.pop_top(st.part_deck, st.part_mask)
        assert part is not None
        install(st, seat, part, bought=False)
    else:
        st.gain(seat, what)


@auto("post_contract")
def _post_contract(st: Table, ml: int) -> None:
    objectives.check_contract(st)
    st.push("buy_start", ml)
    st.push("finish_contract", ml)
    for p in reversed(st.participants):
        st.push("cleanup", p)


@auto("cleanup")
def _cleanup(st: Table, seat: int) -> None:
    """A-11: every participant discards played cards and hand, then draws a new hand."""
    px = st.px[seat]
    # The unplayed hand goes under the played cards, so the discard pile's top card
    # (what the table sees, E-moonrakers-19) is a played card whenever there is one.
    st.discard[seat].extend(st.hand[seat])
    st.hand[seat] = []
    st.known[seat] = []
    st.discard[seat].extend(px.played)
    px.played = []
    if "tesselator-mk1" in st.parts[seat] and st.discard[seat]:
        st.push("draw_hand", seat)
        st.push("tesselator", seat)
    else:
        st.draw_cards(seat, st.hand_limit(seat))


@auto("draw_hand")
def _draw_hand(st: Table, seat: int) -> None:
    st.draw_cards(seat, st.hand_limit(seat))


@choice("tesselator")
def _tesselator_options(st: Table, op: Op) -> list[Any]:
    opts: list[Any] = ["none"]
    opts.extend(["top", c] for c in sorted(set(st.discard[op[1]])))
    return opts


@resolves("tesselator")
def _tesselator(st: Table, op: Op, action: Any) -> None:
    seat = op[1]
    if action == "none":
        return
    card = action[1]
    disc = st.discard[seat]
    del disc[len(disc) - 1 - disc[::-1].index(card)]
    st.draw[seat].append(card)
    st.top_known[seat] += 1
    st.top_public[seat] += 1


@auto("finish_contract")
def _finish_contract(st: Table, ml: int) -> None:
    # the attempted contract is discarded and its slot refilled.
    st.cdiscard.append(st.cid)
    slot = st.slot
    clear_contract(st)
    st.row[slot] = draw_contract(st)
