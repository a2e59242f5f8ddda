"""One Moon-Bots robot: its board, energy, installed cards and secret weapons.

A plain mutable object with `__slots__` and a hand-written `copy`, because
states are cloned by search bots and resampled by tests.
"""

from __future__ import annotations

from typing import Any

from engine.games.moon_bots.cards import (
    BOARD,
    BOARDS,
    CARDS,
    CATEGORY,
    KEY,
    PART,
    RULES,
    SECRET,
    SLOT_INDEX,
    SLOTS,
    UPGRADE,
    Ability,
)

FIST_I, MISSILE_I = 0, 1  # index of a hit type in `bonus` / `protection`
HIT_TYPES = ("fist", "missile")


class Robot:
    __slots__ = (
        "owner",
        "board",
        "energy",
        "alive",
        "parts",
        "upgrades",
        "extra_dice",
        "reroll",
        "bonus",
        "protection",
        "secrets",
        "out_event",
        "activators",
    )

    def __init__(self, owner: int, board: int, energy: int) -> None:
        self.owner = owner
        self.board = board  # 1..4: decides the built-in ability
        self.energy = energy
        self.alive = True
        self.parts = [-1] * len(SLOTS)  # card id per slot, -1 = empty
        self.upgrades: list[int] = []
        self.extra_dice = 0
        self.reroll = False
        self.bonus = [0, 0]  # fist, missile attack bonus
        self.protection = [0, 0]  # fist, missile protection
        self.secrets: list[int] = []  # card ids of held secret weapons
        self.out_event = -1  # elimination event number, -1 while alive
        # (slot index, action name, dice needed, accepted values or value pairs) for
        # every installed part and the board, in slot order: the assign step's table.
        self.activators: list[tuple[int, str, int, tuple[Any, ...]]] = []
        self._index_activators()

    def copy(self) -> Robot:
        new = Robot.__new__(Robot)
        new.owner = self.owner
        new.board = self.board
        new.energy = self.energy
        new.alive = self.alive
        new.parts = self.parts[:]
        new.upgrades = self.upgrades[:]
        new.extra_dice = self.extra_dice
        new.reroll = self.reroll
        new.bonus = self.bonus[:]
        new.protection = self.protection[:]
        new.secrets = self.secrets[:]
        new.out_event = self.out_event
        new.activators = self.activators
        return new

    def _index_activators(self) -> None:
        table = []
        for s, card in enumerate(self.parts):
            if card >= 0:
                table.append(_activator(s, SLOTS[s], CARDS[card].ability))
        table.append(_activator(len(SLOTS), BOARD, BOARDS[self.board]))
        self.activators = table  # replaced, never mutated: copies may share it

    @property
    def board_ability(self) -> Ability:
        return BOARDS[self.board]

    @property
    def dice_count(self) -> int:
        return RULES.start_dice + self.extra_dice

    def has_upgrade(self, key: str) -> bool:
        return any(KEY[u] == key for u in self.upgrades)

    def can_take(self, card: int) -> bool:
        """May this card be added (parts: free slot; upgrades: limits; weapons: always)?"""
        category = CATEGORY[card]
        if category == PART:
            return self.parts[SLOT_INDEX[card]] < 0
        if category == UPGRADE:
            if len(self.upgrades) >= RULES.max_upgrades:
                return False
            if KEY[card] == "extra_die":
                return self.extra_dice < RULES.max_extra_dice
            return not self.has_upgrade(KEY[card])
        return True

    def install(self, card: int) -> None:
        category = CATEGORY[card]
        if category == PART:
            self.parts[SLOT_INDEX[card]] = card
            self._index_activators()
        elif category == SECRET:
            self.secrets.append(card)
        else:
            self.upgrades.append(card)
            key = KEY[card]
            if key == "extra_die":
                self.extra_dice += 1
            elif key == "reroll":
                self.reroll = True
            elif key == "fist_bonus":
                self.bonus[FIST_I] = 1
            elif key == "missile_bonus":
                self.bonus[MISSILE_I] = 1
            elif key == "fist_protection":
                self.protection[FIST_I] = 1
            elif key == "missile_protection":
                self.protection[MISSILE_I] = 1

    def secret_index(self, kind: str) -> int:
        for index, card in enumerate(self.secrets):
            if KEY[card] == kind:
                return index
        return -1

    def secret_kinds(self) -> list[str]:
        return sorted(KEY[c] for c in self.secrets)


def _activator(s: int, name: str, ability: Ability | None) -> tuple[int, str, int, tuple[Any, ...]]:
    assert ability is not None
    if ability.condition.dice == 1:
        return (s, name, 1, ability.condition.values)
    return (s, name, 2, ability.pairs)
