"""Moonrakers determinisation: redeal what one seat cannot see (for search bots)."""

from __future__ import annotations

import random

from engine.games.moonrakers.cards import ALL
from engine.games.moonrakers.table import Table


def redeal(c: Table, seat: int, rng: random.Random) -> None:
    """Shuffle, in `c` (a copy the state made), everything `seat` cannot see among its
    possible places."""
    bit = 1 << seat
    # Face-down decks: shuffle every position `seat` does not know.
    for deck, mask in (
        (c.cdeck, c.cmask),
        (c.crew_deck, c.crew_mask),
        (c.part_deck, c.part_mask),
        (c.merc_deck, c.merc_mask),
    ):
        _shuffle_unknown(deck, mask, bit, rng)
    # Objectives: the unknown deck positions and other seats' secret objectives.
    pool: list[str] = []
    slots = [i for i, m in enumerate(c.obj_mask) if m != ALL and not m & bit]
    pool.extend(c.obj_deck[i] for i in slots)
    for q in range(c.num_players):
        if q != seat:
            pool.extend(c.objs[q])
            pool.extend(c.obj_pick[q])
    rng.shuffle(pool)
    for i in slots:
        c.obj_deck[i] = pool.pop()
    for q in range(c.num_players):
        if q != seat:
            c.objs[q] = [pool.pop() for _ in c.objs[q]]
            c.obj_pick[q] = [pool.pop() for _ in c.obj_pick[q]]
    # Hands, draw piles and looked-at cards.
    for q in range(c.num_players):
        draw = c.draw[q]
        if q == seat:
            keep = c.top_known[q]
            rest = draw[: len(draw) - keep] if keep else draw[:]
            rng.shuffle(rest)
            c.draw[q] = rest + (draw[len(draw) - keep :] if keep else [])
            continue
        keep = c.top_public[q]
        fixed_top = draw[len(draw) - keep :] if keep else []
        cards = draw[: len(draw) - keep] if keep else list(draw)
        hidden_hand = list(c.hand[q])
        for k in c.known[q]:
            hidden_hand.remove(k)
        cards.extend(hidden_hand)
        cards.extend(c.looking[q])
        # Only the top card of another player's discard pile is seen.
        disc = c.discard[q]
        cards.extend(disc[:-1])
        rng.shuffle(cards)
        n_hand = len(hidden_hand)
        n_look = len(c.looking[q])
        n_disc = max(0, len(disc) - 1)
        c.hand[q] = list(c.known[q]) + cards[:n_hand]
        c.looking[q] = cards[n_hand : n_hand + n_look]
        c.discard[q] = cards[n_hand + n_look : n_hand + n_look + n_disc] + disc[-1:]
        c.draw[q] = cards[n_hand + n_look + n_disc :] + fixed_top
    c.rng = random.Random(rng.getrandbits(64))
    c.cur_opts = None
    c._legal_cache = None


def _shuffle_unknown(deck: list[str], mask: list[int], bit: int, rng: random.Random) -> None:
    slots = [i for i, m in enumerate(mask) if m != ALL and not m & bit]
    if len(slots) < 2:
        return
    cards = [deck[i] for i in slots]
    rng.shuffle(cards)
    for i, card in zip(slots, cards, strict=True):
        deck[i] = card
