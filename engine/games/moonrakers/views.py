"""Moonrakers observations: what one seat sees of a table (table.py)."""

from __future__ import annotations

from typing import Any

from engine.games.moonrakers.table import Table


def observation(st: Table, seat: int) -> dict[str, Any]:
    """What `seat` sees: the public table, its own hand and what it has looked at."""
    players = []
    for q in range(st.num_players):
        tp = st.top_public[q]
        disc = st.discard[q]
        players.append(
            {
                "credits": st.credits[q],
                "prestige": st.prestige[q],
                "parts": [[p, st.io[q].get(p, 0)] for p in st.parts[q]],
                "in_play": [[c, st.io[q].get(c, 0)] for c in st.inplay[q]],
                "hand_size": len(st.hand[q]),
                "known_hand": sorted(st.known[q]),
                "draw_size": len(st.draw[q]),
                "draw_top_known": st.draw[q][-tp:][::-1] if tp else [],
                # A table sees the size of a discard pile and its top card
                # (E-moonrakers-19).
                "discard_size": len(disc),
                "discard_top": disc[-1] if disc else None,
                "looking_size": len(st.looking[q]),
                "objectives_held": len(st.objs[q]),
                "objectives_choosing": len(st.obj_pick[q]),
                "claimed": list(st.claimed[q]),
            }
        )
    tk = st.top_known[seat]
    obs: dict[str, Any] = {
        "game": "moonrakers",
        "overload": st.ovl,
        "turn": st.turns,
        "mission_leader": st.ml,
        "pending": [a for a in st.stack[-1] if isinstance(a, int | str)] if st.stack else [],
        "contracts": list(st.row),
        "contract_deck": len(st.cdeck),
        "contract_discard": len(st.cdiscard),
        "armory_crew": list(st.armory_crew),
        "armory_parts": list(st.armory_parts),
        "crew_deck": len(st.crew_deck),
        "part_deck": len(st.part_deck),
        "objective_deck": len(st.obj_deck),
        "advanced_supply": dict(st.adv) if st.adv is not None else None,
        "iospheres_supply": st.io_free(),
        "mercs": list(st.merc_row),
        "players": players,
        "hand": sorted(st.hand[seat]),
        "discard": list(st.discard[seat]),
        "objectives": list(st.objs[seat]),
        "objective_choices": list(st.obj_pick[seat]),
        "looking": list(st.looking[seat]),
        "draw_top": st.draw[seat][-tk:][::-1] if tk else [],
        "replaced_this_turn": st.replaced,
        "armory_discards": st.armory_discards,
        "contract": contract_view(st),
        "last_contract": st.last,
    }
    return obs


def contract_view(st: Table) -> dict[str, Any] | None:
    """The contract being negotiated or executed, as every seat sees it."""
    if not st.contract:
        return None
    view: dict[str, Any] = {
        "id": st.contract,
        "participants": list(st.participants),
        "deals": [[s, list(d)] for s, d in sorted(st.deals.items())],
        "proposals_left": list(st.proposals),
        "offer": list(st.offer) if st.offer is not None else None,
        "invitee": st.invitee,
        "remaining": dict(st.rem),
        "scores": list(st.score) if st.h2h else None,
        "damage_bonus": st.kary,
    }
    if st.px is not None:
        view["execution"] = [
            [q, st.px[q].public()] for q in st.participants if st.px[q] is not None
        ]
        view["passes"] = st.passes
    return view
