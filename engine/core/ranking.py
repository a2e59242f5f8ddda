"""Turning per-seat sort keys into ranks, where ties share a rank."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def ranks_from_keys(keys: Sequence[Any]) -> list[int]:
    """Competition ranking ("1224"): a higher key is better, equal keys share a rank."""
    order = sorted(range(len(keys)), key=lambda seat: keys[seat], reverse=True)
    ranks = [0] * len(keys)
    for position, seat in enumerate(order):
        if position and keys[seat] == keys[order[position - 1]]:
            ranks[seat] = ranks[order[position - 1]]
        else:
            ranks[seat] = position + 1
    return ranks
