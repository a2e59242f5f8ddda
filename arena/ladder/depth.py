"""How many ladder matches to keep queued + running (pure: numbers in, numbers out).

The ladder fills spare worker capacity, and only that: Redis should never hold a backlog
of ladder matches picked from stale ratings. The target is a few matches per worker slot
(one playing, one or two waiting, so a slot never idles while the scheduler sleeps),
shared between the games whose ladders are running. A ladder may always hold one table's
set, or it could never play.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

# Matches per worker slot: one running and about one waiting for it.
PER_SLOT = 2.0


def auto_depth(capacity: int, per_slot: float = PER_SLOT) -> int:
    """The whole ladder's depth for `capacity` worker slots (pool processes)."""
    return max(1, math.ceil(max(0, capacity) * per_slot))


def split_depth(total: int, smallest_tables: Mapping[str, int]) -> dict[str, int]:
    """Share `total` between running ladders, each at least its smallest table size."""
    if not smallest_tables:
        return {}
    share, extra = divmod(total, len(smallest_tables))
    return {
        game: max(smallest, share + (1 if index < extra else 0))
        for index, (game, smallest) in enumerate(sorted(smallest_tables.items()))
    }


def room(target: int, in_flight: int) -> int:
    """Matches the scheduler may add now: never more than the target allows."""
    return max(0, target - in_flight)
