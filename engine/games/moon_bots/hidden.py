"""Moon-Bots `resample_hidden`: a world that looks the same to one seat, the rest drawn again.

What a seat cannot identify: the 5 weapons removed unseen, face-down market and
discarded weapons, other players' weapons (held, or left unused by an
eliminated robot) and the pile's order below its top card's back. Parts and
upgrades in the pile are known by elimination, so only their order changes.

A Spare Part Search shows its player every weapon then in the pile. Every card
moves in public afterwards (drawn into the market, bought, discarded), so that
player knows which hidden places hold one of the weapons seen and which do not:
weapon identities are shuffled only among places of the same kind, which keeps
what the seat saw and re-deals the rest.
"""

from __future__ import annotations

import random

from engine.games.moon_bots.cards import IS_SECRET
from engine.games.moon_bots.moves import MoonBotsBase


def redeal(new: MoonBotsBase, seat: int, rng: random.Random) -> None:
    """Redeal, in `new` (a copy the state made), what `seat` cannot see."""
    places: list[tuple[list[int], int]] = [
        (pile, i) for pile in (new.removed_unseen, new.facedown_discard) for i in range(len(pile))
    ]
    places += [(new.market, s) for s, c in enumerate(new.market) if c >= 0 and IS_SECRET[c]]
    for rb in new.robots:
        if rb.owner != seat:
            places += [(rb.secrets, i) for i in range(len(rb.secrets))]
    places += [(new.deck, i) for i, c in enumerate(new.deck) if IS_SECRET[c]]
    seen = [set(cards) for owner, cards in new.searches if owner == seat]
    pools: dict[tuple[bool, ...], list[tuple[list[int], int]]] = {}
    for pile, i in places:
        card = pile[i]
        pools.setdefault(tuple(card in group for group in seen), []).append((pile, i))
    for where in pools.values():
        cards = [pile[i] for pile, i in where]
        rng.shuffle(cards)
        for (pile, i), card in zip(where, cards, strict=True):
            pile[i] = card
    deck = new.deck
    if deck:
        # Everyone sees the back of the top card: keep a card with the same back there.
        top_is_secret = IS_SECRET[deck[-1]]
        rng.shuffle(deck)
        for i in range(len(deck) - 1, -1, -1):
            if IS_SECRET[deck[i]] == top_is_secret:
                deck[i], deck[-1] = deck[-1], deck[i]
                break
    new.rng = random.Random(rng.getrandbits(64))
