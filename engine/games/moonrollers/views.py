"""What one seat sees of a Moonrollers table (the state's `observation`)."""

from __future__ import annotations

from typing import Any

from engine.games.moonrollers.cards import CREW, FACES, FACTIONS, HAZARD_PRESTIGE, WILD
from engine.games.moonrollers.phases import PHASES, SELECT
from engine.games.moonrollers.turn import Turn


def observe(st: Turn, seat: int) -> dict[str, Any]:
    """What `seat` sees (README "Observation"): everything but hidden tokens and the deck."""
    players = []
    for p in range(st.num_players):
        entry: dict[str, Any] = {
            "prestige": st.prestige[p],
            "hazard_tokens": sum(st.hz[p]),  # the count is public, the kinds are not
            "crew": {
                FACTIONS[f]: [CREW[c].id for c in stack]  # top of the stack first
                for f, stack in enumerate(st.stacks[p])
                if stack
            },
            "abilities": sorted(st.abil[p]),
        }
        if st.over:
            # Final scoring: "Players now reveal their Hazard tokens."
            entry["hazard_kinds"] = token_list(st, p)
        players.append(entry)
    display = []
    for card, marks in zip(st.display, st.marks, strict=True):
        crew = CREW[card]
        display.append(
            {
                "crew": crew.id,
                "faction": FACTIONS[crew.faction],
                "requirements": [
                    {
                        "face": FACES[r.face],
                        "count": r.count,
                        "hazard": r.hazard,
                        "x2": r.face == WILD,
                        "token": m if m >= 0 else None,
                    }
                    for r, m in zip(crew.requirements, marks, strict=True)
                ],
            }
        )
    mine = token_list(st, seat)
    turn: dict[str, Any] = {
        "player": st.cur,
        "phase": PHASES[st.phase],
        "crew": CREW[st.display[st.slot]].id if st.slot >= 0 else None,
        "committed": st.req if st.req >= 0 else None,
        "need": st.need,
        "pool": dict(zip(FACES, st.pool, strict=True)),
        "treated_as_extra": st.conv,
        "saved_wild": st.saved,
        "locked": st.locked,
        "rolled": dict(zip(FACES, st.rolled, strict=True)),
        "first_roll": st.first,
        "locked_this_roll": st.progress,
        "safe": st.safe,
        "safe_next_roll": st.safe_next,
        "avari_bonus": st.avari,
        "used_abilities": sorted(st.used),
        "completed_this_turn": list(st.placed),
        "drawn_count": len(st.drawn),
    }
    if st.phase == SELECT:
        turn["selected"] = dict(zip(FACES, st.sel, strict=True))
        turn["select_limit"] = st.sel_cap
        turn["select_exactly"] = st.sel_exact
    if seat == st.cur and st.drawn:
        turn["drawn"] = [HAZARD_PRESTIGE[k] for k in st.drawn]
    obs: dict[str, Any] = {
        "players": players,
        "my_hazard_tokens": mine,
        "display": display,
        "deck_size": len(st.deck),
        "hazard_pile": sum(st.pile),
        "supply": st.supply,
        "turn": turn,
    }
    if st.over:
        obs["end_reason"] = st.end_reason
    return obs


def token_list(st: Turn, seat: int) -> list[int]:
    """A seat's hazard tokens named by prestige, smallest first."""
    out = []
    for kind, count in enumerate(st.hz[seat]):
        out += [HAZARD_PRESTIGE[kind]] * count
    return out
