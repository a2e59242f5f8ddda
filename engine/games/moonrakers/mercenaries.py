"""Mercenaries (A-17, 1-2 players): the Mission Leader hires revealed Merc cards
during Execution; basic cards cost 1, 2, 3, ... Credits and each crew 1 Prestige,
out of the Mission Leader's reward share and only on success (E-moonrakers-20).
"""

from __future__ import annotations

from typing import Any

from engine.games.moonrakers.cards import ACTION, ALL, CONTRACTS, CREW
from engine.games.moonrakers.setup import merc_crew_from_deck
from engine.games.moonrakers.table import PX, Table


def ml_share(st: Table) -> tuple[int, int]:
    rec = CONTRACTS[st.cid]
    prestige = rec.prestige - sum(d[0] for d in st.deals.values())
    credits = rec.credits - sum(d[1] for d in st.deals.values())
    return prestige, credits


def merc_options(st: Table, seat: int, px: PX, opts: list[Any]) -> None:
    prestige, credits = st.ml_share
    credits -= px.merc_credits
    prestige -= px.merc_prestige
    for i, card in enumerate(st.merc_row):
        if card is None:
            continue
        if card in CREW:
            if prestige >= 1:
                opts.append(["merc", i])
        elif credits >= px.merc_basic + 1 and st.useful(ACTION[card].cat):
            opts.append(["merc", i])


def use_merc(st: Table, seat: int, px: PX, index: int) -> None:
    card = st.merc_row[index]
    assert card is not None
    st.merc_row[index] = None
    if card in CREW:
        # A Mercenary crew: 1 Prestige from the reward; its ability applies; then it
        # goes to the bottom of the Crew deck and a new crew joins the Merc deck.
        px.merc_prestige += 1
        px.cards += 1  # a Mercenary is played (Parasite)
        st.reduce(seat, "C", 1)
        st.put_bottom(st.crew_deck, st.crew_mask, card, ALL)
        fresh = merc_crew_from_deck(st)
        if fresh is not None:
            st.put_bottom(st.merc_deck, st.merc_mask, fresh, 0)
        st.push_ops(seat, card, CREW[card].ops)
        return
    px.merc_basic += 1
    px.merc_credits += px.merc_basic
    px.cards += 1  # a Mercenary is played (Parasite)
    kind = ACTION[card]
    if kind.cat == "D":
        st.deal_damage(seat, kind.req)
    else:
        st.reduce(seat, kind.cat, kind.req)
    st.put_bottom(st.merc_deck, st.merc_mask, card, ALL)
