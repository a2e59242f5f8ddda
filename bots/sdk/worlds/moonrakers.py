"""A Moonrakers world from one seat's observation (issue #40 point 1).

The observation shows the public table (contracts, Armory, supplies, every player's
Credits, Prestige, parts, zone sizes, known cards, the contract in play) and the seat's
own hand, discard pile, objectives and known top cards. `world` copies all of that into
a fresh engine table and draws the rest:

* decks: the Contract discard pile holds the latest contracts this seat saw attempted
  (`history`), the rest of it and the Contract deck share the others uniformly; the
  Ship Part deck is every part neither installed nor in the Armory, shuffled; the Crew
  deck takes its size from the crew seen nowhere; the objectives this seat put back lie
  at the bottom of the Objective deck, and the rest of it and the other players' secret
  objectives share the objectives this seat neither holds, put back nor saw claimed; the Mercenary deck (1-2 players) is its basic cards not face up plus its crew;
* the cards nobody sees in players' piles (other players' hands past their known cards,
  their draw piles below the known top cards, their discard piles under the top card,
  the cards they look at, and this seat's own draw pile below its known top): each
  player gets, shuffled into those places, the cards it is thought to hold unseen, which
  is its starting deck and every card this seat ever saw it with (`history`: this
  seat's earlier observations), less what is shown now; trimmed at random when that is
  too many (trashed or given away since), and completed from the crew found nowhere else
  and the Advanced cards gone from the supply, then from starting-deck cards. The
  observation does not say which bought card went to whom, nor what this seat's own draw
  pile holds (only its size), so this is a careful prior, not the exact posterior;
* the world's own RNG (future draws, hazard dice, reshuffles) is seeded from `rng`.

The stack of rule steps waiting under the pending decision is not in the observation;
it is rebuilt from the decision's name and the phase (planning, negotiation, Head to
Head joins, Execution, Bonus cards still owed, clean-up, buying). In the middle of a
card's effect the rest of that effect is not shown, so the world resumes Execution
after the pending choice. Execution bookkeeping the view leaves out (steps taken, kinds played, first
Shield or Damage seen) is recounted from the cards played.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from bots.sdk.worlds.moonrakers_steps import waiting_steps
from engine.core.registry import get_game
from engine.games.moonrakers.cards import (
    ACTION,
    ADVANCED_KINDS,
    CONTRACTS,
    CREW,
    OBJECTIVES,
    PARTS,
    RULES,
    ids_for,
)
from engine.games.moonrakers.mercenaries import ml_share
from engine.games.moonrakers.state import MoonrakersState
from engine.games.moonrakers.table import PX

STARTING_DECK: tuple[str, ...] = tuple(RULES["starting_deck"]["value"])
MERC_BASIC: tuple[str, ...] = tuple(RULES["merc_deck"]["basic"])
MERC_CREW: int = RULES["merc_deck"]["crew"]
ADVANCED_PER_KIND: int = RULES["advanced_supply"]["per_kind"]


def world(
    observation: dict[str, Any],
    seat: int,
    rng: random.Random,
    *,
    options: dict[str, Any] | None = None,
    history: Any = None,
) -> MoonrakersState:
    """A full state whose `observation(seat)` is `observation`, its hidden parts drawn
    with `rng`.

    `options`: the game's options (`max_rounds` is in no observation; `expansions` is
    taken from it). `history`: this seat's earlier observations, oldest first, one list
    the bot appends to (read once, remembered per list): the cards it saw each player
    with, the contracts attempted, the objectives it put back, the Mercenaries hired
    and the Bonus cards taken this turn. Without it the world still shows the
    observation; its hidden parts are then drawn from a vaguer prior.
    """
    obs = observation
    if obs.get("seat", seat) != seat:
        raise ValueError(f"the observation is seat {obs['seat']}'s, not seat {seat}'s")
    game = get_game("moonrakers")
    opts = dict(options or {})
    opts["expansions"] = ["overload"] if obs["overload"] else []
    n = len(obs["players"])
    # A fresh table gives every field its type; its seed comes from `rng` alone.
    st = game.new_state(n, rng.getrandbits(63), game.check_options(opts))
    assert isinstance(st, MoonrakersState)
    _fill_public(st, obs, seat)
    earlier = history if history is not None else []
    _fill_contract(st, obs, earlier)
    _deal_hidden(st, obs, seat, rng, earlier)
    st.stack = waiting_steps(st, obs, earlier)
    st.rng = random.Random(rng.getrandbits(64))
    st.cur_opts = None
    st._legal_cache = None
    return st


# ----- what everyone sees ---------------------------------------------------------------------


def _fill_public(st: MoonrakersState, obs: dict[str, Any], seat: int) -> None:
    players = obs["players"]
    # Nothing pending only once the game is over (who won is in no observation).
    st.over = not obs["pending"]
    st.winner = None
    st.end_reason = ""
    st.turns = obs["turn"]
    st.ml = obs["mission_leader"]
    st.replaced = obs["replaced_this_turn"]
    st.armory_discards = obs["armory_discards"]
    st.last = obs["last_contract"]
    st.row = list(obs["contracts"])
    st.armory_crew = list(obs["armory_crew"])
    st.armory_parts = list(obs["armory_parts"])
    st.adv = dict(obs["advanced_supply"]) if obs["advanced_supply"] is not None else None
    st.merc_row = list(obs["mercs"])
    st.credits = [p["credits"] for p in players]
    st.prestige = [p["prestige"] for p in players]
    st.parts = [[part for part, _ in p["parts"]] for p in players]
    st.inplay = [[crew for crew, _ in p["in_play"]] for p in players]
    st.io = [{c: k for c, k in p["parts"] + p["in_play"] if k} for p in players]
    st.claimed = [list(p["claimed"]) for p in players]
    st.predator = any("predator-mk1" in parts for parts in st.parts)
    st.top_public = [len(p["draw_top_known"]) for p in players]
    st.top_known = list(st.top_public)
    st.top_known[seat] = len(obs["draw_top"])
    st.known = [list(p["known_hand"]) for p in players]


def _fill_contract(st: MoonrakersState, obs: dict[str, Any], history: list[dict[str, Any]]) -> None:
    n = st.num_players
    view = obs["contract"]
    st.outcome = _outcome(obs["last_contract"])
    st.ml_share = (0, 0)
    if view is None:
        st.contract = None
        st.slot = -1
        st.h2h = False
        st.counts = ()
        st.participants, st.allies, st.deals = [], [], {}
        st.proposals = [0] * n
        st.offer, st.invitee = None, None
        st.rem, st.score, st.kary = {}, [0] * n, 0
        st.px, st.xi, st.passes = None, 0, 0
        return
    rec = CONTRACTS[view["id"]]
    st.contract = view["id"]
    # The chosen contract leaves an empty slot in the row.
    st.slot = st.row.index(None) if None in st.row else -1
    st.h2h = rec.mode == "h2h"
    st.counts = rec.counts
    st.participants = list(view["participants"])
    st.allies = []
    st.deals = {s: tuple(d) for s, d in view["deals"]}
    st.proposals = list(view["proposals_left"])
    st.offer = list(view["offer"]) if view["offer"] is not None else None
    st.invitee = view["invitee"]
    st.rem = dict(view["remaining"])
    st.score = list(view["scores"]) if view["scores"] is not None else [0] * n
    st.kary = view["damage_bonus"]
    st.px, st.xi, st.passes = None, 0, 0
    if "execution" in view:
        st.px = [None] * n
        for q, public in view["execution"]:
            st.px[q] = _participant(public)
        st.passes = view["passes"]
        if st.merc_row and st.px[st.ml] is not None:
            _hired_mercs(st.px[st.ml], obs, history)
        if st.merc_row and not st.h2h:
            st.ml_share = ml_share(st)
        pending = obs["pending"]
        # Whoever decides during Execution is, but for a reaction, the one stepping.
        if pending and pending[1] in st.participants:
            st.xi = st.participants.index(pending[1])


def _outcome(last: dict[str, Any] | None) -> tuple[list[int], list[int], bool]:
    """Who completed and who failed the last contract, as its end recorded them."""
    if last is None:
        return [], [], False
    parts = last["participants"]
    if last["scores"] is not None:  # Head to Head
        first, second = last["first"], last["second"]
        completed = [first] if first is not None else []
        return completed, [s for s in parts if s not in (first, second)], first is not None
    if last["success"]:
        return list(parts), [], True
    return [], list(parts), False


def _hired_mercs(px: PX, obs: dict[str, Any], history: list[dict[str, Any]]) -> None:
    """The Mission Leader's Mercenaries hired on this contract: the emptied row slots.

    Which card a slot held is in the latest earlier observation of this turn that showed
    it; without one the slot counts as a basic card (12 of the 15 Merc cards are).
    """
    for index, card in enumerate(obs["mercs"]):
        if card is not None:
            continue
        was = None
        for earlier in reversed(history):
            if earlier["turn"] != obs["turn"]:
                break
            if earlier["mercs"][index] is not None:
                was = earlier["mercs"][index]
                break
        px.cards += 1
        if was in CREW:
            px.merc_prestige += 1
        else:
            px.merc_basic += 1
            px.merc_credits += px.merc_basic


def _participant(public: dict[str, Any]) -> PX:
    """A participant's bookkeeping: the public part as shown, the rest recounted."""
    px = PX()
    px.actions = public["actions"]
    px.played = list(public["played"])
    px.dice = list(public["dice"])
    px.blocked = public["blocked"]
    px.dmg = public["damage"]
    px.used = set(public["used"])
    px.block_eff = min(px.blocked, sum(px.dice))
    px.rolled = len(px.dice)
    px.steps = px.cards = len(px.played)
    for card in px.played:
        kind = ACTION.get(card)
        cat = kind.cat if kind is not None else "C"
        px.n[cat] = px.n.get(cat, 0) + 1
        px.last_cat = cat
        if card == "R":
            px.basic_r += 1
        if cat == "D":
            px.dkinds.add(card)
            px.dmg_seen = True
        if cat == "S":
            px.shield_seen = True
        if cat == "R":
            px.react_seen = True
        if card in ADVANCED_KINDS:
            px.advkinds.add(card)
        if card in CREW and CREW[card].io:
            px.io_played.append(card)
    return px


# ----- what this seat cannot see -----------------------------------------------------------


def _take(pool: list[str], count: int, rng: random.Random) -> list[str]:
    """`count` cards drawn uniformly from `pool` (removed from it)."""
    rng.shuffle(pool)
    taken = pool[len(pool) - count :] if count else []
    del pool[len(pool) - count :]
    return taken


class _Recollection:
    """What this seat's earlier observations told it: per player, the most of each card
    any one of them showed it with; the contracts attempted, in order; the objectives
    this seat put back under the Objective deck, in order."""

    def __init__(self, n: int) -> None:
        self.cards: list[Counter[str]] = [Counter() for _ in range(n)]
        self.attempted: list[str] = []
        self.mine: set[str] = set()
        self.returned: list[str] = []

    def copy(self) -> _Recollection:
        other = _Recollection(0)
        other.cards = [Counter(c) for c in self.cards]
        other.attempted = list(self.attempted)
        other.mine = set(self.mine)
        other.returned = list(self.returned)
        return other

    def read(self, obs: dict[str, Any], seat: int) -> None:
        mine = set(obs["objectives"]) | set(obs["objective_choices"])
        claimed = {o for p in obs["players"] for o in p["claimed"]}
        # Kept or claimed objectives stay known; one that left this seat's hand otherwise
        # went to the bottom of the deck (set-up drop, Stay at Base).
        for objective in sorted(self.mine - mine - claimed):
            if objective in self.returned:
                self.returned.remove(objective)
            self.returned.append(objective)
        self.mine = mine
        for q, cards in enumerate(self.cards):
            cards |= _player_cards(obs, q, seat)
        last = obs["last_contract"]
        for attempted in (obs["contract"], last):
            cid = (
                attempted["id" if attempted is obs["contract"] else "contract"]
                if attempted
                else None
            )
            if cid is not None and (not self.attempted or self.attempted[-1] != cid):
                if cid in self.attempted:
                    self.attempted.remove(cid)
                self.attempted.append(cid)


# Per history list (held, so its id stays its own): how many observations were read and
# what they told. A bot appends to one list for a whole game and asks for many worlds
# per decision; this keeps each world's cost independent of the game's length. Assumes
# the list only grows by appending.
_HISTORY_CACHE: dict[tuple[int, int], tuple[list[Any], int, _Recollection]] = {}
_HISTORY_CACHE_SIZE = 16


def _recall(history: list[Any], seat: int, n: int) -> _Recollection:
    key = (id(history), seat)
    hit = _HISTORY_CACHE.get(key)
    if hit is not None and hit[0] is history and hit[1] <= len(history):
        start, memory = hit[1], hit[2].copy()
    else:
        start, memory = 0, _Recollection(n)
    for earlier in history[start:]:
        memory.read(earlier, seat)
    if key not in _HISTORY_CACHE and len(_HISTORY_CACHE) >= _HISTORY_CACHE_SIZE:
        del _HISTORY_CACHE[next(iter(_HISTORY_CACHE))]
    _HISTORY_CACHE[key] = (history, len(history), memory.copy())
    return memory


def _player_cards(obs: dict[str, Any], q: int, seat: int) -> Counter[str]:
    """The cards of player `q` that `seat`'s observation `obs` shows."""
    p = obs["players"][q]
    cards = Counter(c for c, _ in p["in_play"])
    for who, px in (obs["contract"] or {}).get("execution", []):
        if who == q:
            cards.update(px["played"])
    if q == seat:
        for zone in ("hand", "discard", "looking", "draw_top"):
            cards.update(obs[zone])
    else:
        cards.update(p["known_hand"])
        cards.update(p["draw_top_known"])
        if p["discard_top"] is not None:
            cards[p["discard_top"]] += 1
    return cards


def _deal_hidden(
    st: MoonrakersState,
    obs: dict[str, Any],
    seat: int,
    rng: random.Random,
    history: list[dict[str, Any]],
) -> None:
    n = st.num_players
    sets = ("base", "overload") if st.ovl else ("base",)
    view = obs["contract"]

    memory = _recall(history, seat, n)
    memory.read(obs, seat)
    # Contracts: the discard pile holds the latest ones attempted that this seat
    # saw; the rest of it and the deck share the others uniformly.
    contracts = [c for c in ids_for(sets, CONTRACTS) if n > 2 or CONTRACTS[c].mode != "h2h"]
    shown = {c for c in st.row if c is not None} | ({view["id"]} if view else set())
    pool = [c for c in contracts if c not in shown]
    discard_size = min(obs["contract_discard"], len(pool))
    recent = [c for c in memory.attempted if c not in shown][::-1][:discard_size]
    pool = [c for c in pool if c not in recent]
    st.cdiscard = _take(pool, discard_size - len(recent), rng) + recent[::-1]
    st.cdeck = _take(pool, min(obs["contract_deck"], len(pool)), rng)
    st.cmask = [0] * len(st.cdeck)

    # Ship Parts are installed, in the Armory or in the deck.
    seen_parts = {p for parts in st.parts for p in parts} | set(st.armory_parts)
    pool = [p for p in ids_for(sets, PARTS) if p not in seen_parts]
    st.part_deck = _take(pool, min(obs["part_deck"], len(pool)), rng)
    st.part_mask = [0] * len(st.part_deck)

    # Each player's cards: what this observation shows, and what it holds unseen as far
    # as this seat can tell (its cards seen in earlier observations, its starting deck).
    shown_now = [_player_cards(obs, q, seat) for q in range(n)]
    owned = memory.cards
    for q in range(n):
        owned[q] |= Counter(STARTING_DECK) | shown_now[q]
    unseen_owned = [owned[q] - shown_now[q] for q in range(n)]
    seen: Counter[str] = Counter()
    for q in range(n):
        seen.update(shown_now[q])
        seen.update(unseen_owned[q])
    seen.update(c for c in st.armory_crew if c is not None)
    seen.update(c for c in st.merc_row if c is not None)

    crew_pool = [c for c in ids_for(sets, CREW) if not seen[c]]
    merc_crew = 0
    if n <= 2:
        # the Mercenary deck is its basic cards and 3 crew (no IO crew with Overload);
        # the face-up ones are the row.
        row_crew = sum(1 for c in st.merc_row if c in CREW)
        merc_crew = max(0, MERC_CREW - row_crew)
        basics = Counter(MERC_BASIC) - Counter(c for c in st.merc_row if c in ACTION)
        candidates = [c for c in crew_pool if not (st.ovl and CREW[c].io)]
        chosen = _take(candidates, min(merc_crew, len(candidates)), rng)
        for c in chosen:
            crew_pool.remove(c)
        st.merc_deck = list(basics.elements()) + chosen
        rng.shuffle(st.merc_deck)
    else:
        st.merc_deck = []
    st.merc_mask = [0] * len(st.merc_deck)
    st.crew_deck = _take(crew_pool, min(obs["crew_deck"], len(crew_pool)), rng)
    st.crew_mask = [0] * len(st.crew_deck)

    _deal_objectives(st, obs, seat, rng, memory.returned)
    spare = list(crew_pool)
    if st.adv is not None:
        for kind in ADVANCED_KINDS:
            spare.extend([kind] * max(0, ADVANCED_PER_KIND - st.adv[kind] - seen[kind]))
    _deal_piles(st, obs, seat, rng, unseen_owned, spare)


def _deal_objectives(
    st: MoonrakersState,
    obs: dict[str, Any],
    seat: int,
    rng: random.Random,
    returned: list[str],
) -> None:
    """Other players' objectives and the deck from the objectives this seat does not
    know; those it put back lie at the bottom of the deck, the latest lowest."""
    players = obs["players"]
    sets = ("base", "overload") if st.ovl else ("base",)
    known = set(obs["objectives"]) | set(obs["objective_choices"])
    for p in players:
        known.update(p["claimed"])
    # Once the deck is smaller, the earliest ones put back have been drawn again.
    bottom = [o for o in returned if o not in known][::-1][: obs["objective_deck"]]
    pool = [o for o in ids_for(sets, OBJECTIVES) if o not in known and o not in bottom]
    st.objs, st.obj_pick = [], []
    for q, p in enumerate(players):
        if q == seat:
            st.objs.append(list(obs["objectives"]))
            st.obj_pick.append(list(obs["objective_choices"]))
        else:
            st.objs.append(_take(pool, p["objectives_held"], rng))
            st.obj_pick.append(_take(pool, p["objectives_choosing"], rng))
    above = _take(pool, min(obs["objective_deck"] - len(bottom), len(pool)), rng)
    st.obj_deck = bottom + above
    st.obj_mask = [1 << seat] * len(bottom) + [0] * len(above)


def _deal_piles(
    st: MoonrakersState,
    obs: dict[str, Any],
    seat: int,
    rng: random.Random,
    unseen_owned: list[Counter[str]],
    spare: list[str],
) -> None:
    """Hands, draw piles, discard piles and looked-at cards.

    Each player's hidden places get what it is thought to hold unseen (`unseen_owned`),
    trimmed at random when that is too much (cards trashed or given away since); what is
    still missing comes from `spare` (crew nowhere else, Advanced cards gone from the
    supply), then from starting-deck cards.
    """
    players = obs["players"]
    pools: list[list[str]] = []
    short = 0
    for q, p in enumerate(players):
        if q == seat:
            slots = p["draw_size"] - len(obs["draw_top"])
        else:
            slots = (
                p["hand_size"]
                - len(p["known_hand"])
                + p["looking_size"]
                + max(0, p["discard_size"] - 1)
                + p["draw_size"]
                - len(p["draw_top_known"])
            )
        pool = list(unseen_owned[q].elements())
        if len(pool) > slots:
            _take(pool, len(pool) - slots, rng)
        short += slots - len(pool)
        pools.append(pool)
    # Deal the missing cards to the short pools, one card to a uniformly chosen gap.
    fill = _take(spare, min(short, len(spare)), rng)
    while len(fill) < short:
        fill.append(STARTING_DECK[rng.randrange(len(STARTING_DECK))])
    rng.shuffle(fill)
    st.hand, st.looking, st.discard, st.draw = [], [], [], []
    for q, p in enumerate(players):
        pool = pools[q]
        if q == seat:
            need = p["draw_size"] - len(obs["draw_top"])
            pool.extend(fill.pop() for _ in range(need - len(pool)))
            rng.shuffle(pool)
            st.hand.append(list(obs["hand"]))
            st.looking.append(list(obs["looking"]))
            st.discard.append(list(obs["discard"]))
            st.draw.append(pool + list(reversed(obs["draw_top"])))
            continue
        n_hand = p["hand_size"] - len(p["known_hand"])
        n_under = max(0, p["discard_size"] - 1)
        n_draw = p["draw_size"] - len(p["draw_top_known"])
        need = n_hand + p["looking_size"] + n_under + n_draw
        pool.extend(fill.pop() for _ in range(need - len(pool)))
        rng.shuffle(pool)
        st.hand.append(list(p["known_hand"]) + _take(pool, n_hand, rng))
        st.looking.append(_take(pool, p["looking_size"], rng))
        top_card = [p["discard_top"]] if p["discard_top"] is not None else []
        st.discard.append(_take(pool, n_under, rng) + top_card)
        st.draw.append(pool + list(reversed(p["draw_top_known"])))
