"""How many ladder matches to keep queued + running (pure: numbers in, numbers out).

The ladder fills spare worker capacity, and only that: Redis should never hold a backlog
of ladder matches picked from stale ratings. The target per worker slot is what a slot
plays until the scheduler's next tick, plus one waiting (at least PER_SLOT): with 2 slots,
a tick of 5 s and matches of 0.5 s, 2 x (10 + 1) = 22. So the queue never holds more than
about one tick of ladder work, and a slot never idles while the scheduler sleeps. The
depth is shared between the games whose ladders are running; a ladder may always hold
one table's set, or it could never play.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

# Matches per worker slot at least: one running and about one waiting for it.
PER_SLOT = 2.0
# And at most, whatever the matches' length: a bound on the backlog.
MAX_PER_SLOT = 50.0


def auto_depth(
    capacity: int,
    per_slot: float = PER_SLOT,
    tick_seconds: float | None = None,
    match_seconds: float | None = None,
) -> int:
    """The whole ladder's depth for `capacity` worker slots (pool processes).

    With the scheduler's tick and the recent mean match length, a slot gets what it can
    play in one tick, plus one; without them (no match played yet), `per_slot`.
    """
    slot = per_slot
    if tick_seconds and match_seconds and match_seconds > 0:
        slot = max(per_slot, min(MAX_PER_SLOT, math.ceil(tick_seconds / match_seconds) + 1))
    return max(1, math.ceil(max(0, capacity) * slot))


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
